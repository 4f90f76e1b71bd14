// Unit: the reference plan (spec 6.1) against the calibration solutions, which the spec builds the same
// way, and the solver harness's time limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSolution, parseSolution, SOLUTION_ITINERARIES_FILE, SOLUTION_ROTATIONS_FILE } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { solveReferencePlan } from '../../src/recovery/roadef/reference-plan.ts';
import { referenceSolver, runSolver, type RoadefSolver } from '../../src/recovery/roadef/solver.ts';
import type { Solver } from '../../src/recovery/solver-port.ts';
import { INSTANCE_NAMES, calibrationDir, instance } from './support.ts';

const recordsOf = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')).sort();

describe('the reference plan', () => {
  for (const name of INSTANCE_NAMES) {
    it(`${name}: is feasible and writes the calibration solution record for record`, () => {
      const solution = solveReferencePlan(instance(name));
      const texts = formatSolution(solution);
      const report = scoreSolution(instance(name), parseSolution(texts));
      expect(report.violations).toEqual([]);
      expect(recordsOf(texts.rotations)).toEqual(recordsOf(readFileSync(join(calibrationDir(name), SOLUTION_ROTATIONS_FILE), 'utf8')));
      expect(recordsOf(texts.itineraries)).toEqual(recordsOf(readFileSync(join(calibrationDir(name), SOLUTION_ITINERARIES_FILE), 'utf8')));
    });
  }
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
    const first = solveReferencePlan(instance('A01'));
    const stubborn: RoadefSolver = (_, { onProgress }) => {
      onProgress({ elapsedMs: 1, solution: first, bound: 100 });
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
      const best = solveReferencePlan(inst);
      onProgress({ elapsedMs: 0, solution: best, bound: null });
      signal.addEventListener('abort', () => resolve(best));
    });
    const run = await runSolver(patient, instance('A04'), { timeLimitMs: 150, glpk, graceMs: 5_000 });
    expect(run.overran).toBe(false);
    expect(run.elapsedMs).toBeGreaterThanOrEqual(140);
    expect(run.elapsedMs).toBeLessThan(5_000);
  });
});
