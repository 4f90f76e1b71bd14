// A recovery job in the runtime's terms: what is stored, what its events carry, and the one interface
// over the two stores (in process: memory-store.ts; Redis: redis-store.ts). Plain data throughout: a
// record is JSON in Redis and a structured clone in memory, so both modes keep the same shape.
//
// Who may see a job: its owner, the SHA-256 (hex) of the API key that created it. A store answers
// null for another owner's job exactly as for a job that does not exist, so no route can tell them
// apart; the key itself is never stored.
import type { RecoveryFailure } from '../../recovery/model/failure.ts';
import type { SimulationProgress, SimulationRequest } from '../../recovery/pipeline.ts';
import type { SimulationResult } from '../../recovery/model/result.ts';

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled']);

/** The simulation's progress as a job shows it: the pipeline's, without the best plans (the job's `result` holds those). */
export type JobProgress = Omit<SimulationProgress, 'result'>;

export interface JobRecord {
  id: string;
  /** Hex SHA-256 of the creating API key. */
  owner: string;
  status: JobStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  progress: JobProgress | null;
  /**
   * The simulation's result in the domain's terms (the API presents it when it is read): the final
   * one, or while running (and after a cancellation) the best plans so far; null before a plan. Kept
   * unpresented so that an operational day can apply one of its options.
   */
  result: SimulationResult | null;
  /** Why a failed job failed; null otherwise. */
  failure: RecoveryFailure | null;
  request: SimulationRequest;
  /** Times a worker started it: 1, or more after a worker died and another took it over. */
  runs: number;
}

/** What a job's event stream carries; `id` orders them (Last-Event-ID). */
export interface JobEvent {
  id: string;
  /** 'progress' while it runs (status or progress changed); 'final' once, last. */
  type: 'progress' | 'final';
  job: JobRecord;
}

/** The operator's bounds a store applies (JOB_RESULT_TTL_S, JOB_QUEUE_MAX). */
export interface JobStoreLimits {
  /** Seconds a finished job is kept. */
  resultTtlSeconds: number;
  /** Jobs that may wait (queued) before a submission is refused. */
  queueMax: number;
}

/** Submission refused because JOB_QUEUE_MAX jobs are already waiting. */
export class JobQueueFullError extends Error {
  constructor(readonly queueMax: number) {
    super(`${queueMax} jobs are already waiting for a solver.`);
  }
}

/** The job store cannot be reached (Redis down or unreachable): the request can be retried. */
export class JobStoreUnavailableError extends Error {}

export interface JobSubmission {
  owner: string;
  request: SimulationRequest;
  /** The Idempotency-Key header: the same key and owner name the same job (while it is kept). */
  idempotencyKey: string | null;
}

/** The API side of a store: what the HTTP endpoints call. Every method takes the owner. */
export interface JobStore {
  /** Creates a queued job, or returns the one an earlier submission with the same idempotency key created. Throws JobQueueFullError. */
  submit(submission: JobSubmission): Promise<{ job: JobRecord; created: boolean }>;
  get(owner: string, id: string): Promise<JobRecord | null>;
  /** The owner's jobs, newest first. */
  list(owner: string, filter: { status?: JobStatus; limit: number }): Promise<JobRecord[]>;
  /**
   * Asks the job to stop: a queued job is cancelled at once, a running one stops within a second
   * and keeps its best plan. Resolves with the job as it is then (final once the run has stopped,
   * or a moment later), null when the owner has no such job. A final job is left as it is.
   */
  cancel(owner: string, id: string): Promise<JobRecord | null>;
  /**
   * The job's events after `afterId` (all when null), then live ones until the final event; ends
   * early when `signal` aborts. Null when the owner has no such job.
   */
  events(owner: string, id: string, afterId: string | null, signal: AbortSignal): Promise<AsyncIterable<JobEvent> | null>;
  close(): Promise<void>;
}

/** How long DELETE waits for a running job to stop and keep its best plan before it answers. */
export const CANCEL_WAIT_MS = 1500;

/** Polls `read` until the job is final (or gone), at most CANCEL_WAIT_MS; resolves with the last read. */
export async function waitForFinal(read: () => Promise<JobRecord | null>): Promise<JobRecord | null> {
  const until = Date.now() + CANCEL_WAIT_MS;
  let job = await read();
  while (job && !FINAL_STATUSES.has(job.status) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = await read();
  }
  return job;
}
