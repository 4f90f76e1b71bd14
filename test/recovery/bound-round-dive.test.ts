// The bound round's dive (src/recovery/network/service-search.ts, diveForPlan; docs/model.md 4.6) on the
// storm of issue 23 (default schedule): over the routes the network bound tells after 60 steps
// (RelaxationRoutes, as the pipeline hears them), each aircraft grounded and the search's first walks,
// it fixes routes LP by LP down to a plan of the integrated model (the cheapest walk's routes kept beside
// the fixed ones in its last model). The plan costs no less than GLPK's
// optimum over the same pool (the dive only restricts that model), far less than the walks' own plans,
// and the independent checker (test/oracle/checker.ts) reads it at the cost reported.
import { describe, expect, it } from 'vitest';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { relaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { RelaxationRoutes } from '../../src/recovery/bounds/relaxation-routes.ts';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel, chosenRoutes } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { diveForPlan } from '../../src/recovery/network/service-search.ts';
import { answeredOption, defaultSchedule as schedule, prepareIssueStorm, stormProblems } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';

const pool = solverPoolOfThisFile();

describe('the bound round\'s dive', () => {
  it('scenario: over the routes the bound tells on the storm of issue 23, the dive\'s plan is one of the integrated model, no cheaper than its optimum, far cheaper than the walks\', and the checker reads it at its cost', async () => {
    const storm = prepareIssueStorm('dive', { solver: { time_limit_ms: 10_000 } });
    const { config, prepared: { scope, groups } } = storm;
    // The bound in its thread, as the service runs it (60 steps: no clock, the same routes on a loaded machine).
    const told = new RelaxationRoutes(schedule, scope, config);
    await networkBound({ schedule, scope, groups, config }, pool, { maxIterations: 60, deadline: performance.now() + 600_000, thread: relaxationThread, onRoutes: told.hear });
    const ev = new RouteEvaluator(schedule, scope, config);
    const routes = new Map(scope.aircraft.map((a): [string, Route[]] => [a.aircraft.tail, []]));
    const keys = new Set<string>();
    const add = (route: Route | null | undefined) => { if (route && !keys.has(route.key)) { keys.add(route.key); routes.get(route.tail)!.push(route); } };
    const bound = told.take();
    expect(bound.length).toBeGreaterThan(scope.aircraft.length);
    for (const route of bound) add(route);
    for (const a of scope.aircraft) add(ev.finish(a, [], a.checks.map(() => null)));
    // The search's portfolio of walks, and the cheapest of their plans alone.
    const walks = new ScopeWalks(scope, ev, config.solver.time_step_minutes);
    let cheapestWalk = Number.POSITIVE_INFINITY;
    let fallback = new Map<string, Route>();
    for (const thresholdMinutes of [Number.POSITIVE_INFINITY, 240, 150, 90, 45]) {
      const walked = walks.walk({ thresholdMinutes });
      for (const route of walked.values()) add(route);
      const alone = await pool.solve({ model: buildStrategyModel(schedule, scope, config, 'integrated', new Map([...walked].map(([tail, route]) => [tail, [route!]])), groups).model, timeLimitMs: 60_000, mipGap: 0 });
      if (alone.objective !== null && alone.objective < cheapestWalk) {
        cheapestWalk = alone.objective;
        fallback = new Map([...walked].map(([tail, route]) => [tail, route!]));
      }
    }
    const far = performance.now() + 600_000;
    const dived = await diveForPlan({ schedule, scope, config, groups, solver: pool, deadline: far, until: far, pool: routes, fallback });
    expect(dived).not.toBeNull();
    const cost = dived!.outcome.objective!;
    // One route per aircraft, from the pool.
    const chosen = chosenRoutes(dived!.model, dived!.outcome.values);
    expect(chosen.size).toBe(scope.aircraft.length);
    for (const route of chosen.values()) expect(keys.has(route.key)).toBe(true);
    // The same model over the whole pool, solved to optimality, costs no more; the walks' plans far more.
    const optimum = await pool.solve({ model: buildStrategyModel(schedule, scope, config, 'integrated', routes, groups).model, timeLimitMs: 300_000, mipGap: 0 });
    expect(optimum.status).toBe('optimal');
    expect(cost).toBeGreaterThanOrEqual(optimum.objective! - 1e-6);
    expect(cost).toBeLessThan(0.9 * cheapestWalk);
    // The checker recomputes every figure from the action set and the schedule: the cost reported is the plan's.
    const option = answeredOption(storm, { model: dived!.model, outcome: { ...dived!.outcome, status: 'feasible', lowerBound: null }, iterations: 0, boundSource: null, facts: { kind: 'running' } });
    expect(option.summary.cost).toBeCloseTo(cost, 2);
    expect(stormProblems(option, { solver: { time_limit_ms: 10_000 } })).toEqual([]);
  }, 600_000);
});
