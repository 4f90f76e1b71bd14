import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // HTTP tests start real servers and some spawn the service; the machine is small and shared.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    projects: [
      // Every answer a service test receives over fetch is checked against the OpenAPI document.
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: ['test/console/**'], setupFiles: ['test/support/contract-setup.ts'] } },
      {
        extends: true,
        test: {
          // The console's browser tests: the page is built once for all of them, and a real browser
          // against a real solver takes longer than an HTTP call.
          name: 'console',
          include: ['test/console/**/*.test.ts'],
          globalSetup: ['test/console/build-page.ts'],
          // One file at a time: the large-schedule timing must not share the cores with a simulation.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
