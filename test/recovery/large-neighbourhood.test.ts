// The network engine's large-neighbourhood search (src/recovery/network/large-neighbourhood.ts,
// docs/model.md 4.6) on the storm of issue 23 (default schedule), with a real solver pool: from the plan
// of the whole-network walk that only cancels what cannot fly (its passengers re-accommodated on
// direct flights), it finds a cheaper plan of the whole problem, and that plan passes the independent
// checker (test/oracle/checker.ts, which shares no code with the engine); a cheaper plan found
// elsewhere (in the pipeline, the integrated column generation's) is taken up at its own cost.
import { describe, expect, it } from 'vitest';
import { RecoveryError } from '../../src/recovery/model/failure.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import type { StrategySolve } from '../../src/recovery/neighbourhood/column-generation.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { searchNeighbourhoods } from '../../src/recovery/network/large-neighbourhood.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { answeredOption, defaultSchedule as schedule, prepareIssueStorm, stormProblems } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';

const pool = solverPoolOfThisFile();

describe('the large-neighbourhood search of the network engine', () => {
  it('scenario: the storm of issue 23, from the plan that only cancels what cannot fly, finds a cheaper plan that the checker accepts', async () => {
    const storm = prepareIssueStorm('neighbourhoods');
    const { config, prepared: { scope, groups } } = storm;
    const walked = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes).walk({ thresholdMinutes: Number.POSITIVE_INFINITY });
    const model = buildStrategyModel(schedule, scope, config, 'integrated', new Map([...walked].map(([tail, route]) => [tail, [route!]])), groups);
    const outcome = await pool.solve({ model: model.model, timeLimitMs: 60_000, mipGap: 0 });
    expect(outcome.status).toBe('optimal');
    const start: StrategySolve = { model, outcome, iterations: 0, boundSource: null, facts: { kind: 'running' } };

    // The search runs until its deadline; the first cheaper plan is all this test asks (the signal then stops it).
    const stop = new AbortController();
    const better: StrategySolve[] = [];
    let neighbourhoods = 0;
    await searchNeighbourhoods({
      schedule, scope, config, groups, solver: pool, signal: stop.signal, deadline: performance.now() + 90_000, best: start,
      onBetter: (plan) => {
        better.push(plan);
        stop.abort();
      },
    }).then((done) => { neighbourhoods = done.neighbourhoods; }, (error: unknown) => {
      if (!(error instanceof RecoveryError) || !stop.signal.aborted) throw error;
    });
    expect(better.length, `no cheaper plan in ${neighbourhoods} neighbourhoods`).toBe(1);
    const plan = better[0]!;
    expect(plan.outcome.objective!).toBeLessThan(outcome.objective!);
    expect(plan.outcome.status).toBe('feasible');

    // The plan as the service answers it, judged from the schedule file and the disruptions alone.
    // Every rule and figure holds but the cheapest re-accommodation: the search's plans re-accommodate
    // their passengers over direct flights (its last step re-accommodates the best one over every journey).
    expect(stormProblems(answeredOption(storm, plan))).toEqual([]);
  }, 180_000);

  it('scenario: a cheaper plan found elsewhere (the generation\'s, here the 90-minute walk\'s) is taken up as the plan to improve', async () => {
    const { config, prepared: { scope, groups } } = prepareIssueStorm('elsewhere');
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    const planOf = async (thresholdMinutes: number): Promise<StrategySolve> => {
      const routes = walks.walk({ thresholdMinutes });
      const model = buildStrategyModel(schedule, scope, config, 'integrated', new Map([...routes].map(([tail, route]) => [tail, [route!]])), groups);
      const outcome = await pool.solve({ model: model.model, timeLimitMs: 60_000, mipGap: 0 });
      expect(outcome.status).toBe('optimal');
      return { model, outcome, iterations: 0, boundSource: null, facts: { kind: 'running' } };
    };
    const start = await planOf(Number.POSITIVE_INFINITY);
    const other = await planOf(90);
    expect(other.outcome.objective!).toBeLessThan(start.outcome.objective!);
    const stop = new AbortController();
    const better: number[] = [];
    await searchNeighbourhoods({
      schedule, scope, config, groups, solver: pool, signal: stop.signal, deadline: performance.now() + 90_000, best: start, elsewhere: () => other,
      onBetter: (plan) => {
        better.push(plan.outcome.objective!);
        stop.abort();
      },
    }).catch((error: unknown) => {
      if (!(error instanceof RecoveryError) || !stop.signal.aborted) throw error;
    });
    // Judged by the same whole-scope model over the same routes: the same cost.
    expect(better).toHaveLength(1);
    expect(better[0]!).toBeCloseTo(other.outcome.objective!, 4);
  }, 180_000);
});
