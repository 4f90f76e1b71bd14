// A tour of the API through the typed client, as a consumer writes it (compiled with the strictest
// settings by clients/typescript/tsconfig.json; run against a live service by
// test/clients/typescript-client.test.ts): list flights, simulate a delay, run the same simulation as
// a job and follow it (status polls and its event stream), open an operational day, simulate on it and
// apply the best option. Every value read is typed by the document; nothing is cast.
import type { RecoveryClient, Schema } from './index.js';

export interface TourResult {
  flights: Schema<'FlightSummary'>[];
  simulation: Schema<'SimulationResponse'>;
  job: Schema<'SimulationJob'>;
  jobEvents: string[];
  statusPolls: Schema<'SimulationJobSummary'>['status'][];
  day: Schema<'DaySummary'>;
  applied: Schema<'DayRevisionWritten'>;
  etag: string;
}

/** Throws the service's sentence when a call failed. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    const detail = (result.error as { detail?: unknown } | undefined)?.detail;
    throw new Error(`${result.response.status}: ${typeof detail === 'string' ? detail : 'no detail'}`);
  }
  return result.data;
}

/** The event names of a job's Server-Sent Events stream, read to its end. */
async function eventNames(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const text: string[] = [];
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text.push(decoder.decode(chunk.value, { stream: true }));
  return [...text.join('').matchAll(/^event: (\w+)$/gm)].map((m) => m[1]!);
}

export async function tour(drs: RecoveryClient, schedule: string): Promise<TourResult> {
  const listed = ok(await drs.GET('/flights/{schedule_file}', { params: { path: { schedule_file: schedule }, query: { airline: 'NV' } } }));
  const flight = listed.flights[0];
  if (!flight) throw new Error(`schedule ${schedule} has no NV flight`);

  // A partial configuration types: every field of SolverConfigPatch is optional.
  const request: Schema<'SimulationRequest'> = {
    scenario_id: 'client-tour', schedule_file: schedule, disrupted_flight: flight.id, min_delay_minutes: 90,
    config: { solver: { time_limit_ms: 10_000 } },
  };
  const simulation = ok(await drs.POST('/simulate', { body: request }));

  const accepted = ok(await drs.POST('/simulations', { body: { ...request, time_limit_ms: 10_000 }, params: { header: { 'Idempotency-Key': `tour-${flight.id}` } } }));
  const statusPolls: Schema<'SimulationJobSummary'>['status'][] = [];
  for (;;) {
    const status = ok(await drs.GET('/simulations/{job_id}/status', { params: { path: { job_id: accepted.job_id } } }));
    statusPolls.push(status.status);
    if (status.status === 'succeeded' || status.status === 'failed' || status.status === 'cancelled') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const job = ok(await drs.GET('/simulations/{job_id}', { params: { path: { job_id: accepted.job_id } } }));
  const events = await drs.GET('/simulations/{job_id}/events', { params: { path: { job_id: accepted.job_id } }, parseAs: 'stream' });
  if (!events.response.body) throw new Error('the event stream has no body');
  const jobEvents = await eventNames(events.response.body);

  const opened = await drs.POST('/days', { body: { schedule_file: schedule } });
  const day = ok(opened);
  const etag = opened.response.headers.get('ETag') ?? '';
  const onDay = ok(await drs.POST('/days/{day_id}/simulate', {
    params: { path: { day_id: day.id } },
    body: { scenario_id: 'client-tour-day', disrupted_flight: flight.id, min_delay_minutes: 90, now: flight.dep, config: { solver: { time_limit_ms: 10_000 } } },
  }));
  const best = onDay.best_option_id;
  if (best === null) throw new Error('no option on the day');
  const applied = ok(await drs.POST('/days/{day_id}/apply', {
    params: { path: { day_id: day.id }, header: { 'If-Match': etag, 'X-Operator': 'client tour' } },
    body: { simulation_id: onDay.simulation_id, option_id: best },
  }));
  return { flights: listed.flights, simulation, job, jobEvents, statusPolls, day, applied, etag };
}
