// vitest globalSetup of the console tests: build the page once (what `npm start` does through its
// prestart script), so the tests run against the page as it ships.
import { build } from 'vite';

export default async function buildPage(): Promise<void> {
  await build({ configFile: new URL('../../console/vite.config.ts', import.meta.url).pathname, logLevel: 'warn' });
}
