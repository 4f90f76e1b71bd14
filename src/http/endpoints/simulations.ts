// Recovery jobs: POST /simulations queues a simulation and answers at once; GET reads it (progress,
// the best plans so far, the result), /events streams the same as Server-Sent Events, DELETE cancels.
// The endpoint only translates: the store (in process or Redis, src/runtime/jobs/) keeps the jobs and
// answers null for another key's job exactly as for an unknown one, so every route says 404 to it.
import type { Request, Response } from 'express';
import { DEFAULT_SOLVER_CONFIG, type SolverConfig } from '../../recovery/model/solver-config.ts';
import { JOB_STATUSES, type JobRecord, type JobStore } from '../../runtime/jobs/job.ts';
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { HttpError, quote } from '../errors.ts';
import { presentJob } from '../job-presenter.ts';
import { presenterFor } from '../recovery-presenter.ts';
import { z } from '../openapi-zod.ts';
import { keyIdOf } from '../rate-limit.ts';
import { JobAcceptedSchema, JobListSchema, JobRequestDocumented, JobRequestSchema, JobSchema, JobSummarySchema } from '../recovery-schemas.ts';
import { paginate } from '../pagination.ts';
import { integerQuery, PageTokenSchema } from '../schemas.ts';
import type { SimulationRequest } from '../../recovery/pipeline.ts';
import { checkSimulationLimits, simulationRequestOf } from './simulate.ts';
import { daySimulationRequest, loadDay, type LoadedDay } from './days.ts';
import type { DayStore } from '../../store/day-store.ts';

/** A comment line on an idle event stream now and then, so that proxies do not close it. */
const HEARTBEAT_MS = 15_000;

const JobParamsSchema = z.strictObject({
  job_id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a job id as POST /simulations returned it').describe('The job id from POST /simulations.'),
});

const JobListQuerySchema = z.strictObject({
  status: z.enum(JOB_STATUSES).optional().describe('Only the jobs in this status.'),
  limit: integerQuery(1, 100).optional().describe('At most this many jobs in a page (1-100); default 20.'),
  page_token: PageTokenSchema.optional(),
});

/** Jobs a list reads from the store before it pages them (the newest of the caller's jobs). */
const LISTED_JOBS_MAX = 1000;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

function idempotencyKeyOf(req: Request): string | null {
  const value = req.get('Idempotency-Key');
  if (value === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(value)) throw new HttpError(400, "Header 'Idempotency-Key' must be 1-128 visible ASCII characters (e.g. a UUID).");
  return value;
}

function ownerOf(res: Response): string {
  const owner = keyIdOf(res);
  // The key gate runs before every keyed route; a missing id here is a wiring mistake.
  if (owner === undefined) throw new Error('The API-key gate did not record the key id');
  return owner;
}

/**
 * What makes two submissions the same for Idempotency-Key: the simulation asked for, without what the
 * moment of submission fills in (a day's current revision, its `now` when none was given, the flights
 * departed by then), so that a retry minutes later is still the same request.
 */
function submissionFingerprint(request: SimulationRequest): string {
  const { revision, departedFlightIds: _departed, ...asked } = request;
  return JSON.stringify({ ...asked, day: revision?.dayId ?? null });
}

const NOT_FOUND = 'Job not found (it never existed, was created with another API key, or its results have expired).';

export function simulationJobEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  // The store's refusals (a full queue, an outage) are answered by the central error handler.
  const store = (): JobStore => {
    const jobs = deps.jobs;
    if (!jobs) throw new Error('The /simulations routes need a job store in the app dependencies');
    return jobs;
  };
  const limits = deps.config.jobs;
  const present = presenterFor(deps.schedules);
  const view = (job: JobRecord) => presentJob(job, present);
  const summary = (job: JobRecord) => { const { result: _result, ...rest } = presentJob({ ...job, result: null }, present); return rest; };

  api.route({
    method: 'post',
    path: '/simulations',
    operationId: 'createSimulationJob',
    tags: ['Simulation jobs'],
    summary: 'Submit a recovery simulation as a background job',
    description: `The body of POST /simulate, plus an optional time_limit_ms (up to JOB_MAX_TIME_LIMIT_MS). Answers 202 at once with the job id and a Location header; the job runs on a solver worker (this instance, or \`npm run worker\` processes with REDIS_URL). An Idempotency-Key header makes a retried submission return the same job (the same key with another body is 422). The job belongs to the API key that submitted it: any other key gets 404 for it.`,
    request: { headers: ['Idempotency-Key'], body: JobRequestSchema, documentedBody: JobRequestDocumented },
    response: { headers: ['Location'], status: 202, description: 'Queued (or, for a repeated Idempotency-Key, the job that submission created).', schema: JobAcceptedSchema },
    errors: {
      400: 'Malformed request (as POST /simulate), time_limit_ms above JOB_MAX_TIME_LIMIT_MS, or a malformed Idempotency-Key header.',
      404: 'Unknown schedule, or a flight, aircraft or airport the airline\'s schedule does not have.',
      422: 'The Idempotency-Key was used for another request (another body) by this API key; the detail names the job it created.',
      429: 'Rate limit of this API key exceeded (requests or simulations per minute); retry after the Retry-After seconds.',
      503: 'JOB_QUEUE_MAX jobs are already waiting, or the job store (Redis) cannot be reached; retry after the Retry-After seconds.',
    },
    handler: async ({ body }, req, res) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const { time_limit_ms: timeLimitMs, ...simulation } = body;
      const asked = simulation.config ?? DEFAULT_SOLVER_CONFIG;
      if (timeLimitMs !== undefined && timeLimitMs > limits.maxTimeLimitMs) {
        throw new HttpError(400, `Field 'time_limit_ms' must be at most ${limits.maxTimeLimitMs} on this service (the operator's JOB_MAX_TIME_LIMIT_MS); got ${timeLimitMs}.`);
      }
      // A job's time limit is the job's own, bounded by JOB_MAX_TIME_LIMIT_MS; the other bounds are /simulate's.
      const config: SolverConfig = { ...asked, solver: { ...asked.solver, time_limit_ms: timeLimitMs ?? asked.solver.time_limit_ms } };
      checkSimulationLimits(config, { ...deps.config.simulation, maxTimeLimitMs: limits.maxTimeLimitMs });
      const { day: dayId, now, ...rest } = simulation;
      let day: { store: DayStore; loaded: LoadedDay } | null = null;
      let request;
      if (dayId === undefined) {
        if (now !== undefined) throw new HttpError(400, "Field 'now' is for a simulation on an operational day: give it with 'day'.");
        request = simulationRequestOf(deps, rest, config);
      } else {
        if (rest.schedule_file !== undefined) throw new HttpError(400, "Give either 'day' or 'schedule_file': a day's simulation is on the day's own schedule.");
        if (!deps.days) throw new Error('POST /simulations with a day needs a day store in the app dependencies');
        const dayStore = await deps.days.get();
        const loaded = await loadDay(deps, dayStore, dayId);
        day = { store: dayStore, loaded };
        request = daySimulationRequest(deps, loaded, { ...rest, ...(now !== undefined ? { now } : {}) }, config);
      }
      const owner = ownerOf(res);
      const { job, created } = await store().submit({ owner, request, idempotencyKey });
      if (!created && submissionFingerprint(job.request) !== submissionFingerprint(request)) {
        throw new HttpError(422, `Idempotency-Key ${quote(idempotencyKey!)} was used for another request (job ${job.id}); use a new key for a new request.`);
      }
      // Kept with the day, so that POST /days/{day_id}/apply finds it (its result is the job's).
      if (day && created) await day.store.saveSimulation({ id: job.id, dayId: day.loaded.day.id, revision: day.loaded.day.revision, owner, request, result: null, job: true });
      res.setHeader('Location', `/simulations/${job.id}`);
      const accepted = view(job);
      return { job_id: accepted.job_id, status: accepted.status, created_at: accepted.created_at };
    },
  });

  api.route({
    method: 'get',
    path: '/simulations',
    operationId: 'listSimulationJobs',
    tags: ['Simulation jobs'],
    summary: 'The caller\'s recovery jobs, newest first',
    description: 'Only the jobs submitted with the same API key, while they are kept (JOB_RESULT_TTL_S after they finish).',
    request: { query: JobListQuerySchema },
    response: { description: 'A page of the jobs, without their results.', schema: JobListSchema },
    handler: async ({ query }, _req, res) => {
      const jobs = await store().list(ownerOf(res), { ...(query.status ? { status: query.status } : {}), limit: LISTED_JOBS_MAX });
      const { page, nextPageToken } = paginate(jobs, {
        keyOf: (job) => [job.createdAt, job.id], descending: [true, true], limit: query.limit ?? 20, pageToken: query.page_token,
      });
      return { jobs: page.map(summary), next_page_token: nextPageToken };
    },
  });

  api.route({
    method: 'get',
    path: '/simulations/{job_id}/status',
    operationId: 'getSimulationJobStatus',
    tags: ['Simulation jobs'],
    summary: 'A recovery job without its result: status and progress, for polling',
    description: 'The job as GET /simulations/{job_id} shows it, less `result` (which can be tens of kilobytes): cheap to poll until the status is final.',
    request: { params: JobParamsSchema },
    response: { description: 'The job, without its result.', schema: JobSummarySchema },
    errors: { 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      const job = await store().get(ownerOf(res), params.job_id);
      if (!job) throw new HttpError(404, NOT_FOUND);
      return summary(job);
    },
  });

  api.route({
    method: 'get',
    path: '/simulations/{job_id}',
    operationId: 'getSimulationJob',
    tags: ['Simulation jobs'],
    summary: 'A recovery job: status, progress, best plan so far, result',
    request: { params: JobParamsSchema },
    response: { description: 'The job.', schema: JobSchema },
    errors: { 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      const job = await store().get(ownerOf(res), params.job_id);
      if (!job) throw new HttpError(404, NOT_FOUND);
      return view(job);
    },
  });

  api.route({
    method: 'get',
    path: '/simulations/{job_id}/events',
    operationId: 'streamSimulationJobEvents',
    tags: ['Simulation jobs'],
    summary: 'A recovery job\'s progress as Server-Sent Events',
    description: 'text/event-stream of `progress` events (the job as GET /simulations/{job_id} shows it; `result` is set only when the best plans changed) and one last `final` event with the whole job, after which the stream ends. Each event has an id: a client that reconnects with the Last-Event-ID header gets every event after it, and one that connects after the end gets the events again from the start (or after its Last-Event-ID) up to the final one.',
    request: { headers: ['Last-Event-ID'], params: JobParamsSchema },
    response: { description: 'The event stream.', schema: z.string(), contentType: 'text/event-stream' },
    errors: { 404: NOT_FOUND },
    handler: async ({ params }, req, res) => {
      const lastEventId = req.get('Last-Event-ID');
      if (lastEventId !== undefined && !/^[0-9-]{1,40}$/.test(lastEventId)) throw new HttpError(400, "Header 'Last-Event-ID' must be the id of an event of this stream.");
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      const events = await store().events(ownerOf(res), params.job_id, lastEventId ?? null, gone.signal);
      if (!events) throw new HttpError(404, NOT_FOUND);
      res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      res.flushHeaders();
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      try {
        for await (const event of events) {
          res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(view(event.job))}\n\n`);
        }
      } finally {
        clearInterval(heartbeat);
        res.end();
      }
    },
  });

  api.route({
    method: 'delete',
    path: '/simulations/{job_id}',
    operationId: 'cancelSimulationJob',
    tags: ['Simulation jobs'],
    summary: 'Cancel a recovery job',
    description: 'A queued job is cancelled at once; a running one stops within about a second and keeps the best plans it had (status cancelled, result = those plans). A finished job is answered as it is.',
    request: { params: JobParamsSchema },
    response: { description: 'The job after the cancellation.', schema: JobSchema },
    errors: { 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      const job = await store().cancel(ownerOf(res), params.job_id);
      if (!job) throw new HttpError(404, NOT_FOUND);
      return view(job);
    },
  });
}
