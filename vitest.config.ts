import { defineConfig } from 'vitest/config';

const BESIDE_A_HOG = ['test/http/storm.test.ts', 'test/http/bounds-under-load.test.ts'];
/** The console's timing test: its frames are measured, so it runs with nothing beside it. */
const CONSOLE_TIMING = ['test/console/large-schedule.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // HTTP tests start real servers and some spawn the service; the machine is small and shared.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    projects: [
      // Every answer a service test receives over fetch is checked against the OpenAPI document.
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: ['test/console/**', ...BESIDE_A_HOG], setupFiles: ['test/support/contract-setup.ts'] } },
      {
        extends: true,
        test: {
          // The tests that start a CPU hog of their own to prove an answer under load: alone, one file
          // at a time, after the others, so that their load is the one they state (two of them at once,
          // beside the rest of the suite, left a 2 s storm without any plan).
          name: 'beside-a-hog',
          include: BESIDE_A_HOG,
          setupFiles: ['test/support/contract-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          // The console's browser tests: the page is built once for all of them, and a real browser
          // against a real solver takes longer than an HTTP call. They run beside the service tests:
          // alone, one at a time after everything else, they kept one core idle for about 2 minutes of
          // CI (the five files took 148 s at about a third of the two cores, load average 15).
          name: 'console',
          include: ['test/console/**/*.test.ts'],
          exclude: CONSOLE_TIMING,
          globalSetup: ['test/console/build-page.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // The large-schedule timing must not share the cores with a simulation: alone, at the end,
          // after the tests beside a hog (a project without a group order runs in group 0, beside the
          // service tests: one fresh-clone CI run had the 10 s storm beside a hog end without a plan).
          name: 'console-timing',
          sequence: { groupOrder: 2 },
          include: CONSOLE_TIMING,
          globalSetup: ['test/console/build-page.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
