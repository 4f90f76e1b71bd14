// A ROADEF 2009 instance as a schedule file of the service (schedules/*.json), so that it is served
// like the bundled schedules (GET /flights/<name>, GET /snapshot). What the core format lacks is kept in
// its optional parts (src/domain/schedule-file-extensions.ts), not dropped.
//
// Choices where the two formats differ:
// - ROADEF has one clock and no time zones: every airport is written with time zone UTC, so absolute
//   ROADEF minutes are UTC minutes and responses show +00:00.
// - ROADEF has no airline: one airline code (default RX, arbitrary) prefixes every flight number:
//   flight 4344 flown on 07/01/06 at 05:50 is RX4344_2006-01-07T05:50:00Z.
// - Unlimited cabins (-1, the TranspCom ground shuttles) are null in cabin_seats; the aircraft's total
//   `seats`, which the core format needs as a number, is then UNLIMITED_SEATS.
// - Maintenance periods become `a_check`s (checks scheduled by flying hours, as ROADEF's budgets are).
// - There are no coordinates nor distances: lat, lon and distance_km are left out. Each flight's haul
//   class is written instead, which POST /simulate prices compensation by (docs/model.md 1.6).
import type { ScheduleFile } from '../schedule-json/schedule-file.ts';
import { flightId } from '../../domain/schedule.ts';
import { formatUtc } from '../../domain/time.ts';
import { CABINS, HAUL_CLASSES, routeKey, type ByCabinAndClass, type Cabin, type HaulClass, type RoadefInstance, type Seats } from './instance.ts';
import { MINUTES_PER_DAY, legKey } from './text.ts';

export const DEFAULT_IMPORT_AIRLINE = 'RX';
/** The total `seats` written for an aircraft with an unlimited cabin. */
export const UNLIMITED_SEATS = 9999;
/** The shortest passenger connection of the challenge (spec 4.8), as every airport's minimum connection. */
const MIN_CONNECTION_MINUTES = 30;

const CABIN_NAME = { F: 'first', B: 'business', E: 'economy' } as const satisfies Record<Cabin, string>;
const HAUL_NAME = { D: 'domestic', C: 'continental', I: 'intercontinental' } as const satisfies Record<HaulClass, string>;

/**
 * The domain's flight id of the leg of `flight` on `day` (`<airline><flight>_<UTC departure>`), as an
 * imported schedule and the network engine's problem (src/recovery/roadef-adapter.ts) both name it.
 */
export function legFlightId(instance: RoadefInstance, airline: string, flight: number, day: number): string {
  return flightId(`${airline}${flight}`, instance.legsByKey.get(legKey(flight, day))!.depMinutes);
}

/** The instance does not fit the schedule format (an airport code of other than three letters, a five-digit flight number). */
export class ImportError extends Error {}

function cabinSeats(seats: Seats) {
  const one = (n: number) => (n === -1 ? null : n);
  return { first: one(seats.F), business: one(seats.B), economy: one(seats.E) };
}

function totalSeats(seats: Seats): number {
  return CABINS.some((c) => seats[c] === -1) ? UNLIMITED_SEATS : CABINS.reduce((sum, c) => sum + seats[c], 0);
}

function seatsOfConfiguration(configuration: string): Seats {
  const [F, B, E] = configuration.split('/').map(Number);
  return { F: F ?? 0, B: B ?? 0, E: E ?? 0 };
}

function byCabinAndHaul(table: ByCabinAndClass) {
  return Object.fromEntries(CABINS.map((c) => [CABIN_NAME[c], Object.fromEntries(HAUL_CLASSES.map((h) => [HAUL_NAME[h], table[c][h]]))])) as
    Record<(typeof CABIN_NAME)[Cabin], Record<(typeof HAUL_NAME)[HaulClass], number>>;
}

function byHaul(table: Readonly<Record<HaulClass, number>>) {
  return Object.fromEntries(HAUL_CLASSES.map((h) => [HAUL_NAME[h], table[h]])) as Record<(typeof HAUL_NAME)[HaulClass], number>;
}

const clock = (minuteOfDay: number) => (minuteOfDay === MINUTES_PER_DAY ? '24:00' : `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`);

/**
 * The schedule file of `instance`, named `name`, its flights numbered under airline `airline`.
 * Throws ImportError when an identifier does not fit the schedule format; the caller validates the
 * result with the service's own schema and checks before writing it.
 */
export function roadefToScheduleFile(instance: RoadefInstance, options: { name: string; airline: string }): ScheduleFile {
  const { name, airline } = options;
  if (!/^[A-Z0-9]{2}$/.test(airline)) throw new ImportError(`Airline code '${airline}' must be two capital letters or digits.`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new ImportError(`Schedule name '${name}' must be lower-case letters, digits and dashes, e.g. a01.`);
  const flightNumber = (n: number) => {
    if (n > 9999) throw new ImportError(`Flight ${n} has more than four digits; schedule flight numbers are an airline code and 1-4 digits.`);
    return `${airline}${n}`;
  };

  const maintenanceAirports = new Set([...instance.aircraft.values()].flatMap((a) => (a.maintenance ? [a.maintenance.airport] : [])));
  const codes = new Set<string>([
    ...instance.airportCapacity.keys(),
    ...[...instance.routes.keys()].flatMap((k) => k.split('-')),
    ...[...instance.flights.values()].flatMap((f) => [f.origin, f.dest]),
    ...[...instance.aircraft.values()].map((a) => a.origin),
    ...maintenanceAirports,
    ...instance.positions.map((p) => p.airport),
    ...instance.capacityReductions.map((c) => c.airport),
  ]);
  for (const code of codes) if (!/^[A-Z]{3}$/.test(code)) throw new ImportError(`Airport '${code}' is not a three-letter code.`);

  const passengersOnLeg = new Map<string, number>();
  for (const it of instance.itineraries) {
    for (const l of it.legs) passengersOnLeg.set(legKey(l.flight, l.day), (passengersOnLeg.get(legKey(l.flight, l.day)) ?? 0) + it.passengers);
  }
  const idOfLeg = (flight: number, day: number) => { flightNumber(flight); return legFlightId(instance, airline, flight, day); };

  const fleets = new Map<string, ScheduleFile['fleets'][number]>();
  for (const a of instance.aircraft.values()) {
    const seats = totalSeats(a.seats);
    const fleet = fleets.get(a.model);
    if (!fleet) fleets.set(a.model, { code: a.model, family: a.family, seats });
    else fleet.seats = Math.max(fleet.seats, seats);
  }
  const firstDay = Math.min(...instance.legs.map((l) => Math.floor(l.depMinutes / MINUTES_PER_DAY)));
  const { config } = instance;

  return {
    format_version: 1,
    name,
    description: `ROADEF/EURO 2009 instance ${instance.name} (Amadeus), imported with npm run roadef -- import. The format has one clock: every airport is at UTC.`,
    operating_date: formatUtc(firstDay * MINUTES_PER_DAY).slice(0, 10),
    source: { format: 'roadef-2009', instance: instance.name },
    airlines: [{ code: airline, name: `ROADEF 2009 ${instance.name} airline (anonymised)` }],
    airports: [...codes].sort().map((code) => {
      const windows = instance.airportCapacity.get(code);
      return {
        code, name: code, time_zone: 'UTC', hub: false, maintenance_station: maintenanceAirports.has(code), min_connection_minutes: MIN_CONNECTION_MINUTES,
        ...(windows ? { hourly_capacity: windows.map((w) => ({ from: clock(w.fromMinute), to: clock(w.toMinute), max_departures_per_hour: w.departures, max_arrivals_per_hour: w.arrivals })) } : {}),
      };
    }),
    fleets: [...fleets.values()],
    aircraft: [...instance.aircraft.values()].map((a) => ({
      tail: a.id, airline, fleet: a.model, seats: totalSeats(a.seats), base: a.origin,
      cabin_seats: cabinSeats(a.seats), min_turnaround_minutes: a.turnRoundMinutes, min_transit_minutes: a.transitMinutes,
      max_leg_minutes: a.rangeMinutes, cost_per_block_hour: a.costPerHour,
    })),
    flights: instance.legs.map((leg) => {
      const f = instance.flights.get(leg.flight)!;
      return {
        flight_number: flightNumber(leg.flight), airline, tail: leg.aircraft, origin: f.origin, dest: f.dest,
        dep: formatUtc(leg.depMinutes), arr: formatUtc(leg.arrMinutes), booked_passengers: passengersOnLeg.get(leg.key) ?? 0,
        ...(f.previous !== 0 ? { linked_to: flightNumber(f.previous) } : {}),
        haul: HAUL_NAME[instance.routes.get(routeKey(f.origin, f.dest))!.haulClass],
      };
    }),
    maintenance: [...instance.aircraft.values()].flatMap((a) => (a.maintenance ? [{
      tail: a.id, type: 'a_check' as const, station: a.maintenance.airport,
      start: formatUtc(a.maintenance.startMinutes), end: formatUtc(a.maintenance.endMinutes), max_flying_minutes_before: a.maintenance.maxFlyingMinutes,
    }] : [])),
    crew: [],
    itineraries: instance.itineraries.map((it) => ({
      itinerary_id: String(it.id), passengers: it.passengers, flights: it.legs.map((l) => idOfLeg(l.flight, l.day)),
      direction: it.direction === 'A' ? 'outbound' as const : 'inbound' as const, fare: it.price, cabins: it.legs.map((l) => CABIN_NAME[l.cabin]),
    })),
    recovery_window: { start: formatUtc(config.windowStartMinutes), end: formatUtc(config.windowEndMinutes) },
    disruptions: [
      ...instance.flightDisruptions.map((d) => (d.delayMinutes === -1
        ? { type: 'flight_cancellation' as const, flight: idOfLeg(d.flight, d.day) }
        : { type: 'flight_delay' as const, flight: idOfLeg(d.flight, d.day), delay_minutes: d.delayMinutes })),
      ...instance.aircraftUnavailability.map((u) => ({ type: 'aircraft_unavailable' as const, tail: u.aircraft, from: formatUtc(u.startMinutes), to: formatUtc(u.endMinutes) })),
      ...instance.capacityReductions.map((c) => ({
        type: 'airport_capacity' as const, airport: c.airport, from: formatUtc(c.startMinutes), to: formatUtc(c.endMinutes),
        max_departures_per_hour: c.departures, max_arrivals_per_hour: c.arrivals,
      })),
    ],
    required_positions: instance.positions.map((p) => ({ airport: p.airport, fleet: p.model, cabin_seats: cabinSeats(seatsOfConfiguration(p.configuration)), count: p.count })),
    airport_pairs: [...instance.routes].map(([key, r]) => {
      const [origin, dest] = key.split('-') as [string, string];
      return { origin, dest, block_minutes: r.durationMinutes, haul: HAUL_NAME[r.haulClass] };
    }),
    cost_parameters: {
      delay_per_passenger_minute: byCabinAndHaul(config.delayCost),
      outbound_cancellation: byCabinAndHaul(config.outboundCancellationCost),
      inbound_cancellation: byCabinAndHaul(config.inboundCancellationCost),
      downgrading: { first_to_business: byHaul(config.downgradingCost.FB), first_to_economy: byHaul(config.downgradingCost.FE), business_to_economy: byHaul(config.downgradingCost.BE) },
      position_penalty: { ...config.positionPenalty },
      weights: { operating: config.weights.alpha, passenger: config.weights.beta, position: config.weights.gamma },
    },
  };
}

/** The file's text: one record a line inside each list, so that a diff of two imports stays readable. */
export function serializeImportedSchedule(file: ScheduleFile): string {
  const lines: string[] = ['{'];
  const entries = Object.entries(file);
  entries.forEach(([key, value], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length > 0) {
      lines.push(`  ${JSON.stringify(key)}: [`);
      value.forEach((item, j) => lines.push(`    ${JSON.stringify(item)}${j < value.length - 1 ? ',' : ''}`));
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
    }
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
