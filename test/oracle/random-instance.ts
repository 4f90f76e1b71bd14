// Seeded generator of small random but valid schedules (ScheduleFile JSON) with 1-3 disruptions of
// all four kinds and a configuration whose grid and limits keep brute force fast, for property tests
// of the engine against the oracle. Everything here is local: the turnaround numbers are copied from
// the documented defaults, not imported. Every time (schedule, disruptions, maintenance) is on 5 minutes.
import fc from 'fast-check';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { oracleConfig, type OracleConfig } from './config.ts';
import { flightIdOf, haversineKm, isoOf, turnaroundMinutes, type OracleDisruption } from './model.ts';

export interface RandomInstance {
  seed: number;
  schedule: ScheduleFile;
  /** The airline of every flight and aircraft (NV). */
  airline: string;
  /** 1-3, at most one per flight, periods of one aircraft or airport never overlapping. */
  disruptions: OracleDisruption[];
  config: OracleConfig;
}

export interface RandomInstanceOptions {
  minFlights?: number;
  maxFlights?: number;
  minAircraft?: number;
  maxAircraft?: number;
  /** Randomise constraints, weights and the scope limits (default true); false keeps the documented defaults but a small grid. */
  varyConfig?: boolean;
  /** Share of instances whose hub (and sometimes a spoke) states standing hourly capacities (default 0.5; see standingCapacities). */
  standingShare?: number;
  /**
   * One more aircraft flies a detour of two to four flights (via distinct airports) between the ends
   * of a scheduled flight, leaving soon after it, with seats to spare, and that flight is cancelled
   * (besides 0-2 other disruptions): its passengers may be re-accommodated over a journey of several
   * flights (docs/model.md 1.6).
   */
  detour?: boolean;
}

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface AirportSeed { code: string; name: string; tz: string; lat: number; lon: number }
const HUBS: AirportSeed[] = [
  { code: 'VIE', name: 'Vienna International', tz: 'Europe/Vienna', lat: 48.1103, lon: 16.5697 },
  { code: 'FRA', name: 'Frankfurt am Main', tz: 'Europe/Berlin', lat: 50.0379, lon: 8.5622 },
  { code: 'ZRH', name: 'Zurich', tz: 'Europe/Zurich', lat: 47.4582, lon: 8.5555 },
  { code: 'AMS', name: 'Amsterdam Schiphol', tz: 'Europe/Amsterdam', lat: 52.3105, lon: 4.7683 },
];
const SPOKES: AirportSeed[] = [
  { code: 'LHR', name: 'London Heathrow', tz: 'Europe/London', lat: 51.47, lon: -0.4543 },
  { code: 'CDG', name: 'Paris Charles de Gaulle', tz: 'Europe/Paris', lat: 49.0097, lon: 2.5479 },
  { code: 'PRG', name: 'Prague Vaclav Havel', tz: 'Europe/Prague', lat: 50.1008, lon: 14.26 },
  { code: 'BCN', name: 'Barcelona El Prat', tz: 'Europe/Madrid', lat: 41.2974, lon: 2.0833 },
  { code: 'FCO', name: 'Rome Fiumicino', tz: 'Europe/Rome', lat: 41.8003, lon: 12.2389 },
  { code: 'BUD', name: 'Budapest Ferenc Liszt', tz: 'Europe/Budapest', lat: 47.4369, lon: 19.2556 },
  { code: 'CPH', name: 'Copenhagen Kastrup', tz: 'Europe/Copenhagen', lat: 55.618, lon: 12.656 },
  { code: 'LIS', name: 'Lisbon Humberto Delgado', tz: 'Europe/Lisbon', lat: 38.7813, lon: -9.1359 },
  { code: 'ATH', name: 'Athens Eleftherios Venizelos', tz: 'Europe/Athens', lat: 37.9364, lon: 23.9445 },
];
const FLEETS = [
  { code: 'A319', family: 'A320', seats: 144, cruise_speed_kmh: 780 },
  { code: 'A320', family: 'A320', seats: 180, cruise_speed_kmh: 800 },
  { code: 'A321', family: 'A320', seats: 220, cruise_speed_kmh: 800 },
  { code: 'E190', family: 'E-JET', seats: 100, cruise_speed_kmh: 760 },
  { code: 'E195', family: 'E-JET', seats: 120, cruise_speed_kmh: 760 },
];
const TURNAROUND = oracleConfig().turnaround;
const DATE = '2026-11-21';
const DAY0 = Date.UTC(2026, 10, 21) / 60_000;

/** Block time of a flight of `km`: 800 km/h plus 25 minutes, to 5 minutes, at least 40. */
const blockMinutes = (km: number) => Math.max(40, Math.round((km / 800 * 60 + 25) / 5) * 5);

export function randomInstance(seed: number, options: RandomInstanceOptions = {}): RandomInstance {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const shuffle = <T>(xs: T[]): T[] => { for (let i = xs.length - 1; i > 0; i--) { const j = int(0, i); [xs[i], xs[j]] = [xs[j]!, xs[i]!]; } return xs; };

  // Airports: one hub (maintenance station, mct), 2-4 spokes.
  const hub = pick(HUBS);
  const spokes = shuffle([...SPOKES]).slice(0, int(2, 4));
  const mct = new Map<string, number>([[hub.code, pick([30, 45, 60])], ...spokes.map((s) => [s.code, pick([30, 45])] as [string, number])]);
  const maintSpoke = chance(0.3) ? spokes[0]!.code : null;
  const airports = [hub, ...spokes].map((a) => ({
    code: a.code, name: a.name, time_zone: a.tz, lat: a.lat, lon: a.lon, hub: a.code === hub.code,
    maintenance_station: a.code === hub.code || a.code === maintSpoke, min_connection_minutes: mct.get(a.code)!,
  }));
  const coord = new Map([hub, ...spokes].map((a) => [a.code, a]));
  const dist = (x: string, y: string) => { const a = coord.get(x)!; const b = coord.get(y)!; return haversineKm(a.lat, a.lon, b.lat, b.lon); };

  // Fleets: two families.
  const bigFleets = shuffle(FLEETS.filter((f) => f.family === 'A320')).slice(0, int(1, 2));
  const smallFleet = pick(FLEETS.filter((f) => f.family === 'E-JET'));
  const fleets = [...bigFleets, smallFleet];
  const nAircraft = int(options.minAircraft ?? 2, options.maxAircraft ?? 4);
  const tails = ['OE-AAA', 'OE-AAB', 'OE-AAC', 'OE-AAD', 'OE-AAE', 'OE-AAF'].slice(0, nAircraft);
  const aircraft = tails.map((tail, i) => {
    // Mostly one family, so that swaps are possible; the last aircraft is of the other family half the time.
    const fleet = i === 0 ? bigFleets[0]! : i === nAircraft - 1 && chance(0.5) ? smallFleet : chance(0.8) ? pick(bigFleets) : smallFleet;
    const seats = chance(0.2) ? fleet.seats - pick([4, 6, 12]) : fleet.seats;
    return { tail, airline: 'NV', fleet: fleet.code, seats, base: hub.code };
  });

  // Flights: continuous rotations respecting the default turnaround.
  const nFlights = int(options.minFlights ?? 4, Math.max(options.minFlights ?? 4, options.maxFlights ?? 8));
  const perTail = new Array<number>(nAircraft).fill(0);
  perTail[0] = 1;
  // The last aircraft is a spare without flights a third of the time (at the hub, of the first one's family).
  const spare = chance(1 / 3);
  if (spare) Object.assign(aircraft[nAircraft - 1]!, { fleet: aircraft[0]!.fleet, seats: aircraft[0]!.seats });
  for (let k = 1; k < nFlights; k++) perTail[int(0, spare ? nAircraft - 2 : nAircraft - 1)]! += 1;
  const flights: ScheduleFile['flights'] = [];
  const maintenance: ScheduleFile['maintenance'] = [];
  let number = 100;
  const rotations = new Map<string, ScheduleFile['flights']>();
  aircraft.forEach((plane, i) => {
    const rot: ScheduleFile['flights'] = [];
    let station = chance(0.75) || perTail[i] === 0 ? hub.code : pick(spokes).code;
    plane.base = station;
    let ready = DAY0 + int(5 * 12, 9 * 12) * 5; // 05:00-09:00 UTC
    const fleetSeats = plane.seats;
    const wantCheck = chance(0.3);
    let checkPlaced = false;
    for (let k = 0; k < perTail[i]!; k++) {
      const dest = station === hub.code ? pick(spokes).code : chance(0.8) ? hub.code : pick(spokes.filter((s) => s.code !== station)).code;
      let dep = ready + pick([0, 0, 5, 10, 20, 30, 45, 60, 90]);
      // A daily check during a ground stop at a maintenance station.
      if (wantCheck && !checkPlaced && k > 0 && airports.find((a) => a.code === station)!.maintenance_station && chance(0.6)) {
        const prevArr = Date.parse(rot[rot.length - 1]!.arr) / 60_000;
        const ms = prevArr + pick([0, 10, 20, 40]);
        const me = ms + pick([45, 60, 90]);
        dep = Math.max(dep, me + pick([0, 0, 10, 30]));
        maintenance.push({ tail: plane.tail, type: 'daily_check', station, start: isoOf(ms), end: isoOf(me) });
        checkPlaced = true;
      }
      const km = dist(station, dest);
      const block = blockMinutes(km);
      const booked = chance(0.25) ? fleetSeats - int(0, 3) : int(Math.floor(fleetSeats * 0.5), fleetSeats);
      const f = {
        flight_number: `NV${number++}`, airline: 'NV', tail: plane.tail, origin: station, dest,
        dep: isoOf(dep), arr: isoOf(dep + block), distance_km: Math.round(km), booked_passengers: Math.max(0, booked),
      };
      rot.push(f);
      flights.push(f);
      station = dest;
      ready = dep + block + turnaroundMinutes(TURNAROUND, plane.fleet, dest);
    }
    // An overnight check after the last flight, if the aircraft ends at a maintenance station.
    if (wantCheck && !checkPlaced && rot.length > 0 && airports.find((a) => a.code === station)!.maintenance_station) {
      const lastArr = Date.parse(rot[rot.length - 1]!.arr) / 60_000;
      const ms = lastArr + pick([30, 60, 120]);
      maintenance.push({ tail: plane.tail, type: 'overnight_check', station, start: isoOf(ms), end: isoOf(ms + 240) });
    }
    rotations.set(plane.tail, rot);
  });

  // The detour (options.detour): a spare of the cancelled flight's fleet at its origin flies via a third airport.
  let detour: ScheduleFile['flights'][number] | null = null;
  if (options.detour) {
    detour = pick(flights);
    const plane = aircraft.find((a) => a.tail === detour!.tail)!;
    const others = [hub, ...spokes].map((a) => a.code).filter((code) => code !== detour!.origin && code !== detour!.dest);
    const vias: string[] = [];
    for (let n = Math.min(others.length, pick([1, 1, 2, 3])); vias.length < n;) {
      const via = pick(others);
      if (!vias.includes(via)) vias.push(via);
    }
    const stops = [detour.origin, ...vias, detour.dest];
    const spare = { ...plane, tail: 'OE-AAZ', base: detour.origin };
    aircraft.push(spare);
    const rot: ScheduleFile['flights'] = [];
    let dep = Date.parse(detour.dep) / 60_000 + pick([0, 15, 30, 60]);
    for (const [i, origin] of stops.slice(0, -1).entries()) {
      const dest = stops[i + 1]!;
      const km = dist(origin, dest);
      const block = blockMinutes(km);
      const f = {
        flight_number: `NV${number++}`, airline: 'NV', tail: spare.tail, origin, dest,
        dep: isoOf(dep), arr: isoOf(dep + block), distance_km: Math.round(km), booked_passengers: int(0, Math.floor(spare.seats * 0.4)),
      };
      rot.push(f);
      flights.push(f);
      dep += block + Math.max(turnaroundMinutes(TURNAROUND, spare.fleet, dest), mct.get(dest)!) + pick([0, 10, 30]);
    }
    rotations.set(spare.tail, rot);
  }

  // Crew duties: one cockpit crew per rotation, sometimes a cabin crew on its first half; tight slack sometimes.
  const crew: ScheduleFile['crew'] = [];
  for (const plane of aircraft) {
    const rot = rotations.get(plane.tail)!;
    if (rot.length === 0) continue;
    const ids = rot.map((f) => flightIdOf(f.flight_number, Date.parse(f.dep) / 60_000));
    const duties: { role: 'cockpit' | 'cabin'; legs: number }[] = [{ role: 'cockpit', legs: rot.length }];
    if (rot.length >= 2 && chance(0.3)) duties.push({ role: 'cabin', legs: Math.ceil(rot.length / 2) });
    for (const d of duties) {
      const first = Date.parse(rot[0]!.dep) / 60_000;
      const lastArr = Date.parse(rot[d.legs - 1]!.arr) / 60_000;
      const start = first - 45;
      const slack = chance(0.4) ? int(0, 4) * 5 : int(12, 60) * 5;
      crew.push({
        crew_id: `NV-${d.role === 'cockpit' ? 'CP' : 'CC'}-${plane.tail.slice(3)}`, airline: 'NV', role: d.role, base: rot[0]!.origin,
        duty_start: isoOf(start), duty_end: isoOf(lastArr + 30), max_duty_minutes: lastArr - start + slack, flights: ids.slice(0, d.legs),
      });
    }
  }

  // Connecting itineraries at any airport, with a valid scheduled connection.
  const itineraries: ScheduleFile['itineraries'] = [];
  const pairs: [ScheduleFile['flights'][number], ScheduleFile['flights'][number]][] = [];
  for (const a of flights) for (const b of flights) {
    const gap = Date.parse(b.dep) / 60_000 - Date.parse(a.arr) / 60_000;
    if (a !== b && a.dest === b.origin && b.dest !== a.origin && gap >= mct.get(a.dest)! && gap <= 300) pairs.push([a, b]);
  }
  // Some itineraries go on for a third flight; drawn from their own stream, so that the rest of the
  // instance is what the seed gave before itineraries could be longer.
  const more = prng(seed ^ 0x9e3779b9);
  const idOf = (f: ScheduleFile['flights'][number]) => flightIdOf(f.flight_number, Date.parse(f.dep) / 60_000);
  for (const [a, b] of shuffle(pairs).slice(0, int(1, 3))) {
    const pax = int(1, Math.max(1, Math.min(30, a.booked_passengers, b.booked_passengers)));
    if (a.booked_passengers === 0 || b.booked_passengers === 0) continue;
    const legs = [a, b];
    const thirds = flights.filter((c) => {
      const gap = Date.parse(c.dep) / 60_000 - Date.parse(b.arr) / 60_000;
      return c.origin === b.dest && c !== a && c.dest !== a.origin && gap >= mct.get(b.dest)! && gap <= 300 && c.booked_passengers >= pax;
    });
    if (thirds.length > 0 && more() < 0.6) legs.push(thirds[Math.floor(more() * thirds.length)]!);
    itineraries.push({ itinerary_id: `IT-${legs.map((f) => f.flight_number).join('-')}`, passengers: pax, flights: legs.map(idOf) });
  }

  const schedule: ScheduleFile = {
    format_version: 1,
    name: `oracle-random-${seed >>> 0}`,
    description: 'Random schedule for the oracle property tests.',
    operating_date: DATE,
    generator: { seed: seed | 0, version: 'oracle-1' },
    airlines: [{ code: 'NV', name: 'Novair' }],
    airports,
    fleets,
    aircraft,
    flights,
    maintenance,
    crew,
    itineraries,
  };

  let disruptions = randomDisruptions(rnd, flights, aircraft, rotations, hub.code);
  if (detour) {
    const cancelled = flightIdOf(detour.flight_number, Date.parse(detour.dep) / 60_000);
    disruptions = [{ type: 'flight_cancellation' as const, flight: cancelled }, ...disruptions.filter((d) => !('flight' in d) || d.flight !== cancelled)].slice(0, 3);
  }
  // Drawn from a stream of their own, so that every other part of an instance stays what it was.
  standingCapacities(prng(seed ^ 0x5bd1e995), airports, flights, disruptions, options.standingShare ?? 0.5);

  const vary = options.varyConfig ?? true;
  const sdepOf = new Map(flights.map((f) => [flightIdOf(f.flight_number, Date.parse(f.dep) / 60_000), Date.parse(f.dep) / 60_000]));
  const flightStarts = disruptions.flatMap((d) => (d.type === 'flight_delay' || d.type === 'flight_cancellation' ? [sdepOf.get(d.flight)!] : []));
  const t0 = Math.min(...flightStarts, ...disruptions.flatMap((d) => ('from' in d ? [Date.parse(d.from) / 60_000] : [])));
  // A window must hold every disrupted flight and every unavailability (section 1 defines nothing else).
  const needed = Math.max(...flightStarts.map((m) => m + 5), ...disruptions.flatMap((d) => (d.type === 'aircraft_unavailable' ? [Date.parse(d.to) / 60_000] : [])), t0 + 60);
  const windowHours = Math.ceil((needed - t0) / 60) + int(1, 4);
  const solver = { time_step_minutes: pick([10, 15, 15, 20, 30]), time_limit_ms: 30_000, max_candidate_aircraft: 60, swap_window_hours: 24 };
  const config = oracleConfig(vary ? {
    constraints: {
      max_delay_minutes: pick([60, 90, 120, 120]),
      max_swaps: pick([20, 20, 20, 2, 1, 0]),
      allow_cancellations: chance(0.85),
      max_cancellations: pick([null, null, null, 2, 1]),
      crew_duty: chance(0.25) ? 'hard' : 'soft',
      maintenance: chance(0.25) ? 'hard' : 'soft',
      recovery_window_hours: chance(0.8) || windowHours > 48 ? null : windowHours,
      swap_fleet_policy: pick(['same_family', 'same_family', 'same_family', 'same_fleet', 'any'] as const),
      max_reaccommodation_legs: pick([null, null, 2, 1, 3]),
    },
    cost_weights: chance(0.7) ? {} : {
      cancellation_per_flight: pick([3000, 8000, 20000]),
      reaccommodation_delay_per_passenger_minute: pick([0.1, 0.5, 1]),
      aircraft_out_of_position: pick([5000, 20000]),
      maintenance_violation: pick([10000, 50000]),
      compensation_multiplier: pick([0.5, 1, 1.5, 4]),
    },
    // Mostly every aircraft in scope; sometimes a tight scope, so that its selection is tested too.
    solver: chance(0.75) ? solver : { ...solver, max_candidate_aircraft: int(0, 2), swap_window_hours: pick([1, 2, 4]) },
  } : { constraints: { max_delay_minutes: 120 }, solver });

  return { seed, schedule, airline: 'NV', disruptions, config };
}

/**
 * Standing hourly capacities (docs/model.md 1.1) on a share of the instances: the hub's and those of
 * both ends of every delayed flight (every airport's a third of the time), each as one window of the
 * whole day, two windows split at a local hour, one window of part of the day (unlimited outside)
 * or, half the time, a window of each local hour from 05:00 to 23:00 (a slot plan: a flight delayed
 * into another hour meets that hour's own limit). Each window's limits are the busiest of its hours
 * as scheduled, or one more a sixth of the time: the schedule keeps them as planned, so a flight
 * outside the scope never breaks one alone (1.3 leaves that case to the rows' reading), but a delay
 * into a full hour does, and a window of hours without movements is a curfew (limit 0).
 */
function standingCapacities(rnd: () => number, airports: ScheduleFile['airports'], flights: ScheduleFile['flights'], disruptions: OracleDisruption[], share: number): void {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  if (rnd() >= share) return;
  // Where a delayed flight leaves or lands, a capacity meets the delay; elsewhere it meets swaps and holds.
  const delayed = disruptions.flatMap((d) => (d.type === 'flight_delay' ? flights.filter((f) => flightIdOf(f.flight_number, Date.parse(f.dep) / 60_000) === d.flight) : []));
  const ends = new Set(delayed.flatMap((f) => [f.origin, f.dest]));
  const everywhere = rnd() < 1 / 3;
  const capped = airports.filter((a) => a.hub || ends.has(a.code) || everywhere);
  const clock = (h: number) => `${String(h).padStart(2, '0')}:00`;
  for (const airport of capped) {
    // The UTC hour starts near the schedule's day (-1 to +2 days), the local hour each starts at (the
    // zones here are whole hours off UTC) and its scheduled movements at the airport.
    const format = new Intl.DateTimeFormat('en-GB', { timeZone: airport.time_zone, hour: 'numeric', hourCycle: 'h23' });
    const hours = Array.from({ length: 96 }, (_, i) => DAY0 + (i - 24) * 60).map((h) => ({
      local: Number(format.format(new Date(h * 60_000))),
      D: flights.filter((f) => f.origin === airport.code && Math.floor(Date.parse(f.dep) / 3_600_000) * 60 === h).length,
      A: flights.filter((f) => f.dest === airport.code && Math.floor(Date.parse(f.arr) / 3_600_000) * 60 === h).length,
    }));
    const split = int(8, 16);
    const hourly = Array.from({ length: 18 }, (_, i) => [i + 5, i + 6]);
    const spans = pick([[[0, 24]], [[0, split], [split, 24]], [[int(5, 10), int(12, 20)]], hourly, hourly, hourly]);
    airport.hourly_capacity = spans.map(([from, to]) => {
      const inside = hours.filter((h) => h.local >= from! && h.local < to!);
      const limit = (kind: 'D' | 'A') => Math.max(0, ...inside.map((h) => h[kind])) + (rnd() < 1 / 6 ? 1 : 0);
      return { from: clock(from!), to: clock(to!), max_departures_per_hour: limit('D'), max_arrivals_per_hour: limit('A') };
    });
  }
}

/**
 * 1-3 disruptions, each of a kind drawn uniformly from the four: a delay (early flights preferred, so
 * it propagates), a cancellation (the last flight of a rotation half the time, so that it does not
 * always break it), an aircraft out of service during one of its ground periods (never while it is in
 * the air, which section 1 does not define), an airport capacity over an hour with scheduled movements,
 * capped at or just below what the schedule needs.
 */
function randomDisruptions(
  rnd: () => number, flights: ScheduleFile['flights'], aircraft: ScheduleFile['aircraft'], rotations: Map<string, ScheduleFile['flights']>, hub: string,
): OracleDisruption[] {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const minutes = (iso: string) => Date.parse(iso) / 60_000;
  const idOf = (f: ScheduleFile['flights'][number]) => flightIdOf(f.flight_number, minutes(f.dep));
  const ordered = [...flights].sort((x, y) => minutes(x.dep) - minutes(y.dep));
  const out: OracleDisruption[] = [];
  const flightTaken = (f: ScheduleFile['flights'][number]) => out.some((d) => (d.type === 'flight_delay' || d.type === 'flight_cancellation') && d.flight === idOf(f));
  const overlaps = (key: string, from: number, to: number) => out.some((d) => ((d.type === 'aircraft_unavailable' && d.tail === key) || (d.type === 'airport_capacity' && d.airport === key))
    && minutes(d.from) < to && from < minutes(d.to));
  const n = pick([1, 1, 2, 2, 3]);
  for (let attempt = 0; out.length < n && attempt < 20; attempt++) {
    const kind = pick(['flight_delay', 'flight_cancellation', 'aircraft_unavailable', 'airport_capacity'] as const);
    if (kind === 'flight_delay') {
      const f = chance(0.7) ? ordered[int(0, Math.max(0, Math.floor(ordered.length * 0.6) - 1))]! : pick(ordered);
      if (flightTaken(f)) continue;
      out.push({ type: kind, flight: idOf(f), min_delay_minutes: chance(0.6) ? pick([15, 30, 45, 60, 90, 120, 180]) : int(0, 48) * 5 });
    } else if (kind === 'flight_cancellation') {
      const lasts = [...rotations.values()].filter((r) => r.length > 0).map((r) => r[r.length - 1]!);
      const f = chance(0.5) ? pick(lasts) : pick(ordered);
      if (flightTaken(f)) continue;
      out.push({ type: kind, flight: idOf(f) });
    } else if (kind === 'aircraft_unavailable') {
      const busy = aircraft.filter((a) => rotations.get(a.tail)!.length > 0);
      const plane = chance(0.85) && busy.length > 0 ? pick(busy) : pick(aircraft);
      const rot = rotations.get(plane.tail)!;
      // Ground periods of the schedule: before the first flight, between flights, after the last.
      const grounds: [number, number][] = [];
      const dayStart = minutes(ordered[0]!.dep) - 60;
      if (rot.length === 0) grounds.push([dayStart, dayStart + 600]);
      else {
        grounds.push([Math.min(dayStart, minutes(rot[0]!.dep) - 60), minutes(rot[0]!.dep)]);
        for (let i = 1; i < rot.length; i++) grounds.push([minutes(rot[i - 1]!.arr), minutes(rot[i]!.dep)]);
        if (chance(0.2)) grounds.push([minutes(rot[rot.length - 1]!.arr), minutes(rot[rot.length - 1]!.arr) + 240]);
      }
      // Early periods rather than late ones, so that they take flights away.
      const [lo, hi] = grounds[Math.min(int(0, grounds.length - 1), int(0, grounds.length - 1))]!;
      const from = lo + int(0, Math.floor((hi - lo) / 5)) * 5;
      const to = from + pick([30, 45, 60, 90, 120, 180]);
      if (overlaps(plane.tail, from, to)) continue;
      out.push({ type: kind, tail: plane.tail, from: isoOf(from), to: isoOf(to) });
    } else {
      const airport = chance(0.7) ? hub : pick(flights).origin;
      const moves = flights.flatMap((f) => [...(f.origin === airport ? [{ kind: 'D', at: minutes(f.dep) }] : []), ...(f.dest === airport ? [{ kind: 'A', at: minutes(f.arr) }] : [])]);
      if (moves.length === 0) continue;
      const hour = Math.floor(pick(moves).at / 60) * 60;
      const from = hour + pick([0, 0, 15, 30]);
      const to = from + pick([30, 60, 60, 90, 120]);
      if (overlaps(airport, from, to)) continue;
      // The busiest capped hour's scheduled movements, so that a cap at or below it binds.
      const hours: number[] = [];
      for (let h = Math.floor(from / 60) * 60; h < to; h += 60) hours.push(h);
      const busiest = (kind: string) => Math.max(0, ...hours.map((h) => moves.filter((m) => m.kind === kind && m.at >= h && m.at < h + 60).length));
      const cap = (kind: string) => (chance(0.7) ? Math.max(0, busiest(kind) - int(0, 1)) : int(0, 3));
      out.push({ type: kind, airport, from: isoOf(from), to: isoOf(to), max_departures_per_hour: cap('D'), max_arrivals_per_hour: cap('A') });
    }
  }
  if (out.length === 0) out.push({ type: 'flight_delay', flight: idOf(ordered[0]!), min_delay_minutes: 60 });
  return out;
}

/** fast-check arbitrary of random instances (shrinks on the seed only). */
export function randomInstanceArbitrary(options: RandomInstanceOptions = {}): fc.Arbitrary<RandomInstance> {
  return fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => randomInstance(seed, options));
}
