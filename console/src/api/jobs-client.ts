// How the page runs a simulation: as a job (POST /simulations answers 202 with it), its state read from
// GET /simulations/{id}/events (Server-Sent Events, ending with the final state; EventSource cannot
// send the X-API-Key header, so the stream is read with fetch). Cancelling is DELETE
// /simulations/{id}: the job ends `cancelled` with the best plans it had, which the stream's final
// state carries, so the stream is read to its end either way.
import { ApiError, callApi, postJson } from './api-client.ts';
import type { SimulationRequest, SimulationResponse } from './wire.ts';

export interface JobProgress {
  phase: string | null;
  elapsed_ms: number | null;
  best_cost: number | null;
  lower_bound: number | null;
  mip_gap: number | null;
  iterations: number | null;
}

interface JobState {
  job_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress?: JobProgress | null;
  result?: SimulationResponse | null;
  error?: { detail: string } | null;
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * How a job ended: succeeded with its answer, or cancelled with the best plans it had (null: none yet);
 * `jobId` is what POST /days/{day_id}/apply takes as simulation_id for a job on a day.
 */
export type JobOutcome = { jobId: string } & ({ status: 'succeeded'; result: SimulationResponse } | { status: 'cancelled'; result: SimulationResponse | null });

/**
 * Runs one job to its end; `onProgress` sees every state; aborting `cancel` deletes the job, whose
 * final state then still arrives. Rejects with ApiError when the submission is refused (the service's
 * sentence, and Retry-After on 429/503) or the job failed (its own sentence).
 */
export async function runJob(body: SimulationRequest, onProgress: (state: { status: string; progress: JobProgress | null }) => void, cancel: AbortSignal): Promise<JobOutcome> {
  const job = await postJson<{ job_id: string }>('simulations', body, cancel);
  const jobPath = `simulations/${encodeURIComponent(job.job_id)}`;
  const remove = () => { void callApi(jobPath, { method: 'DELETE' }).catch(() => undefined); };
  if (cancel.aborted) remove();
  cancel.addEventListener('abort', remove, { once: true });
  try {
    let final: JobState | null = null;
    const response = await callApi(`${jobPath}/events`, { headers: { Accept: 'text/event-stream' } });
    for await (const data of serverSentData(response)) {
      const state = JSON.parse(data) as JobState;
      onProgress({ status: state.status, progress: state.progress ?? null });
      if (FINAL.has(state.status)) { final = state; break; }
    }
    // A stream that ended without a final state: ask once for the job as it stands.
    final ??= await (await callApi(jobPath)).json() as JobState;
    if (final.status === 'succeeded' && final.result) return { jobId: job.job_id, status: 'succeeded', result: final.result };
    if (final.status === 'cancelled') return { jobId: job.job_id, status: 'cancelled', result: final.result ?? null };
    // A failed job: its sentence is the job's own (the HTTP answers themselves were 200).
    throw new ApiError(200, final.error?.detail ?? `The job ended ${final.status} without a plan.`, null);
  } finally {
    cancel.removeEventListener('abort', remove);
  }
}

/** The `data:` payloads of a text/event-stream body, one per event. */
async function* serverSentData(response: Response): AsyncGenerator<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (data !== '') yield data;
    }
  }
}
