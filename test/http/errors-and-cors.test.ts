// Scenario: the central error handler (exact bodies, statuses, no stacks), the JSON body rules every
// POST route gets, request ids, and the CORS allow/deny cases of contract.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import { z } from '../../src/http/openapi-zod.ts';
import { STAGING_KEY, rawRequest, startTestServer, type TestServer } from '../support/server.ts';

const EchoBody = z.strictObject({ count: z.number().int().min(0, 'must be at least 0'), label: z.string().optional() });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { BODY_LIMIT_BYTES: '256' },
    extraEndpoints: [(api) => api.route({
      method: 'post',
      path: '/test-echo',
      operationId: 'testEcho',
      summary: 'Echo (test only)',
      request: { body: EchoBody },
      response: { description: 'echo', schema: EchoBody },
      handler: ({ body }) => body,
    })],
  });
});
afterAll(async () => { await server.close(); });

function post(path: string, body: string | undefined, headers: Record<string, string> = { 'Content-Type': 'application/json' }) {
  return fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'X-API-Key': STAGING_KEY, ...headers }, ...(body === undefined ? {} : { body }) });
}

async function detail(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['detail']);
  expect(typeof body.detail).toBe('string');
  return body.detail as string;
}

describe('error bodies', () => {
  it('unknown path is 404 Not found, with or without a key', async () => {
    expect(await detail(await server.get('/nope'), 404)).toBe('Not found');
    expect(await detail(await server.get('/nope', { key: null }), 404)).toBe('Not found');
    expect(await detail(await server.get('/flights/default/extra'), 404)).toBe('Not found');
  });

  it('a known path with another method is 405 with Allow (after authentication)', async () => {
    const response = await fetch(`${server.baseUrl}/flights`, { method: 'PUT', headers: { 'X-API-Key': STAGING_KEY } });
    expect(await detail(response, 405)).toBe('Method PUT is not allowed here; allowed: GET, HEAD.');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${server.baseUrl}/flights`, { method: 'PUT' })).status).toBe(401);
  });

  it('an unexpected failure is exactly {"detail":"Internal server error"}, logged with the request id', async () => {
    const broken: ScheduleCatalog = {
      defaultName: 'default',
      names: () => ['default'],
      resolve: () => { throw new Error('disk on fire: /secret/path'); },
    };
    const failing = await startTestServer({ schedules: broken });
    try {
      const response = await failing.get('/flights', { headers: { 'X-Request-Id': 'trace-500-check' } });
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('{"detail":"Internal server error"}');
      expect(response.headers.get('x-request-id')).toBe('trace-500-check');
      const line = failing.logLines().find((l) => l.reqId === 'trace-500-check' && l.level === 50);
      expect(line, failing.logText()).toBeDefined();
      expect((line!.err as { message: string }).message).toBe('disk on fire: /secret/path');
    } finally {
      await failing.close();
    }
  });

  it('a response that breaks its own schema is caught as a 500 outside production', async () => {
    const drifting = await startTestServer({
      extraEndpoints: [(api) => api.route({
        method: 'get', path: '/test-drift', operationId: 'testDrift', summary: 'drift', response: { description: 'x', schema: z.object({ n: z.number() }) },
        handler: () => ({ n: 'not a number' }),
      })],
    });
    try {
      expect(await detail(await drifting.get('/test-drift'), 500)).toBe('Internal server error');
    } finally {
      await drifting.close();
    }
  });
});

describe('JSON bodies on POST routes', () => {
  it('a valid body reaches the route', async () => {
    const response = await post('/test-echo', '{"count":2}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ count: 2 });
    expect((await post('/test-echo', '{"count":2}', { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('wrong or missing Content-Type is 415', async () => {
    expect(await detail(await post('/test-echo', '{"count":2}', { 'Content-Type': 'text/plain' }), 415))
      .toBe("Request body must be JSON with the header 'Content-Type: application/json'.");
    expect((await post('/test-echo', 'count=2', { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await post('/test-echo', undefined, {})).status).toBe(415);
    expect((await post('/test-echo', '{"count":2}', { 'Content-Type': 'application/json', 'Content-Encoding': 'br-nonsense' })).status).toBe(415);
  });

  it('malformed JSON is 400', async () => {
    expect(await detail(await post('/test-echo', '{"count":'), 400)).toBe('Request body is not valid JSON.');
    expect((await post('/test-echo', '"just a string"')).status).toBe(400);
  });

  it('a body over BODY_LIMIT_BYTES is 413', async () => {
    const big = JSON.stringify({ count: 1, label: 'x'.repeat(400) });
    expect(await detail(await post('/test-echo', big), 413)).toBe('Request body is larger than the limit of 256 bytes.');
  });

  it('schema violations are 400 naming the field and the rule', async () => {
    expect(await detail(await post('/test-echo', '{}'), 400)).toBe("Field 'count' is required.");
    expect(await detail(await post('/test-echo', '{"count":"2"}'), 400)).toBe("Field 'count' must be of type number.");
    expect(await detail(await post('/test-echo', '{"count":-1}'), 400)).toBe("Field 'count' must be at least 0.");
    expect(await detail(await post('/test-echo', '{"count":1,"extra":true}'), 400)).toBe("Unknown field 'extra'.");
  });

  it('authentication comes before body rules, and unknown paths stay 404', async () => {
    expect((await fetch(`${server.baseUrl}/test-echo`, { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(401);
    expect((await post('/no-such-post', 'x', { 'Content-Type': 'text/plain' })).status).toBe(404);
  });
});

describe('request ids', () => {
  it('a safe incoming X-Request-Id is echoed and logged; an unsafe one is replaced', async () => {
    const kept = await server.get('/health', { key: null, headers: { 'X-Request-Id': 'abc-123.DEF_4' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123.DEF_4');
    expect(server.logLines().some((l) => l.reqId === 'abc-123.DEF_4')).toBe(true);
    for (const unsafe of ['has space', 'x'.repeat(65), 'semi;colon', '<script>']) {
      const replaced = await server.get('/health', { key: null, headers: { 'X-Request-Id': unsafe } });
      const id = replaced.headers.get('x-request-id')!;
      expect(id).not.toBe(unsafe);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const fresh = await server.get('/health', { key: null });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => fetch(`${server.baseUrl}/flights`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key,content-type' },
  });
  const simple = (origin: string) => server.get('/flights', { headers: { Origin: origin } });

  it.each([
    'https://operator.com',
    'https://app.operator.com',
    'https://deep.ops.operator.com',
    'https://client.example.org',
    'http://localhost:5173',
  ])('%s is allowed, on preflight and on the real request', async (origin) => {
    const pre = await preflight(origin);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    const allowedHeaders = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowedHeaders).toContain('x-api-key');
    expect(allowedHeaders).toContain('content-type');
    const real = await simple(origin);
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBe(origin);
    expect(real.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it.each([
    'https://evil-operator.com',
    'https://operator.com.evil.net',
    'https://operatorxcom',
    'https://evil.com',
    'http://operator.com',
    'http://app.operator.com',
    'null',
    'https://client.example.org.evil.net',
    'https://client.example.org:8443',
    'http://client.example.org',
    'https://operator.com/',
    'file://',
  ])('%s gets no Access-Control-Allow-Origin', async (origin) => {
    const pre = await preflight(origin);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const real = await simple(origin);
    expect(real.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight needs no key, carries the security headers and never reaches a route', async () => {
    const pre = await preflight('https://app.operator.com');
    expect(pre.headers.get('x-frame-options')).toBe('DENY');
    expect(await pre.text()).toBe('');
  });

  it('without an operator domain configured, subdomain matching is off', async () => {
    const plain = await startTestServer({ env: { CORS_OPERATOR_DOMAIN: undefined, CORS_ALLOWED_ORIGINS: undefined } });
    try {
      const response = await plain.get('/health', { key: null, headers: { Origin: 'https://operator.com' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('raw request hygiene', () => {
  it('a path with bad percent-encoding is 400 with a sentence', async () => {
    const response = await rawRequest(server.baseUrl, 'GET', '/flights/%E0%A4%A', { 'X-API-Key': STAGING_KEY });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Request path is not valid percent-encoding.' });
  });

  it('a HEAD on a GET route answers like the GET without a body', async () => {
    const response = await fetch(`${server.baseUrl}/flights`, { method: 'HEAD', headers: { 'X-API-Key': STAGING_KEY } });
    expect(response.status).toBe(200);
  });
});
