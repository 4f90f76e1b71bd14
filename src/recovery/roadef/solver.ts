// The port every ROADEF 2009 solver plugs into: the `roadef solve` command and the benchmark part call
// a RoadefSolver and know nothing else about it. A solver reports each better solution it finds through
// onProgress and returns its best one; it must return soon after `signal` aborts (the time limit).
import type { RoadefInstance } from '../../formats/roadef-2009/instance.ts';
import type { RoadefSolution } from '../../formats/roadef-2009/solution.ts';
import type { Solver } from '../model/solver-port.ts';
import { createEngineSolver } from './engine-solver.ts';
import { solveReferencePlan } from './reference-plan.ts';

export interface RoadefIncumbent {
  /** Milliseconds since the solve started. */
  elapsedMs: number;
  solution: RoadefSolution;
  /** A proven lower bound on the weighted cost, when the solver knows one; else null. */
  bound: number | null;
}

export interface RoadefSolveOptions {
  /** Wall-clock budget in milliseconds; `signal` aborts when it is spent. */
  timeLimitMs: number;
  signal: AbortSignal;
  /** GLPK (the worker pool), for solvers that build models. */
  glpk: Solver;
  /** Called with each new incumbent, best last. */
  onProgress: (incumbent: RoadefIncumbent) => void;
}

/** Solve an instance: resolves to the best solution found by the time `signal` aborts (or earlier). */
export type RoadefSolver = (instance: RoadefInstance, options: RoadefSolveOptions) => Promise<RoadefSolution>;

/**
 * The reference plan of spec 6.1: the plan kept, delays propagated, what cannot be flown cancelled with
 * its passengers. One pass, milliseconds; the baseline every solver must beat.
 */
export const referenceSolver: RoadefSolver = async (instance, { onProgress }) => {
  const started = performance.now();
  const solution = solveReferencePlan(instance);
  onProgress({ elapsedMs: performance.now() - started, solution, bound: null });
  return solution;
};

/** Solvers by the name `--solver` takes; the first is the default. */
export const ROADEF_SOLVERS: ReadonlyMap<string, RoadefSolver> = new Map([
  ['engine', createEngineSolver({ cancelRoundTrips: true })],
  // The same search without cancelling flights for their operating cost: how far holds, exchanges,
  // ferries and re-accommodation alone go.
  ['engine-keeps-flights', createEngineSolver({ cancelRoundTrips: false })],
  ['reference', referenceSolver],
]);

export interface SolveRun {
  /** The solver's answer, or its last incumbent when it overran the limit and the grace. */
  solution: RoadefSolution | null;
  incumbents: RoadefIncumbent[];
  elapsedMs: number;
  /** The solver did not return within the time limit plus the grace; its last incumbent stands. */
  overran: boolean;
}

/** Extra time a solver gets after the abort to hand back its best solution, milliseconds. */
export const RETURN_GRACE_MS = 2_000;

/**
 * Run `solver` under a wall-clock limit: abort at `timeLimitMs`, wait at most `graceMs` (default
 * RETURN_GRACE_MS) more for it to return, otherwise keep its last incumbent. A solver that throws
 * propagates its error. `glpk` is the solver pool the solver's models go to.
 */
export async function runSolver(
  solver: RoadefSolver, instance: RoadefInstance,
  { timeLimitMs, glpk, onIncumbent = () => {}, graceMs = RETURN_GRACE_MS }: {
    timeLimitMs: number; glpk: Solver; onIncumbent?: (incumbent: RoadefIncumbent) => void; graceMs?: number;
  },
): Promise<SolveRun> {
  const started = performance.now();
  const controller = new AbortController();
  const incumbents: RoadefIncumbent[] = [];
  const timers: NodeJS.Timeout[] = [];
  const deadline = new Promise<'overran'>((resolve) => {
    timers.push(setTimeout(() => controller.abort(), timeLimitMs));
    timers.push(setTimeout(() => resolve('overran'), timeLimitMs + graceMs));
  });
  try {
    const answer = await Promise.race([
      solver(instance, {
        timeLimitMs,
        signal: controller.signal,
        glpk,
        onProgress: (incumbent) => { incumbents.push(incumbent); onIncumbent(incumbent); },
      }),
      deadline,
    ]);
    const overran = answer === 'overran';
    return { solution: overran ? incumbents.at(-1)?.solution ?? null : answer, incumbents, elapsedMs: performance.now() - started, overran };
  } finally {
    for (const t of timers) clearTimeout(t);
    controller.abort();
  }
}
