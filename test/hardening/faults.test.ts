// Scenario: faults of issue #5 and nothing lost: a solver worker killed mid-solve, a solve stuck past
// its time limit, a client that leaves while its solves wait, shutdown by SIGTERM during a simulation,
// and schedule files missing at start or vanishing at run time.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SCHEDULES_DIR, loadConfig } from '../../src/config.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logging.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { bundledCatalog, STAGING_KEY, startTestServer, TEST_ENV, type TestServer } from '../support/server.ts';
import { expectDetailOnly, expectSecurityHeaders, headersOf, ROOT, startService, type ServiceProcess } from './support.ts';
import { stuckModel } from '../support/models.ts';

const HUB_MORNING = 'NV146_2026-11-21T07:50:00Z';
const SMALL_FLIGHT = 'NV100_2026-11-21T04:45:00Z';

function postSimulation(baseUrl: string, body: object, key = STAGING_KEY, signal?: AbortSignal) {
  return fetch(`${baseUrl}/simulate`, {
    method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}),
  });
}


describe('solver faults over HTTP', () => {
  let pool: SolverPool;
  let server: TestServer;
  /** Strategies whose model a test swaps for the stuck one (fault injection in front of the real pool). */
  const stuckStrategies = new Set<string>();
  beforeAll(async () => {
    pool = createSolverPool({ threads: 1, hardStopGraceMs: 200 });
    await pool.ready();
    const solver: Solver = {
      solve: (task, options) => {
        const strategy = task.model.name.split('__').at(-1)!;
        // The integer solves only: a column generation's LPs of the strategy run as they are.
        return pool.solve(stuckStrategies.has(strategy) && !task.relaxation ? { ...task, model: stuckModel() } : task, options);
      },
      stats: () => pool.stats(),
    };
    server = await startTestServer({ solver });
  });
  afterAll(async () => {
    await server.close();
    await pool.close();
  });

  it('scenario: a worker killed mid-solve fails that simulation with 503 {detail} + Retry-After; the pool replaces it and the next simulation succeeds', async () => {
    stuckStrategies.add('delay_propagation');
    try {
      const inFlight = postSimulation(server.baseUrl, { scenario_id: 'killed', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small', config: { solver: { time_limit_ms: 5000 } } });
      await expect.poll(() => pool.stats().running, { timeout: 10_000, interval: 10 }).toBe(1);
      const crashesBefore = pool.stats().crashes;
      for (const worker of pool.workerThreadsForTesting()) await worker.terminate();
      const response = await inFlight;
      const reply = { status: response.status, headers: headersOf(response), body: await response.text() };
      expect(reply.status).toBe(503);
      expect(expectDetailOnly(reply)).toBe('A solver failed during this simulation; it has been replaced, retry.');
      expect(reply.headers['retry-after']).toBe('2');
      expectSecurityHeaders(reply.headers, 'on the crash 503');
      expect(pool.stats().crashes).toBe(crashesBefore + 1);
      // The other strategies of the failed simulation were waiting: dropped, not solved for nobody.
      expect(pool.stats()).toMatchObject({ queued: 0 });
    } finally {
      stuckStrategies.clear();
    }
    const next = await postSimulation(server.baseUrl, { scenario_id: 'after-kill', disrupted_flight: HUB_MORNING, min_delay_minutes: 90, config: { solver: { time_limit_ms: 10_000 } } });
    expect(next.status).toBe(200);
    expect(((await next.json()) as SimulationResponse).options).toHaveLength(4);
  });

  it('scenario: a solve stuck past its time limit does not hold the simulation: it answers in time with that strategy unsolved (time_limit), and the pool goes on', async () => {
    stuckStrategies.add('aircraft_swap');
    // The integer solves of aircraft_swap get the stuck model; the small schedule lets the other
    // strategies, and the swap's own column generation, finish within the limit on the one worker.
    // 3 s was too little on a loaded 2-core CI run: the swap's LPs used it all and its integer solve
    // never started ("No time was left"), so the stuck solve this scenario is about never ran.
    const timeLimitMs = 6000;
    let result: SimulationResponse;
    let solvePhaseMs: number;
    try {
      const started = performance.now();
      const response = await postSimulation(server.baseUrl, { scenario_id: 'stuck', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small', config: { solver: { time_limit_ms: timeLimitMs } } });
      expect(response.status).toBe(200);
      result = await response.json() as SimulationResponse;
      solvePhaseMs = performance.now() - started - result.timings_ms.build;
    } finally {
      stuckStrategies.clear();
    }
    // The stuck model alone would hold the worker for tens of seconds; the hard stop ends it at the
    // time its strategy had left plus the grace (200 ms here); every strategy answers within its budget.
    // (5 s of slack for a loaded 2-core machine: the stuck model alone runs past 90 s.)
    expect(solvePhaseMs).toBeLessThan(timeLimitMs + 200 + 5000);
    // Whichever stops the stuck solve first answers for it: GLPK's own limit (when it checks its clock
    // in time), its strategy's deadline, where the pool stops waiting for it (and terminates its worker
    // only 200 ms past GLPK's limit), or that termination (test/solver/pool.test.ts forces both).
    // On a machine loaded far beyond CI's (the full suite beside a CPU hog) the swap's own column
    // generation can still use its whole budget, and its stuck solve never starts: the answer is the
    // same, unsolved with time_limit and on time.
    const stoppedBy = /^(The solve overran its \d+ ms limit and its worker was stopped|The solve had not ended by its caller's deadline \(its limit \d+ ms\); its answer was not waited for)\.$/;
    expect(result.unsolved_strategies).toEqual([{ strategy: 'aircraft_swap', status: 'time_limit', detail: expect.stringMatching(/^(The solve overran its \d+ ms limit and its worker was stopped|The solve had not ended by its caller's deadline \(its limit \d+ ms\); its answer was not waited for|The time limit was reached before GLPK found any plan|No time was left for this solve when a worker became free)\.$/) }]);
    expect(result.options.map((o) => o.strategy).sort()).toEqual(['cancellation', 'delay_propagation', 'integrated']);
    if (stoppedBy.test(result.unsolved_strategies[0]!.detail)) expect(pool.stats().hardStops).toBeGreaterThanOrEqual(1);
    const next = await postSimulation(server.baseUrl, { scenario_id: 'after-stop', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small' });
    expect(next.status).toBe(200);
  });

  it('scenario: a client that leaves while its solves wait for a worker frees their places in the queue', async () => {
    const before = pool.stats();
    // The one worker held for 10 s, far longer than the simulation takes to queue its solves (at 1 s, on
    // a loaded host the worker came free before they queued, and the poll below waited in vain).
    const holding = new AbortController();
    const busy = pool.solve({ model: stuckModel(), timeLimitMs: 10_000, mipGap: 0 }, { signal: holding.signal });
    const controller = new AbortController();
    const leaving = postSimulation(server.baseUrl, { scenario_id: 'leaving', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small' }, STAGING_KEY, controller.signal);
    // Three of its four solves queue; the swap solve waits for the integrated one (up to half the
    // budget) and, its simulation gone, never starts.
    await expect.poll(() => pool.stats().queued, { timeout: 5000, interval: 10 }).toBe(3);
    controller.abort();
    await expect(leaving).rejects.toThrow();
    await expect.poll(() => pool.stats().queued, { timeout: 5000, interval: 10 }).toBe(0);
    expect(pool.stats().aborted - before.aborted).toBe(3);
    // Its part played, the worker is freed now (stopped and replaced), not at the stuck solve's 10 s limit
    // (on a host loaded enough for the polls above to take that long, the limit came first: either is fine).
    holding.abort();
    await busy.then(() => undefined, (error: Error) => expect(error.message).toBe('The solve was cancelled while it ran; its worker was stopped.'));
    const aborted = server.logLines().find((line) => line.msg === 'request aborted' && (line.req as { url?: string }).url === '/simulate');
    expect(aborted, server.logText()).toBeDefined();
    const metrics = await (await server.get('/metrics')).text();
    expect(metrics).toMatch(/^simulation_duration_seconds_count\{status="aborted"\} 1$/m);
  }, 60_000);
});

describe('draining', () => {
  it('unit: while the process shuts down every request is 503 {detail} with Retry-After, Connection: close and the security headers', async () => {
    const { config } = loadConfig({ ...TEST_ENV });
    const app = createApp({ config, logger: createLogger('silent'), schedules: bundledCatalog(), draining: () => true });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const path of ['/health', '/flights', '/nope']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'X-API-Key': STAGING_KEY } });
        const reply = { status: response.status, headers: headersOf(response), body: await response.text() };
        expect(reply.status, path).toBe(503);
        expect(expectDetailOnly(reply)).toBe('The service is shutting down; retry after the Retry-After seconds.');
        expect(reply.headers['retry-after']).toBe('5');
        expect(reply.headers.connection).toBe('close');
        expectSecurityHeaders(reply.headers, `on the draining 503 of ${path}`);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

/** A request on a new connection (never a pooled one): rejects with the socket error when refused. */
function freshConnection(baseUrl: string, path: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, agent: false }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end();
  });
}

describe('the service as an operator runs it (child process)', () => {
  let dir: string;
  let service: ServiceProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drs-faults-'));
    for (const file of ['default.json', 'small.json']) copyFileSync(join(BUNDLED_SCHEDULES_DIR, file), join(dir, file));
    service = await startService({ APP_ENV: 'staging', API_KEYS: STAGING_KEY, SCHEDULES_DIR: dir, SOLVER_THREADS: '1', SHUTDOWN_GRACE_MS: '20000' });
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('scenario: schedule files that disappear at run time do not crash it: the schedules loaded at start keep being served', async () => {
    rmSync(dir, { recursive: true, force: true });
    const listing = await fetch(`${service.baseUrl}/flights/small`, { headers: { 'X-API-Key': STAGING_KEY } });
    expect(listing.status).toBe(200);
    const simulation = await postSimulation(service.baseUrl, { scenario_id: 'gone', disrupted_flight: SMALL_FLIGHT, min_delay_minutes: 60, schedule_file: 'small' });
    expect(simulation.status).toBe(200);
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
    expect(service.child.exitCode).toBeNull();
  });

  it('scenario: SIGTERM during a simulation: new connections are refused, the simulation completes with 200, the pool closes and the process exits 0', async () => {
    // A larger model (6 candidate aircraft × 500 routes) on one thread keeps the simulation in flight for a while.
    // Its 10 s limit (within the 20 s grace) leaves its strategies time for their plans on a loaded host: at 3 s,
    // beside a CPU hog and another test file, one run in CI answered with every strategy unsolved.
    const inFlight = postSimulation(service.baseUrl, {
      scenario_id: 'sigterm', disrupted_flight: 'NV536_2026-11-21T05:05:00Z', min_delay_minutes: 90,
      config: { solver: { max_candidate_aircraft: 6, max_routes_per_aircraft: 500, time_limit_ms: 10_000 } },
    });
    await expect.poll(async () => {
      const text = await (await fetch(`${service.baseUrl}/metrics`, { headers: { 'X-API-Key': STAGING_KEY } })).text();
      return /^simulations_in_flight 1$/m.test(text);
    }, { timeout: 15_000, interval: 20 }).toBe(true);
    service.child.kill('SIGTERM');
    // Not accepting any more: a new connection is refused while the simulation is still running.
    await expect.poll(() => freshConnection(service.baseUrl, '/health').then(() => 'accepted', (error: NodeJS.ErrnoException) => error.code), { timeout: 5000, interval: 20 }).toBe('ECONNREFUSED');
    expect(service.child.exitCode).toBeNull();
    const response = await inFlight;
    expect(response.status).toBe(200);
    const result = await response.json() as SimulationResponse;
    expect(result.scenario_id).toBe('sigterm');
    expect(result.options.length).toBeGreaterThan(0);
    expect(await service.exited, service.stderr()).toBe(0);
    expect(service.stderr()).toBe('');
  }, 90_000);
});

describe('schedule files missing or corrupt at start', () => {
  function start(env: Record<string, string>) {
    return import('node:child_process').then(({ spawnSync }) => spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', API_KEYS: 'k', ...env }, encoding: 'utf8', timeout: 20_000,
    }));
  }

  it('unit: a missing default schedule or a missing folder stops the service with exit 1 and a sentence naming it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'drs-empty-'));
    try {
      copyFileSync(join(BUNDLED_SCHEDULES_DIR, 'small.json'), join(empty, 'small.json'));
      const noDefault = await start({ SCHEDULES_DIR: empty });
      expect(noDefault.status).toBe(1);
      expect(noDefault.stderr.trim()).toBe(`Cannot start: Default schedule 'default' has no file default.json in ${empty}.`);
      const noFolder = await start({ SCHEDULES_DIR: join(empty, 'missing') });
      expect(noFolder.status).toBe(1);
      expect(noFolder.stderr.trim()).toBe(`Cannot start: Schedules folder ${join(empty, 'missing')} cannot be read (ENOENT).`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
