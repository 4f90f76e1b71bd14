// Late exchanges (rotationExchanges' `late` triggers, src/recovery/network/search.ts) on A01: in the
// reference plan A320#10 comes in late and flies RX2985 (ORY-TLS, planned at 12:50) and
// the rest of its rotation late, while A319#12, of its family, stands at that airport at 12:50. The
// exchange gives A320#10's rest from RX2985 to A319#12 and A319#12's rest to A320#10; walked, RX2985
// leaves earlier and no leg is cancelled. The service's call passes no `late` and gets no such move.
// The plan is judged by our scorer (which shares no code with the engine).
import { describe, expect, it } from 'vitest';
import { formatSolution, parseSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { disruptionDelays, pinned } from '../../src/recovery/network/bookings.ts';
import { ROADEF_WALK_RULES } from '../../src/recovery/model/roadef-rules.ts';
import { solveReferencePlan } from '../../src/recovery/network/operating-plan.ts';
import { rotationExchanges } from '../../src/recovery/network/search.ts';
import { RoadefTranslation } from '../../src/recovery/roadef-adapter.ts';
import { instance } from './support.ts';

describe('late exchanges', () => {
  const a01 = instance('A01');
  const translation = new RoadefTranslation(a01);
  const { problem } = translation;
  const delays = disruptionDelays(problem);
  const movable = (key: string) => { const f = problem.flightsById.get(key); return !!f && !pinned(problem, delays, f); };
  const reference = solveReferencePlan(problem, {}, ROADEF_WALK_RULES);
  const leg = reference.legs.find((r) => r.flightNumber === 'RX2985')!;
  const planned = problem.flightsById.get(leg.flightId)!;

  it('A01: the reference plan flies RX2985 with A320#10 at least 30 minutes late, its delay carried from an earlier leg', () => {
    expect(leg.tail).toBe('A320#10');
    expect(planned.tail).toBe('A320#10');
    expect(delays.has(leg.flightId)).toBe(false);
    expect(leg.depMinutes - planned.depMinutes).toBeGreaterThanOrEqual(30);
  });

  it('A01: offered as a late trigger, RX2985 goes to A319#12 (at ORY at its planned departure); walked, it leaves earlier, nothing is cancelled, and the plan is feasible by our scorer', () => {
    const moves = rotationExchanges(problem, reference.legs, new Map(), movable, new Map(), new Map([[leg.flightId, -1.5]]));
    const move = moves.find((m) => m.key === `exchange A320#10 A319#12 ${leg.flightId} at ${planned.depMinutes}`);
    expect(move).toBeDefined();
    expect(move!.priority).toBe(-1.5);
    const plan = solveReferencePlan(problem, { aircraft: move!.assign(new Map()) }, ROADEF_WALK_RULES);
    const flown = plan.legs.find((r) => r.flightId === leg.flightId)!;
    expect(flown.tail).toBe('A319#12');
    expect(flown.depMinutes).toBeLessThan(leg.depMinutes);
    expect(plan.legs.filter((r) => r.tail === null).length).toBe(reference.legs.filter((r) => r.tail === null).length);
    const report = scoreSolution(a01, parseSolution(formatSolution(translation.toSolution(plan))));
    expect(report.violations).toEqual([]);
  });

  it('A01: without late triggers (the service\'s call) no exchange is offered from a late leg at its planned departure', () => {
    const moves = rotationExchanges(problem, reference.legs, new Map(), movable, new Map());
    expect(moves.some((m) => m.key.includes(' at '))).toBe(false);
  });
});
