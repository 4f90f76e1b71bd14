// The bound round before the exact stage (src/recovery/network/service-search.ts; docs/model.md 4.6,
// "The dive before the exact stage"): below a job's budget the search's bound round dives over the
// network bound's routes without waiting for the exact re-accommodation of the rounds' plan, and only
// the answer's plan is re-accommodated exactly, after it. The condition it is for, forced: on a loaded
// host the exact stage's model (every journey of several flights) did not finish by its end (80 % of
// the budget) in any 10 s run at load average 13-18, and the dive that waited for it never started.
// Here every solve of such a model is stuck until its time limit, as GLPK starved is; the other solves
// run on real GLPK workers. The search still answers with the dive's plan, far below the walks' and the
// descent's plans, and the independent checker (test/oracle/checker.ts) reads it at its cost.
import { describe, expect, it } from 'vitest';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { relaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { RelaxationRoutes } from '../../src/recovery/bounds/relaxation-routes.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import type { Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { searchNetwork } from '../../src/recovery/network/service-search.ts';
import { answeredOption, defaultSchedule as schedule, prepareIssueStorm, stormProblems } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';
import { stuckSolve } from '../support/stuck-solve.ts';

const pool = solverPoolOfThisFile();

/** Whether a model holds a journey of several flights (its rebooking column's name joins them: row-families.ts): the exact stage's. */
const hasJourneys = (task: Parameters<Solver['solve']>[0]) => task.model.variables.some((v) => v.name.includes('__then__'));

describe('the bound round before the exact stage', () => {
  it('scenario: the exact stage\'s solves stuck until their limit, a 20 s search of the storm of issue 23 still answers with the dive\'s plan over the bound\'s routes, read by the checker at its cost', async () => {
    const partial = { solver: { time_limit_ms: 20_000 } };
    const storm = prepareIssueStorm('bound-round-first', partial);
    const { config, prepared: { scope, groups } } = storm;
    // The bound's routes after 100 steps in its thread (no clock: the same routes on a loaded machine),
    // told to the search at its bound round as the pipeline tells them.
    const told = new RelaxationRoutes(schedule, scope, config);
    await networkBound({ schedule, scope, groups, config }, pool, { maxIterations: 100, deadline: performance.now() + 600_000, thread: relaxationThread, onRoutes: told.hear });
    const heard = told.take();
    expect(heard.length).toBeGreaterThan(4 * scope.aircraft.length);
    let boundRoutes: Route[] = heard;
    const take = () => { const routes = boundRoutes; boundRoutes = []; return routes; };
    const solver: Solver = {
      solve: (task, options) => {
        if (!hasJourneys(task)) return pool.solve(task, options);
        return stuckSolve(task, options);
      },
    };
    // A 20 s request (below a job's 30 s: the stated limit decides) given 60 s to its deadline, for slack
    // on a loaded host: its bound round from 18 s, the dive until 45 s (this dive took 6 s of wall time
    // at load average 13 and 12.5 s at 21), the exact stage's end at 48 s.
    const found = await searchNetwork({ schedule, scope, config, groups, solver, deadline: performance.now() + 60_000, limitMs: 20_000, boundRoutes: take });
    expect(found.best).not.toBeNull();
    expect(found.passengers).toBe('direct_flights');
    // The walks' plans cost 1,928,660 and more, the descent's 1,553,315; the dive's over these routes about 1.18 M.
    const cost = found.best!.outcome.objective!;
    expect(cost).toBeLessThan(1_300_000);
    const option = answeredOption(storm, found.best!);
    expect(option.summary.cost).toBeCloseTo(cost, 2);
    expect(stormProblems(option, partial)).toEqual([]);
  }, 300_000);
});
