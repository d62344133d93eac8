import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    globalSetup: ['./server.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser journey at a time: the machine has two cores and the server needs one.
    fileParallelism: false,
  },
});
