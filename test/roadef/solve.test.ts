// Unit: the reference plan (spec 6.1) against the calibration solutions, which the spec builds the same
// way, and the solver harness's time limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSolution, parseSolution, SOLUTION_ITINERARIES_FILE, SOLUTION_ROTATIONS_FILE } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { formatInstant, MINUTES_PER_DAY, parseClock, parseDate } from '../../src/formats/roadef-2009/text.ts';
import { referenceSolver, roadefReferencePlan, type RoadefSolver, runSolver } from '../../src/recovery/roadef-adapter.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { INSTANCE_NAMES, calibrationDir, instance } from './support.ts';

const recordsOf = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')).sort();

describe('the reference plan', () => {
  for (const name of INSTANCE_NAMES) {
    it(`${name}: is feasible and writes the calibration solution record for record`, () => {
      const solution = roadefReferencePlan(instance(name));
      const texts = formatSolution(solution);
      const report = scoreSolution(instance(name), parseSolution(texts));
      expect(report.violations).toEqual([]);
      expect(recordsOf(texts.rotations)).toEqual(recordsOf(readFileSync(join(calibrationDir(name), SOLUTION_ROTATIONS_FILE), 'utf8')));
      expect(recordsOf(texts.itineraries)).toEqual(recordsOf(readFileSync(join(calibrationDir(name), SOLUTION_ITINERARIES_FILE), 'utf8')));
    });
  }
});

describe('the reference walk with new flights after an aircraft\'s last leg (PlanChanges.trips)', () => {
  const at = (date: string, clock: string) => parseDate(date)! * MINUTES_PER_DAY + parseClock(clock)!;

  it('A02: A320#22 ends its rotation at NCE (4575 from CDG lands 20:05, turn-round 40); NCE-RNS not before 21:00 and back: flown in turn at dist.csv durations, and the plan is feasible', () => {
    const inst = instance('A02');
    const planned = new Set(inst.legs.map((l) => l.flight));
    const trips = new Map([['A320#22', [{ dest: 'RNS', notBefore: at('07/01/06', '21:00') }, { dest: 'NCE', notBefore: 0 }]]]);
    const solution = roadefReferencePlan(inst, { trips });
    const added = solution.rotations.filter((r) => !planned.has(r.flight)).map((r) => [r.aircraft, r.origin, r.dest, formatInstant(r.depMinutes), formatInstant(r.arrMinutes)]);
    // 21:00 (not 20:45, when the aircraft is ready) to 22:40 (dist.csv: 100 minutes); back at 22:40 + 40.
    expect(added).toEqual([
      ['A320#22', 'NCE', 'RNS', '07/01/06 21:00', '07/01/06 22:40'],
      ['A320#22', 'RNS', 'NCE', '07/01/06 23:20', '08/01/06 00:55'],
    ]);
    expect(scoreSolution(inst, parseSolution(formatSolution(solution))).violations).toEqual([]);
    // A first flight to where the aircraft already is ends its trips: nothing is added.
    const none = roadefReferencePlan(inst, { trips: new Map([['A320#22', [{ dest: 'NCE', notBefore: 0 }, { dest: 'RNS', notBefore: 0 }]]]) });
    expect(none.rotations.filter((r) => !planned.has(r.flight))).toEqual([]);
  });
});

describe('runSolver', () => {
  // These solvers build no model: a GLPK that fails loudly proves it.
  const glpk: Solver = { solve: () => { throw new Error('this solver must not call GLPK'); } };

  it('the reference solver: one incumbent, its answer returned, well within the limit', async () => {
    const seen: number[] = [];
    const run = await runSolver(referenceSolver, instance('A02'), { timeLimitMs: 10_000, glpk, onIncumbent: (incumbent) => seen.push(incumbent.elapsedMs) });
    expect(run.overran).toBe(false);
    expect(run.incumbents).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(run.incumbents[0]!.bound).toBeNull();
    expect(run.solution).toBe(run.incumbents[0]!.solution);
  });

  it('a solver that ignores the limit: its last incumbent stands once the grace is over', async () => {
    const first = roadefReferencePlan(instance('A01'));
    const stubborn: RoadefSolver = (_, { onProgress }) => {
      onProgress({ elapsedMs: 1, solution: first, cost: null, bound: 100 });
      return new Promise(() => {}); // never returns
    };
    const started = performance.now();
    const run = await runSolver(stubborn, instance('A01'), { timeLimitMs: 200, glpk, graceMs: 100 });
    expect(run.overran).toBe(true);
    expect(run.solution).toBe(first);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('a solver that stops when the signal aborts: its answer is taken', async () => {
    const patient: RoadefSolver = (inst, { signal, onProgress }) => new Promise((resolve) => {
      const best = roadefReferencePlan(inst);
      onProgress({ elapsedMs: 0, solution: best, cost: null, bound: null });
      signal.addEventListener('abort', () => resolve(best));
    });
    const run = await runSolver(patient, instance('A04'), { timeLimitMs: 150, glpk, graceMs: 5_000 });
    expect(run.overran).toBe(false);
    expect(run.elapsedMs).toBeGreaterThanOrEqual(140);
    expect(run.elapsedMs).toBeLessThan(5_000);
  });
});
