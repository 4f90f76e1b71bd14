// The network bound's thread warmed at the service's start (runtime/warm-up.ts warmUpStorm,
// bounds/network-bound-thread.ts warmBoundThread, docs/model.md 3.9 "The first asking at 2 s"): a
// storm's first asking under a short budget then builds its bound in that thread, where without it
// the flight bound's LP answers. A file of its own so that no thread is started before it (the
// module's threads are per test file).
import { describe, expect, it } from 'vitest';
import { networkBound } from '../../src/recovery/bounds/network-bound.ts';
import { idleBoundThreads, warmBoundThread, warmRelaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { warmUpStorm } from '../../src/runtime/warm-up.ts';
import { loadScenarios, simulationRequest } from '../../benchmarks/lib/scenarios.ts';
import { loadSchedulesFor } from '../../benchmarks/lib/schedules.ts';
import { inProcessSolver } from './fixtures.ts';

describe('network bound thread warmed at the start', () => {
  it('warmUpStorm: a capacity cut of three hours at the airline\'s busiest airport, from an hour after its first departure; none for an airline without flights', () => {
    const scenario = loadScenarios().find((s) => s.schedule === 'small' && s.id === 'hub-storm')!;
    const schedule = loadSchedulesFor([scenario]).get('small')!;
    const airline = simulationRequest(scenario).airline;
    const storm = warmUpStorm(schedule, 'small', airline)!;
    const flights = schedule.flightsByAirline.get(airline)!;
    const counts = new Map<string, number>();
    for (const f of flights) counts.set(f.origin, (counts.get(f.origin) ?? 0) + 1);
    const most = Math.max(...counts.values());
    expect(storm.disruptions).toHaveLength(1);
    const cut = storm.disruptions[0]!;
    if (cut.type !== 'airport_capacity') throw new Error(`a capacity cut, not ${cut.type}`);
    expect(counts.get(cut.airport)).toBe(most);
    const first = Math.min(...flights.filter((f) => f.origin === cut.airport).map((f) => f.depMinutes));
    expect([cut.fromMinutes, cut.toMinutes]).toEqual([first + 60, first + 240]);
    expect(cut.toMinutes - cut.fromMinutes).toBe(180);
    expect(warmUpStorm(schedule, 'small', 'NO-SUCH-AIRLINE')).toBeNull();
  });

  it('scenario: a warmed thread is kept idle, a second warm-up starts none, and a short budget\'s first asking of a storm builds its network bound there, above its LP', async () => {
    const scenario = loadScenarios().find((s) => s.schedule === 'small' && s.id === 'hub-storm')!;
    const schedule = loadSchedulesFor([scenario]).get('small')!;
    const request = simulationRequest(scenario);
    const storm = warmUpStorm(schedule, 'small', request.airline)!;
    const warm = prepareSimulation(schedule, storm);
    expect(idleBoundThreads()).toBe(0);
    await warmBoundThread({ schedule, scope: warm.scope, groups: warm.groups, config: storm.config });
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
    await warmBoundThread({ schedule, scope: warm.scope, groups: warm.groups, config: storm.config });
    expect(idleBoundThreads()).toBe(1);
    const prepared = prepareSimulation(schedule, request);
    const first = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, {
      deadline: performance.now() + 60_000, thread: warmRelaxationThread,
    }))!;
    expect(first.flightBound).not.toBeNull();
    expect(first.value).toBeGreaterThan(first.flightBound!);
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
  }, 120_000);
});
