// Request and response schemas of the HTTP interface. They validate requests, generate the OpenAPI
// document and (outside production) check responses, so the three cannot drift apart. Field names are
// those of the interface specification and contract.md.
import { AIRLINE_CODE_PATTERN } from '../domain/schedule.ts';
import { parseZonedInstant } from '../domain/time.ts';
import { PROBLEM_TYPE_BASE, PROBLEM_TYPES } from './problem-types.ts';
import { z } from './openapi-zod.ts';

// ---- shared pieces ---------------------------------------------------------------------------------

export const ErrorSchema = z.object({
  detail: z.string().openapi({ description: 'One human-readable sentence.', example: 'Invalid API key' }),
}).openapi('Error', { description: 'Every error answer has exactly this shape, unless the client asks for problem details (Problem).' });

export const ProblemSchema = z.object({
  type: z.enum(Object.keys(PROBLEM_TYPES).map((kind) => `${PROBLEM_TYPE_BASE}${kind}`) as [string, ...string[]])
    .openapi({ description: 'The cause, stable: a client may act on it (e.g. retry on urn:drs:problem:queue-full, not on urn:drs:problem:invalid-request).', example: `${PROBLEM_TYPE_BASE}queue-full` }),
  title: z.string().openapi({ description: 'The cause in words; the same for every problem of this type.', example: PROBLEM_TYPES['queue-full'] }),
  status: z.number().int().openapi({ description: 'The HTTP status of the answer.', example: 503 }),
  detail: z.string().openapi({ description: 'The same sentence as the default {detail} answer.', example: 'The job queue is full (20 jobs waiting); retry after the Retry-After seconds.' }),
  errors: z.array(z.object({
    field: z.string().openapi({ description: 'The parameter or field, dotted (as POST /config/validate names them), e.g. `config.solver.time_limit_ms`.' }),
    message: z.string().openapi({ description: 'The rule it breaks.' }),
  })).optional().openapi({ description: 'For a malformed request (400): one entry per parameter or field.' }),
}).openapi('Problem', { description: 'RFC 9457 problem details, answered (as application/problem+json) to a client whose Accept header prefers application/problem+json to application/json.' });

const AIRLINE_RULE = 'must be a two-character airline code of capital letters or digits, such as NV';
export const AirlineCodeSchema = z.string().regex(AIRLINE_CODE_PATTERN, AIRLINE_RULE).openapi({ example: 'NV' });

/** Flight id: `<flight_number>_<scheduled departure, UTC, seconds, Z>`. */
export const FLIGHT_ID_PATTERN = /^[A-Z0-9]{2}\d{1,4}_\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const FlightIdSchema = z.string().regex(FLIGHT_ID_PATTERN).openapi({
  description: 'Flight identifier `<flight_number>_<scheduled departure in UTC, seconds, trailing Z>`.',
  example: 'NV101_2026-11-21T05:30:00Z',
});

/** A timestamp the service writes: ISO 8601 with a numeric UTC offset (never Z). */
export const OFFSET_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?[+-]\d{2}:\d{2}$/;
const offsetTimestamp = (description: string, example: string) =>
  z.string().regex(OFFSET_TIMESTAMP_PATTERN).openapi({ description, example });

const ZONED_RULE = 'must be an ISO 8601 timestamp with a zone (Z or ±hh:mm) naming a real date and time, such as 2026-11-21T06:00:00Z';
/** A timestamp a caller sends: must carry a zone and name a real date (no 30 February). */
export const ZonedTimestampSchema = z.string().max(64)
  .refine((text) => parseZonedInstant(text) !== null, ZONED_RULE)
  .openapi({ format: 'date-time', description: 'ISO 8601 timestamp with Z or a numeric offset; seconds are optional and are truncated to the minute.', example: '2026-11-21T06:00:00Z' });

const ScheduleNameSchema = z.string().min(1).max(128).openapi({
  description: 'Name of a bundled schedule, with or without `.json` (e.g. `default`, `small.json`). Only names of loaded schedules are accepted; anything else is 404.',
  example: 'default',
});

// Cursor pagination of the lists (pagination.ts pages them).
export const PageTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a next_page_token of this list')
  .describe('The `next_page_token` of the previous page; omitted for the first page.');

export const NextPageTokenSchema = z.string().nullable()
  .describe('Send it as `page_token` for the next page; null on the last page.');

/** A whole-number query parameter (a query string is text: digits are read as a number and documented as an integer). */
export function integerQuery(min: number, max: number) {
  return z.preprocess((value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value),
    z.number().int().min(min).max(max));
}

// ---- GET /health -----------------------------------------------------------------------------------

export const HealthResponseSchema = z.object({
  status: z.literal('healthy'),
  service: z.string().openapi({ example: 'Airline Disruption Recovery Service' }),
  timestamp: offsetTimestamp('Current time, UTC with the numeric offset +00:00.', '2026-11-21T07:13:00.000+00:00'),
  version: z.string().openapi({ description: 'Version of the running service (package version), not the interface label.', example: '0.1.0' }),
}).openapi('HealthResponse');

// ---- GET /flights, GET /flights/{schedule_file} ------------------------------------------------------

export const FlightsQuerySchema = z.strictObject({
  airline: AirlineCodeSchema.optional().openapi({ description: 'Airline whose flights are listed; default the configured DEFAULT_AIRLINE (NV).' }),
});

export const FlightsParamsSchema = z.object({ schedule_file: ScheduleNameSchema });

export const FlightSummarySchema = z.object({
  id: FlightIdSchema,
  tail: z.string().openapi({ description: 'Registration of the aircraft planned for the flight.', example: 'OE-NVA' }),
  origin: z.string().openapi({ description: 'Departure airport (IATA).', example: 'VIE' }),
  dest: z.string().openapi({ description: 'Arrival airport (IATA).', example: 'LHR' }),
  dep: offsetTimestamp('Scheduled departure in the local time of the origin airport, with its numeric UTC offset.', '2026-11-21T06:30:00+01:00'),
  arr: offsetTimestamp('Scheduled arrival in the local time of the destination airport, with its numeric UTC offset.', '2026-11-21T08:00:00+00:00'),
}).openapi('FlightSummary');

export const FLIGHT_LIST_LIMIT = 50;

export const FlightListResponseSchema = z.object({
  airline: AirlineCodeSchema,
  schedule_file: z.string().openapi({ description: 'Canonical name of the schedule served (without .json), whatever spelling was asked for.', example: 'default' }),
  flight_count: z.number().int().min(0).openapi({ description: 'Number of flights of the airline in the whole schedule (not the number returned).' }),
  flights: z.array(FlightSummarySchema).max(FLIGHT_LIST_LIMIT).openapi({
    description: `The first ${FLIGHT_LIST_LIMIT} flights of the airline, ordered by scheduled departure (UTC), then flight number.`,
  }),
}).openapi('FlightListResponse');

// ---- GET /snapshot -----------------------------------------------------------------------------------

export const MAX_SNAPSHOT_WINDOW_MINUTES = 72 * 60;
export const DEFAULT_SNAPSHOT_WINDOW_MINUTES = 24 * 60;

export const SnapshotQuerySchema = z.strictObject({
  airline: AirlineCodeSchema.optional().openapi({ description: 'Airline of the snapshot; default the configured DEFAULT_AIRLINE (NV).' }),
  from: ZonedTimestampSchema.optional().openapi({ description: 'Window start. Default: the earliest scheduled departure of any airline in the schedule.' }),
  to: ZonedTimestampSchema.optional().openapi({ description: 'Window end, after `from` and at most 72 hours later. Default: `from` + 24 hours.' }),
  schedule_file: ScheduleNameSchema.optional().openapi({ description: 'Schedule to read, with or without .json; default the configured DEFAULT_SCHEDULE.' }),
});

const utcTimestamp = (description: string, example: string) => offsetTimestamp(`${description} UTC, written with the offset +00:00.`, example);
const stationTimestamp = (description: string, example: string) => offsetTimestamp(`${description} Local time of the airport where it happens, with its numeric offset.`, example);

export const SnapshotFlightSchema = FlightSummarySchema.extend({
  flight_number: z.string().openapi({ example: 'NV101' }),
  fleet: z.string().openapi({ description: 'Fleet (aircraft type) of the planned aircraft.', example: 'A320' }),
  seats: z.number().int().openapi({ description: 'Seats of the planned aircraft.' }),
  booked_passengers: z.number().int().min(0),
  crew_ids: z.array(z.string()).openapi({ description: 'Crew duties that include this flight.' }),
  status: z.literal('scheduled').openapi({ description: 'Always `scheduled`: a snapshot shows the plan, no disruption applied.' }),
}).openapi('SnapshotFlight');

export const MaintenanceSchema = z.object({
  tail: z.string(),
  type: z.enum(['overnight_check', 'daily_check', 'a_check']),
  station: z.string().openapi({ description: 'Maintenance station (IATA).' }),
  start: stationTimestamp('Start of the check.', '2026-11-21T18:30:00+01:00'),
  end: stationTimestamp('End of the check.', '2026-11-22T05:30:00+01:00'),
}).openapi('Maintenance');

export const SnapshotAircraftSchema = z.object({
  tail: z.string(),
  fleet: z.string(),
  seats: z.number().int(),
  base: z.string(),
  status: z.enum(['in_service', 'in_maintenance']).openapi({ description: '`in_maintenance` when a check covers the window start (start ≤ from < end), else `in_service`.' }),
  location: z.string().openapi({
    description: 'Where the aircraft is at the window start: an airport code, or `airborne` while a flight of its rotation is in the air (departed before and arriving after `from`). On the ground it is at the destination of its last arrival at or before `from`, or at the station of a check covering `from`, or else at the origin of its next flight (or the station of its next check), or else its base.',
    example: 'VIE',
  }),
  airborne_flight: FlightIdSchema.nullable().openapi({ description: 'The flight in the air at the window start when `location` is `airborne`, else null.' }),
  next_maintenance: MaintenanceSchema.omit({ tail: true }).nullable().openapi({ description: 'The first check starting at or after the window start, or null.' }),
}).openapi('SnapshotAircraft');

export const SnapshotCrewSchema = z.object({
  crew_id: z.string(),
  role: z.enum(['cockpit', 'cabin']),
  base: z.string(),
  duty_start: stationTimestamp('Start of the duty period, at the origin of its first flight.', '2026-11-21T05:45:00+01:00'),
  duty_end: stationTimestamp('End of the duty period, at the destination of its last flight.', '2026-11-21T12:45:00+01:00'),
  flights: z.array(FlightIdSchema),
  max_duty_minutes: z.number().int().openapi({ description: 'Maximum flight-duty period in minutes: the duty must end by duty_start + max_duty_minutes.' }),
}).openapi('SnapshotCrew');

export const SnapshotResponseSchema = z.object({
  airline: AirlineCodeSchema,
  schedule_file: z.string().openapi({ description: 'Canonical name of the schedule served.' }),
  schedule_airlines: z.array(AirlineCodeSchema).openapi({ description: 'Every airline with flights in this schedule file, sorted: the `airline` values a snapshot of it may ask for (an addition to contract.md\'s fields, so that a client loading one airline knows of the others).', example: ['BZ', 'NV'] }),
  window: z.object({
    from: utcTimestamp('Window start (truncated to the minute).', '2026-11-21T05:30:00+00:00'),
    to: utcTimestamp('Window end (truncated to the minute).', '2026-11-22T05:30:00+00:00'),
  }),
  flights: z.array(SnapshotFlightSchema).openapi({ description: 'Flights of the airline with dep < to and arr > from, ordered by departure (UTC) then flight number. No 50 cut.' }),
  aircraft: z.array(SnapshotAircraftSchema).openapi({ description: 'Aircraft of the airline with a flight or a check overlapping the window, ordered by tail.' }),
  crew: z.array(SnapshotCrewSchema).openapi({ description: 'Crew duties of the airline with duty_start < to and duty_end > from, ordered by duty start then crew id.' }),
  maintenance: z.array(MaintenanceSchema).openapi({ description: 'Checks of the airline\'s aircraft with start < to and end > from, ordered by start then tail.' }),
}).openapi('SnapshotResponse');

export type FlightSummary = z.infer<typeof FlightSummarySchema>;
export type SnapshotResponse = z.infer<typeof SnapshotResponseSchema>;
