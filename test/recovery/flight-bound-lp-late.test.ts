// Scenario: the flight bound's LP (src/recovery/bounds/network-bound.ts, flightBoundLp) solved on a
// worker of the pool while the simulation thread is held past the bound's deadline (as a 2 s storm's
// first asking holds it with its walks, descent and model builds under load) is still heard: the
// bound is that LP's optimum, not the closed form's. Before, the pool's wait ended at the bound's
// deadline, and its timer was heard before the worker's answer (docs/model.md 3.9, "The flight
// bound's LP, heard late"). A file of its own: no bound thread may hold the problem (the module's
// threads are per test file), so the short budget's bound is the LP alone.
import { describe, expect, it } from 'vitest';
import { flightBoundModel } from '../../src/recovery/bounds/flight-bound.ts';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { warmRelaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';
import { committedHubStorm } from '../support/storms.ts';
import { inProcessSolver } from './fixtures.ts';

const pool = solverPoolOfThisFile(1);

describe('flight bound LP heard late', () => {
  it('scenario: the simulation thread held 1 s past a short bound\'s deadline while the LP (a few ms of CPU) ends on a worker: the bound is the LP\'s optimum', async () => {
    const { schedule, request, prepared } = committedHubStorm('small');
    const input = { schedule, scope: prepared.scope, groups: prepared.groups, config: request.config };
    const lp = await inProcessSolver.solve({ model: flightBoundModel(new RouteEvaluator(schedule, prepared.scope, request.config), prepared.groups), timeLimitMs: 60_000, mipGap: 0, relaxation: true });
    expect(lp.status).toBe('optimal');
    const deadline = performance.now() + 1_000;
    const bounding = networkBound(input, pool, { deadline, thread: warmRelaxationThread });
    // The LP is handed to its worker (the pool posts it once this turn's synchronous work is done);
    // then the simulation thread is held (no timer, no message heard) until 1 s past the bound's
    // deadline, from the event loop's check phase, as a search's walk after an await is: the loop's
    // next turn runs its due timers before it reads any worker's message.
    await new Promise((resolve) => setImmediate(resolve));
    while (performance.now() < deadline + 1_000) { /* held */ }
    const bound = await bounding;
    expect(bound).not.toBeNull();
    expect(bound!.flightBound).toBeCloseTo(lp.objective!, 6);
    expect(bound!.value).toBeCloseTo(lp.objective!, 6);
  }, 60_000);
});
