// The jobs path (issue 11's API, where the service has it): POST /simulations answers 202 with the
// job; GET /simulations/{id}/events streams its state as Server-Sent Events, ending with the final
// state; DELETE /simulations/{id} cancels it. EventSource cannot send the X-API-Key header, so the
// stream is read with fetch.
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

/** Runs one job to its end; `onProgress` sees every state; aborting `signal` cancels the job. */
export async function runJob(body: SimulationRequest, onProgress: (state: { status: string; progress: JobProgress | null }) => void, signal: AbortSignal): Promise<SimulationResponse> {
  const job = await postJson<{ job_id: string }>('simulations', body, signal);
  const jobPath = `simulations/${encodeURIComponent(job.job_id)}`;
  const cancel = () => { void callApi(jobPath, { method: 'DELETE' }).catch(() => undefined); };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    let final: JobState | null = null;
    const response = await callApi(`${jobPath}/events`, { headers: { Accept: 'text/event-stream' }, signal });
    for await (const data of serverSentData(response)) {
      const state = JSON.parse(data) as JobState;
      onProgress({ status: state.status, progress: state.progress ?? null });
      if (FINAL.has(state.status)) { final = state; break; }
    }
    // A stream that ended without a final state: ask once for the job as it stands.
    final ??= await (await callApi(jobPath, { signal })).json() as JobState;
    // A cancelled job keeps the best plan it had: draw it. A job without any plan is a failure whose
    // sentence is the job's own (the HTTP answers themselves were 200).
    if (final.result) return final.result;
    throw new ApiError(200, final.error?.detail ?? `The job ended ${final.status} without a plan.`, null);
  } finally {
    signal.removeEventListener('abort', cancel);
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
