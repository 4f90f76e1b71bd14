// The network engine's cancellation descent (src/recovery/network/service-search.ts, docs/model.md 4.6)
// on the storm of issue 23 (default schedule), with a real solver pool: from the whole-network walk
// that cancels nothing it cancels round trips one at a time, each step's walk looking cheaper than the
// last; its last walk, solved alone with its passengers re-accommodated on direct flights, costs less
// than the cheapest walk of the portfolio's cancellation thresholds solved the same way, and the plan
// passes the independent checker (test/oracle/checker.ts, which shares no code with the engine).
import { describe, expect, it } from 'vitest';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import type { StrategySolve } from '../../src/recovery/neighbourhood/column-generation.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { cancellationDescent } from '../../src/recovery/network/service-search.ts';
import { answeredOption, defaultSchedule as schedule, prepareIssueStorm, stormProblems } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';

const pool = solverPoolOfThisFile();

describe('the cancellation descent of the network engine', () => {
  it('scenario: the storm of issue 23, its last walk is cheaper than every threshold\'s walk and the checker accepts its plan', async () => {
    const storm = prepareIssueStorm('descent');
    const { config, prepared: { scope, groups } } = storm;
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    const planOf = async (routes: ReadonlyMap<string, Route | null>): Promise<StrategySolve> => {
      const model = buildStrategyModel(schedule, scope, config, 'integrated', new Map([...routes].map(([tail, route]) => [tail, [route!]])), groups);
      const outcome = await pool.solve({ model: model.model, timeLimitMs: 60_000, mipGap: 0 });
      expect(outcome.status).toBe('optimal');
      return { model, outcome, iterations: 0, boundSource: null, facts: { kind: 'running' } };
    };

    // No clock in the way: the descent runs until no step looks cheaper.
    const steps: ReadonlyMap<string, Route | null>[] = [];
    const cancelledIn = (routes: ReadonlyMap<string, Route | null>) => [...walks.planned.values()].flat().length - [...routes.values()].reduce((sum, r) => sum + r!.legs.length, 0);
    const descended = cancellationDescent(walks, config, Number.POSITIVE_INFINITY, (routes) => steps.push(routes));
    expect(descended).not.toBeNull();
    expect(steps.length).toBeGreaterThan(1);
    // The first walk cancels nothing the rules let fly; each step cancels more.
    for (let i = 1; i < steps.length; i++) expect(cancelledIn(steps[i]!)).toBeGreaterThan(cancelledIn(steps[i - 1]!));
    expect(steps.at(-1)).toBe(descended!.routes);

    const plan = await planOf(descended!.routes);
    const thresholds = await Promise.all([Number.POSITIVE_INFINITY, 240, 150, 90, 45].map(async (thresholdMinutes) => (await planOf(walks.walk({ thresholdMinutes }))).outcome.objective!));
    expect(plan.outcome.objective!).toBeLessThan(Math.min(...thresholds));

    // The plan as the service answers it, judged from the schedule file and the disruptions alone.
    // Every rule and figure holds but the cheapest re-accommodation: solved alone, the walk's passengers
    // are re-accommodated on direct flights.
    expect(stormProblems(answeredOption(storm, plan))).toEqual([]);
  }, 180_000);
});
