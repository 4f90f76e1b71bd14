// What crosses the thread boundary between the service and a solver worker: plain, cloneable data.
import type { LinearModel } from '../src/recovery/linear-model.ts';
import type { SolveStatus } from '../src/recovery/result.ts';

export interface SolveTask {
  model: LinearModel;
  /** GLPK's own time limit, milliseconds (it restarts after the root LP, so the pool also enforces a hard stop). */
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
