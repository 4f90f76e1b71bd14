// The network engine on the published instances, imported into its problem (roadef-adapter.ts), with
// GLPK in its worker pool: every solution it reports is feasible by our scorer (which shares no code
// with it) at every time limit, 60 s included;
// its own figure for a plan is the scorer's to the cent; and decisions checked by hand from the data.
// Its size (alone, 2026-11-29: 95 s of CPU, 101 s at a load average of 5): the eight searches
// at once, each stopped at its third incumbent, are most of it (at a load average of 13 the searches
// took 33 s of CPU and the four instances' bounds 23 s, which the bounds' check on every incumbent and
// the keeps-flights checks share; each incumbent carries the engine's own figure, so the final plans'
// passengers are no longer planned again to compare it, 8 s before); the hand-checked runs stop at
// the plan they check, and cannot share the eight's runs, which search two moves at a time on two
// threads and take another path.
// The lower bounds of A01-A04 (src/recovery/bounds/roadef-bound.ts, docs/model.md 3.9) are checked
// here too, against the calibration solutions and every incumbent of the eight runs: the four
// instances' bounds take about 23 s of CPU, and a bounds file of its own computed them a second time
// and ran eight short solves for the incumbents (this file and that one: 171 s of CPU before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSolution, parseSolution, readSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { formatInstant, legKey } from '../../src/formats/roadef-2009/text.ts';
import { roadefLowerBounds } from '../../src/recovery/bounds/roadef-bound.ts';
import { RoadefCostModel } from '../../src/recovery/model/cost-model.ts';
import { operatingCost } from '../../src/recovery/network/plan-cost.ts';
import { planPassengers } from '../../src/recovery/network/passenger-plan.ts';
import { ROADEF_WALK_RULES } from '../../src/recovery/model/roadef-rules.ts';
import { solveReferencePlan } from '../../src/recovery/network/operating-plan.ts';
import { ROADEF_SOLVERS, RoadefTranslation, roadefReferencePlan, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { INSTANCE_NAMES, calibrationDir, instance, instanceBounds, type InstanceName } from './support.ts';

let pool: SolverPool;
beforeAll(async () => {
  // One thread: the search then evaluates one move at a time and leaves a core to the test files beside it.
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

const engineSolver = ROADEF_SOLVERS.get('engine')!;
const keepsFlights = ROADEF_SOLVERS.get('engine-keeps-flights')!;
const costModel = (name: InstanceName) => new RoadefCostModel(instance(name).config);
/** The instance in the engine's terms, and its plans as solutions (for the scorer) and back. */
const translation = (name: InstanceName) => {
  const t = new RoadefTranslation(instance(name));
  return { problem: t.problem, toSolution: t.toSolution.bind(t), toPlan: t.toPlan.bind(t) };
};
const judge = (name: InstanceName, solution: RoadefSolution) => scoreSolution(instance(name), parseSolution(formatSolution(solution)));
const REFERENCE_COST: Record<InstanceName, number> = { A01: 515_253.7, A02: 1_105_728.85, A03: 1_694_469.6, A04: 1_225_226.8 };

describe('the passenger plan (GLPK) on the reference operating plan', () => {
  for (const name of INSTANCE_NAMES) {
    it(`${name}: feasible, cheaper than the reference plan's passengers, and the engine's cost is the scorer's to the cent`, async () => {
      const { problem, toSolution } = translation(name);
      const { legs } = solveReferencePlan(problem, {}, ROADEF_WALK_RULES);
      const plan = (await planPassengers(problem, legs, costModel(name), pool, { timeLimitMs: 60_000 }))!;
      const report = judge(name, toSolution({ legs, passengers: plan.lines }));
      expect(report.violations).toEqual([]);
      expect(report.totals.weightedTotal).toBeLessThan(REFERENCE_COST[name] / 2);
      expect(operatingCost(problem, legs, costModel(name)) + plan.objective).toBeCloseTo(report.totals.weightedTotal, 2);
    }, 120_000);
  }
});

describe('the engine solver', () => {
  it('A01-A04, engine and engine-keeps-flights, all eight runs at once, each stopped at its second plan after the reference: every incumbent feasible by the scorer and at least the lower bound of its problem, each cheaper than the last, the last one returned and below half the reference plan, and the engine\'s own figure for every plan it priced the scorer\'s to the cent', async () => {
    // Their own pool of two threads (the file's has one): eight searches share it, about a passenger
    // plan at a time each.
    const shared = createSolverPool({ threads: 2 });
    await shared.ready();
    // Each run stops once it has three incumbents (the reference plan, its passengers, one move), not
    // at a time: at 60 s each, beside `yes` at a load average of 16-29, A01 twice had no plan after the
    // reference (under a load average of 12, A02 once), and on a quiet machine they come within 10-25 s.
    // The limit only bounds a hang (with a grace of 5x the 1.9-3.8 s eight such searches, sharing one
    // JavaScript thread, took to return after a 60 s limit at a load average of 17-20: a replica of
    // this test, 2026-11-28 21:56 UTC). Their return is not this test's subject: the A04 tests below
    // force it, alone on a thread.
    const runs = await Promise.all(INSTANCE_NAMES.flatMap((name) => [engineSolver, keepsFlights].map(async (solver) => {
      const stop = new AbortController();
      let seen = 0;
      const run = await runSolver(solver, instance(name), {
        timeLimitMs: 300_000, glpk: shared, graceMs: 20_000, stop: stop.signal, onIncumbent: () => { if (++seen === 3) stop.abort(); },
      });
      return { name, solver, run };
    }))).finally(() => shared.close());
    for (const { name, solver, run } of runs) {
      expect(run.overran, name).toBe(false);
      const { bounds, boundOf } = instanceBounds(name);
      const costs = run.incumbents.map((incumbent) => {
        const report = judge(name, incumbent.solution);
        expect(report.violations, name).toEqual([]);
        expect(report.feasible, name).toBe(true);
        // The lower bounds hold for every incumbent: the bound of its plan's problem and the official one.
        const { bound, problem } = boundOf(incumbent.solution);
        expect(bound, name).toBeLessThanOrEqual(report.totals.weightedTotal);
        expect(bounds.official, name).toBeLessThanOrEqual(report.totals.weightedTotal);
        // Keeping flights, it cancels only what the disruptions cancel or may force to go (forced-cancellations.ts).
        if (solver === keepsFlights) expect(problem, name).toBe('keeps-flights');
        // The engine's own figure for each plan it priced (held, exchanged, ferried, cancelled: operating
        // cost and optimal passengers), the one its search compared, is the scorer's to the cent.
        if (incumbent.cost !== null) expect(incumbent.cost, name).toBeCloseTo(report.totals.weightedTotal, 2);
        return report.totals.weightedTotal;
      });
      expect(costs[0], name).toBe(REFERENCE_COST[name]);
      for (let i = 1; i < costs.length; i++) expect(costs[i]!, name).toBeLessThan(costs[i - 1]!);
      expect(run.solution, name).toBe(run.incumbents.at(-1)!.solution);
      expect(costs.length, name).toBe(3);
      expect(costs.at(-1)!, name).toBeLessThan(REFERENCE_COST[name] / 2);
      // Every incumbent after the reference plan was priced by the engine.
      expect(run.incumbents.slice(1).every((incumbent) => incumbent.cost !== null), name).toBe(true);
    }
  }, 480_000);

  it('A03 keeping its flights, searched until its aircraft are where the next day needs them: every incumbent cancels only legs the disruptions cancel or may force to go (a hold or an exchange can make the walk cancel others: without the check, the ninth incumbent, 74,020.35, cancelled legs outside them), and the search reaches a plan that pays no end-position penalty', async () => {
    const { boundOf } = instanceBounds('A03');
    // The search stops once it has nine incumbents or more and the last pays no end-position penalty
    // (the position ferries come before the last moves, docs/model.md 4.4-4.5), not at a time: searched
    // to its end, with the last moves, this test took 119 s on a quiet machine and 366 s of its 400 s
    // limit beside `yes` in a fresh-clone CI run (2026-11-29 08:38-08:58 UTC). The limit only bounds a hang.
    const stop = new AbortController();
    let seen = 0;
    const run = await runSolver(keepsFlights, instance('A03'), {
      timeLimitMs: 400_000, glpk: pool, stop: stop.signal,
      onIncumbent: ({ solution }) => { if (++seen >= 9 && judge('A03', solution).totals.positionTotal === 0) stop.abort(); },
    });
    // The unchecked search left the problem at its ninth incumbent: the run must reach it (the reference plan is the first).
    expect(run.incumbents.length).toBeGreaterThanOrEqual(9);
    expect(stop.signal.aborted).toBe(true);
    for (const { solution } of run.incumbents) {
      expect(judge('A03', solution).violations).toEqual([]);
      expect(boundOf(solution).problem).toBe('keeps-flights');
    }
    // An exchange leaves the A318 that BIQ needs at BES and the A319 0/28/51 that BES needs at BIQ
    // (10,000 of penalty, and neither ferry home pays alone): the two ferry there, trading places.
    expect(judge('A03', run.solution!).totals.positionTotal).toBe(0);
  }, 480_000);

  for (const limitMs of [30, 400, 1_500]) {
    it(`A04 under a ${limitMs} ms limit: a feasible solution, returned within the limit and the grace`, async () => {
      const run = await runSolver(engineSolver, instance('A04'), { timeLimitMs: limitMs, glpk: pool });
      expect(run.solution).not.toBeNull();
      expect(judge('A04', run.solution!).violations).toEqual([]);
      expect(run.overran).toBe(false);
    }, 30_000);
  }

  it('A01 by hand: 5125 (TLS-AMS) is delayed 30 minutes and lands at 13:40; booking 1265 connects there to 5093, planned at 14:00; the engine (keeping its flights) holds 5093 to 14:10 and carries all 5 passengers as booked', async () => {
    const inst = instance('A01');
    const rotationIn = (solution: RoadefSolution, flight: number) => solution.rotations.find((r) => r.flight === flight && r.day === inst.legs.find((l) => l.flight === flight)!.day);
    // The search stops at the first plan that holds 5093 for the booking, not at its end: A01's search
    // now runs past 90 s (the moves of docs/model.md 4.4-4.5), and this test took its whole 90 s limit
    // in CI. The limit only bounds a loaded machine (20 s once ended the search before the hold).
    const stop = new AbortController();
    const run = await runSolver(keepsFlights, inst, {
      timeLimitMs: 90_000, glpk: pool, stop: stop.signal,
      onIncumbent: ({ solution }) => { const held = rotationIn(solution, 5093); if (held && formatInstant(held.depMinutes) === '07/01/06 14:10') stop.abort(); },
    });
    const rotation = (flight: number) => rotationIn(run.solution!, flight)!;
    expect(formatInstant(rotation(5125).arrMinutes)).toBe('07/01/06 13:40');
    expect(formatInstant(rotation(5093).depMinutes)).toBe('07/01/06 14:10');
    const lines = run.solution!.itineraries.filter((l) => l.itinerary === 1265);
    expect(lines).toEqual([expect.objectContaining({ passengers: 5, cancelled: false, legs: [expect.objectContaining({ flight: 5125, cabin: 'E' }), expect.objectContaining({ flight: 5093, cabin: 'E' })] })]);
    // In the reference plan 5093 leaves at 14:00, ten minutes too early for the connection: all 5 are cancelled.
    const reference = roadefReferencePlan(inst);
    expect(formatInstant(reference.rotations.find((r) => legKey(r.flight, r.day) === legKey(5093, rotation(5093).day))!.depMinutes)).toBe('07/01/06 14:00');
    expect(reference.itineraries.filter((l) => l.itinerary === 1265)).toEqual([expect.objectContaining({ passengers: 5, cancelled: true })]);
  }, 180_000);

  it('A02 by hand: 3111 and 3077 (ORY-NCE) land at 14:20 and 15:20, too late for 2609 to RNS at 14:41, all before the window (16:00); the 28 passengers of bookings 785, 787, 871 and 873 have no seat to RNS later that day, and the engine (keeping its flights) flies them there on a new flight', async () => {
    const inst = instance('A02');
    const stranded = [785, 787, 871, 873];
    // The reference plan cancels them after the leg they flew.
    expect(roadefReferencePlan(inst).itineraries.filter((l) => stranded.includes(l.itinerary)).every((l) => l.cancelled)).toBe(true);
    const planned = new Set(inst.legs.map((l) => l.flight));
    const carried = (solution: RoadefSolution) => solution.itineraries.filter((l) => stranded.includes(l.itinerary)).reduce((sum, l) => sum + (l.cancelled ? 0 : l.passengers), 0);
    // The search stops at the first plan that carries all 28, not at its end (which it no longer
    // reaches within the limit on a loaded machine); the limit only bounds a hang.
    const stop = new AbortController();
    const run = await runSolver(keepsFlights, inst, {
      timeLimitMs: 90_000, glpk: pool, stop: stop.signal,
      onIncumbent: ({ solution }) => { if (carried(solution) === 28) stop.abort(); },
    });
    const lines = run.solution!.itineraries.filter((l) => stranded.includes(l.itinerary));
    expect(lines.reduce((sum, l) => sum + (l.cancelled ? 0 : l.passengers), 0)).toBe(28);
    for (const line of lines) {
      const onward = line.legs.at(-1)!;
      expect(planned.has(onward.flight), `booking ${line.itinerary}`).toBe(false);
      const flight = run.solution!.rotations.find((r) => r.flight === onward.flight && r.day === onward.day)!;
      expect([flight.origin, flight.dest]).toEqual(['NCE', 'RNS']);
    }
    expect(judge('A02', run.solution!).violations).toEqual([]);
  }, 180_000);

  it('a network past 5,000 bookings (synthetic, 120 aircraft, 6,000 bookings over two days): bookings that fly as booked keep only paths no costlier, and every incumbent is feasible and cheaper than the last', async () => {
    const inst = readInstance(writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'roadef-engine-')), 'SYN-B'), { aircraft: 120, flightNumbers: 400, days: 2, itineraries: 6_000, seed: 7 }));
    // The second incumbent came 4.5 s into the search under a load average of 18 (npx tsx, one GLPK
    // thread): 25 s leaves 5x that; the subject is every incumbent, not the deadline (40 s before).
    // The run stops at its third incumbent (the reference plan, its passengers, one move), as the eight
    // runs above do, instead of searching on to the limit (the third came 18 s into the search under a
    // load average of 6); on a loaded machine the limit still ends it, and two incumbents are the floor.
    const stop = new AbortController();
    let seen = 0;
    const run = await runSolver(engineSolver, inst, { timeLimitMs: 25_000, glpk: pool, stop: stop.signal, onIncumbent: () => { if (++seen === 3) stop.abort(); } });
    const judgeIt = (solution: RoadefSolution) => scoreSolution(inst, parseSolution(formatSolution(solution)));
    const costs = run.incumbents.map((incumbent) => {
      const report = judgeIt(incumbent.solution);
      expect(report.violations).toEqual([]);
      return report.totals.weightedTotal;
    });
    expect(costs.length).toBeGreaterThan(1);
    for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeLessThan(costs[i - 1]!);
  }, 120_000);
});

describe('ROADEF lower bounds on the published instances', () => {
  // A04's bounds take about 15 s of CPU since the routes' stretches were halved (2026-11-29): under a
  // loaded host a test that computes them twice took more than 120 s of wall time, so these guards are 300 s.
  const BOUNDS_TIMEOUT_MS = 300_000;

  it.each(INSTANCE_NAMES)('%s: both bounds are at most the calibration solution\'s exact cost, which is a keeps-flights plan', (name) => {
    const { bounds, boundOf } = instanceBounds(name);
    const solution = readSolution(calibrationDir(name));
    const report = scoreSolution(instance(name), solution);
    expect(report.feasible).toBe(true);
    const cost = report.totals.weightedTotal;
    expect(bounds.official).toBeLessThanOrEqual(cost);
    expect(bounds.keepsFlights).toBeLessThanOrEqual(cost);
    // Keeping flights only restricts the plans: its bound is at least the official one.
    expect(bounds.keepsFlights).toBeGreaterThanOrEqual(bounds.official);
    // The calibration solutions are reference plans (spec 6.1): they cancel only what the disruptions force.
    expect(boundOf(solution)).toEqual({ bound: bounds.keepsFlights, problem: 'keeps-flights' });
    // Every passenger costs at least 0 and the official objective may credit every leg: the passengers' part is what lifts it.
    expect(bounds.parts.official.passengers).toBeGreaterThan(0);
  }, BOUNDS_TIMEOUT_MS);

  it('A04: the hours its cuts close (CDG and ORY to departures at 11:00-13:00) hold its passengers back: their part is higher than without the cuts', () => {
    const { problem } = new RoadefTranslation(instance('A04'));
    // With the cuts: the instance's bounds, computed once for the file (the same problem and cost model).
    const withCuts = instanceBounds('A04').bounds.parts.official.passengers;
    const withoutCuts = roadefLowerBounds({ ...problem, disruptions: problem.disruptions.filter((d) => d.type !== 'airport_capacity') }, costModel('A04')).parts.official.passengers;
    expect(withCuts).toBeGreaterThan(withoutCuts);
  }, BOUNDS_TIMEOUT_MS);

  it('A02: its passengers bound for some airports outnumber the seats that can land there in some evening hours: the passengers\' part counts it', () => {
    expect(instanceBounds('A02').bounds.entrySeats).toBeGreaterThan(0);
  }, BOUNDS_TIMEOUT_MS);
});
