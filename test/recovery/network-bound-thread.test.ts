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
  it('scenario: a short budget\'s bound finds no thread that holds its problem, so it is the flight bound\'s LP, and has one build the relaxation once the simulation is done, for the next bound of that problem, which iterates there', async () => {
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
    // Another problem (swaps dearer) finds no thread that holds it: the LP again, and the idle thread
    // builds that problem once its simulation is done.
    const other = { ...input, config: { ...request.config, cost_weights: { ...request.config.cost_weights, swap_per_flight: request.config.cost_weights.swap_per_flight * 3 + 1000 } } };
    const otherDone = new AbortController();
    const another = (await networkBound(other, inProcessSolver, { maxIterations: 50, deadline: performance.now() + 60_000, thread: warmRelaxationThread, signal: otherDone.signal }))!;
    expect(another.value).toBe(another.flightBound);
    otherDone.abort();
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
    const otherNext = (await networkBound(other, inProcessSolver, { maxIterations: 50, deadline: performance.now() + 60_000, thread: warmRelaxationThread }))!;
    expect(otherNext.value).toBeGreaterThan(otherNext.flightBound! * 1.5);
  }, 120_000);
});
