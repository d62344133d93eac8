import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each server test file opens its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.pg.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Suites that need a real PostgreSQL server (races, crashes, several instances, outages):
        // `npm run test:postgres` runs them when one answers on 127.0.0.1:5432.
        test: {
          name: 'postgres',
          root: 'apps/server',
          include: ['src/**/*.pg.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts server processes of its own: one file at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
      {
        // The API is answered by MSW handlers (src/test/setup.ts): a request no test answers fails it.
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'], setupFiles: ['src/test/setup.ts'], environment: 'jsdom', passWithNoTests: true },
      },
    ],
  },
});
