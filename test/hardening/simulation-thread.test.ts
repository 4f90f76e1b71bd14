// Scenario: the simulation thread main.ts runs simulations on (src/http/simulation-thread.ts): results
// and errors cross the thread boundary as in process, a client leaving cancels its waiting solves in
// the thread, and a thread that dies mid-simulation fails that simulation with 503 and is replaced.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SCHEDULES_DIR, loadConfig } from '../../src/config.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logging.ts';
import { startSimulationThread, type SimulationThread } from '../../src/runtime/simulation-thread.ts';
import { FlightNotFoundError, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import { DEFAULT_SOLVER_CONFIG, SolverConfigSchema } from '../../src/recovery/solver-config.ts';
import { SolveAbortedError, SolverBusyError } from '../../solver-wasm/pool.ts';
import { bundledCatalog, STAGING_KEY, TEST_ENV } from '../support/server.ts';
import { expectDetailOnly, expectSecurityHeaders, headersOf } from './support.ts';

let thread: SimulationThread;
const errors: Error[] = [];
beforeAll(async () => {
  thread = await startSimulationThread({
    schedulesDir: BUNDLED_SCHEDULES_DIR, defaultSchedule: 'default', pool: { threads: 1 }, onError: (error) => errors.push(error),
  });
});
afterAll(async () => { await thread.close(); });

const request = (overrides: Partial<SimulationRequest> = {}): SimulationRequest => ({
  scenarioId: 'thread', disruptedFlightId: 'NV100_2026-11-21T04:45:00Z', minDelayMinutes: 60, airline: 'NV', scheduleName: 'small', config: DEFAULT_SOLVER_CONFIG, ...overrides,
});
/** A larger model (6 candidate aircraft × 500 routes) that keeps the one solver busy for a while. */
const heavy = () => request({
  disruptedFlightId: 'NV536_2026-11-21T05:05:00Z', minDelayMinutes: 90, scheduleName: 'default',
  config: SolverConfigSchema.parse({ solver: { max_candidate_aircraft: 6, max_routes_per_aircraft: 500, time_limit_ms: 3000 } }),
});

describe('simulation thread', () => {
  it('unit: answers a simulation, its errors keep their class across the thread, and it reports its pool', async () => {
    const result = await thread.simulate(request(), new AbortController().signal);
    expect(result).toMatchObject({ scenario_id: 'thread', schedule_file: 'small', disrupted_flight: 'NV100_2026-11-21T04:45:00Z' });
    expect(result.options.length).toBeGreaterThan(0);
    const unknown = thread.simulate(request({ disruptedFlightId: 'NV999_2026-11-21T04:45:00Z' }), new AbortController().signal);
    await expect(unknown).rejects.toBeInstanceOf(FlightNotFoundError);
    await expect(unknown).rejects.toMatchObject({ flightId: 'NV999_2026-11-21T04:45:00Z', airline: 'NV' });
    expect(await thread.stats()).toMatchObject({ threads: 1, workersReady: 1, running: 0, queued: 0, maxQueue: 16 });
  });

  it('scenario: aborting a simulation whose solves wait drops them in the thread, and it rejects with SolveAbortedError', async () => {
    const before = await thread.stats();
    const first = thread.simulate(heavy(), new AbortController().signal);
    const controller = new AbortController();
    const second = thread.simulate(heavy(), controller.signal);
    second.catch(() => undefined);
    await expect.poll(async () => (await thread.stats()).queued, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(4);
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(SolveAbortedError);
    expect((await first).scenario_id).toBe('thread');
    const after = await thread.stats();
    expect(after.aborted - before.aborted).toBeGreaterThanOrEqual(4);
    expect(after.queued).toBe(0);
  });

  it('scenario: a thread that dies mid-simulation fails it with 503 {detail} over HTTP; a new thread serves the next one', async () => {
    const { config } = loadConfig({ ...TEST_ENV });
    const app = createApp({ config, logger: createLogger('silent'), schedules: bundledCatalog(), simulator: thread });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (body: object) => fetch(`${base}/simulate`, { method: 'POST', headers: { 'X-API-Key': STAGING_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const inFlight = post({ scenario_id: 'dies', disrupted_flight: 'NV536_2026-11-21T05:05:00Z', min_delay_minutes: 90, config: { solver: { max_candidate_aircraft: 6, max_routes_per_aircraft: 500 } } });
      await expect.poll(async () => (await thread.stats()).running + (await thread.stats()).queued, { timeout: 20_000, interval: 10 }).toBeGreaterThan(0);
      const old = thread.threadForTesting();
      await old.terminate();
      const response = await inFlight;
      const reply = { status: response.status, headers: headersOf(response), body: await response.text() };
      expect(reply.status).toBe(503);
      expect(expectDetailOnly(reply)).toBe('A solver failed during this simulation; it has been replaced, retry.');
      expect(reply.headers['retry-after']).toBe('2');
      expectSecurityHeaders(reply.headers, 'on the thread-crash 503');
      expect(errors.some((error) => /simulation thread stopped/.test(error.message))).toBe(true);
      const next = await post({ scenario_id: 'after', disrupted_flight: 'NV100_2026-11-21T04:45:00Z', min_delay_minutes: 60, schedule_file: 'small' });
      expect(next.status).toBe(200);
      expect(thread.threadForTesting()).not.toBe(old);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('unit: a simulation not answered by the deadline fails with SolverBusyError (503) instead of holding its client', async () => {
    const impatient = await startSimulationThread({ schedulesDir: BUNDLED_SCHEDULES_DIR, defaultSchedule: 'default', pool: { threads: 1 }, deadlineMs: 1 });
    try {
      const late = impatient.simulate(heavy(), new AbortController().signal);
      await expect(late).rejects.toBeInstanceOf(SolverBusyError);
      await expect(late).rejects.toThrow('The simulation did not finish within 1 ms.');
      // It was cancelled in the thread too: nothing is left waiting there.
      await expect.poll(async () => (await impatient.stats()).queued, { timeout: 10_000, interval: 20 }).toBe(0);
    } finally {
      await impatient.close();
    }
  });
});
