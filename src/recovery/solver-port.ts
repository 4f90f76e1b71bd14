// The port through which the use case solves its models: what it sends and what comes back.
// solver-wasm/ implements it (the worker pool); tests may solve in process.
import type { LinearModel } from './linear-model.ts';
import type { SolveStatus } from './result.ts';

export interface SolveTask {
  model: LinearModel;
  /** The solve's time budget, milliseconds (GLPK's own limit sits inside it; the pool also enforces a hard stop). */
  timeLimitMs: number;
  /** Relative MIP gap at which GLPK may stop. */
  mipGap: number;
}

export interface SolveOutcome {
  status: SolveStatus;
  /** Objective of the plan found, null when there is none. */
  objective: number | null;
  /** Values of the variables that are not zero (the plan), empty when there is none. */
  values: Record<string, number>;
  /** Optimal value of the LP relaxation when the MIP was not proven optimal (a lower bound), else null. */
  lowerBound: number | null;
  solveMs: number;
  /** Branch-and-bound work is not exposed by glpk.js; kept null rather than guessed. */
  detail: string | null;
}

export interface SolverPort {
  solve(task: SolveTask): Promise<SolveOutcome>;
}
