// Round-trip transfers (src/recovery/network/round-trip-transfers.ts) on a hand-made instance where
// one is the only improvement (test/roadef/fixtures/transfer/R1): X#1 (3,000 an hour) flies the round
// trip AAA-BBB-AAA 09:00-11:30 while Y#1 (1,000 an hour, same family, same seats) stands at AAA until
// its own round trip at 13:00. No disruption, so no hold, exchange, ferry or trip has anything to do;
// giving X#1's trip to Y#1 saves 2 legs x 1 started hour x (3,000 - 1,000) = 4,000 (spec 5.3,
// swapped aircraft operating cost) and moves nobody. And where seats run out (R2): X#1 (30 seats)
// has 45 booked on its 09:00 leg, Y#1 (60 seats, same hourly cost) stands idle at AAA and its own
// 13:00 leg is full; flown by Y#1, X#1's trip carries all 45 and every passenger travels as booked,
// a total of 0 where the reference plan cancels 15. A late transfer (R3): Y#1 (1,000 an hour) lands
// at AAA from CCC only at 09:30, after X#1's trip has left; held until Y#1 is ready (10:00, its
// turnaround after landing), the trip costs its 50 passengers 60 minutes each (0.05 a minute in
// economy: 150) and saves the same 4,000. The search's plans are judged by our scorer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { RoadefCostModel } from '../../src/recovery/model/cost-model.ts';
import { ROADEF_WALK_RULES } from '../../src/recovery/model/roadef-rules.ts';
import { solveReferencePlan } from '../../src/recovery/network/operating-plan.ts';
import { planPassengers } from '../../src/recovery/network/passenger-plan.ts';
import { roundTripTransfers } from '../../src/recovery/network/round-trip-transfers.ts';
import { ROADEF_SOLVERS, RoadefTranslation, roadefReferencePlan, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';

const fixture = (name: string) => readInstance(join(import.meta.dirname, 'fixtures', 'transfer', name));
const instance = fixture('R1');
const judge = (solution: RoadefSolution, of = instance) => scoreSolution(of, parseSolution(formatSolution(solution)));

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

describe('round-trip transfers', () => {
  it('offer exactly X#1\'s round trip to the cheaper Y#1 that stands idle at AAA (not Y#1\'s to the dearer X#1)', async () => {
    const { problem } = new RoadefTranslation(instance);
    const { legs } = solveReferencePlan(problem, {}, ROADEF_WALK_RULES);
    const passengers = (await planPassengers(problem, legs, new RoadefCostModel(instance.config), pool, { timeLimitMs: 30_000 }))!;
    const moves = roundTripTransfers(problem, { legs, passengers: passengers.lines }, () => true);
    expect(moves.map(({ giver, taker }) => [giver, taker])).toEqual([['X#1', 'Y#1']]);
    const trip = legs.filter((r) => r.tail === 'X#1').map((r) => r.flightId);
    expect(trip).toHaveLength(2);
    expect(moves[0]!.key).toBe(`transfer ${trip.join(' ')} Y#1`);
  }, 60_000);

  it('engine-keeps-flights gives the trip to Y#1: feasible by the scorer, 4,000 below the reference plan, nothing else changed', async () => {
    const reference = judge(roadefReferencePlan(instance));
    expect(reference.violations).toEqual([]);
    // The search ends when no move pays (a few evaluations); the limit is slack for a loaded machine.
    const run = await runSolver(ROADEF_SOLVERS.get('engine-keeps-flights')!, instance, { timeLimitMs: 60_000, glpk: pool });
    expect(run.overran).toBe(false);
    const solution = run.solution!;
    const report = judge(solution);
    expect(report.violations).toEqual([]);
    expect(report.totals.weightedTotal).toBeCloseTo(reference.totals.weightedTotal - 2 * 1 * (3000 - 1000), 2);
    const flownBy = Object.fromEntries(solution.rotations.map((l) => [l.flight, l.aircraft]));
    expect(flownBy).toEqual({ 10: 'Y#1', 11: 'Y#1', 20: 'Y#1', 21: 'Y#1' });
  }, 120_000);

  it('R2: a larger aircraft takes a trip that leaves passengers behind; every passenger then travels as booked', async () => {
    const larger = fixture('R2');
    const reference = judge(roadefReferencePlan(larger), larger);
    expect(reference.violations).toEqual([]);
    expect(reference.totals.weightedTotal).toBeGreaterThan(0);
    const run = await runSolver(ROADEF_SOLVERS.get('engine-keeps-flights')!, larger, { timeLimitMs: 60_000, glpk: pool });
    expect(run.overran).toBe(false);
    const solution = run.solution!;
    const report = judge(solution, larger);
    expect(report.violations).toEqual([]);
    expect(report.totals.weightedTotal).toBeCloseTo(0, 2);
    expect(solution.itineraries.filter((l) => l.cancelled)).toEqual([]);
    expect(Object.fromEntries(solution.rotations.map((l) => [l.flight, l.aircraft]))).toEqual({ 10: 'Y#1', 11: 'Y#1', 20: 'Y#1', 21: 'Y#1' });
  }, 120_000);

  it('R3: a cheaper aircraft that lands at the trip\'s airport later takes it held until it is ready, tried after every other move', async () => {
    const late = fixture('R3');
    const { problem } = new RoadefTranslation(late);
    const { legs } = solveReferencePlan(problem, {}, ROADEF_WALK_RULES);
    const passengers = (await planPassengers(problem, legs, new RoadefCostModel(late.config), pool, { timeLimitMs: 30_000 }))!;
    const moves = roundTripTransfers(problem, { legs, passengers: passengers.lines }, () => true);
    expect(moves.map(({ giver, taker, heldMinutes }) => [giver, taker, heldMinutes])).toEqual([['X#1', 'Y#1', 60]]);
    // Below the position ferries' priorities (-1..0), so the search's path to where it stopped before is unchanged.
    expect(moves[0]!.priority).toBeLessThan(-1);
  }, 60_000);

  it('R3: engine-keeps-flights flies X#1\'s trip with Y#1 an hour late: feasible by the scorer, 4,000 saved less 150 of delay', async () => {
    const late = fixture('R3');
    const reference = judge(roadefReferencePlan(late), late);
    expect(reference.violations).toEqual([]);
    const run = await runSolver(ROADEF_SOLVERS.get('engine-keeps-flights')!, late, { timeLimitMs: 60_000, glpk: pool });
    expect(run.overran).toBe(false);
    const solution = run.solution!;
    const report = judge(solution, late);
    expect(report.violations).toEqual([]);
    expect(report.totals.weightedTotal).toBeCloseTo(reference.totals.weightedTotal - 4000 + 50 * 60 * 0.05, 2);
    expect(solution.itineraries.filter((l) => l.cancelled)).toEqual([]);
    const flown = Object.fromEntries(solution.rotations.map((l) => [l.flight, [l.aircraft, l.depMinutes % (24 * 60)]]));
    expect(flown).toEqual({ 10: ['Y#1', 10 * 60], 11: ['Y#1', 11 * 60 + 30], 30: ['Y#1', 8 * 60 + 30] });
  }, 120_000);
});
