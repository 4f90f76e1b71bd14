// The port through which the use case solves its models: what it sends and what comes back.
// solver-wasm/ implements it (the worker pool); tests may solve in process. A solver rejects only
// with RecoveryError (busy, crashed, aborted; failure.ts); an infeasible model or a time limit is an
// outcome.
import type { LinearModel } from './linear-model.ts';
import type { SolveStatus } from './result.ts';

export interface SolveTask {
  model: LinearModel;
  /** The solve's time budget, milliseconds (GLPK's own limit sits inside it; the pool also enforces a hard stop). */
  timeLimitMs: number;
  /** Relative MIP gap at which GLPK may stop. */
  mipGap: number;
  /** Solve the LP relaxation (every variable continuous) and return its row duals: the master problem of the column generation. */
  relaxation?: boolean;
  /**
   * Relaxations that share this key (any object, one per column generation) form a sequence in which
   * each model is the last one with rows and columns added (known by name; a row or column may also
   * drop out): the solver may start each from the last one's optimal basis instead of from scratch.
   * The optimum is the same; at a degenerate one, the duals may be other optimal duals.
   */
  warmStart?: object;
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
  /** Why there is no plan, in a sentence (e.g. GLPK's status when it stopped without one); null when there is a plan. */
  detail: string | null;
  /** For a relaxation solved to optimality: the dual price of every row (GLPK's sign convention: reduced cost = cost − Σ dual × coefficient). */
  duals?: Record<string, number>;
}

/** Levels and counters of a solver with workers and a queue (the pool), for admission and /metrics. Counters only grow. */
export interface SolverStats {
  threads: number;
  /** Workers that have loaded GLPK and take solves (below `threads` while a replacement loads). */
  workersReady: number;
  /** Solves handed to a worker and not finished. */
  running: number;
  /** Solves waiting for a worker. */
  queued: number;
  maxQueue: number;
  /** Solves that returned an outcome (any status). */
  completed: number;
  /** Solves refused because the queue was full. */
  rejectedQueueFull: number;
  /** Solves that waited longer than the queue timeout. */
  queueTimeouts: number;
  /** Solves whose worker was terminated past the time limit. */
  hardStops: number;
  /** Solves lost with a worker that died. */
  crashes: number;
  /** Waiting solves dropped by their caller's signal. */
  aborted: number;
}

export interface Solver {
  /**
   * `signal` drops the solve if it still waits for a worker (RecoveryError 'aborted'); `deadline` (a
   * performance.now() instant of the caller's thread) is when the solve must have returned, whatever
   * the solver's own overrun: its time limit is capped by what is left of it when the solve starts,
   * less a margin for that overrun (nothing left: status time_limit without running). A `background`
   * solve (a job's) waits behind every interactive one that is waiting too. Default: interactive.
   */
  solve(task: SolveTask, options?: { signal?: AbortSignal; deadline?: number; background?: boolean }): Promise<SolveOutcome>;
  /** Its levels and counters, when it has workers and a queue (the pool does); admission refuses work early with them. */
  stats?(): SolverStats;
}
