// `npm run openapi`: the OpenAPI document the service serves at /openapi.json, written without starting
// a server (the app is built in memory from the bundled schedules). `npm run client:generate` uses it.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.ts';
import { loadScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import { createApp, OPENAPI_DOCUMENT_LOCAL } from '../http/app.ts';
import { createLogger } from '../http/logging.ts';
import { readCommandLine } from './args.ts';

/** The document as GET /openapi.json serves it. */
export function servedDocument(): object {
  // The document depends on the routes alone, never on keys or the environment: a development
  // configuration with its throw-away key (never printed) builds the same document as production's.
  const { config } = loadConfig({ APP_ENV: 'development' });
  const schedules = loadScheduleCatalog(config.schedulesDir, config.defaultSchedule);
  const app = createApp({ config, logger: createLogger('silent'), schedules });
  return app.locals[OPENAPI_DOCUMENT_LOCAL] as object;
}

/** The document as the files of this repository keep it: two-space JSON and a final newline. */
export const documentText = (document: object) => `${JSON.stringify(document, null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = readCommandLine({
    command: 'npm run openapi',
    usage: `Usage: npm run openapi -- [--out FILE]

Writes the OpenAPI 3.1 document of the interface (as GET /openapi.json serves it) as JSON.
  --out FILE              write it to FILE instead of standard output
  --help                  this text`,
    options: { out: { type: 'string' } },
  });
  const text = documentText(servedDocument());
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
}
