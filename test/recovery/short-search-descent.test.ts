// The network search below a bound round's budget (the default 2 s; src/recovery/network/service-search.ts,
// docs/model.md 4.6, "The descent first at 2 s") runs its cancellation descent before it builds any
// model, and builds and prices the cheaper-looking of the descent's last walk and the best threshold's:
// on the storm of issue 23 (default schedule) the first plan it tells is already the descent's walk,
// cheaper than every threshold walk's plan, where the search before told the 90-minute walk's plan first.
// No time is asserted: the deadline (6.5 s, still below a bound round's budget) leaves the descent's
// 0.2-0.7 s of CPU about six times over.
import { describe, expect, it } from 'vitest';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { cancellationDescent, hasBoundRound, planWithoutSolver, searchNetwork, type SearchPassengers } from '../../src/recovery/network/service-search.ts';
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
});
