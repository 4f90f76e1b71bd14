// Operational days: open a day from a schedule, read it (ETag = its revision), simulate on its current
// revision, apply an option (If-Match), record movements, revert, read its revisions, their diffs
// and its alerts. The routes translate: the domain (src/domain/day/) computes every new state, the
// store (src/store/) writes it as a revision. Days belong to the environment (APP_ENV) of the key:
// another environment's day is 404, exactly as one that does not exist.
import type { Request, Response } from 'express';
import { alertsOf } from '../../domain/day/alerts.ts';
import { applyOption, revertTo, type DayConflict } from '../../domain/day/apply.ts';
import { openDay, scheduleOfDay, wholeScheduleWindow, type DayState, type DayWindow } from '../../domain/day/day.ts';
import { applyDelta, deltaOf } from '../../domain/day/delta.ts';
import { recordMovements, type MovementField, type MovementProblem } from '../../domain/day/movements.ts';
import { formatLocal, formatUtc, parseZonedInstant } from '../../domain/time.ts';
import type { Schedule } from '../../domain/schedule.ts';
import type { CatalogEntry } from '../../formats/schedule-json/schedule-catalog.ts';
import { Budget } from '../../recovery/model/budget.ts';
import type { SimulationResult } from '../../recovery/model/result.ts';
import { DEFAULT_SOLVER_CONFIG, type SolverConfig } from '../../recovery/model/solver-config.ts';
import type { SimulationRequest } from '../../recovery/pipeline.ts';
import type { DayRecord, DayStore, NewRevision, RevisionAuthor, RevisionRecord } from '../../store/day-store.ts';
import type { ApiBuilder } from '../api-builder.ts';
import {
  AlertsSchema, ApplyRequestSchema, DayListQuerySchema, DayListSchema, DayParamsSchema, DayResponseSchema, DaySimulationRequestDocumented, DaySimulationRequestSchema,
  DaySimulationResponseSchema, DaySummaryResponseSchema, DiffSchema, MovementsRequestSchema, OpenDayRequestSchema, RevertRequestSchema,
  RevisionListQuerySchema, RevisionListSchema, RevisionParamsSchema, WrittenRevisionSchema,
} from '../day-schemas.ts';
import { presentAlerts, presentDay, presentDaySummary, presentDiff, presentRevision } from '../day-presenter.ts';
import { answeredNotModified } from '../conditional.ts';
import { paginate } from '../pagination.ts';
import type { EndpointDeps } from '../deps.ts';
import { HttpError, quote } from '../errors.ts';
import { scheduleOr404 } from '../lookups.ts';
import type { z } from '../openapi-zod.ts';
import { keyIdOf } from '../rate-limit.ts';
import { presentSimulation } from '../recovery-presenter.ts';
import { checkSimulationLimits, simulationRequestOf } from './simulate.ts';

/** Days a list reads from the store before it pages them (the environment's newest). */
const LISTED_DAYS_MAX = 1000;
const DAY_NOT_FOUND = 'Day not found (it never existed, or it was opened in another environment).';
const TAGS = ['Operational days'];
const OPERATOR = /^[\x20-\x7e]{1,100}$/;
/** Movements that lose a race to another write are recorded again on top of it, at most this many times in all. */
const MOVEMENT_WRITE_ATTEMPTS = 3;
/**
 * Presented days kept per process (GET /days/{day_id} of the default schedule is about 600 kB of JSON,
 * and building it takes tens of milliseconds): a revision never changes, so a kept view never goes stale.
 */
const KEPT_DAY_VIEWS = 16;

/** The day as opened, per schedule and window: the same for every revision, and read by every route. */
const openedDays = new WeakMap<Schedule, Map<string, DayState>>();

function openedDay(schedule: Schedule, window: DayWindow): DayState {
  let byWindow = openedDays.get(schedule);
  if (!byWindow) openedDays.set(schedule, (byWindow = new Map()));
  const key = `${window.fromMinutes}-${window.toMinutes}`;
  let opened = byWindow.get(key);
  if (!opened) byWindow.set(key, (opened = openDay(schedule, window)));
  return opened;
}

type DaySimulationBody = z.infer<typeof DaySimulationRequestSchema>;

const etagOf = (revision: number) => `"${revision}"`;

/** The caller's key: its SHA-256 (the jobs' owner) and the 16-digit id revisions show. */
function callerOf(res: Response): { owner: string; keyId: string } {
  const owner = keyIdOf(res);
  if (owner === undefined) throw new Error('The API-key gate did not record the key id');
  return { owner, keyId: owner.slice(0, 16) };
}

function authorOf(req: Request, res: Response): RevisionAuthor {
  const operator = req.get('X-Operator');
  if (operator !== undefined && !OPERATOR.test(operator)) throw new HttpError(400, "Header 'X-Operator' must be 1-100 printable ASCII characters (the controller's name).");
  return { keyId: callerOf(res).keyId, operator: operator ?? null };
}

/** The revision If-Match names (`"3"`, `W/"3"` or `3`), `*` for any, or null when absent. */
function ifMatchOf(req: Request): number | '*' | null {
  const value = req.get('If-Match');
  if (value === undefined) return null;
  if (value.trim() === '*') return '*';
  const match = /^\s*(?:W\/)?"?([1-9]\d{0,8})"?\s*$/.exec(value);
  if (!match) throw new HttpError(400, `Header 'If-Match' must be the ETag of GET /days/{day_id}, such as "3"; got ${quote(value)}.`);
  return Number(match[1]);
}

function staleError(day: DayRecord, asked: number): HttpError {
  return new HttpError(412, `The day is at revision ${day.revision}, not ${asked} as If-Match says: another change was written first. Read the day again (its ETag is "${day.revision}") and decide on it.`, { ETag: etagOf(day.revision) });
}

/** 412 unless `expected` (from If-Match) is the day's revision; `required` makes a missing If-Match 428. */
function checkIfMatch(req: Request, day: DayRecord, required: boolean): void {
  const expected = ifMatchOf(req);
  if (expected === null) {
    if (required) throw new HttpError(428, `This change needs the header If-Match with the day's ETag (now "${day.revision}"), so that it is not made on a revision you have not seen.`);
    return;
  }
  if (expected !== '*' && expected !== day.revision) throw staleError(day, expected);
}

function conflictError(schedule: Schedule, conflict: DayConflict): HttpError {
  switch (conflict.kind) {
    case 'departed': {
      const origin = schedule.flightsById.get(conflict.flightId)?.origin;
      const at = origin ? formatLocal(conflict.offBlockMinutes, schedule.airports.get(origin)?.timeZone ?? 'UTC') : formatUtc(conflict.offBlockMinutes);
      return new HttpError(409, `Flight ${conflict.flightId} has departed (off-block ${at}): it can no longer be changed. Simulate again on the current revision.`);
    }
    case 'changed':
      return new HttpError(409, `Flight ${conflict.flightId} was changed by a revision written after the simulation: the option no longer fits the day. Simulate again on the current revision.`);
    case 'unknown_flight':
      return new HttpError(409, `Flight ${conflict.flightId} is not a flight of this day.`);
    case 'passengers':
      return new HttpError(409, `The passengers of ${conflict.subject} are no longer where the simulation found them. Simulate again on the current revision.`);
  }
}

const FIELD_NAMES: Record<MovementField, string> = { offBlock: 'off_block', airborne: 'airborne', landed: 'landed', onBlock: 'on_block' };

function movementError(problem: MovementProblem): HttpError {
  const at = `movements[${problem.index}] (${problem.flightId})`;
  switch (problem.kind) {
    case 'unknown_flight': return new HttpError(400, `${at}: flight ${quote(problem.flightId)} is not a flight of this day.`);
    case 'wrong_tail': return new HttpError(400, `${at}: tail ${quote(problem.tail)} does not fly this flight; the day plans it for ${problem.plannedTail}.`);
    case 'cancelled': return new HttpError(400, `${at}: the flight is cancelled in the current revision; a cancelled flight has no movements.`);
    case 'order': return new HttpError(400, `${at}: ${FIELD_NAMES[problem.later]} is before ${FIELD_NAMES[problem.earlier]} (off_block ≤ airborne ≤ landed ≤ on_block).`);
    case 'future': return new HttpError(400, `${at}: ${FIELD_NAMES[problem.field]} ${formatUtc(problem.minutes)} is after now (${formatUtc(problem.nowMinutes)}); actual times are never in the future.`);
    case 'previous_not_departed': return new HttpError(400, `${at}: the aircraft's previous flight ${problem.previousFlightId} has no off-block yet, so this one cannot have left.`);
    case 'before_previous': return new HttpError(400, `${at}: off_block is before ${formatUtc(problem.previousMinutes)}, when the aircraft's previous flight ${problem.previousFlightId} arrived (or left).`);
  }
}

/** `now` of a request (minutes), or the wall clock. */
function nowOf(text: string | undefined): number {
  return text === undefined ? Math.floor(Date.now() / 60_000) : parseZonedInstant(text)!;
}

/** What a route needs of a day: its record, base schedule, and states. */
export interface LoadedDay {
  day: DayRecord;
  entry: CatalogEntry;
  opened: DayState;
  revision: RevisionRecord;
  state: DayState;
}

export async function loadDay(deps: EndpointDeps, store: DayStore, dayId: string, revisionNumber?: number): Promise<LoadedDay> {
  const environment = deps.config.env;
  const day = await store.getDay(environment, dayId);
  if (!day) throw new HttpError(404, DAY_NOT_FOUND);
  const number = revisionNumber ?? day.revision;
  const revision = await store.getRevision(environment, dayId, number);
  if (!revision) throw new HttpError(404, `Revision ${number} of day ${dayId} not found: the day has revisions 1 to ${day.revision}.`);
  const entry = deps.schedules.resolve(day.scheduleName);
  // A day outlives the schedule files: an operator who removed its schedule gets a sentence, not a 500.
  if (!entry) throw new HttpError(409, `Day ${dayId} was opened on schedule ${quote(day.scheduleName)}, which this service no longer loads.`);
  const opened = openedDay(entry.schedule, day.window);
  return { day, entry, opened, revision, state: applyDelta(opened, revision.delta) };
}

/**
 * The simulation a day route (or a job with `day`) asks for, on the day's current revision at
 * `now`: the body checked as /simulate checks it, then against the day (a disrupted flight must be
 * one of its flights, not cancelled, not departed: 404 / 409).
 */
export function daySimulationRequest(deps: EndpointDeps, loaded: LoadedDay, body: DaySimulationBody, config: SolverConfig): SimulationRequest {
  const { now, ...simulation } = body;
  const request = simulationRequestOf(deps, { ...simulation, schedule_file: loaded.day.scheduleName }, config);
  const nowMinutes = nowOf(now);
  const flights = new Map(loaded.state.flights.map((f) => [f.id, f]));
  for (const d of request.disruptions) {
    if (d.type !== 'flight_delay' && d.type !== 'flight_cancellation') continue;
    const flight = flights.get(d.flightId);
    if (!flight) throw new HttpError(404, `Flight ${quote(d.flightId)} is not a flight of day ${loaded.day.id} (its window is ${formatUtc(loaded.day.window.fromMinutes)} to ${formatUtc(loaded.day.window.toMinutes)}).`);
    if (flight.cancelled) throw new HttpError(409, `Flight ${d.flightId} is cancelled in revision ${loaded.day.revision} of the day.`);
    if (flight.actual.offBlock !== null) throw new HttpError(409, `Flight ${d.flightId} has departed (off-block ${formatUtc(flight.actual.offBlock)}); a disruption of it cannot be simulated.`);
  }
  const { facts } = scheduleOfDay(loaded.entry.schedule, loaded.state, nowMinutes);
  return {
    ...request,
    departedFlightIds: facts.departedFlightIds,
    revision: { dayId: loaded.day.id, number: loaded.day.revision, window: loaded.day.window, delta: loaded.revision.delta, nowMinutes },
  };
}

export function dayEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  const environment = deps.config.env;
  const store = (): Promise<DayStore> => {
    if (!deps.days) throw new Error('The /days routes need a day store in the app dependencies');
    return deps.days.get();
  };
  const views = new Map<string, string>();
  const keepView = (key: string, json: string) => {
    if (views.size >= KEPT_DAY_VIEWS) views.delete(views.keys().next().value!);
    views.set(key, json);
  };

  /** Writes the next revision after `loaded`'s, or answers 412 when another write came first. */
  const write = async (s: DayStore, loaded: LoadedDay, revision: Omit<NewRevision, 'delta'>, next: DayState, res: Response) => {
    const written = await s.writeRevision(environment, loaded.day.id, loaded.day.revision, { ...revision, delta: deltaOf(loaded.opened, next) });
    if (!written) throw new HttpError(404, DAY_NOT_FOUND);
    if (!written.written) throw staleError({ ...loaded.day, revision: written.currentRevision }, loaded.day.revision);
    res.setHeader('ETag', etagOf(written.revision.number));
    res.setHeader('Location', `/days/${loaded.day.id}/revisions/${written.revision.number}`);
    return presentRevision(written.revision, loaded.state, next);
  };

  api.route({
    method: 'post', path: '/days', operationId: 'openDay', tags: TAGS,
    summary: 'Open an operational day from a schedule',
    description: 'The day starts as the schedule plans it (revision 1): every flight departing in [from, to) on its tail at its scheduled times, every passenger on their journey. It belongs to the environment of the API key: every key of that environment sees it and may change it, no other sees it.',
    request: { headers: ['X-Operator'], body: OpenDayRequestSchema },
    response: { headers: ['Location', 'ETag'], status: 201, description: 'Opened; Location names it and ETag is its revision ("1").', schema: DaySummaryResponseSchema },
    errors: { 400: 'Malformed request, or a window whose `to` is not after `from` or holds no flight.', 404: 'Unknown schedule.' },
    handler: async ({ body }, req, res) => {
      const entry = scheduleOr404(deps.schedules, body.schedule_file);
      const whole = wholeScheduleWindow(entry.schedule);
      const window: DayWindow = {
        fromMinutes: body.from === undefined ? whole.fromMinutes : parseZonedInstant(body.from)!,
        toMinutes: body.to === undefined ? whole.toMinutes : parseZonedInstant(body.to)!,
      };
      if (window.toMinutes <= window.fromMinutes) throw new HttpError(400, "Field 'to' must be after 'from'.");
      if (!entry.schedule.flights.some((f) => f.depMinutes >= window.fromMinutes && f.depMinutes < window.toMinutes)) {
        throw new HttpError(400, `No flight of schedule ${quote(entry.name)} departs between ${formatUtc(window.fromMinutes)} and ${formatUtc(window.toMinutes)}.`);
      }
      const day = await (await store()).createDay(environment, { scheduleName: entry.name, window }, authorOf(req, res));
      res.setHeader('Location', `/days/${day.id}`);
      res.setHeader('ETag', etagOf(day.revision));
      return presentDaySummary(day);
    },
  });

  api.route({
    method: 'get', path: '/days', operationId: 'listDays', tags: TAGS,
    summary: 'The environment\'s operational days, newest first',
    request: { query: DayListQuerySchema },
    response: { description: 'The days, without their flights.', schema: DayListSchema },
    handler: async ({ query }) => {
      const days = await (await store()).listDays(environment, LISTED_DAYS_MAX);
      const { page, nextPageToken } = paginate(days, {
        keyOf: (day) => [day.createdAtMs, day.id], descending: [true, false], limit: query.limit ?? 20, pageToken: query.page_token,
      });
      return { days: page.map(presentDaySummary), next_page_token: nextPageToken };
    },
  });

  api.route({
    method: 'get', path: '/days/{day_id}', operationId: 'getDay', tags: TAGS,
    summary: 'The current revision of a day: flights with planned, estimated and actual times, tails, cancellations, passengers',
    description: 'ETag is the revision ("3"); with If-None-Match naming it, the answer is 304 without a body. A console watching the day polls this with If-None-Match (a 304 costs one small database read) and learns of a new revision from the first 200.',
    request: { headers: ['If-None-Match'], params: DayParamsSchema },
    response: { headers: ['ETag'], notModified: true, description: 'The day at its current revision.', schema: DayResponseSchema },
    errors: { 404: DAY_NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      const s = await store();
      const day = await s.getDay(environment, params.day_id);
      if (!day) throw new HttpError(404, DAY_NOT_FOUND);
      if (answeredNotModified(res, etagOf(day.revision))) return undefined;
      const key = `${day.id}/${day.revision}`;
      const kept = views.get(key);
      if (kept !== undefined) {
        res.type('application/json').send(kept);
        return undefined;
      }
      const loaded = await loadDay(deps, s, day.id, day.revision);
      const view = presentDay(loaded.entry.schedule, day, loaded.state, loaded.opened);
      keepView(key, JSON.stringify(view));
      return view;
    },
  });

  api.route({
    method: 'get', path: '/days/{day_id}/revisions', operationId: 'listDayRevisions', tags: TAGS,
    summary: 'Every revision of a day: what changed, when, by which key and operator, why',
    request: { params: DayParamsSchema, query: RevisionListQuerySchema },
    response: { description: 'A page of the revisions, oldest first.', schema: RevisionListSchema },
    errors: { 404: DAY_NOT_FOUND },
    handler: async ({ params, query }) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id);
      const revisions = (await s.listRevisions(environment, params.day_id)) ?? [];
      let before: DayState | null = null;
      const views = revisions.map((revision) => {
        const after = applyDelta(loaded.opened, revision.delta);
        const view = presentRevision(revision, before, after);
        before = after;
        return view;
      });
      const { page, nextPageToken } = paginate(views, { keyOf: (view) => [view.number], descending: [false], limit: query.limit ?? 1000, pageToken: query.page_token });
      return { revisions: page, next_page_token: nextPageToken };
    },
  });

  api.route({
    method: 'get', path: '/days/{day_id}/revisions/{number}', operationId: 'getDayRevision', tags: TAGS,
    summary: 'One revision of a day',
    request: { params: RevisionParamsSchema },
    response: { description: 'The revision and a count of what it changed.', schema: WrittenRevisionSchema },
    errors: { 404: `${DAY_NOT_FOUND} Or no such revision.` },
    handler: async ({ params }) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id, params.number);
      const before = params.number > 1 ? (await loadDay(deps, s, params.day_id, params.number - 1)).state : null;
      return presentRevision(loaded.revision, before, loaded.state);
    },
  });

  api.route({
    method: 'get', path: '/days/{day_id}/revisions/{number}/diff', operationId: 'getDayRevisionDiff', tags: TAGS,
    summary: 'What a revision changed against the one before: per tail flights retimed, moved, cancelled; passengers moved; movements',
    request: { params: RevisionParamsSchema },
    response: { description: 'The changes (revision 1 has none).', schema: DiffSchema },
    errors: { 404: `${DAY_NOT_FOUND} Or no such revision.` },
    handler: async ({ params }) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id, params.number);
      const before = params.number > 1 ? (await loadDay(deps, s, params.day_id, params.number - 1)).state : loaded.state;
      return presentDiff(loaded.entry.schedule, loaded.day.id, Math.max(1, params.number - 1), params.number, before, loaded.state);
    },
  });

  api.route({
    method: 'post', path: '/days/{day_id}/simulate', operationId: 'simulateOnDay', tags: TAGS,
    summary: 'Recovery options on the day\'s current revision',
    description: 'The body of POST /simulate (without schedule_file) plus an optional `now`. Solved on the current revision: flights at their estimated times on their current tails (none earlier than now), cancelled flights gone, passengers on their current journeys; flights that have departed (an off-block) are fixed and never a seat for a rebooking. Delays in the answer count from the estimated times. The simulation is kept with the day: POST /days/{day_id}/apply applies one of its options.',
    request: { params: DayParamsSchema, body: DaySimulationRequestSchema, documentedBody: DaySimulationRequestDocumented },
    response: { description: 'The ranked options, as POST /simulate answers, with the simulation_id.', schema: DaySimulationResponseSchema },
    errors: {
      400: 'Malformed request, as POST /simulate.',
      404: `${DAY_NOT_FOUND} Or a disrupted flight that is not a flight of the day.`,
      409: 'A disrupted flight is cancelled or has departed.',
      503: 'Solver capacity saturated, or the day store is unavailable; retry after the Retry-After seconds.',
    },
    handler: async ({ params, body }, _req, res) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id);
      const config = body.config ?? DEFAULT_SOLVER_CONFIG;
      const request = daySimulationRequest(deps, loaded, body, config);
      checkSimulationLimits(config, deps.config.simulation);
      const runner = deps.simulations;
      if (!runner) throw new Error('POST /days/{day_id}/simulate needs a simulation runner in the app dependencies');
      const cancel = new AbortController();
      const onClose = () => { if (!res.writableFinished) cancel.abort(); };
      res.once('close', onClose);
      deps.metrics.simulationsInFlight.inc();
      let result: SimulationResult;
      try {
        result = await runner.run(request, Budget.start(config.solver.time_limit_ms, cancel.signal));
      } finally {
        res.off('close', onClose);
        deps.metrics.simulationsInFlight.dec();
      }
      const id = crypto.randomUUID();
      await s.saveSimulation({ id, dayId: loaded.day.id, revision: loaded.day.revision, owner: callerOf(res).owner, request, result, job: false });
      return { ...presentSimulation(loaded.entry.schedule, result), simulation_id: id, day_id: loaded.day.id, revision: loaded.day.revision };
    },
  });

  api.route({
    method: 'post', path: '/days/{day_id}/apply', operationId: 'applyOption', tags: TAGS,
    summary: 'Apply an option of a simulation of this day: a new revision',
    description: 'Needs If-Match with the day\'s ETag. Writes, in one transaction, a revision with the option\'s retimings, swaps, cancellations and rebookings. The option may come from a simulation on an earlier revision as long as nothing it touches has changed since (movements elsewhere are fine).',
    request: { headers: ['If-Match', 'X-Operator'], params: DayParamsSchema, body: ApplyRequestSchema },
    response: { headers: ['Location', 'ETag'], status: 201, description: 'The revision written; ETag is its number, Location names it.', schema: WrittenRevisionSchema },
    errors: {
      400: 'Malformed request or If-Match, or an option_id the simulation does not have.',
      404: `${DAY_NOT_FOUND} Or an unknown simulation.`,
      409: 'The simulation belongs to another day or has not finished, or the option no longer fits: a flight it changes has departed (named), or was changed since.',
      412: 'If-Match is not the current revision (another change was written first); the ETag header has the current one.',
      428: 'If-Match is missing.',
    },
    handler: async ({ params, body }, req, res) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id);
      checkIfMatch(req, loaded.day, true);
      const author = authorOf(req, res);
      const simulation = await s.getSimulation(environment, body.simulation_id);
      if (!simulation) throw new HttpError(404, `Simulation ${quote(body.simulation_id)} not found (it never existed, or belongs to another environment).`);
      if (simulation.dayId !== loaded.day.id) throw new HttpError(409, `Simulation ${simulation.id} was run on day ${simulation.dayId}, not on this day: its options do not apply here.`);
      let result = simulation.result;
      if (simulation.job) {
        const job = deps.jobs ? await deps.jobs.get(simulation.owner, simulation.id) : null;
        if (!job || job.status !== 'succeeded' || !job.result) throw new HttpError(409, `Job ${simulation.id} has ${job ? `status ${job.status}` : 'expired'}: only a succeeded job's options can be applied.`);
        result = job.result;
      }
      const option = result?.options.find((o) => `opt_${o.strategy}` === body.option_id);
      if (!result || !option) throw new HttpError(400, `Field 'option_id': ${quote(body.option_id)} is not an option of simulation ${simulation.id} (it has ${result?.options.map((o) => `opt_${o.strategy}`).join(', ') || 'none'}).`);
      const simulatedOn = simulation.revision === loaded.day.revision ? loaded.state : (await loadDay(deps, s, loaded.day.id, simulation.revision)).state;
      const change = applyOption(loaded.state, simulatedOn, option, `r${loaded.day.revision + 1}`);
      if (!change.ok) throw conflictError(loaded.entry.schedule, change.conflict);
      return write(s, loaded, { kind: 'apply', ...author, simulationId: simulation.id, optionId: body.option_id, revertedTo: null }, change.state, res);
    },
  });

  api.route({
    method: 'post', path: '/days/{day_id}/revert', operationId: 'revertDay', tags: TAGS,
    summary: 'Restore the plan of an earlier revision, as a new revision',
    description: 'Needs If-Match. Tails, planned times, cancellations and bookings become those of `revision`; actual times stay as recorded (history is never rewritten).',
    request: { headers: ['If-Match', 'X-Operator'], params: DayParamsSchema, body: RevertRequestSchema },
    response: { headers: ['Location', 'ETag'], status: 201, description: 'The revision written.', schema: WrittenRevisionSchema },
    errors: {
      404: `${DAY_NOT_FOUND} Or no such revision.`,
      409: 'A flight that has departed would be cancelled or flown by another aircraft (named).',
      412: 'If-Match is not the current revision.',
      428: 'If-Match is missing.',
    },
    handler: async ({ params, body }, req, res) => {
      const s = await store();
      const loaded = await loadDay(deps, s, params.day_id);
      checkIfMatch(req, loaded.day, true);
      const author = authorOf(req, res);
      if (body.revision > loaded.day.revision) throw new HttpError(404, `Revision ${body.revision} of day ${loaded.day.id} not found: the day has revisions 1 to ${loaded.day.revision}.`);
      const target = await loadDay(deps, s, loaded.day.id, body.revision);
      const change = revertTo(loaded.state, target.state);
      if (!change.ok) throw conflictError(loaded.entry.schedule, change.conflict);
      return write(s, loaded, { kind: 'revert', ...author, simulationId: null, optionId: null, revertedTo: body.revision }, change.state, res);
    },
  });

  api.route({
    method: 'post', path: '/days/{day_id}/movements', operationId: 'recordMovements', tags: TAGS,
    summary: 'Record actual times from movement messages: a new revision',
    description: 'Each message gives a flight, its tail and some of off_block, airborne, landed, on_block. Checked in order: the flight must be the day\'s and not cancelled, the tail the one planned, the times in order and not after `now`, and a flight leaves only after its aircraft\'s previous flight has left (and arrived, if that is known). Estimated times of the later flights follow. If-Match is optional: movements are facts and are recorded on the current revision; with If-Match they are refused (412) when the day has moved on.',
    request: { headers: ['If-Match', 'X-Operator'], params: DayParamsSchema, body: MovementsRequestSchema },
    response: { headers: ['Location', 'ETag'], status: 201, description: 'The revision written.', schema: WrittenRevisionSchema },
    errors: {
      400: 'Malformed request, or a message that breaks a rule: the detail names the message (movements[i]) and the rule.',
      404: DAY_NOT_FOUND,
      412: 'If-Match is not the current revision.',
    },
    handler: async ({ params, body }, req, res) => {
      const s = await store();
      const author = authorOf(req, res);
      const nowMinutes = nowOf(body.now);
      const messages = body.movements.map((m) => ({
        flightId: m.flight, tail: m.tail,
        times: Object.fromEntries((['off_block', 'airborne', 'landed', 'on_block'] as const).flatMap((field, i) => {
          const value = m[field];
          return value === undefined ? [] : [[(['offBlock', 'airborne', 'landed', 'onBlock'] as const)[i], value === null ? null : parseZonedInstant(value)!]];
        })),
      }));
      for (let attempt = 1; ; attempt++) {
        const loaded = await loadDay(deps, s, params.day_id);
        checkIfMatch(req, loaded.day, false);
        const outcome = recordMovements(loaded.state, messages, nowMinutes);
        if (!outcome.ok) throw movementError(outcome.problem);
        try {
          return await write(s, loaded, { kind: 'movements', ...author, simulationId: null, optionId: null, revertedTo: null }, outcome.state, res);
        } catch (error) {
          // Facts lose no race: another write came first, so record them on top of it (unless If-Match pinned a revision).
          if (!(error instanceof HttpError && error.status === 412) || req.get('If-Match') !== undefined || attempt >= MOVEMENT_WRITE_ATTEMPTS) throw error;
        }
      }
    },
  });

  api.route({
    method: 'get', path: '/days/{day_id}/alerts', operationId: 'getDayAlerts', tags: TAGS,
    summary: 'What the current revision\'s estimated times break: passenger connections and crew duty limits',
    request: { params: DayParamsSchema },
    response: { headers: ['ETag'], description: 'The alerts of the current revision.', schema: AlertsSchema },
    errors: { 404: DAY_NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      const loaded = await loadDay(deps, await store(), params.day_id);
      res.setHeader('ETag', etagOf(loaded.day.revision));
      return presentAlerts(loaded.entry.schedule, loaded.day.id, loaded.day.revision, alertsOf(loaded.entry.schedule, loaded.state));
    },
  });
}
