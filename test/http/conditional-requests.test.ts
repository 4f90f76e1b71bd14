// Scenario: a client (or a proxy) that sends conditional headers still gets the answer. Express and
// serve-static take `If-None-Match: *` as "fresh" even with no ETag and would send a bodiless 304;
// the fuzz test found it on GET /health. Raw HTTP: Node's fetch does not pass these headers through as sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_KEY, rawRequest, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
const CONDITIONS: Record<string, string>[] = [
  { 'If-None-Match': '*' },
  { 'If-None-Match': '"anything", W/"else"' },
  { 'If-Modified-Since': tomorrow },
  { 'If-None-Match': '*', 'If-Modified-Since': tomorrow },
];

describe('conditional requests are answered in full', () => {
  const paths: [string, boolean][] = [['/health', false], ['/flights', true], ['/openapi.json', false], ['/docs/', false], ['/docs/swagger-ui.css', false]];
  for (const [path, authenticated] of paths) {
    it(`GET ${path}: 200 with its body, whatever the conditional headers`, async () => {
      const key: Record<string, string> = authenticated ? { 'X-API-Key': STAGING_KEY } : {};
      const plain = await rawRequest(server.baseUrl, 'GET', path, key);
      expect(plain.status).toBe(200);
      for (const condition of CONDITIONS) {
        const answer = await rawRequest(server.baseUrl, 'GET', path, { ...condition, ...key });
        expect(answer.status, JSON.stringify(condition)).toBe(200);
        if (path === '/health') expect(JSON.parse(answer.body).status).toBe('healthy');
        else expect(answer.body).toBe(plain.body);
      }
    });
  }
});
