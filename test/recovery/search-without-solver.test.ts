// The network engine's plan without a solver (src/recovery/network/service-search.ts, planWithoutSolver;
// docs/model.md 4.6) on the storm of issue 23 (default schedule): a walk's routes with their passengers
// compensated or moved greedily onto free seats of direct flights, priced in JavaScript. Its values are
// a plan of the model (GLPK's optimum over the same model costs no more), and the independent checker
// (test/oracle/checker.ts, which shares no code with the engine) prices the plan read from them at the
// cost reported. Then the condition it is for, forced: a solver whose every solve ends at its time limit
// without a plan (as a stuck GLPK does), beside a CPU hog; the integrated option is still answered.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { planWithoutSolver } from '../../src/recovery/network/service-search.ts';
import { simulate } from '../../src/recovery/pipeline.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { answeredOption, defaultSchedule as schedule, prepareIssueStorm, stormProblems } from '../support/storm-plan.ts';
import { stuckSolve } from '../support/stuck-solve.ts';

let pool: SolverPool;
let hog: ChildProcess | undefined;
beforeAll(async () => {
  pool = createSolverPool({ threads: 2 });
  await pool.ready();
});
afterAll(async () => {
  hog?.kill();
  await pool.close();
});

describe('the network engine\'s plan without a solver', () => {
  it('unit: a walk of the storm of issue 23 priced without a solver is a plan of its model, at the cost the checker reads from it', async () => {
    const storm = prepareIssueStorm('no-solver');
    const { config, prepared: { scope, groups } } = storm;
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    for (const thresholdMinutes of [Number.POSITIVE_INFINITY, 90]) {
      const routes = walks.walk({ thresholdMinutes });
      const model = buildStrategyModel(schedule, scope, config, 'integrated', new Map([...routes].map(([tail, route]) => [tail, [route!]])), groups);
      const plan = planWithoutSolver(model);
      expect(plan, `threshold ${thresholdMinutes}`).not.toBeNull();
      // A point of the model: the solver's optimum over the same routes costs no more.
      const solved = await pool.solve({ model: model.model, timeLimitMs: 60_000, mipGap: 0 });
      expect(solved.status).toBe('optimal');
      expect(solved.objective!).toBeLessThanOrEqual(plan!.objective! + 1e-6);
      // The checker recomputes every figure from the action set and the schedule: the cost reported is the plan's.
      const option = answeredOption(storm, { model, outcome: plan!, iterations: 0, boundSource: null, facts: { kind: 'running' } });
      expect(option.summary.cost).toBeCloseTo(plan!.objective!, 2);
      expect(stormProblems(option)).toEqual([]);
      // The greedy step moved passengers onto free seats (else every disrupted passenger is compensated).
      expect(option.summary.passengers_reaccommodated).toBeGreaterThan(0);
    }
  }, 180_000);

  it('scenario: every solve stuck until its time limit, beside a CPU hog: the integrated option is the network engine\'s walk, time_limit, with a bound, accepted by the checker', async () => {
    hog = spawn('yes', [], { stdio: 'ignore' });
    let solves = 0;
    // As GLPK stuck on every model: no plan, its time limit (or the caller's deadline) spent first.
    const stuck: Solver = {
      solve: (task, options) => {
        solves++;
        return stuckSolve(task, options);
      },
    };
    // 2 s, the default: the walks, the descent's 30 % and the models take 0.2-0.3 s of CPU on this storm.
    const partial = { solver: { time_limit_ms: 2_000 } };
    const { request } = prepareIssueStorm('stuck', partial);
    const result = presentSimulation(schedule, await simulate(schedule, request, stuck));
    expect(solves).toBeGreaterThan(0);
    const integrated = result.options.find((o) => o.strategy === 'integrated');
    expect(integrated, JSON.stringify(result.unsolved_strategies)).toBeDefined();
    expect(integrated!.solver.engine).toBe('network');
    expect(integrated!.solver.status).toBe('time_limit');
    expect(integrated!.solver.note).toMatch(/No solve of the search ended with a plan in time/);
    // The flight bound in closed form needs no solve: the cut overfills VIE's hours.
    expect(integrated!.solver.lower_bound).toBeGreaterThan(0);
    expect(integrated!.solver.lower_bound!).toBeLessThan(integrated!.summary.cost);
    expect(stormProblems(integrated!, partial)).toEqual([]);
  }, 120_000);
});
