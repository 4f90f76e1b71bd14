// The ROADEF lower bounds (src/recovery/bounds/roadef-bound.ts, argued in docs/model.md 3.9) against
// plans whose cost our scorer (which shares no code with the bound) gives: the calibration solutions
// of A01-A04, every incumbent of the engine's eight runs of both kinds on A01-A04 (engine.test.ts,
// which has the runs and the bounds already: short solves of their own here took 34 s of this file's
// 116 s), and the brute-force optimum of tiny hand-made instances (bound-brute-force.test.ts).
import { describe, expect, it } from 'vitest';
import { readSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { roadefLowerBounds } from '../../src/recovery/bounds/roadef-bound.ts';
import { RoadefCostModel } from '../../src/recovery/model/cost-model.ts';
import { RoadefTranslation } from '../../src/recovery/roadef-adapter.ts';
import { roadefInstanceBounds } from '../../src/recovery/roadef-bounds.ts';
import { INSTANCE_NAMES, calibrationDir, instance, type InstanceName } from './support.ts';

// A04's bounds take about 15 s of CPU since the routes' stretches were halved (2026-11-29): under a loaded
// host a test that computes them twice took more than 120 s of wall time, so these guards are 300 s.
const TIMEOUT_MS = 300_000;

// An instance's bounds depend on the instance alone: computed once per instance for the whole file
// (13 computations of 5-15 s of CPU each were 206 s of a CI run).
const computed = new Map<InstanceName, ReturnType<typeof roadefInstanceBounds>>();
const boundsOf = (name: InstanceName) => computed.get(name) ?? computed.set(name, roadefInstanceBounds(instance(name))).get(name)!;

describe('ROADEF lower bounds on the published instances', () => {
  it.each(INSTANCE_NAMES)('%s: both bounds are at most the calibration solution\'s exact cost, which is a keeps-flights plan', (name) => {
    const { bounds, boundOf } = boundsOf(name);
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
  }, TIMEOUT_MS);

  it('A04: the hours its cuts close (CDG and ORY to departures at 11:00-13:00) hold its passengers back: their part is higher than without the cuts', () => {
    const { problem } = new RoadefTranslation(instance('A04'));
    const cost = new RoadefCostModel(instance('A04').config);
    // With the cuts: the instance's bounds, computed once for the file (the same problem and cost model).
    const withCuts = boundsOf('A04').bounds.parts.official.passengers;
    const withoutCuts = roadefLowerBounds({ ...problem, disruptions: problem.disruptions.filter((d) => d.type !== 'airport_capacity') }, cost).parts.official.passengers;
    expect(withCuts).toBeGreaterThan(withoutCuts);
  }, TIMEOUT_MS);

  it('A02: its passengers bound for some airports outnumber the seats that can land there in some evening hours: the passengers\' part counts it', () => {
    const { bounds } = boundsOf('A02');
    expect(bounds.entrySeats).toBeGreaterThan(0);
  }, TIMEOUT_MS);
});
