// The network search below a bound round's budget (the default 2 s; src/recovery/network/service-search.ts,
// docs/model.md 4.6, "The descent first at 2 s") runs its cancellation descent before it builds any
// model, and builds and prices the cheaper-looking of the descent's last walk and the best threshold's:
// on the storm of issue 23 (default schedule) the first plan it tells is already the descent's walk,
// cheaper than every threshold walk's plan, where the search before told the 90-minute walk's plan first.
// The same when the storm is asked again after a search without a dive (its answer kept, no routes its
// dives valued): the kept plan is solved alone, then the descent's walk, and no threshold walk.
// No time is asserted: the deadline (6.5 s, still below a bound round's budget) leaves the descent's
// 0.2-0.7 s of CPU about six times over.
import { describe, expect, it } from 'vitest';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { cancellationDescent, hasBoundRound, planWithoutSolver, searchNetwork, type SearchPassengers } from '../../src/recovery/network/service-search.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { defaultSchedule as schedule, prepareIssueStorm } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';

const pool = solverPoolOfThisFile();

describe('the network search at a short budget', () => {
  it('scenario: the storm of issue 23 with 6.5 s to the deadline, the first plan told is the cancellation descent\'s walk, cheaper than every threshold walk\'s', async () => {
    const { config, prepared: { scope, groups } } = prepareIssueStorm('short-descent');
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    const priced = (routes: ReadonlyMap<string, Route | null>) => {
      const plan = planWithoutSolver(buildStrategyModel(schedule, scope, config, 'integrated', new Map([...routes].map(([tail, route]) => [tail, [route!]])), groups));
      expect(plan).not.toBeNull();
      return plan!.objective!;
    };
    const thresholds = Math.min(...[Number.POSITIVE_INFINITY, 240, 150, 90, 45].map((thresholdMinutes) => priced(walks.walk({ thresholdMinutes }))));
    const descended = cancellationDescent(walks, config, Number.POSITIVE_INFINITY, () => undefined);
    expect(descended).not.toBeNull();
    const descent = priced(descended!.routes);
    expect(descent).toBeLessThan(thresholds);

    const deadlineMs = 6_500;
    expect(hasBoundRound(deadlineMs)).toBe(false);
    const told: { cost: number; passengers: SearchPassengers }[] = [];
    const found = await searchNetwork({
      schedule, scope, config, groups, solver: pool, deadline: performance.now() + deadlineMs,
      onIncumbent: (best, passengers) => told.push({ cost: best.outcome.objective!, passengers }),
    });
    expect(told.length).toBeGreaterThan(0);
    // The first plan told is the descent's walk priced without a solver (no threshold walk's before it).
    expect(told[0]!.passengers).toBe('without_solver');
    expect(told[0]!.cost).toBeCloseTo(descent, 2);
    // The answer is no dearer than that plan.
    expect(found.best).not.toBeNull();
    expect(found.best!.outcome.objective!).toBeLessThanOrEqual(descent + 1e-6);
  }, 120_000);

  it('scenario: asked again after a search without a dive (its answer kept, no routes valued), the descent still comes first: the kept plan is solved alone, the best threshold walk never', async () => {
    const { config, prepared: { scope, groups } } = prepareIssueStorm('short-descent-again');
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    const alone = (routes: ReadonlyMap<string, Route | null>) => buildStrategyModel(schedule, scope, config, 'integrated', new Map([...routes].map(([tail, route]) => [tail, [route!]])), groups);
    const routesCost = (routes: ReadonlyMap<string, Route | null>) => [...routes.values()].reduce((sum, route) => sum + route!.cost, 0);
    // The kept answer: the walk that cancels only what cannot fly (dearer than the descent's and the best threshold's).
    const kept = walks.walk({ thresholdMinutes: Number.POSITIVE_INFINITY });
    const keptCost = planWithoutSolver(alone(kept))!.objective!;
    // The threshold walk whose plan is the cheapest (the 90-minute walk): before, it was solved alone after the kept plan.
    const thresholdWalks = [240, 150, 90, 45].map((thresholdMinutes) => walks.walk({ thresholdMinutes }));
    const cheapest = thresholdWalks.map((routes) => ({ routes, cost: planWithoutSolver(alone(routes))!.objective! })).sort((p, q) => p.cost - q.cost)[0]!;
    expect(cheapest.cost).toBeLessThan(keptCost);
    // The solves the search sends over one route per aircraft (a plan alone), each told by its routes' cost.
    const solvedAlone: number[] = [];
    const recording: Solver = {
      solve: (task, options) => {
        const rows = task.model.constraints.filter((c) => c.name.startsWith('aircraft__'));
        if (rows.length === scope.aircraft.length && rows.every((c) => c.terms.length === 1)) {
          const costOf = new Map(task.model.variables.map((v) => [v.name, v.cost]));
          solvedAlone.push(rows.reduce((sum, c) => sum + costOf.get(c.terms[0]!.variable)!, 0));
        }
        return pool.solve(task, options);
      },
    };
    const found = await searchNetwork({
      schedule, scope, config, groups, solver: recording, deadline: performance.now() + 6_500,
      earlier: { plan: new Map([...kept].map(([tail, route]) => [tail, route!])), cost: keptCost, support: [] },
    });
    expect(solvedAlone.length).toBeGreaterThan(0);
    expect(solvedAlone[0]).toBeCloseTo(routesCost(kept), 2);
    expect(solvedAlone.some((cost) => Math.abs(cost - routesCost(cheapest.routes)) < 1e-6)).toBe(false);
    expect(found.best!.outcome.objective!).toBeLessThan(cheapest.cost);
  }, 120_000);
});
