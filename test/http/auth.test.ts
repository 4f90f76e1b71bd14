// Scenario: only /health, /openapi.json and /docs answer without a key; every other route that the app
// has registered (found by walking Express's router, so a route added later is covered too) answers
// 401 without a key and 403 with a wrong one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyVerifier, hashApiKey } from '../../src/security/api-keys.ts';
import { createApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';
import { concretePath, registeredRoutes } from '../support/routes.ts';
import {
  PRODUCTION_KEY, SECOND_STAGING_KEY, STAGING_KEY, TEST_ENV, bundledCatalog, startTestServer, type TestServer,
} from '../support/server.ts';

const MISSING = { detail: "Missing API key. Include 'X-API-Key' header." };
const INVALID = { detail: 'Invalid API key' };
const PUBLIC = new Set(['/health', '/openapi.json', '/docs', '/console']);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    // A module that registers a route the raw Express way, bypassing the route builder, as a careless
    // future change might: it must still need a key.
    extraEndpoints: [(api) => {
      api.router.get('/raw-added', (_req, res) => { res.json({ secret: true }); });
      api.router.post('/raw-added-post', (_req, res) => { res.json({ secret: true }); });
    }],
  });
});
afterAll(async () => { await server.close(); });

async function call(method: string, path: string, key: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers['X-API-Key'] = key;
  return fetch(`${server.baseUrl}${path}`, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }) });
}

describe('route enumeration', () => {
  const routes = () => registeredRoutes(server.app);

  it('finds the routes the interface defines (so the enumeration cannot silently find nothing)', () => {
    const found = routes().map((r) => `${r.method} ${r.path}`);
    for (const expected of ['GET /health', 'GET /flights', 'GET /flights/:schedule_file', 'GET /snapshot', 'GET /openapi.json', 'GET /raw-added', 'POST /raw-added-post', 'ALL /docs']) {
      expect(found).toContain(expected);
    }
  });

  it('every registered route outside the public allowlist answers 401 without a key and 403 with a wrong key', async () => {
    const protectedRoutes = routes().filter((r) => !PUBLIC.has(r.path));
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(5);
    for (const route of protectedRoutes) {
      const method = route.method === 'ALL' ? 'GET' : route.method;
      const path = concretePath(route.path);
      const missing = await call(method, path, null);
      expect(missing.status, `${method} ${path} without key`).toBe(401);
      expect(await missing.json()).toEqual(MISSING);
      const empty = await call(method, path, '');
      expect(empty.status, `${method} ${path} with empty key`).toBe(401);
      const wrong = await call(method, path, 'not-a-key');
      expect(wrong.status, `${method} ${path} with wrong key`).toBe(403);
      expect(await wrong.json()).toEqual(INVALID);
    }
  });

  it('the public routes answer without a key', async () => {
    for (const path of ['/health', '/openapi.json', '/docs/']) {
      expect((await call('GET', path, null)).status, path).toBe(200);
    }
    // The console page (200 once built, test/console builds it; 404 with a sentence before): never 401.
    expect([200, 404], '/console/').toContain((await call('GET', '/console/', null)).status);
  });

  it('spellings of a public path that are not the path itself are not public', async () => {
    for (const path of ['/Health', '/health/', '/HEALTH', '/Console/', '/consoles']) {
      const response = await call('GET', path, null);
      expect(response.status, path).not.toBe(200);
    }
  });
});

describe('keys', () => {
  it('any configured key of this environment is accepted', async () => {
    expect((await server.get('/flights', { key: STAGING_KEY })).status).toBe(200);
    expect((await server.get('/flights', { key: SECOND_STAGING_KEY })).status).toBe(200);
    expect((await call('GET', '/raw-added', STAGING_KEY)).status).toBe(200);
  });

  it('a key of another environment is 403 with the exact body', async () => {
    const response = await server.get('/flights', { key: PRODUCTION_KEY });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(INVALID);
  });

  it('a key that differs only by case, whitespace or a suffix is 403', async () => {
    for (const key of [STAGING_KEY.toUpperCase(), `${STAGING_KEY}x`, STAGING_KEY.slice(0, -1)]) {
      expect((await server.get('/flights', { key })).status).toBe(403);
    }
  });

  it('a key hash given as sha256:<hex> in API_KEYS is accepted, the hash text itself is not a key', async () => {
    const hashed = await startTestServer({ env: { API_KEYS: `sha256:${hashApiKey(STAGING_KEY).toString('hex')}` } });
    try {
      expect((await hashed.get('/flights', { key: STAGING_KEY })).status).toBe(200);
      expect((await hashed.get('/flights', { key: `sha256:${hashApiKey(STAGING_KEY).toString('hex')}` })).status).toBe(403);
    } finally {
      await hashed.close();
    }
  });

  it('the verifier checks all hashes, matching the last one as well as the first', () => {
    const verify = createKeyVerifier([hashApiKey('a'), hashApiKey('b'), hashApiKey('c')]);
    expect(verify('a')).toBe(true);
    expect(verify('c')).toBe(true);
    expect(verify('d')).toBe(false);
    expect(createKeyVerifier([])('a')).toBe(false);
  });
});

describe('keys never reach the logs', () => {
  it('neither a valid nor a wrong key appears in the captured log, and the header is shown redacted', async () => {
    const wrongKey = 'drs_staging_WRONG-secret-should-not-be-logged';
    await server.get('/flights', { key: STAGING_KEY });
    await server.get('/flights', { key: wrongKey });
    await server.get('/no-such-path', { key: STAGING_KEY });
    const text = server.logText();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(STAGING_KEY);
    expect(text).not.toContain(wrongKey);
    const shown = server.logLines()
      .map((l) => (l.req as { headers?: Record<string, string> } | undefined)?.headers?.['x-api-key'])
      .filter((value) => value !== undefined);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    expect(new Set(shown)).toEqual(new Set(['[Redacted]']));
  });

  it('a logger handed to createApp without redaction still does not log keys (pino-http redacts too)', async () => {
    const { pino } = await import('pino');
    const chunks: string[] = [];
    const bare = pino({ level: 'info' }, { write: (c: string) => { chunks.push(c); } });
    const { config } = loadConfig({ ...TEST_ENV });
    const app = createApp({ config, logger: bare, schedules: bundledCatalog() });
    const http = await import('node:http');
    const s = http.createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    const { port } = s.address() as { port: number };
    // The whole answer is read: the request is logged when its (compressed) body has been sent.
    await (await fetch(`http://127.0.0.1:${port}/flights`, { headers: { 'X-API-Key': STAGING_KEY } })).text();
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
    expect(chunks.join('')).toContain('/flights');
    expect(chunks.join('')).not.toContain(STAGING_KEY);
  });

  it('the error body of a wrong key never echoes the key', async () => {
    const key = 'drs_staging_echo-check-value';
    const body = await (await server.get('/flights', { key })).text();
    expect(body).not.toContain(key);
  });
});
