import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    globalSetup: ['./server.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser journey at a time: the machine has two cores and the server needs one.
    fileParallelism: false,
    // What a page shows after a data call, waited for as a person would (5 s), not the default 1 s:
    // on a shared 2-core machine a first page under the browser's own start took longer now and then.
    expect: { poll: { timeout: 5000 } },
  },
});
