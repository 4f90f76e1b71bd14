// Scenario: the restricted thread (src/runtime/simulation-thread-restricted.ts) solves a single
// delay's cancellation and delay propagation strategies while the integrated one is solved here: the
// same options as with every strategy on one thread, only for the simulations it suits, and a
// restricted thread that dies fails its simulation as crashed and is replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/recovery/model/budget.ts';
import { simulate, type SimulationRequest, type SolveElsewhere } from '../../src/recovery/pipeline.ts';
import type { SimulationResult } from '../../src/recovery/model/result.ts';
import { SolverConfigSchema } from '../../src/recovery/model/solver-config.ts';
import { startRestrictedThread, type RestrictedThread } from '../../src/runtime/simulation-thread-restricted.ts';
import { startSimulationThread } from '../../src/runtime/simulation-thread.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { bundledCatalog } from '../support/server.ts';

let pool: SolverPool;
let restricted: RestrictedThread;
const errors: Error[] = [];
const schedules = bundledCatalog();
const schedule = schedules.resolve('small')!.schedule;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  restricted = await startRestrictedThread({ schedules: new Map([['small', schedule]]), defaultSchedule: 'small', pool: {}, warmUp: [] }, (error) => errors.push(error));
  await pool.ready();
}, 60_000);
afterAll(async () => { await Promise.all([pool.close(), restricted.close()]); });

// A 60 s limit, far above what these proofs take, so that every strategy is proven on either side: the
// restricted strategies, cut at 10 % of it once the integrated one is proven, have 6 s even when the
// machine is loaded.
const LIMIT_MS = 60_000;
const config = SolverConfigSchema.parse({ solver: { time_limit_ms: LIMIT_MS } });
const delay = (flightId: string, minDelayMinutes: number): SimulationRequest => ({
  scenarioId: 'restricted', disruptedFlightId: flightId, disruptions: [{ type: 'flight_delay', flightId, minDelayMinutes }], airline: 'NV', scheduleName: 'small', config,
});

/** The restricted thread, recording the strategies of every request it took. */
function recorded(): { elsewhere: SolveElsewhere; handed: string[][] } {
  const handed: string[][] = [];
  return {
    handed,
    elsewhere: (request, budget) => {
      const solves = restricted.solve(request, budget);
      if (solves) handed.push([...request.config.strategies.evaluate]);
      return solves;
    },
  };
}

const costs = (result: SimulationResult) => Object.fromEntries(result.options.map((o) => [o.strategy, { cost: o.kpis.cost, status: o.solver.status }]));

describe('restricted thread', () => {
  it('scenario: a single delay gets the same proven options with its restricted strategies on the restricted thread', async () => {
    const request = delay('NV100_2026-11-21T04:45:00Z', 90);
    const { elsewhere, handed } = recorded();
    const split = await simulate(schedule, request, pool, Budget.start(LIMIT_MS), undefined, elsewhere);
    const one = await simulate(schedule, request, pool, Budget.start(LIMIT_MS));
    expect(handed.map((strategies) => strategies.sort())).toEqual([['cancellation', 'delay_propagation']]);
    expect(split.options.map((o) => o.strategy).sort()).toEqual(['aircraft_swap', 'cancellation', 'delay_propagation', 'integrated']);
    for (const o of split.options) expect(o.solver.status, o.strategy).toBe('optimal');
    expect(costs(split)).toEqual(costs(one));
    // Ranked as one result: ranks 1..n by cost.
    expect(split.options.map((o) => o.rank)).toEqual(split.options.map((_, i) => i + 1));
  }, 120_000);

  it('unit: a simulation with progress reports (a job), or with several disruptions, keeps every strategy here', async () => {
    const { elsewhere, handed } = recorded();
    await simulate(schedule, delay('NV100_2026-11-21T04:45:00Z', 60), pool, Budget.start(LIMIT_MS), () => undefined, elsewhere);
    const other = schedule.flightsByAirline.get('NV')!.find((f) => f.id !== 'NV100_2026-11-21T04:45:00Z')!.id;
    const two: SimulationRequest = {
      ...delay('NV100_2026-11-21T04:45:00Z', 60), disruptedFlightId: null,
      disruptions: [{ type: 'flight_delay', flightId: 'NV100_2026-11-21T04:45:00Z', minDelayMinutes: 60 }, { type: 'flight_delay', flightId: other, minDelayMinutes: 30 }],
    };
    const result = await simulate(schedule, two, pool, Budget.start(LIMIT_MS), undefined, elsewhere);
    expect(handed).toEqual([]);
    expect(result.options.length).toBeGreaterThan(0);
  }, 120_000);

  it('scenario: a restricted thread that dies mid-simulation fails it as crashed; a new thread takes the next one', async () => {
    const { elsewhere, handed } = recorded();
    const first = simulate(schedule, delay('NV100_2026-11-21T04:45:00Z', 120), pool, Budget.start(LIMIT_MS), undefined, elsewhere);
    first.catch(() => undefined);
    await expect.poll(() => handed.length, { timeout: 20_000, interval: 5 }).toBe(1);
    await restricted.threadForTesting()!.terminate();
    await expect(first).rejects.toMatchObject({ failure: { kind: 'crashed' } });
    await expect.poll(() => restricted.threadForTesting() !== null, { timeout: 60_000, interval: 50 }).toBe(true);
    const next = await simulate(schedule, delay('NV100_2026-11-21T04:45:00Z', 120), pool, Budget.start(LIMIT_MS), undefined, elsewhere);
    expect(handed.length).toBe(2);
    expect(next.options.map((o) => o.strategy).sort()).toEqual(['aircraft_swap', 'cancellation', 'delay_propagation', 'integrated']);
    expect(errors.some((e) => /restricted thread stopped/.test(e.message))).toBe(true);
  }, 180_000);

  it('scenario: the simulation thread, with its restricted thread (SIMULATION_RESTRICTED_THREAD=on; started once the simulation thread is ready), answers single delays with every strategy proven and closes both', async () => {
    const own: Error[] = [];
    const thread = await startSimulationThread({ schedules, pool: { threads: 1 }, onError: (error) => own.push(error), restrictedThread: true });
    try {
      // The first may be solved before the restricted thread is up, the later ones after (while it warms up).
      for (const minutes of [90, 60, 120]) {
        const result = await thread.run(delay('NV100_2026-11-21T04:45:00Z', minutes), Budget.start(LIMIT_MS));
        expect(result.options.map((o) => o.strategy).sort()).toEqual(['aircraft_swap', 'cancellation', 'delay_propagation', 'integrated']);
        for (const o of result.options) expect(o.solver.status, o.strategy).toBe('optimal');
      }
    } finally {
      await thread.close();
    }
    expect(own).toEqual([]);
  }, 180_000);
});
