// Scenario: every kind of response carries the four security headers of the specification, with the
// exact values it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_KEY, rawRequest, startTestServer, type TestServer } from '../support/server.ts';

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

function expectSecurityHeaders(headers: Headers | Record<string, unknown>): void {
  for (const [name, value] of Object.entries(EXPECTED)) {
    const actual = headers instanceof Headers ? headers.get(name) : headers[name];
    expect(actual, name).toBe(value);
  }
}

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

describe('security headers', () => {
  const cases: [string, () => Promise<Response>, number][] = [
    ['200 health (public)', () => server.get('/health', { key: null }), 200],
    ['200 flights (authenticated)', () => server.get('/flights'), 200],
    ['200 openapi.json', () => server.get('/openapi.json', { key: null }), 200],
    ['200 docs page', () => server.get('/docs/', { key: null }), 200],
    ['301 docs redirect', () => fetch(`${server.baseUrl}/docs`, { redirect: 'manual' }), 301],
    ['200 docs asset', () => server.get('/docs/swagger-ui.css', { key: null }), 200],
    ['401 missing key', () => server.get('/flights', { key: null }), 401],
    ['403 wrong key', () => server.get('/flights', { key: 'nope' }), 403],
    ['404 unknown path', () => server.get('/no/such/path'), 404],
    ['404 unknown path without key', () => server.get('/no/such/path', { key: null }), 404],
    ['404 unknown schedule', () => server.get('/flights/nope'), 404],
    ['400 bad query', () => server.get('/flights?airline=lowercase'), 400],
    ['405 wrong method', () => fetch(`${server.baseUrl}/flights`, { method: 'DELETE', headers: { 'X-API-Key': STAGING_KEY } }), 405],
    ['204 CORS preflight', () => fetch(`${server.baseUrl}/flights`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.operator.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    }), 204],
  ];
  it.each(cases)('%s carries the four headers with exact values', async (_name, call, status) => {
    const response = await call();
    expect(response.status).toBe(status);
    expectSecurityHeaders(response.headers);
  });

  it('a 500 carries them too', async () => {
    const failing = await startTestServer({ extraEndpoints: [(api) => api.router.get('/explode', () => { throw new Error('boom'); })] });
    try {
      const response = await failing.get('/explode');
      expect(response.status).toBe(500);
      expectSecurityHeaders(response.headers);
    } finally {
      await failing.close();
    }
  });

  it('a request the router cannot decode carries them too', async () => {
    const response = await rawRequest(server.baseUrl, 'GET', '/flights/%E0%A4%A', { 'X-API-Key': STAGING_KEY });
    expect(response.status).toBe(400);
    expectSecurityHeaders(response.headers);
  });

  it('helmet defaults that contradict the spec are gone (no X-XSS-Protection: 0, no SAMEORIGIN)', async () => {
    const response = await server.get('/health', { key: null });
    expect(response.headers.get('x-xss-protection')).not.toBe('0');
    expect(response.headers.get('x-frame-options')).not.toBe('SAMEORIGIN');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('the docs page CSP lets swagger-ui load its same-origin script and inline styles', async () => {
    const response = await server.get('/docs/', { key: null });
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('swagger-ui-bundle.js');
    const init = await (await server.get('/docs/swagger-ui-init.js', { key: null })).text();
    expect(init).toContain('../openapi.json');
  });
});
