// `npm run client:generate`: the typed client's generated files, from the document the service serves.
//   clients/typescript/openapi.json   the document, as GET /openapi.json serves it
//   clients/typescript/schema.ts      its TypeScript types, by openapi-typescript
// Fields with a default are optional in the types (defaultNonNullable: false): a request may leave
// them out, and every answer's schema lists what it always has as required.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { readCommandLine } from './args.ts';
import { documentText, servedDocument } from './openapi.ts';

export const CLIENT_DIR = fileURLToPath(new URL('../../clients/typescript/', import.meta.url));

/** Writes openapi.json and schema.ts into `dir`; returns their paths. */
export async function generateClient(dir: string = CLIENT_DIR): Promise<string[]> {
  const document = servedDocument();
  const types = `${COMMENT_HEADER}${astToString(await openapiTS(JSON.parse(documentText(document)) as Parameters<typeof openapiTS>[0], { defaultNonNullable: false }))}`;
  mkdirSync(dir, { recursive: true });
  const paths = [join(dir, 'openapi.json'), join(dir, 'schema.ts')];
  writeFileSync(paths[0]!, documentText(document));
  writeFileSync(paths[1]!, types);
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  readCommandLine({
    command: 'npm run client:generate',
    usage: `Usage: npm run client:generate

Regenerates the typed client's files from the document the service serves: clients/typescript/openapi.json
and clients/typescript/schema.ts. Run it after any change of the interface and commit both; the test
suite fails while they are stale.
  --help                  this text`,
    options: {},
  });
  for (const path of await generateClient()) process.stderr.write(`wrote ${path}\n`);
}
