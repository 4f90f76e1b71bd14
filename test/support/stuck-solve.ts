// A solve as GLPK stuck on its model would end: no plan, its time limit (or the caller's deadline)
// spent first, or the caller's abort. Tests force "the solver never finishes" with it (the guide's
// stuck model) instead of racing a real solve against a clock.
import { RecoveryError } from '../../src/recovery/model/failure.ts';
import type { Solver, SolveOutcome, SolveTask } from '../../src/recovery/model/solver-port.ts';

export function stuckSolve(task: SolveTask, options?: Parameters<Solver['solve']>[1]): Promise<SolveOutcome> {
  return new Promise<SolveOutcome>((resolve, reject) => {
    const until = Math.min(performance.now() + task.timeLimitMs, options?.deadline ?? Number.POSITIVE_INFINITY);
    const timer = setTimeout(() => resolve({ status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs: task.timeLimitMs, detail: 'stuck' }), Math.max(0, until - performance.now()));
    options?.signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' }));
    }, { once: true });
  });
}
