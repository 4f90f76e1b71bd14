// Request and response schemas of the operational-day routes (/days): they validate requests,
// generate the OpenAPI document and type what day-presenter.ts returns.
import { z } from './openapi-zod.ts';
import { eitherOrDocumented, oneKindOfDisruption, simulationRequestFields, SimulationResponseSchema } from './recovery-schemas.ts';
import { FlightIdSchema, integerQuery, NextPageTokenSchema, PageTokenSchema, ZonedTimestampSchema } from './schemas.ts';

const Zoned = z.string().describe('ISO 8601 timestamp in the local time of the airport concerned, with its numeric offset.');
const Utc = z.string().describe('UTC timestamp, ISO 8601 with Z.');

export const DayParamsSchema = z.strictObject({
  day_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a day id as POST /days returned it (a lower-case UUID)')
    .describe('The day id from POST /days.'),
});

export const RevisionParamsSchema = DayParamsSchema.extend({
  number: z.string().regex(/^[1-9]\d{0,8}$/, 'must be a revision number (1, 2, …)').transform(Number).describe('A revision number: 1 is the day as opened.'),
});

export const DayListQuerySchema = z.strictObject({
  limit: integerQuery(1, 100).optional().describe('At most this many days in a page (1-100); default 20.'),
  page_token: PageTokenSchema.optional(),
});

export const RevisionListQuerySchema = z.strictObject({
  limit: integerQuery(1, 1000).optional().describe('At most this many revisions in a page (1-1000); default 1000.'),
  page_token: PageTokenSchema.optional(),
});

export const OpenDayRequestSchema = z.strictObject({
  schedule_file: z.string().min(1).max(128).optional().describe('The bundled schedule the day starts from; default DEFAULT_SCHEDULE.'),
  from: ZonedTimestampSchema.optional().describe('Only flights departing at or after this instant belong to the day. Default: the schedule\'s first departure.'),
  to: ZonedTimestampSchema.optional().describe('Only flights departing before this instant belong to the day. Default: after the schedule\'s last departure.'),
}).openapi('OpenDayRequest');

const DaySummarySchema = z.object({
  id: z.string(),
  revision: z.number().int().min(1).describe('The current revision (1: the day as opened). The ETag of GET /days/{day_id} is this number in quotes.'),
  schedule_file: z.string(),
  window: z.object({ from: Utc, to: Utc }).describe('Flights departing in [from, to) belong to the day.'),
  created_at: Utc,
  updated_at: Utc.describe('When the current revision was written.'),
});

export const DaySummaryResponseSchema = DaySummarySchema.openapi('DaySummary');
export const DayListSchema = z.object({
  days: z.array(DaySummarySchema).describe('The environment\'s days, newest first.'),
  next_page_token: NextPageTokenSchema,
}).openapi('DayList');

const ActualSchema = z.object({
  off_block: Zoned.nullable(), airborne: Zoned.nullable(), landed: Zoned.nullable(), on_block: Zoned.nullable(),
}).describe('Times from movement messages; null until reported.');

const DayFlightSchema = z.object({
  id: z.string(),
  flight_number: z.string(),
  airline: z.string(),
  origin: z.string(),
  dest: z.string(),
  tail: z.string().describe('The aircraft that flies it in the current plan.'),
  scheduled_tail: z.string().describe('The aircraft the schedule planned.'),
  status: z.enum(['scheduled', 'departed', 'airborne', 'landed', 'arrived', 'cancelled'])
    .describe('scheduled until an off-block is reported; then departed, airborne, landed and arrived (on-block) as movements come; cancelled by an applied option.'),
  scheduled: z.object({ dep: Zoned, arr: Zoned }).describe('The schedule\'s times, never changed.'),
  planned: z.object({ dep: Zoned, arr: Zoned }).describe('The current plan\'s times: the schedule\'s, or those of the last applied option that retimed it.'),
  estimated: z.object({ dep: Zoned, arr: Zoned }).nullable()
    .describe('The plan pushed later by actual times and the aircraft\'s previous flight (its arrival plus the minimum turnaround); null when cancelled.'),
  actual: ActualSchema,
  passengers: z.number().int().describe('Passengers booked on it now (rebookings included).'),
});

const BookingSchema = z.object({
  booking_id: z.string().describe('An itinerary id of the schedule, `<flight id>/local` for a flight\'s passengers who fly only it, or `<booking id>@r<revision>.<n>` for passengers split off a booking by a rebooking.'),
  passengers: z.number().int(),
  origin: z.string(),
  dest: z.string(),
  flights: z.array(z.string()).describe('Their current journey in order; empty when stranded.'),
  status: z.enum(['booked', 'rebooked', 'stranded'])
    .describe('booked: on the journey they booked; rebooked: moved by an applied option; stranded: not re-accommodated (owed compensation).'),
});

export const DayResponseSchema = DaySummarySchema.extend({
  flights: z.array(DayFlightSchema).describe('Every flight of the day, in the schedule\'s order.'),
  passengers: z.array(BookingSchema).describe('Every booking of the day, by booking_id.'),
}).openapi('Day');

const ChangesSchema = z.object({
  flights_retimed: z.number().int(),
  flights_moved: z.number().int().describe('Flights given to another aircraft.'),
  flights_cancelled: z.number().int(),
  flights_reinstated: z.number().int(),
  passengers_moved: z.number().int(),
  movements: z.number().int().describe('Flights whose actual times changed.'),
});

export const RevisionSchema = z.object({
  day_id: z.string(),
  number: z.number().int(),
  kind: z.enum(['open', 'apply', 'movements', 'revert']),
  created_at: Utc,
  key_id: z.string().describe('The first 16 hex digits of the SHA-256 of the API key that wrote it.'),
  operator: z.string().nullable().describe('The X-Operator header of the request that wrote it.'),
  reason: z.object({
    simulation_id: z.string().nullable(),
    option_id: z.string().nullable(),
    reverted_to: z.number().int().nullable(),
  }).describe('Why: the simulation and option applied, or the revision restored.'),
  changes: ChangesSchema.describe('What it changed against the revision before it (all zero for revision 1).'),
}).openapi('DayRevision');

export const RevisionListSchema = z.object({
  revisions: z.array(RevisionSchema).describe('Oldest first.'),
  next_page_token: NextPageTokenSchema,
}).openapi('DayRevisionList');

export const DiffSchema = z.object({
  day_id: z.string(),
  from_revision: z.number().int(),
  to_revision: z.number().int(),
  tails: z.array(z.object({
    tail: z.string(),
    retimed: z.array(z.object({ flight: z.string(), from_dep: Zoned, to_dep: Zoned, from_arr: Zoned, to_arr: Zoned })),
    moved_in: z.array(z.object({ flight: z.string(), from_tail: z.string() })),
    moved_out: z.array(z.object({ flight: z.string(), to_tail: z.string() })),
    cancelled: z.array(z.string()),
    reinstated: z.array(z.string()),
  })).describe('Per aircraft with a change, by tail.'),
  passengers_moved: z.array(z.object({
    booking_id: z.string(), passengers: z.number().int(), from_flights: z.array(z.string()), to_flights: z.array(z.string()), stranded: z.boolean(),
  })),
  movements: z.array(z.object({ flight: z.string(), actual: ActualSchema })),
}).openapi('DayRevisionDiff');

const { schedule_file: _scheduleFile, ...daySimulationFields } = simulationRequestFields;

const NowSchema = ZonedTimestampSchema.describe('The instant the day is solved at: flights that have not left are estimated no earlier. Default: now.');

export const DaySimulationRequestSchema = z.strictObject({
  ...daySimulationFields,
  now: NowSchema.optional(),
}).superRefine(oneKindOfDisruption);
export const DaySimulationRequestDocumented = eitherOrDocumented(daySimulationFields, { now: NowSchema.optional() }, 'DaySimulationRequest',
  'The body of POST /simulate without schedule_file (the day\'s own), plus the instant it is solved at.');

export const DaySimulationResponseSchema = SimulationResponseSchema.extend({
  simulation_id: z.string().describe('Apply one of its options with POST /days/{day_id}/apply.'),
  day_id: z.string(),
  revision: z.number().int().describe('The revision it was solved on.'),
}).openapi('DaySimulationResponse');

export const ApplyRequestSchema = z.strictObject({
  simulation_id: z.string().min(1).max(64).describe('From POST /days/{day_id}/simulate (or a job\'s job_id, for a job submitted with `day`).'),
  option_id: z.string().min(1).max(64).describe('An option_id of that simulation, e.g. opt_integrated.'),
}).openapi('ApplyRequest');

export const RevertRequestSchema = z.strictObject({
  revision: z.number().int().min(1).describe('The revision whose plan is restored (in a new revision).'),
}).openapi('RevertRequest');

const MovementTime = ZonedTimestampSchema.nullable();

export const MovementsRequestSchema = z.strictObject({
  now: NowSchema.optional().describe('The instant the messages are recorded at: no time may be later. Default: now.'),
  movements: z.array(z.strictObject({
    flight: FlightIdSchema,
    tail: z.string().min(1).max(32).describe('The aircraft the message reports; it must be the one the day plans for the flight.'),
    off_block: MovementTime.optional(),
    airborne: MovementTime.optional(),
    landed: MovementTime.optional(),
    on_block: MovementTime.optional(),
  }).refine((m) => m.off_block !== undefined || m.airborne !== undefined || m.landed !== undefined || m.on_block !== undefined, 'must give at least one of off_block, airborne, landed, on_block'))
    .min(1).max(500).describe('Movement messages, recorded in order (1-500). A time given replaces the one recorded; null clears it.'),
}).openapi('MovementsRequest');

export const WrittenRevisionSchema = RevisionSchema.openapi('DayRevisionWritten');

export const AlertsSchema = z.object({
  day_id: z.string(),
  revision: z.number().int(),
  alerts: z.array(z.discriminatedUnion('type', [
    z.object({
      type: z.literal('connection'), booking_id: z.string(), passengers: z.number().int(), arriving_flight: z.string(), departing_flight: z.string(),
      hub: z.string(), arrival: Zoned, departure: Zoned, min_connection_minutes: z.number().int(), short_by_minutes: z.number().int(), detail: z.string(),
    }),
    z.object({
      type: z.literal('crew_duty'), flight: z.string(), crew_id: z.string(), limit: Zoned, arrival: Zoned, excess_minutes: z.number().int(), detail: z.string(),
    }),
  ])).describe('Connections the estimated times break (arrival plus the hub\'s minimum connection time after the next departure), then crews arriving after the end of their maximum flight-duty period.'),
}).openapi('DayAlerts');

export type DayResponse = z.infer<typeof DayResponseSchema>;
export type DaySummaryView = z.infer<typeof DaySummarySchema>;
export type RevisionView = z.infer<typeof RevisionSchema>;
export type DiffView = z.infer<typeof DiffSchema>;
export type AlertsView = z.infer<typeof AlertsSchema>;
