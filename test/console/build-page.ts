// vitest globalSetup of the console tests: build the page once (what `npm start` does through its
// prestart script), so the tests run against the page as it ships.
import { build } from 'vite';

/** Set on the main process once built: two projects (console, console-timing) name this setup, and vitest runs each project's. */
const BUILT = Symbol.for('drs.console-page-built');

export default async function buildPage(): Promise<void> {
  const main = globalThis as { [BUILT]?: boolean };
  if (main[BUILT]) return;
  await build({ configFile: new URL('../../console/vite.config.ts', import.meta.url).pathname, logLevel: 'warn' });
  main[BUILT] = true;
}
