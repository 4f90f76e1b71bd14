// The network search's path is decided by the request's stated limit (src/recovery/network/service-search.ts,
// LONG_BUDGET_MS; docs/model.md 4.6), not by the time left to its deadline: a 30 s request's search sees
// about 29 s (the read reserve and the preparation come off), and took the short path (no large
// neighbourhoods) before. Forced here: the same search, on a small network scope of the default schedule
// (an aircraft out of service for six hours), with 5 s to its deadline, once told the stated limit of a
// job and once not. No time is asserted: the scope's rounds and exact stage take a small part of the
// 3.6 s before the neighbourhoods' end.
import { describe, expect, it } from 'vitest';
import { searchNetwork } from '../../src/recovery/network/service-search.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { ISSUE_23_STORM } from '../../benchmarks/storm.ts';
import { defaultSchedule as schedule, solverConfigOf } from '../support/storm-plan.ts';
import { solverPoolOfThisFile } from '../support/solver-pool.ts';

const pool = solverPoolOfThisFile();

describe('the network search\'s budget', () => {
  it('scenario: a job\'s stated limit (30 s) gets the large neighbourhoods with less time left than that; the same search without it gets none', async () => {
    const config = solverConfigOf({ solver: { time_limit_ms: 30_000 } });
    const outOfService = ISSUE_23_STORM.filter((d) => d.type === 'aircraft_unavailable');
    const prepared = prepareSimulation(schedule, { scenarioId: 'stated-limit', airline: 'NV', scheduleName: 'default', config, disruptions: outOfService, disruptedFlightId: null });
    expect(prepared.engine.engine).toBe('network');
    const search = (limitMs?: number) => searchNetwork({ schedule, scope: prepared.scope, config, groups: prepared.groups, solver: pool, deadline: performance.now() + 5_000, limitMs });
    const job = await search(30_000);
    expect(job.best).not.toBeNull();
    expect(job.neighbourhoods).toBeGreaterThan(0);
    const short = await search();
    expect(short.best).not.toBeNull();
    expect(short.neighbourhoods).toBe(0);
    // The neighbourhoods only improve: the job's plan costs no more than the short path's.
    expect(job.best!.outcome.objective!).toBeLessThanOrEqual(short.best!.outcome.objective! + 1e-6);
  }, 120_000);
});
