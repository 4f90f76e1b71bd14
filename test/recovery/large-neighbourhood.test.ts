// The network engine's large-neighbourhood search (src/recovery/network/large-neighbourhood.ts,
// docs/model.md 4.6) on the storm of issue 23 (default schedule), with a real solver pool: from the plan
// of the whole-network walk that only cancels what cannot fly (its passengers re-accommodated on
// direct flights), it finds a cheaper plan of the whole problem, and that plan passes the independent
// checker (test/oracle/checker.ts, which shares no code with the engine); a cheaper plan found
// elsewhere (in the pipeline, the integrated column generation's) is taken up at its own cost.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import { RecoveryError } from '../../src/recovery/model/failure.ts';
import type { SimulationResult } from '../../src/recovery/model/result.ts';
import { resolveSolverConfig } from '../../src/recovery/model/solver-config.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import type { StrategySolve } from '../../src/recovery/neighbourhood/column-generation.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { searchNeighbourhoods } from '../../src/recovery/network/large-neighbourhood.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { prepareSimulation, readOptions } from '../../src/recovery/pipeline.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { ISSUE_23_STORM } from '../../benchmarks/storm.ts';
import { schedulePath } from '../../benchmarks/lib/schedules.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { ISSUE_23_STORM_REQUEST as STORM } from '../support/storms.ts';

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 2 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

describe('the large-neighbourhood search of the network engine', () => {
  it('scenario: the storm of issue 23, from the plan that only cancels what cannot fly, finds a cheaper plan that the checker accepts', async () => {
    const schedule = loadScheduleFile(schedulePath('default'));
    const resolved = resolveSolverConfig({});
    if (!resolved.valid) throw new Error('invalid configuration');
    const config = resolved.config;
    const request = { scenarioId: 'neighbourhoods', airline: 'NV', scheduleName: 'default', config, disruptions: ISSUE_23_STORM, disruptedFlightId: null };
    const prepared = prepareSimulation(schedule, request);
    const { scope, groups } = prepared;
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
    const { options } = readOptions(schedule, prepared, config, [plan]);
    expect(options).toHaveLength(1);
    expect(options[0]!.kpis.cost).toBeCloseTo(plan.outcome.objective!, 2);
    const result: SimulationResult = {
      scenarioId: request.scenarioId, airline: 'NV', scheduleName: 'default', disruptedFlightId: null, disruptions: scope.disruptions,
      disruptionMinutes: scope.disruptionMinutes, windowEndMinutes: scope.windowEndMinutes,
      scope: { tails: scope.aircraft.map((a) => a.aircraft.tail), flights: scope.flights.length, itineraries: groups.misconnections.length },
      options, violations: prepared.violations, unsolved: [], timingsMs: { total: 0, build: 0, solve: 0 },
    };
    const option = presentSimulation(schedule, result).options[0]!;
    const file = JSON.parse(readFileSync(fileURLToPath(new URL('../../schedules/default.json', import.meta.url)), 'utf8')) as ScheduleFile;
    const problems = checkOption({ schedule: file, disruptions: STORM, airline: 'NV', config: oracleConfig(), option });
    // Every rule and figure holds. The one line left out: the search's plans re-accommodate their
    // passengers over direct flights (its last step, after it, re-accommodates the best one over every
    // journey: service-search.ts), so a cheaper re-accommodation over several flights may exist.
    expect(problems.filter((p) => !/^The re-accommodation costs .* but the cheapest one for these aircraft decisions costs/.test(p))).toEqual([]);
  }, 180_000);

  it('scenario: a cheaper plan found elsewhere (the generation\'s, here the 90-minute walk\'s) is taken up as the plan to improve', async () => {
    const schedule = loadScheduleFile(schedulePath('default'));
    const resolved = resolveSolverConfig({});
    if (!resolved.valid) throw new Error('invalid configuration');
    const config = resolved.config;
    const prepared = prepareSimulation(schedule, { scenarioId: 'elsewhere', airline: 'NV', scheduleName: 'default', config, disruptions: ISSUE_23_STORM, disruptedFlightId: null });
    const { scope, groups } = prepared;
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
