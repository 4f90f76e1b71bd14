// Scenario: the limits of issue #5 over real HTTP: rate limits per API key (429 + Retry-After and the
// RateLimit headers, /health and unauthenticated requests not counted), URL, query and path bounds,
// requests Node itself rejects, the operator's bound on the work of one simulation, and the bounded
// solver queue (beyond it 503 + Retry-After at once). Body size (413) and Content-Type (415) are
// proved in test/http/errors-and-cors.test.ts.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logging.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { ModelBuilder } from '../../src/recovery/model/linear-model.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { bundledCatalog, startTestServer, TEST_ENV, type TestServer } from '../support/server.ts';
import { expectDetailOnly, expectSecurityHeaders, headersOf } from './support.ts';
import { stuckModel } from '../support/models.ts';

const KEYS = ['rl-key-a-0123456789abcdef', 'rl-key-b-0123456789abcdef', 'rl-key-c-0123456789abcdef', 'rl-key-d-0123456789abcdef', 'rl-key-e-0123456789abcdef'];
const [KEY_A, KEY_B, KEY_C, KEY_D, KEY_E] = KEYS as [string, string, string, string, string];

/** First NV flight of the small schedule: its simulations build in milliseconds. */
const SMALL_FLIGHT = 'NV100_2026-11-21T04:45:00Z';
const simulation = (config?: unknown) => JSON.stringify({
  scenario_id: 'limits', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small', ...(config ? { config } : {}),
});

/** A solver that must not be reached; answers "infeasible" at once if it is, and counts calls. */
function stubSolver() {
  const calls: number[] = [];
  const solver: Solver = {
    solve: async () => {
      calls.push(Date.now());
      return { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: 0, detail: 'stub' };
    },
  };
  return { solver, calls };
}

async function answer(response: Response) {
  return { status: response.status, headers: headersOf(response), body: await response.text() };
}

describe('rate limits per API key', () => {
  let server: TestServer;
  const stub = stubSolver();
  beforeAll(async () => {
    server = await startTestServer({
      env: { API_KEYS: KEYS.join(','), RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_SIMULATE_PER_MINUTE: '1' },
      solver: stub.solver,
    });
  });
  afterAll(async () => { await server.close(); });

  const post = (key: string, body: string) => fetch(`${server.baseUrl}/simulate`, {
    method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body,
  });

  it('scenario: the fourth request of a key in a minute is 429 {detail} with Retry-After, RateLimit headers and the security headers; another key is not affected', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await server.get('/flights', { key: KEY_A });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit')).toBe(`"requests"; r=${2 - i}; t=${ok.headers.get('ratelimit')!.split('t=')[1]}`);
      expect(ok.headers.get('ratelimit-policy')).toMatch(/^"requests"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    }
    const limited = await answer(await server.get('/flights', { key: KEY_A }));
    expect(limited.status).toBe(429);
    expect(expectDetailOnly(limited)).toBe('Rate limit exceeded: at most 3 requests per minute per API key; retry after the Retry-After seconds.');
    expectSecurityHeaders(limited.headers, 'on 429');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(limited.headers.ratelimit).toMatch(/^"requests"; r=0; t=\d+$/);
    // Other routes of the same key are limited too; another key has its own budget.
    expect((await server.get('/config', { key: KEY_A })).status).toBe(429);
    expect((await server.get('/flights', { key: KEY_B })).status).toBe(200);
  });

  it('unit: /health, /openapi.json and requests without a valid key are never counted (401/403 stay 401/403)', async () => {
    for (let i = 0; i < 5; i++) {
      const health = await server.get('/health', { key: KEY_C });
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit')).toBeNull();
      expect((await server.get('/openapi.json', { key: KEY_C })).status).toBe(200);
      expect((await server.get('/flights', { key: null })).status).toBe(401);
      expect((await server.get('/flights', { key: 'wrong-key' })).status).toBe(403);
    }
    for (let i = 0; i < 3; i++) expect((await server.get('/flights', { key: KEY_C })).status).toBe(200);
    expect((await server.get('/flights', { key: KEY_C })).status).toBe(429);
    // Once a key is over its limit, a request without a key is still told to authenticate.
    expect((await server.get('/flights', { key: null })).status).toBe(401);
  });

  it('unit: POST /simulate has its own per-key limit, counted besides the general one, reported as a second RateLimit entry', async () => {
    const first = await post(KEY_D, '{"scenario_id": "bad"}');
    expect(first.status).toBe(400);
    expect(first.headers.get('ratelimit')).toMatch(/^"requests"; r=2; t=\d+, "simulations"; r=0; t=\d+$/);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"requests"; q=3; w=60; pk=:.+:, "simulations"; q=1; w=60; pk=:.+:$/);
    const second = await answer(await post(KEY_D, simulation()));
    expect(second.status).toBe(429);
    expect(expectDetailOnly(second)).toBe('Rate limit exceeded: at most 1 simulations per minute per API key; retry after the Retry-After seconds.');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectSecurityHeaders(second.headers, 'on simulation 429');
    expect(stub.calls).toHaveLength(0);
    // The general budget of the key still has room for a listing.
    expect((await server.get('/flights', { key: KEY_D })).status).toBe(200);
  });

  it('unit: the limiter counts by the SHA-256 of the key: the partition key is derived from the hash, and no key reaches the logs or /metrics', async () => {
    const response = await server.get('/flights', { key: KEY_E });
    const keyHashHex = createHash('sha256').update(KEY_E).digest('hex');
    // express-rate-limit's draft-8 partition key: base64 of the first 12 hex digits of sha256(counting key).
    const expectedPk = Buffer.from(createHash('sha256').update(keyHashHex).digest('hex').slice(0, 12)).toString('base64');
    expect(response.headers.get('ratelimit-policy')).toContain(`pk=:${expectedPk}:`);
    for (let i = 0; i < 3; i++) await server.get('/flights', { key: KEY_E });
    const metrics = await server.get('/metrics', { key: KEY_B });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^rate_limited_requests_total\{limit="requests"\} [1-9]\d*$/m);
    expect(text).toMatch(/^rate_limited_requests_total\{limit="simulations"\} [1-9]\d*$/m);
    const logs = server.logText();
    expect(logs).toContain('"statusCode":429');
    for (const key of KEYS) {
      expect(logs).not.toContain(key);
      expect(text).not.toContain(key);
    }
  });
});

describe('request size bounds', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(async () => { await server.close(); });

  it('unit: a URL over 2048 characters is 414 {detail} with the security headers, before authentication', async () => {
    for (const key of [undefined, null]) {
      const long = await answer(await server.get(`/flights?airline=${'A'.repeat(2100)}`, key === null ? { key: null } : {}));
      expect(long.status).toBe(414);
      expect(expectDetailOnly(long)).toBe('Request URL is longer than the limit of 2048 characters.');
      expectSecurityHeaders(long.headers, 'on 414');
    }
  });

  it('unit: query and path values are bounded: a 65-character timestamp or a 129-character schedule name is 400 naming it', async () => {
    const from = await answer(await server.get(`/snapshot?from=2026-11-21T06:00:00Z${'0'.repeat(45)}`));
    expect(from.status).toBe(400);
    expect(expectDetailOnly(from)).toMatch(/^Query parameter 'from' .*64/);
    const name = await answer(await server.get(`/flights/${'s'.repeat(129)}`));
    expect(name.status).toBe(400);
    expect(expectDetailOnly(name)).toMatch(/^Path parameter 'schedule_file' .*128/);
    const snapshotName = await answer(await server.get(`/snapshot?schedule_file=${'s'.repeat(129)}`));
    expect(snapshotName.status).toBe(400);
    // At the bound the name is looked up as usual.
    expect((await server.get(`/flights/${'s'.repeat(128)}`)).status).toBe(404);
  });
});

describe('compressed bodies', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(async () => { await server.close(); });
  const post = (body: Buffer, encoding: string) => fetch(`${server.baseUrl}/config/validate`, {
    method: 'POST', headers: { 'X-API-Key': TEST_ENV.API_KEYS.split(',')[0]!, 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body: new Uint8Array(body),
  });

  it('unit: a gzip body is accepted; the size limit applies to its inflated size (a 1 MB bomb of 1 KB is 413); a body that is not what its encoding says is 400', async () => {
    expect((await post(gzipSync('{"solver":{"mip_gap":0.01}}'), 'gzip')).status).toBe(200);
    const bomb = gzipSync(`{"pad":"${' '.repeat(1_000_000)}"}`);
    expect(bomb.length).toBeLessThan(2000);
    const tooBig = await answer(await post(bomb, 'gzip'));
    expect(tooBig.status).toBe(413);
    expectDetailOnly(tooBig);
    expectSecurityHeaders(tooBig.headers, 'on 413');
    const garbage = await answer(await post(Buffer.from('{"not":"gzip"}'), 'gzip'));
    expect(garbage.status).toBe(400);
    expect(expectDetailOnly(garbage)).toBe('Request body could not be decompressed as its Content-Encoding says.');
  });
});

describe('requests Node rejects before Express', () => {
  let baseUrl: { host: string; port: number };
  let close: () => Promise<void>;
  beforeAll(async () => {
    const { config } = loadConfig({ ...TEST_ENV });
    const app = createApp({ config, logger: createLogger('silent'), schedules: bundledCatalog() });
    const server = createHttpServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
    close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  });
  afterAll(async () => { await close(); });

  function rawExchange(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(baseUrl.port, baseUrl.host);
      let text = '';
      socket.on('data', (chunk) => { text += chunk.toString('latin1'); });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(bytes);
    });
  }

  function parse(raw: string) {
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }));
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  it('unit: headers over 16 KiB are 431 {detail} with the security headers', async () => {
    const reply = parse(await rawExchange(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(reply.status).toBe(431);
    expect(expectDetailOnly(reply)).toBe('Request headers are larger than the limit.');
    expectSecurityHeaders(reply.headers, 'on 431');
  });

  it('unit: a malformed request line is 400 {detail} with the security headers', async () => {
    const reply = parse(await rawExchange('NOT A REQUEST\r\n\r\n'));
    expect(reply.status).toBe(400);
    expect(expectDetailOnly(reply)).toBe('Malformed HTTP request.');
    expectSecurityHeaders(reply.headers, 'on a malformed request');
  });
});

describe('the operator bounds the work of one simulation', () => {
  let server: TestServer;
  const stub = stubSolver();
  beforeAll(async () => {
    server = await startTestServer({ env: { SIMULATION_MAX_TIME_LIMIT_MS: '3000', SIMULATION_MAX_MODEL_ROUTES: '700' }, solver: stub.solver });
  });
  afterAll(async () => { await server.close(); });
  const post = (body: string) => fetch(`${server.baseUrl}/simulate`, { method: 'POST', headers: { 'X-API-Key': TEST_ENV.API_KEYS.split(',')[0]!, 'Content-Type': 'application/json' }, body });

  it('unit: a time limit above SIMULATION_MAX_TIME_LIMIT_MS is 400 naming the field and the limit, before any solve', async () => {
    const reply = await answer(await post(simulation({ solver: { time_limit_ms: 3001 } })));
    expect(reply.status).toBe(400);
    expect(expectDetailOnly(reply)).toBe("Field 'config.solver.time_limit_ms' must be at most 3000 on this service (the operator's SIMULATION_MAX_TIME_LIMIT_MS); got 3001.");
    expect(stub.calls).toHaveLength(0);
  });

  it('unit: (candidate aircraft + 1) × routes per aircraft above SIMULATION_MAX_MODEL_ROUTES is 400 naming both fields and the limit', async () => {
    const reply = await answer(await post(simulation({ solver: { max_candidate_aircraft: 6, max_routes_per_aircraft: 101 } })));
    expect(reply.status).toBe(400);
    expect(expectDetailOnly(reply)).toBe("Fields 'config.solver.max_candidate_aircraft' and 'config.solver.max_routes_per_aircraft' ask for (6 + 1) × 101 = 707 routes per model; this service allows at most 700 (the operator's SIMULATION_MAX_MODEL_ROUTES).");
    // The engine's own ceiling (60 aircraft, 20000 routes) would build a model that exhausts the heap.
    const engineMax = await answer(await post(simulation({ solver: { max_candidate_aircraft: 60, max_routes_per_aircraft: 20_000 } })));
    expect(engineMax.status).toBe(400);
    expect(stub.calls).toHaveLength(0);
  });

  it('unit: at the limits the simulation runs', async () => {
    const reply = await post(simulation({ solver: { time_limit_ms: 3000, max_candidate_aircraft: 6, max_routes_per_aircraft: 100 } }));
    expect(reply.status).toBe(200);
    expect(stub.calls.length).toBeGreaterThan(0);
  });
});


describe('bounded solver queue', () => {
  let server: TestServer;
  let pool: SolverPool;
  beforeAll(async () => {
    pool = createSolverPool({ threads: 1, maxQueue: 8, hardStopGraceMs: 100 });
    await pool.ready();
    server = await startTestServer({ solver: pool });
  });
  afterAll(async () => {
    await server.close();
    await pool.close();
  });
  const post = () => fetch(`${server.baseUrl}/simulate`, { method: 'POST', headers: { 'X-API-Key': TEST_ENV.API_KEYS.split(',')[0]!, 'Content-Type': 'application/json' }, body: simulation() });

  it('scenario: with the one worker busy, two simulations (8 solves) wait in the queue of 8 and succeed; a third is 503 + Retry-After at once, before its model is built', async () => {
    // Held well past half the simulations' budget (1 s), when their swap solves stop waiting for
    // the (queued) integrated ones and join the queue too.
    const busy = pool.solve({ model: stuckModel(), timeLimitMs: 2500, mipGap: 0 });
    const waiting = [post(), post()];
    await expect.poll(() => pool.stats().queued, { timeout: 5000, interval: 10 }).toBe(8);
    const before = pool.stats();
    const started = performance.now();
    const third = await answer(await post());
    const thirdMs = performance.now() - started;
    expect(third.status).toBe(503);
    expect(expectDetailOnly(third)).toBe('All solvers are busy; retry after the Retry-After seconds.');
    expect(third.headers['retry-after']).toBe('2');
    expectSecurityHeaders(third.headers, 'on 503');
    // At once: answered while the worker is still held, without submitting (or building) anything.
    expect(pool.stats()).toMatchObject({ running: 1, queued: 8, rejectedQueueFull: before.rejectedQueueFull });
    expect(thirdMs).toBeLessThan(1000);
    expect((await busy).status).toBe('time_limit');
    const statuses = await Promise.all(waiting.map(async (p) => (await p).status));
    expect(statuses).toEqual([200, 200]);
    expect(pool.stats()).toMatchObject({ queued: 0, running: 0, crashes: 0 });
  });

  it('unit: when the queue fills while a simulation is being built, the pool refuses its excess solves and the ones it had queued are dropped, not run', async () => {
    // A solver without stats() skips the admission check, as a queue filled by others during the build would.
    const blind = await startTestServer({ solver: { solve: (task, options) => pool.solve(task, options) } });
    try {
      const before = pool.stats();
      // Held past half the simulation's budget (1 s), when its swap solve stops waiting for the
      // (queued) integrated one and joins the queue too.
      const busy = pool.solve({ model: stuckModel(), timeLimitMs: 2500, mipGap: 0 });
      const first = post();
      await expect.poll(() => pool.stats().queued, { timeout: 5000, interval: 10 }).toBe(4);
      const tiny = () => {
        const b = new ModelBuilder('tiny');
        b.addVariable('x', 'binary', 1);
        b.addConstraint('r', [{ variable: 'x', coef: 1 }], '>=', 1);
        return pool.solve({ model: b.build(), timeLimitMs: 1000, mipGap: 0 });
      };
      const direct = [tiny(), tiny()];
      // 6 wait: the simulation's first three solves (the swap solve waits for the integrated one) get 2
      // places and the third is refused; its 2 queued solves go, and the swap solve never starts.
      const refused = await fetch(`${blind.baseUrl}/simulate`, { method: 'POST', headers: { 'X-API-Key': TEST_ENV.API_KEYS.split(',')[0]!, 'Content-Type': 'application/json' }, body: simulation() });
      expect(refused.status).toBe(503);
      expect(pool.stats().queued).toBe(6);
      expect(pool.stats().aborted - before.aborted).toBe(2);
      expect(pool.stats().rejectedQueueFull - before.rejectedQueueFull).toBe(1);
      await busy;
      expect((await first).status).toBe(200);
      expect((await Promise.all(direct)).map((o) => o.status)).toEqual(['optimal', 'optimal']);
      expect(pool.stats()).toMatchObject({ queued: 0, running: 0 });
    } finally {
      await blind.close();
    }
  });

  it('unit: /metrics reports the pool: threads, queue capacity and solve outcomes', async () => {
    // A hard stop of its own (the stuck model outlasts a 50 ms limit plus the grace by far): whether
    // the longer stuck solves above end by GLPK's limit or by the hard stop depends on the machine.
    expect((await pool.solve({ model: stuckModel(), timeLimitMs: 50, mipGap: 0 })).detail).toMatch(/worker was stopped/);
    const text = await (await server.get('/metrics')).text();
    expect(text).toMatch(/^solver_pool_threads 1$/m);
    expect(text).toMatch(/^solver_pool_queue_capacity 8$/m);
    expect(text).toMatch(/^solver_solves_total\{outcome="rejected_queue_full"\} [1-9]\d*$/m);
    expect(text).toMatch(/^solver_solves_total\{outcome="hard_stopped"\} [1-9]\d*$/m);
    expect(text).toMatch(/^simulation_duration_seconds_count\{status="503"\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
