// How a job is executed: a job worker (in process or `npm run worker`) calls `runJob`, which runs the
// simulation on the SimulationRunner (the simulation thread and its solver pool, the one POST
// /simulate calls directly) with its progress and best plans so far published to the job's store,
// and a cancellation that keeps the best plan.
import { Budget } from '../../recovery/model/budget.ts';
import { recoveryFailureOf, type RecoveryFailure } from '../../recovery/model/failure.ts';
import type { SimulationProgress } from '../../recovery/pipeline.ts';
import type { SimulationResult } from '../../recovery/model/result.ts';
import type { SolverStats } from '../../recovery/model/solver-port.ts';
import type { SimulationRunner } from '../simulation-runner.ts';
import type { JobProgress, JobRecord } from './job.ts';

/** Progress is published at most this often (the last report of a burst is kept, never dropped). */
export const PUBLISH_EVERY_MS = 250;
/** A cancelled run that has not stopped by then is finished as cancelled anyway (it stops at its next yield). */
export const CANCEL_GRACE_MS = 500;

/** How a job's run ended (`result`: see JobRecord.result). */
export type JobOutcome =
  | { status: 'succeeded'; result: SimulationResult }
  | { status: 'cancelled'; result: SimulationResult | null }
  | { status: 'failed'; failure: RecoveryFailure; result: SimulationResult | null };

/** Where a worker writes what a run does: implemented by each store for its workers. */
export interface JobWriter {
  /** Moves a queued job to running (counting the run); null when it was cancelled or has expired meanwhile. */
  start(id: string): Promise<JobRecord | null>;
  /** `result` is undefined when the best plans did not change. */
  progress(id: string, progress: JobProgress, result: SimulationResult | undefined): Promise<void>;
  finish(id: string, outcome: JobOutcome): Promise<void>;
  /** Calls `onCancel` when the job's owner cancels it (now, if already asked); returns the unsubscribe. */
  onCancel(id: string, onCancel: () => void): Promise<() => void>;
}

export interface JobRunner {
  /** Runs job `id` to a final state through `writer`; never rejects for the simulation's own failures. */
  runJob(id: string, writer: JobWriter): Promise<JobOutcome | null>;
  /** The solver's levels and counters, when it has them (for /metrics). */
  stats?(): SolverStats | Promise<SolverStats>;
}

function jobProgress(p: SimulationProgress): JobProgress {
  return { phase: p.phase, elapsedMs: p.elapsedMs, iterations: p.iterations, bestCost: p.bestCost, lowerBound: p.lowerBound, mipGap: p.mipGap };
}

/** A job stores the simulation's result as the runner returns it; the API presents it when it is read. */
export function createJobRunner(simulations: SimulationRunner): JobRunner {
  return {
    ...(simulations.stats ? { stats: () => simulations.stats!() } : {}),

    async runJob(id, writer) {
      const job = await writer.start(id);
      if (!job) return null;
      const controller = new AbortController();
      let cancelled = false;
      // The simulation thread hears the cancellation between two aircraft of a pricing round or at its
      // next solve: the job is finished as cancelled by then or after CANCEL_GRACE_MS, whichever
      // comes first, and the run's own end is ignored.
      let stopped: () => void = () => undefined;
      const stoppedByCancel = new Promise<'cancelled'>((resolve) => { stopped = () => resolve('cancelled'); });
      const unsubscribe = await writer.onCancel(id, () => {
        if (cancelled) return;
        cancelled = true;
        controller.abort();
        setTimeout(stopped, CANCEL_GRACE_MS);
      });

      // Publishing is throttled and serialised: the latest progress (and best plans) of a burst is
      // written once the previous write is done and PUBLISH_EVERY_MS has passed.
      let best: SimulationResult | null = null;
      let pending: { progress: JobProgress; result: SimulationResult | undefined } | null = null;
      let writing: Promise<void> = Promise.resolve();
      let lastWrite = 0;
      let timer: NodeJS.Timeout | null = null;
      const flush = () => {
        timer = null;
        if (!pending) return;
        const { progress, result } = pending;
        pending = null;
        lastWrite = Date.now();
        writing = writing.then(() => writer.progress(id, progress, result)).catch(() => undefined);
      };
      let ended = false;
      const onProgress = (p: SimulationProgress) => {
        // A cancelled run may still report until it stops; the finished job keeps what it had.
        if (ended) return;
        const result = p.result ?? undefined;
        if (result !== undefined) best = result;
        pending = { progress: jobProgress(p), result: result ?? pending?.result };
        if (timer) return;
        timer = setTimeout(flush, Math.max(0, lastWrite + PUBLISH_EVERY_MS - Date.now()));
      };

      let outcome: JobOutcome;
      try {
        // The job's budget starts when it runs (its time in the queue is not the solver's); its solves
        // let the interactive ones (POST /simulate) pass in the solver pool's queue.
        const budget = Budget.start(job.request.config.solver.time_limit_ms, controller.signal, { background: true });
        const ended = await Promise.race([simulations.run(job.request, budget, onProgress), stoppedByCancel]);
        outcome = ended === 'cancelled' ? { status: 'cancelled', result: best } : { status: 'succeeded', result: ended };
      } catch (error) {
        const failure = recoveryFailureOf(error);
        if (cancelled && (failure?.kind === 'aborted' || controller.signal.aborted)) outcome = { status: 'cancelled', result: best };
        else outcome = { status: 'failed', failure: failure ?? { kind: 'crashed', message: error instanceof Error ? error.message : String(error) }, result: best };
      } finally {
        unsubscribe();
      }
      // The run's last report (often the one with its final plan) is written before the job ends,
      // never dropped by the throttle: the job's progress then matches its result.
      ended = true;
      if (timer) clearTimeout(timer);
      flush();
      await writing;
      await writer.finish(id, outcome);
      return outcome;
    },
  };
}
