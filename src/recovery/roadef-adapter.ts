// The ROADEF 2009 adapter of the network engine (src/recovery/network/): the `roadef solve` command and
// the benchmark part call a RoadefSolver and know nothing else about it. It hands the engine the
// instance's own objective as the cost model (RoadefCostModel). A solver reports each better solution
// through onProgress and returns its best one; it must return soon after `signal` aborts (the limit).
import type { RoadefInstance } from '../formats/roadef-2009/instance.ts';
import type { RoadefSolution } from '../formats/roadef-2009/solution.ts';
import type { Solver } from './model/solver-port.ts';
import { RoadefCostModel } from './model/cost-model.ts';
import { createNetworkEngine, type NetworkIncumbent, type NetworkSolveOptions, type NetworkSolver } from './network/search.ts';
import { solveReferencePlan } from './network/operating-plan.ts';

/** The network engine's port, as the ROADEF commands and benchmarks call it. */
export type RoadefIncumbent = NetworkIncumbent;
export type RoadefSolveOptions = NetworkSolveOptions;
export type RoadefSolver = NetworkSolver;

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

/** The network engine with the instance's own objective (spec section 5) as its cost model. */
function roadefEngine({ cancelRoundTrips }: { cancelRoundTrips: boolean }): RoadefSolver {
  return (instance, options) => createNetworkEngine({ cancelRoundTrips, cost: new RoadefCostModel(instance.config) })(instance, options);
}

/** Solvers by the name `--solver` takes; the first is the default. */
export const ROADEF_SOLVERS: ReadonlyMap<string, RoadefSolver> = new Map([
  ['engine', roadefEngine({ cancelRoundTrips: true })],
  // The same search without cancelling flights for their operating cost: how far holds, exchanges,
  // ferries and re-accommodation alone go.
  ['engine-keeps-flights', roadefEngine({ cancelRoundTrips: false })],
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
