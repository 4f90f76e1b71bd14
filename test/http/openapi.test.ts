// Scenario: /openapi.json is an OpenAPI 3.1 document labelled 1.0.0 that describes every route the
// app really serves, with the API-key scheme on every route but the public ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { registeredRoutes } from '../support/routes.ts';
import { rawRequest, startTestServer, type TestServer } from '../support/server.ts';

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
  summary?: string;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown>; parameters: Record<string, unknown>; headers: Record<string, unknown> };
}

const PUBLIC = new Set(['/health', '/openapi.json', '/docs', '/console']);
let server: TestServer;
let doc: Document;
beforeAll(async () => {
  server = await startTestServer();
  const response = await server.get('/openapi.json', { key: null });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await response.json()) as Document;
});
afterAll(async () => { await server.close(); });

function operations(): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, Operation]));
}

function refs(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, into));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else refs(value, into);
    }
  }
  return into;
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with the interface label 1.0.0, distinct from the running version', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toBe('Airline Disruption Recovery Service');
    expect(packageJson.version).not.toBe('1.0.0');
  });

  it('is served with a strong ETag, 304 to a client that holds it, the same bytes to every request', async () => {
    const first = await server.get('/openapi.json', { key: null });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(await first.json()).toEqual(doc);
    const again = await server.get('/openapi.json', { key: null, headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(doc.paths['/openapi.json']!.get!.responses['304']).toBeDefined();
  });

  it('documents every route the app serves, and nothing it does not', () => {
    const served = new Set(registeredRoutes(server.app).map((r) => `${r.method === 'ALL' ? 'GET' : r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`));
    const documented = new Set(operations().map(([path, method]) => `${method.toUpperCase()} ${path}`));
    expect(documented).toEqual(served);
    for (const expected of ['GET /health', 'GET /flights', 'GET /flights/{schedule_file}', 'GET /snapshot', 'GET /openapi.json', 'GET /docs']) {
      expect(documented).toContain(expected);
    }
  });

  it('declares the ApiKeyAuth scheme and requires it on every non-public operation only', () => {
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    for (const [path, method, op] of operations()) {
      if (PUBLIC.has(path)) {
        expect(op.security ?? [], `${method} ${path}`).toEqual([]);
        expect(op.responses['401'], `${method} ${path}`).toBeUndefined();
      } else {
        expect(op.security, `${method} ${path}`).toEqual([{ ApiKeyAuth: [] }]);
        expect(op.responses['401'], `${method} ${path}`).toBeDefined();
        expect(op.responses['403'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('is internally consistent: refs resolve, path parameters are declared, responses have descriptions', () => {
    for (const ref of refs(doc)) {
      const match = /^#\/components\/(schemas|securitySchemes|parameters|headers)\/(.+)$/.exec(ref);
      expect(match, ref).not.toBeNull();
      expect(doc.components[match![1] as 'schemas'][match![2]!], ref).toBeDefined();
    }
    for (const [path, method, op] of operations()) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), `${method} ${path}`).toEqual(templated.sort());
      for (const p of op.parameters ?? []) if (p.in === 'path') expect(p.required).toBe(true);
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        expect(response.description.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
      }
      expect(op.responses['500']).toBeDefined();
    }
  });

  it('documents the parameters and errors of the data routes from the same schemas that validate them', () => {
    const flights = doc.paths['/flights/{schedule_file}']!.get!;
    expect(flights.parameters!.filter((p) => p.in !== undefined).map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:schedule_file', 'query:airline']);
    expect(flights.responses['404']).toBeDefined();
    expect(flights.responses['400']).toBeDefined();
    const snapshot = doc.paths['/snapshot']!.get!;
    expect(snapshot.parameters!.filter((p) => p.in !== undefined).map((p) => p.name).sort()).toEqual(['airline', 'from', 'schedule_file', 'to']);
    expect(JSON.stringify(flights.parameters!.find((p) => p.name === 'airline')!.schema)).toContain('^[A-Z0-9]{2}$');
    const error = doc.components.schemas.Error as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(error.properties)).toEqual(['detail']);
    expect(error.required).toEqual(['detail']);
    for (const name of ['FlightListResponse', 'FlightSummary', 'SnapshotResponse', 'HealthResponse']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });
});

describe('GET /docs', () => {
  it('redirects /docs to /docs/ and renders swagger-ui pointing at /openapi.json without a key', async () => {
    const redirect = await fetch(`${server.baseUrl}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(new URL(redirect.headers.get('location')!, `${server.baseUrl}/docs`).pathname).toBe('/docs/');
    const page = await server.get('/docs/', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const init = await (await server.get('/docs/swagger-ui-init.js', { key: null })).text();
    expect(new URL(/"swaggerUrl": "([^"]+)"/.exec(init)![1]!, `${server.baseUrl}/docs/`).pathname).toBe('/openapi.json');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png']) {
      expect((await server.get(`/docs/${asset}`, { key: null })).status, asset).toBe(200);
    }
    expect(await page.text()).toMatch(/href="\.\/swagger-ui\.css"[\s\S]*src="\.\/swagger-ui-bundle\.js"/);
  });

  it('serves nothing else below /docs: other files and traversal attempts are the JSON 404', async () => {
    for (const path of ['/docs/index.html', '/docs/package.json', '/docs/swagger-initializer.js', '/docs/swagger-ui.js.map',
      '/docs/../flights', '/docs/%2e%2e/flights', '/docs/..%2Fflights', '/docs//flights', '/docs/../../etc/passwd']) {
      const response = await rawRequest(server.baseUrl, 'GET', path);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body), path).toEqual({ detail: 'Not found' });
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });
});
