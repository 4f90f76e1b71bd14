// Optional parts of the schedule file format (schedules/*.json) for schedules imported from other
// sources, ROADEF/EURO 2009 instances today (`npm run roadef -- import`). The bundled schedules use
// none of them and stay valid byte for byte; an imported schedule keeps here what the core format
// lacks instead of dropping it: seat classes, the cabins and fares of itineraries,
// per-aircraft turn-round, transit, range and hourly cost, maintenance flying-minute budgets, airport
// hourly capacities, the recovery window, end-of-window positions, the route table and the disruptions.
import { z } from 'zod';
import { HAULS } from '../../domain/schedule.ts';

const utcInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/, 'must be an ISO 8601 UTC minute, e.g. 2026-11-21T08:30:00Z');
const airportCode = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter IATA airport code');
const count = z.number().int().min(0);
/** A time of day on the airport's clock, `HH:MM`; `24:00` ends a window at midnight. */
const timeOfDay = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be a time of day HH:MM (24:00 for the end of the day)');

export const CABINS = ['first', 'business', 'economy'] as const;
const cabin = z.enum(CABINS);
const haul = z.enum(HAULS);

/** Seats per cabin; null = unlimited (a ground shuttle). */
export const CabinSeatsFileSchema = z.object({ first: count.nullable(), business: count.nullable(), economy: count.nullable() });

/** At most so many departures / arrivals in each clock hour of [from, to) of every day, local time. */
export const HourlyCapacityFileSchema = z.object({
  from: timeOfDay, to: timeOfDay, max_departures_per_hour: count, max_arrivals_per_hour: count,
});

export const AirportFileExtension = {
  hourly_capacity: z.array(HourlyCapacityFileSchema).optional(),
};

export const AircraftFileExtension = {
  cabin_seats: CabinSeatsFileSchema.optional(),
  /** Minimum ground time between two legs (overrides the turnaround rule for this aircraft). */
  min_turnaround_minutes: count.optional(),
  /** Minimum ground time before a leg that continues the previous one (`linked_to`). */
  min_transit_minutes: count.optional(),
  /** Longest single leg the aircraft may fly (range), block minutes. */
  max_leg_minutes: z.number().int().positive().optional(),
  cost_per_block_hour: z.number().min(0).optional(),
};

export const FlightFileExtension = {
  /** The flight number this flight continues on the same aircraft (transit time instead of turnaround). */
  linked_to: z.string().optional(),
  /** The flight's haul class; where an airport has no coordinates, its passengers' compensation goes by it (docs/model.md 1.6). */
  haul: haul.optional(),
};

export const MaintenanceFileExtension = {
  /** Most minutes the aircraft may fly, from the start of the schedule, before this check starts. */
  max_flying_minutes_before: count.optional(),
};

export const ItineraryFileExtension = {
  direction: z.enum(['outbound', 'inbound']).optional(),
  /** Ticket price per passenger. */
  fare: z.number().min(0).optional(),
  /** The booked cabin of each flight, in the order of `flights`. */
  cabins: z.array(cabin).optional(),
};

/** The disruptions the schedule comes with, in the shapes of POST /simulate's `disruptions`. */
export const ScheduleDisruptionFileSchema = z.discriminatedUnion('type', [
  /** The flight leaves exactly `delay_minutes` late. */
  z.object({ type: z.literal('flight_delay'), flight: z.string(), delay_minutes: z.number().int().min(0) }),
  z.object({ type: z.literal('flight_cancellation'), flight: z.string() }),
  z.object({ type: z.literal('aircraft_unavailable'), tail: z.string(), from: utcInstant, to: utcInstant }),
  z.object({
    type: z.literal('airport_capacity'), airport: airportCode, from: utcInstant, to: utcInstant,
    max_departures_per_hour: count, max_arrivals_per_hour: count,
  }),
]);

const amount = z.number().min(0);
const byHaul = z.object({ domestic: amount, continental: amount, intercontinental: amount });
const byCabinAndHaul = z.object({ first: byHaul, business: byHaul, economy: byHaul });

export const ScheduleFileExtension = {
  /** Where an imported schedule comes from. */
  source: z.object({ format: z.literal('roadef-2009'), instance: z.string() }).optional(),
  /** The period that may be re-planned; what departs before `start` has happened. */
  recovery_window: z.object({ start: utcInstant, end: utcInstant }).optional(),
  disruptions: z.array(ScheduleDisruptionFileSchema).optional(),
  /** Aircraft the next day's plan needs at each airport at the end of the recovery window. */
  required_positions: z.array(z.object({ airport: airportCode, fleet: z.string(), cabin_seats: CabinSeatsFileSchema, count })).optional(),
  /** Block time of a new flight and haul class of any flight between two airports (a flight's own `haul` first). */
  airport_pairs: z.array(z.object({ origin: airportCode, dest: airportCode, block_minutes: z.number().int().positive(), haul })).optional(),
  /** The imported instance's cost coefficients (ROADEF 2009 config.csv), per passenger unless stated. */
  cost_parameters: z.object({
    delay_per_passenger_minute: byCabinAndHaul,
    outbound_cancellation: byCabinAndHaul,
    inbound_cancellation: byCabinAndHaul,
    /** Per passenger and flight travelled in a lower cabin, by the flight's haul. */
    downgrading: z.object({ first_to_business: byHaul, first_to_economy: byHaul, business_to_economy: byHaul }),
    /** Per required aircraft missing: no aircraft of the family / model / configuration. */
    position_penalty: z.object({ family: z.number().min(0), model: z.number().min(0), configuration: z.number().min(0) }),
    /** Weights of the operating, passenger and position cost groups. */
    weights: z.object({ operating: z.number().min(0), passenger: z.number().min(0), position: z.number().min(0) }),
  }).optional(),
};
