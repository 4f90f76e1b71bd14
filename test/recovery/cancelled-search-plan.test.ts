// Scenario: a simulation under the network engine cancelled while it reports its first plans (as DELETE
// on a running job cancels it: runtime/jobs/job-runner.ts answers with the last plans reported) never
// reports a plan of the integrated strategy dearer than one it reported before. The job of
// test/jobs/embedded.test.ts ('cancel-me', two long delays, 30 s), cancelled right after its third
// report of plans, in process: its network search prices two walks without a solver (277,935 and
// 86,820), then its first round's solve of the first walk ends (277,935 again, on direct flights).
// Before the pipeline kept the cheapest plan the search told, that report showed 277,935 after 86,820,
// and a job cancelled then answered 277,935 after showing 86,820 running (seen under load).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/recovery/model/budget.ts';
import { RecoveryError } from '../../src/recovery/model/failure.ts';
import { DEFAULT_SOLVER_CONFIG } from '../../src/recovery/model/solver-config.ts';
import { simulate, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { defaultSchedule as schedule } from '../support/storm-plan.ts';

let pool: SolverPool;
beforeAll(async () => {
  // One worker, as the jobs tests' service has (SOLVER_THREADS=1).
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

/** The body longDelays(30_000, 'cancel-me') of test/jobs/support.ts, as the pipeline takes it. */
const CANCEL_ME: SimulationRequest = {
  scenarioId: 'cancel-me', airline: 'NV', scheduleName: 'default', disruptedFlightId: null,
  disruptions: [
    { type: 'flight_delay', flightId: 'NV146_2026-11-21T07:50:00Z', minDelayMinutes: 240 },
    { type: 'flight_delay', flightId: 'NV260_2026-11-21T08:40:00Z', minDelayMinutes: 45 },
  ],
  config: { ...DEFAULT_SOLVER_CONFIG, solver: { ...DEFAULT_SOLVER_CONFIG.solver, time_limit_ms: 30_000 } },
};

describe('a cancelled network search', () => {
  it('scenario: cancelled after its third report of plans, no report shows an integrated plan dearer than an earlier one, and the last is the cheapest', async () => {
    const cancel = new AbortController();
    const integratedCosts: number[] = [];
    const bestCosts: number[] = [];
    const run = simulate(schedule, CANCEL_ME, pool, Budget.start(CANCEL_ME.config.solver.time_limit_ms, cancel.signal, { background: true }), (progress) => {
      if (progress.bestCost !== null) bestCosts.push(progress.bestCost);
      const integrated = progress.result?.options.find((o) => o.strategy === 'integrated');
      if (!integrated) return;
      integratedCosts.push(integrated.kpis.cost);
      if (integratedCosts.length === 3) cancel.abort();
    });
    const ended = await run.then(() => null, (error: unknown) => error);
    // Cancelled while its generations still ran (a simulation that ended first proves nothing here).
    expect(ended).toBeInstanceOf(RecoveryError);
    expect((ended as RecoveryError).failure.kind).toBe('aborted');
    expect(integratedCosts.length).toBeGreaterThanOrEqual(3);
    // A job shows any of these reports running and answers with the last one when cancelled.
    for (let i = 1; i < integratedCosts.length; i++) expect(integratedCosts[i], `report ${i + 1} of ${integratedCosts.join(', ')}`).toBeLessThanOrEqual(integratedCosts[i - 1]!);
    for (let i = 1; i < bestCosts.length; i++) expect(bestCosts[i]).toBeLessThanOrEqual(bestCosts[i - 1]!);
    expect(integratedCosts.at(-1)).toBe(Math.min(...integratedCosts));
  }, 120_000);
});
