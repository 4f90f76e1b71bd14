// A recovery job as the API shows it (GET /simulations/{job_id}, its events and the list). The
// result is stored in the domain's terms and presented here as /simulate presents it; the failure is
// worded here, as errors.ts words the failures of /simulate.
import type { RecoveryFailure } from '../recovery/model/failure.ts';
import type { JobRecord } from '../runtime/jobs/job.ts';
import type { SimulationResult } from '../recovery/model/result.ts';
import { quote } from './errors.ts';
import type { JobView, SimulationResponse } from './recovery-schemas.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The sentence of a failed job's error.detail. */
export function jobFailureDetail(failure: RecoveryFailure): string {
  switch (failure.kind) {
    case 'not_found':
      return `${failure.subject === 'airport' ? 'Airport' : failure.subject === 'flight' ? 'Flight' : 'Aircraft'} ${quote(failure.id)} not found for airline ${quote(failure.airline)}.`;
    case 'busy':
      return 'The solvers stayed saturated while this job ran; submit it again.';
    case 'crashed':
      return 'A solver failed during this job; it has been replaced, submit the job again.';
    case 'deadline':
      return 'The job did not finish within the runtime\'s safety deadline; submit it again with a shorter time_limit_ms.';
    case 'aborted':
      return 'The job was stopped by the service (a worker shut down); submit it again.';
  }
}

/** `present` is the /simulate presenter over the service's schedules (recovery-presenter.ts presenterFor). */
export function presentJob(job: JobRecord, present: (result: SimulationResult) => SimulationResponse): JobView {
  const p = job.progress;
  return {
    job_id: job.id,
    status: job.status,
    created_at: iso(job.createdAt)!,
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    progress: p === null ? null : {
      phase: p.phase, elapsed_ms: p.elapsedMs, best_cost: p.bestCost, lower_bound: p.lowerBound, mip_gap: p.mipGap, iterations: p.iterations,
    },
    result: job.result ? present(job.result) : null,
    error: job.failure === null ? null : { detail: jobFailureDetail(job.failure) },
  };
}
