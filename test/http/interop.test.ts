// Scenario: an API consumer with tools nobody here wrote. The served document passes Redocly's
// recommended rules with no error and no warning; errors come as problem details to a client that
// asks; CORS, compression, ETags, cursors and the light job status behave as the document says.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { PROBLEM_TYPES } from '../../src/http/errors.ts';
import { rawRequest, SECOND_STAGING_KEY, STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

interface Operation { operationId?: string; parameters?: ({ $ref: string } | { name: string; in: string; schema: { type: string } })[]; responses: Record<string, unknown> }
interface Document { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Record<string, unknown>>; headers: Record<string, unknown>; parameters: Record<string, unknown> } }

let server: TestServer;
let pool: SolverPool;
let doc: Document;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  // Jobs stay queued: these tests read and cancel them, they need no solve.
  server = await startTestServer({ solver: pool, runJobs: false });
  doc = (await (await server.get('/openapi.json', { key: null })).json()) as Document;
});
afterAll(async () => {
  await server.close();
  await pool.close();
});

const json = { 'Content-Type': 'application/json' };
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'X-API-Key': STAGING_KEY, ...json, ...headers }, body: JSON.stringify(body) });
const QUEUED_JOB = { scenario_id: 'interop', disrupted_flight: 'NV136_2026-11-21T05:15:00Z', min_delay_minutes: 60, schedule_file: 'small' };

describe('the OpenAPI document', () => {
  it('passes Redocly\'s recommended rules with 0 errors and 0 warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'redocly-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const output = execFileSync(join(import.meta.dirname, '../../node_modules/.bin/redocly'), ['lint', join(dir, 'openapi.json'), '--format=json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
      });
      const report = JSON.parse(output) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names every operation (unique operationIds) and declares the headers the API reads and writes', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['listFlights', 'simulate', 'createSimulationJob', 'getSimulationJobStatus', 'cancelSimulationJob', 'getDay']));
    expect(Object.keys(doc.components.headers).sort()).toEqual(['ETag', 'Location', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id']);
    expect(Object.keys(doc.components.parameters).sort()).toEqual(['Idempotency-Key', 'If-Match', 'If-None-Match', 'Last-Event-ID', 'X-Operator', 'X-Request-Id']);
    const create = doc.paths['/simulations']!.post!;
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
    expect(JSON.stringify(create.responses['202'])).toContain('#/components/headers/Location');
    expect(JSON.stringify(create.responses['401'])).toContain('#/components/headers/WWW-Authenticate');
    expect(JSON.stringify(create.responses['422'])).toContain('application/problem+json');
  });

  it('has the named components generated clients need, a nullable result as oneOf, integer limits and the either/or body as oneOf', () => {
    const schemas = doc.components.schemas;
    for (const name of ['SolverConfig', 'SolverConfigPatch', 'Disruption', 'SimulationJobSummary', 'Problem', 'SimulationRequest']) expect(schemas[name], name).toBeDefined();
    expect(schemas.SimulationJob!.properties).toMatchObject({ result: { oneOf: [{ $ref: '#/components/schemas/SimulationResponse' }, { type: 'null' }] } });
    // A partial configuration types as partial; the answered one has every field.
    expect(schemas.SolverConfigPatch!.required).toBeUndefined();
    expect(schemas.SolverConfig!.required).toEqual(['constraints', 'cost_weights', 'strategies', 'turnaround', 'solver']);
    const limit = doc.paths['/simulations']!.get!.parameters!.find((p) => 'name' in p && p.name === 'limit') as { schema: { type: string } };
    expect(limit.schema.type).toBe('integer');
    const branches = schemas.SimulationRequest!.oneOf as { required: string[] }[];
    expect(branches.map((b) => b.required.sort())).toEqual([['disrupted_flight', 'min_delay_minutes', 'scenario_id'], ['disruptions', 'scenario_id']]);
  });
});

describe('problem details', () => {
  const problem = { Accept: 'application/problem+json' };

  it('the default error body stays {"detail"} byte for byte, as application/json', async () => {
    const response = await rawRequest(server.baseUrl, 'GET', '/flights?airline=nv', { 'X-API-Key': STAGING_KEY });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(JSON.stringify({ detail: "Query parameter 'airline' must be a two-character airline code of capital letters or digits, such as NV." }));
  });

  it('a client that prefers application/problem+json gets type, title, status, the same detail, and one error per field', async () => {
    const plain = await (await server.get('/flights?airline=nv&colour=red')).json() as { detail: string };
    const response = await server.get('/flights?airline=nv&colour=red', { headers: problem });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('vary')).toMatch(/Accept/);
    expect(await response.json()).toEqual({
      type: 'urn:drs:problem:invalid-request', title: PROBLEM_TYPES['invalid-request'], status: 400, detail: plain.detail,
      errors: [
        { field: 'airline', message: 'must be a two-character airline code of capital letters or digits, such as NV' },
        { field: 'colour', message: 'is not a parameter of this endpoint' },
      ],
    });
    // application/json preferred, or a wildcard: the default.
    for (const accept of ['application/json, application/problem+json', '*/*']) {
      const answer = await server.get('/flights?airline=nv', { headers: { Accept: accept } });
      expect(answer.headers.get('content-type'), accept).toMatch(/^application\/json/);
    }
  });

  it('body field errors are dotted as POST /config/validate names them', async () => {
    const response = await post('/simulate', { scenario_id: 'x', disrupted_flight: 'NV101_2026-11-21T05:30:00Z', min_delay_minutes: 60, config: { solver: { time_limit_ms: 'fast' } } }, problem);
    expect(response.status).toBe(400);
    const body = await response.json() as { errors: { field: string }[] };
    expect(body.errors).toEqual([{ field: 'config.solver.time_limit_ms', message: 'must be of type number' }]);
  });

  it('each cause has its own stable type: a missing key (with WWW-Authenticate), a wrong key, an unknown job', async () => {
    const missing = await server.get('/flights', { key: null, headers: problem });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('ApiKey header="X-API-Key"');
    expect((await missing.json() as { type: string }).type).toBe('urn:drs:problem:missing-api-key');
    const plainMissing = await server.get('/flights', { key: null });
    expect(plainMissing.headers.get('www-authenticate')).toBe('ApiKey header="X-API-Key"');
    expect(await plainMissing.json()).toEqual({ detail: "Missing API key. Include 'X-API-Key' header." });
    const wrong = await server.get('/flights', { key: 'drs_staging_not-a-key', headers: problem });
    expect(await wrong.json()).toMatchObject({ type: 'urn:drs:problem:invalid-api-key', status: 403 });
    const unknown = await server.get('/simulations/0000-unknown', { headers: problem });
    expect(await unknown.json()).toMatchObject({ type: 'urn:drs:problem:not-found', status: 404 });
  });
});

describe('jobs: Idempotency-Key, the light status, cursor pages', () => {
  it('the same Idempotency-Key with the same body is the same job; with another body it is 422 and no job is created', async () => {
    const key = `interop-${Date.now()}`;
    const first = await post('/simulations', QUEUED_JOB, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    const { job_id: id } = await first.json() as { job_id: string };
    const again = await post('/simulations', QUEUED_JOB, { 'Idempotency-Key': key });
    expect(again.status).toBe(202);
    expect((await again.json() as { job_id: string }).job_id).toBe(id);
    const before = (await (await server.get('/simulations?limit=100')).json() as { jobs: unknown[] }).jobs.length;
    const other = await post('/simulations', { ...QUEUED_JOB, min_delay_minutes: 61 }, { 'Idempotency-Key': key, Accept: 'application/problem+json' });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ type: 'urn:drs:problem:idempotency-key-reused', status: 422, detail: expect.stringContaining(id) });
    expect((await (await server.get('/simulations?limit=100')).json() as { jobs: unknown[] }).jobs.length).toBe(before);
  });

  it('GET /simulations/{job_id}/status is the job without its result', async () => {
    const { job_id: id } = await (await post('/simulations', QUEUED_JOB)).json() as { job_id: string };
    const status = await (await server.get(`/simulations/${id}/status`)).json() as Record<string, unknown>;
    const full = await (await server.get(`/simulations/${id}`)).json() as Record<string, unknown>;
    expect(status).not.toHaveProperty('result');
    const { result: _result, ...rest } = full;
    expect(status).toEqual(rest);
    expect((await server.get(`/simulations/${id}/status`, { key: SECOND_STAGING_KEY })).status).toBe(404);
  });

  it('pages of GET /simulations follow next_page_token through every job once, newest first, and a bad token is 400', async () => {
    for (let i = 0; i < 5; i++) expect((await post('/simulations', { ...QUEUED_JOB, scenario_id: `page-${i}` })).status).toBe(202);
    const all = (await (await server.get('/simulations?limit=100')).json() as { jobs: { job_id: string; created_at: string }[]; next_page_token: string | null });
    expect(all.next_page_token).toBeNull();
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const page = await (await server.get(`/simulations?limit=2${token ? `&page_token=${token}` : ''}`)).json() as { jobs: { job_id: string }[]; next_page_token: string | null };
      expect(page.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...page.jobs.map((j) => j.job_id));
      token = page.next_page_token;
    } while (token !== null);
    expect(seen).toEqual(all.jobs.map((j) => j.job_id));
    expect([...all.jobs.map((j) => j.created_at)].sort().reverse()).toEqual(all.jobs.map((j) => j.created_at));
    expect((await server.get('/simulations?page_token=bm90LWEtdG9rZW4')).status).toBe(400);
    expect((await server.get('/simulations?limit=0')).status).toBe(400);
    expect((await server.get('/simulations?limit=five')).status).toBe(400);
  });
});

describe('HTTP manners', () => {
  const preflight = (origin: string, method: string, headers: string) => fetch(`${server.baseUrl}/simulations/some-job`, {
    method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
  });

  it('a preflight from an allowed origin allows DELETE and the API\'s headers; answers expose Location and ETag', async () => {
    const pre = await preflight('https://client.example.org', 'DELETE', 'x-api-key,idempotency-key,last-event-id');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('DELETE');
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-api-key', 'idempotency-key', 'last-event-id', 'if-match', 'if-none-match']) expect(allowed).toContain(header);
    const created = await post('/simulations', QUEUED_JOB, { Origin: 'https://client.example.org' });
    const exposed = created.headers.get('access-control-expose-headers') ?? '';
    expect(exposed).toContain('Location');
    expect(exposed).toContain('ETag');
  });

  it('a preflight from an unknown origin is answered 204 without the key gate, and without Access-Control-Allow-Origin', async () => {
    const pre = await preflight('https://evil.example.com', 'DELETE', 'x-api-key');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(await pre.text()).toBe('');
  });

  it('answers are compressed for a client that accepts gzip, event streams are not', async () => {
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) => get(`${server.baseUrl}/snapshot?schedule_file=small`, { headers: { 'X-API-Key': STAGING_KEY, 'Accept-Encoding': 'gzip' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (p: Buffer) => parts.push(p));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
      }).on('error', reject), reject);
    });
    expect(raw.encoding).toBe('gzip');
    const plain = await (await server.get('/snapshot?schedule_file=small')).text();
    expect(gunzipSync(raw.body).toString('utf8')).toBe(plain);
    expect(raw.body.length).toBeLessThan(plain.length / 3);
    // A queued job's event stream stays open: its headers say it is not compressed, and its first event arrives as written.
    const { job_id: id } = await (await post('/simulations', QUEUED_JOB)).json() as { job_id: string };
    const stream = await new Promise<{ encoding: string | undefined; type: string | undefined; first: string }>((resolve, reject) => {
      import('node:http').then(({ get }) => {
        const req = get(`${server.baseUrl}/simulations/${id}/events`, { headers: { 'X-API-Key': STAGING_KEY, 'Accept-Encoding': 'gzip, br' } }, (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve({ encoding: res.headers['content-encoding'], type: res.headers['content-type'], first: chunk.toString('utf8') });
            req.destroy();
          });
        });
        req.on('error', () => undefined);
      }, reject);
    });
    expect(stream.type).toMatch(/^text\/event-stream/);
    expect(stream.encoding).toBeUndefined();
    expect(stream.first).toMatch(/^id: .*\nevent: progress\n/);
  });

  it('GET /snapshot and GET /config carry an ETag and answer 304 to If-None-Match naming it', async () => {
    for (const path of ['/snapshot?schedule_file=small', '/config']) {
      const first = await server.get(path);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      const again = await server.get(path, { headers: { 'If-None-Match': etag! } });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe('');
      const weak = await server.get(path, { headers: { 'If-None-Match': `W/${etag!}` } });
      expect(weak.status).toBe(304);
      const stale = await server.get(path, { headers: { 'If-None-Match': '"stale"' } });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(await first.text());
    }
    const otherWindow = await server.get('/snapshot?schedule_file=small&from=2026-11-21T08:00:00Z');
    expect(otherWindow.headers.get('etag')).not.toBe((await server.get('/snapshot?schedule_file=small')).headers.get('etag'));
  });
});
