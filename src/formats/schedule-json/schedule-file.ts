// The bundled schedule file format (schedules/*.json), validated with zod when the service starts.
// The README documents every field; the generator in schedules/ writes files that pass this schema.
import { z } from 'zod';
import { AIRLINE_CODE_PATTERN } from '../../domain/schedule.ts';
import {
  AircraftFileExtension, AirportFileExtension, FlightFileExtension, ItineraryFileExtension, MaintenanceFileExtension, ScheduleFileExtension,
} from './schedule-file-extensions.ts';

const utcInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/, 'must be an ISO 8601 UTC minute, e.g. 2026-11-21T08:30:00Z');
const airportCode = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter IATA airport code');
const airlineCode = z.string().regex(AIRLINE_CODE_PATTERN, 'must be a two-character airline code');

export const AirlineFileSchema = z.object({
  code: airlineCode,
  name: z.string().min(1),
});

export const AirportFileSchema = z.object({
  code: airportCode,
  name: z.string().min(1),
  time_zone: z.string().min(1).refine((tz) => {
    try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true; } catch { return false; }
  }, 'must be an IANA time zone'),
  /** Absent in imported schedules whose source has no coordinates. */
  lat: z.number().min(-90).max(90).optional(),
  lon: z.number().min(-180).max(180).optional(),
  hub: z.boolean(),
  maintenance_station: z.boolean(),
  /** Minimum connection time for passengers changing flights here. */
  min_connection_minutes: z.number().int().min(0).max(240),
  ...AirportFileExtension,
});

export const FleetFileSchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9]{2,12}$/, 'must be 2-12 letters or digits, e.g. A320 or CRJ100'),
  /** Aircraft of one family share a type rating, so they may be swapped for each other. */
  family: z.string().min(1),
  seats: z.number().int().positive(),
  cruise_speed_kmh: z.number().positive().optional(),
});

export const AircraftFileSchema = z.object({
  // Registrations, or an imported source's own aircraft ids (ROADEF 2009: A319#4).
  tail: z.string().regex(/^([A-Z0-9]{1,2}-[A-Z0-9]{3,5}|[A-Za-z0-9]+#\d+)$/, 'must be a registration such as OE-NVA or an aircraft id such as A319#4'),
  airline: airlineCode,
  fleet: z.string(),
  seats: z.number().int().positive(),
  base: airportCode,
  ...AircraftFileExtension,
});

export const FlightFileSchema = z.object({
  flight_number: z.string().regex(/^[A-Z0-9]{2}\d{1,4}$/, 'must be an airline code followed by 1-4 digits'),
  airline: airlineCode,
  tail: z.string(),
  origin: airportCode,
  dest: airportCode,
  dep: utcInstant,
  arr: utcInstant,
  distance_km: z.number().positive().optional(),
  booked_passengers: z.number().int().min(0),
  ...FlightFileExtension,
});

export const MaintenanceFileSchema = z.object({
  tail: z.string(),
  /** overnight_check: the nightly line check; a_check / daily_check: a check due during the day. */
  type: z.enum(['overnight_check', 'daily_check', 'a_check']),
  station: airportCode,
  start: utcInstant,
  end: utcInstant,
  ...MaintenanceFileExtension,
});

export const CrewFileSchema = z.object({
  crew_id: z.string().min(1),
  airline: airlineCode,
  role: z.enum(['cockpit', 'cabin']),
  base: airportCode,
  duty_start: utcInstant,
  duty_end: utcInstant,
  /** Maximum flight-duty period for this duty (EASA ORO.FTL.205 Table 2, see the README). */
  max_duty_minutes: z.number().int().positive(),
  flights: z.array(z.string()).min(1),
});

export const ItineraryFileSchema = z.object({
  itinerary_id: z.string().min(1),
  passengers: z.number().int().positive(),
  /** Flight ids in travel order; the bundled schedules have two: a connection through a hub. */
  flights: z.array(z.string()).min(1),
  ...ItineraryFileExtension,
});

export const ScheduleFileSchema = z.object({
  format_version: z.literal(1),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  description: z.string(),
  operating_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  generator: z.object({ seed: z.number().int(), version: z.string() }).optional(),
  airlines: z.array(AirlineFileSchema).min(1),
  airports: z.array(AirportFileSchema).min(1),
  fleets: z.array(FleetFileSchema).min(1),
  aircraft: z.array(AircraftFileSchema).min(1),
  flights: z.array(FlightFileSchema).min(1),
  maintenance: z.array(MaintenanceFileSchema),
  crew: z.array(CrewFileSchema),
  itineraries: z.array(ItineraryFileSchema),
  ...ScheduleFileExtension,
});

export type ScheduleFile = z.infer<typeof ScheduleFileSchema>;
export type FlightFile = z.infer<typeof FlightFileSchema>;
