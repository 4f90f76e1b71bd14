// The network bound's threads (src/recovery/bounds/network-bound-thread.ts, docs/model.md 3.9) under a
// short budget: warmRelaxationThread asks only a thread that holds the problem, and starts none. A file of its own so that no
// thread is started before it (the module's threads are per test file).
import { describe, expect, it } from 'vitest';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { idleBoundThreads, relaxationThread, warmRelaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { committedHubStorm } from '../support/storms.ts';
import { inProcessSolver } from './fixtures.ts';

describe('network bound thread', () => {
  it('scenario: a short budget\'s bound asks only a thread that holds its problem: none, the flight bound\'s LP and no thread started; after a longer bound of that problem, it goes on from that bound in its thread; another problem, the LP again', async () => {
    const { schedule, request, prepared } = committedHubStorm('small');
    const input = { schedule, scope: prepared.scope, groups: prepared.groups, config: request.config };
    const short = { maxIterations: 50, deadline: performance.now() + 60_000, thread: warmRelaxationThread };
    expect(idleBoundThreads()).toBe(0);
    const first = (await networkBound(input, inProcessSolver, short))!;
    expect(first.flightBound).not.toBeNull();
    expect(first.value).toBe(first.flightBound);
    expect(idleBoundThreads()).toBe(0);
    // A longer budget's bound starts a thread, builds there and keeps the relaxation.
    const longer = (await networkBound(input, inProcessSolver, { maxIterations: 40, deadline: performance.now() + 60_000, thread: relaxationThread }))!;
    expect(longer.value).toBeGreaterThan(longer.flightBound! * 1.5);
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
    const heard: number[] = [];
    const next = (await networkBound(input, inProcessSolver, { ...short, onBound: (value, source) => { if (source === 'network_bound') heard.push(value); } }))!;
    expect(heard[0]).toBe(longer.value);
    expect(next.value).toBeGreaterThanOrEqual(longer.value);
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
    // Another problem (swaps dearer): no thread holds it.
    const other = { ...input, config: { ...request.config, cost_weights: { ...request.config.cost_weights, swap_per_flight: request.config.cost_weights.swap_per_flight * 3 + 1000 } } };
    const another = (await networkBound(other, inProcessSolver, short))!;
    expect(another.value).toBe(another.flightBound);
  }, 120_000);
});
