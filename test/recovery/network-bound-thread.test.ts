// The network bound's threads (src/recovery/bounds/network-bound-thread.ts, docs/model.md 3.9) under a
// short budget: warmRelaxationThread starts no thread within the budget. A file of its own so that no
// thread is started before it (the module's threads are per test file).
import { describe, expect, it } from 'vitest';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { idleBoundThreads, warmRelaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { loadScenarios, simulationRequest } from '../../benchmarks/lib/scenarios.ts';
import { loadSchedulesFor } from '../../benchmarks/lib/schedules.ts';
import { inProcessSolver } from './fixtures.ts';

describe('network bound thread', () => {
  it('scenario: a short budget\'s bound finds no thread started, so it is the flight bound\'s LP, and leaves one that builds its relaxation once the simulation is done, for the next, which iterates there', async () => {
    const scenario = loadScenarios().find((s) => s.schedule === 'small' && s.id === 'hub-storm')!;
    const schedule = loadSchedulesFor([scenario]).get('small')!;
    const request = simulationRequest(scenario);
    const prepared = prepareSimulation(schedule, request);
    const input = { schedule, scope: prepared.scope, groups: prepared.groups, config: request.config };
    expect(idleBoundThreads()).toBe(0);
    // The simulation's strategies done, the pipeline aborts its bound (boundDone): then the thread builds.
    const done = new AbortController();
    const first = (await networkBound(input, inProcessSolver, { maxIterations: 50, deadline: performance.now() + 60_000, thread: warmRelaxationThread, signal: done.signal }))!;
    expect(first.flightBound).not.toBeNull();
    expect(first.value).toBe(first.flightBound);
    expect(idleBoundThreads()).toBe(0);
    done.abort();
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
    const next = (await networkBound(input, inProcessSolver, { maxIterations: 50, deadline: performance.now() + 60_000, thread: warmRelaxationThread }))!;
    expect(next.value).toBeGreaterThan(next.flightBound! * 1.5);
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
  }, 120_000);
});
