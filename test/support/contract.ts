// The contract check of every answer the test suite receives: a wrapper of fetch (installed for every
// service test by test/support/contract-setup.ts) that validates each answer of this machine's test
// servers against the OpenAPI document, with ajv, a validator that shares no code with the service.
// An answer to a documented operation must have a documented status, and a JSON body (application/json
// or application/problem+json) must match the schema documented for it. A mismatch throws from fetch,
// so the test that received the answer fails where it asked.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadConfig } from '../../src/config.ts';
import { createApp, OPENAPI_DOCUMENT_LOCAL } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logging.ts';
import { bundledCatalog, TEST_ENV } from './server.ts';

interface Operation { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
interface Document { paths: Record<string, Record<string, Operation>> }

const DOCUMENT_ID = 'https://contract.test/openapi.json';

let checker: { document: Document; ajv: Ajv2020; routes: { method: string; pattern: RegExp; template: string }[] } | undefined;
const validators = new Map<string, ValidateFunction>();

/** The document the service serves, built in memory once per test file, and ajv over it. */
function contract(): NonNullable<typeof checker> {
  if (checker) return checker;
  const { config } = loadConfig({ ...TEST_ENV });
  const app = createApp({ config, logger: createLogger('silent'), schedules: bundledCatalog() });
  const document = JSON.parse(JSON.stringify(app.locals[OPENAPI_DOCUMENT_LOCAL])) as Document;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` and `discriminator` are annotations here.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object);
  const routes = Object.entries(document.paths).flatMap(([template, item]) => Object.keys(item).map((method) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  })));
  checker = { document, ajv, routes };
  return checker;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Throws when `response` (to `method` `url`) breaks the document; answers of other hosts or undocumented paths pass. */
export async function checkAgainstContract(method: string, url: string, response: Response): Promise<void> {
  const { hostname, pathname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') return;
  if (method === 'HEAD' || method === 'OPTIONS') return;
  const { document, ajv, routes } = contract();
  // Literal paths win over templates (/simulations/x/status over /simulations/{job_id}).
  const candidates = routes.filter((r) => r.method === method && r.pattern.test(pathname));
  const route = candidates.find((r) => !r.template.includes('{')) ?? candidates.sort((a, b) => a.template.split('{').length - b.template.split('{').length)[0];
  if (!route) return;
  const operation = document.paths[route.template]![method.toLowerCase()]!;
  const status = String(response.status);
  const documented = operation.responses[status];
  if (!documented) {
    throw new Error(`Contract: ${method} ${pathname} answered ${status}, which the document does not list for ${method} ${route.template} (it lists ${Object.keys(operation.responses).join(', ')}).`);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (contentType !== 'application/json' && contentType !== 'application/problem+json') return;
  if (!documented.content?.[contentType]) {
    throw new Error(`Contract: ${method} ${pathname} answered ${status} as ${contentType}, which the document does not list for it.`);
  }
  const ref = `${DOCUMENT_ID}#/${pointer('paths', route.template, method.toLowerCase(), 'responses', status, 'content', contentType, 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  const body: unknown = JSON.parse(await response.clone().text());
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`).join('; ');
    throw new Error(`Contract: the ${status} answer to ${method} ${pathname} breaks its documented schema: ${errors}`);
  }
}

/** fetch, then the contract check of the answer. */
export function contractFetch(original: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await original(input, init);
    const request = input instanceof Request ? input : null;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const url = request ? request.url : String(input);
    await checkAgainstContract(method, url, response);
    return response;
  };
}
