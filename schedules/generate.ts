// Deterministic, seeded generator of the bundled schedule files: schedules/default.json, small.json
// and large.json (`npm run schedules`). Same code and seed, same bytes: the only randomness is the
// mulberry32 PRNG below, seeded per file; nothing reads the clock or Math.random.
//
// THE AIRLINES ARE FICTIONAL. "Northvale Airways" (NV) and "Blue Zephyr Regional" (BZ), their
// registrations, flight numbers, crews and passengers are invented. The airports, their time zones
// and coordinates are real (airports.ts); the fleet types are real types with typical seat counts.
//
//   NV Northvale Airways     mid-size network airline; main hub VIE, second hub FRA (the large
//                            file adds MUC and BER as hubs). Tails OE-Nxx (VIE) and D-Axxx (German bases).
//   BZ Blue Zephyr Regional  smaller airline, hub ZRH; tails HB-Jxx.
//
// How a day is built (operating date 2026-11-21, winter time: London/Lisbon/Dublin +00:00, CET
// +01:00, EET +02:00, Istanbul +03:00; the day is planned in each airport's LOCAL time):
// - Every aircraft starts at its base hub between 05:30 and 07:00 local and flies out-and-back
//   rotations (hub -> spoke -> hub, sometimes hub -> other hub -> hub) until no further rotation can
//   land by 23:30 local at both ends. No departure before 05:30 local, no arrival after 23:30 local.
// - Block time = great-circle distance / fleet cruise speed + 30 min taxi/climb allowance, rounded
//   up to 5 min. Each turn is minTurnaroundMinutes(DEFAULT_TURNAROUND, fleet, airport) plus a
//   buffer of 0-30 min (mostly 0-10). Busy routes get several frequencies, spread >= 45 min apart
//   where the day allows.
// - About 10 % of aircraft get a daily_check or a_check (2-4 h) at their base after the first
//   rotation: the inbound lands 20-90 min before the check, the next departure is >= end + turnaround.
// - Every aircraft ends the day at its base (a maintenance station) and gets an overnight_check from
//   30-60 min after its last arrival to 45-90 min before its first departure of the (repeating) next day.
// - Crew: pairings of 1-3 consecutive rotations (2-6 sectors) of one tail, from and back to the base,
//   one cockpit and one cabin duty each; report = first departure - 60 min, duty end = last
//   on-blocks; max_duty_minutes from EASA ORO.FTL.205 Table 2 (easaMaxFdpMinutes).
// - Passengers: load factor ~0.8 (0.45-1.0), booked = round(seats x load factor); 20-35 % of each
//   flight's passengers connect at the airline's hubs (itineraries of 1-20 passengers, connection
//   time between the hub's minimum connection time and 180 min).
import { greatCircleKm } from '../src/domain/passenger-rights.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScheduleFileSchema, type ScheduleFile } from '../src/formats/schedule-json/schedule-file.ts';
import { buildSchedule } from '../src/formats/schedule-json/read-schedule.ts';
import { serializeImportedSchedule } from '../src/formats/roadef-2009/to-schedule.ts';
import { ssimToScheduleFile } from '../src/formats/ssim/read-ssim.ts';
import { SsimFormatError } from '../src/formats/ssim/records.ts';
import { scheduleToSsim } from '../src/formats/ssim/write-ssim.ts';
import { readCommandLine, usageError } from '../src/cli/args.ts';
import { DEFAULT_TURNAROUND, minTurnaroundMinutes } from '../src/domain/turnaround.ts';
import { formatUtc, parseInstantMinutes, utcOffsetMinutes } from '../src/domain/time.ts';
import { easaMaxFdpMinutes } from '../src/domain/crew-rules.ts';
import { AIRPORTS, AIRPORTS_BY_CODE } from './airports.ts';

export const GENERATOR_VERSION = '1.0.0';
export const OPERATING_DATE = '2026-11-21';
/** Minutes added to the cruise time for taxi, climb and descent. */
export const TAXI_CLIMB_ALLOWANCE_MINUTES = 30;
/** Earliest departure and latest arrival anywhere, local wall-clock minutes (05:30, 23:30). */
export const EARLIEST_DEPARTURE_LOCAL = 5 * 60 + 30;
export const LATEST_ARRIVAL_LOCAL = 23 * 60 + 30;
/** First departure of each aircraft from its base: 05:30-07:00 local. */
export const FIRST_DEPARTURE_LOCAL: readonly [number, number] = [5 * 60 + 30, 7 * 60];
export const MAX_TURN_BUFFER_MINUTES = 30;
export const MAX_CONNECTION_MINUTES = 180;
export const REPORT_BEFORE_DEPARTURE_MINUTES = 60;
const MIN_ROUTE_KM = 250;
const MAX_ROUTE_KM = 2800;
const ROUTE_SPACING_MINUTES = 45;
/** A pairing keeps at least this margin below its maximum FDP. */
const MIN_FDP_SLACK_MINUTES = 15;

export interface FleetSpec { code: string; family: string; seats: number; cruiseSpeedKmh: number }

export const FLEETS: readonly FleetSpec[] = [
  { code: 'A319', family: 'A320', seats: 144, cruiseSpeedKmh: 820 },
  { code: 'A320', family: 'A320', seats: 180, cruiseSpeedKmh: 830 },
  { code: 'A321', family: 'A320', seats: 220, cruiseSpeedKmh: 830 },
  { code: 'E190', family: 'E-JET', seats: 112, cruiseSpeedKmh: 790 },
  { code: 'E195', family: 'E-JET', seats: 124, cruiseSpeedKmh: 780 },
];

export interface BaseSpec {
  hub: string;
  /** Registration prefix and the two letters of the first tail: 'OE-N' + 'VA' gives OE-NVA, OE-NVB, ... */
  tailPrefix: string;
  tailStart: string;
  /** Aircraft per fleet code. */
  fleets: Record<string, number>;
}

export interface AirlineSpec { code: string; name: string; bases: BaseSpec[] }

export interface ScheduleSpec {
  name: string;
  description: string;
  seed: number;
  operatingDate: string;
  /** IATA codes of the airports in the file (all must be in airports.ts). */
  airports: readonly string[];
  /** Hub airports and their minimum connection time in minutes; hubs are maintenance stations. */
  hubs: Record<string, number>;
  /** Spokes that are maintenance stations too. */
  extraMaintenanceStations: readonly string[];
  airlines: AirlineSpec[];
  /** Upper bound on out-and-back rotations per aircraft and day. */
  maxRoundTrips: number;
  /** Share of aircraft with a daily_check / a_check during the day (at least one aircraft). */
  dayCheckShare: number;
}

const ALL_AIRPORTS = AIRPORTS.map((a) => a.code);
const NV = { code: 'NV', name: 'Northvale Airways' };
const BZ = { code: 'BZ', name: 'Blue Zephyr Regional' };

export const SPECS: Readonly<Record<'default' | 'small' | 'large', ScheduleSpec>> = {
  default: {
    name: 'default',
    description: 'Default day 2026-11-21: fictional Northvale Airways (NV, hubs VIE and FRA) and Blue Zephyr Regional (BZ, hub ZRH) on a hub-and-spoke network of 44 real European airports.',
    seed: 20261121,
    operatingDate: OPERATING_DATE,
    airports: ALL_AIRPORTS,
    hubs: { VIE: 30, FRA: 45, ZRH: 40 },
    extraMaintenanceStations: ['MUC'],
    airlines: [
      { ...NV, bases: [
        { hub: 'VIE', tailPrefix: 'OE-N', tailStart: 'VA', fleets: { A319: 6, A320: 16, A321: 8, E190: 8, E195: 12 } },
        { hub: 'FRA', tailPrefix: 'D-AN', tailStart: 'VA', fleets: { A319: 4, A320: 12, A321: 8, E190: 4, E195: 6 } },
      ] },
      { ...BZ, bases: [
        { hub: 'ZRH', tailPrefix: 'HB-J', tailStart: 'ZA', fleets: { A319: 2, E190: 5, E195: 5 } },
      ] },
    ],
    maxRoundTrips: 4,
    dayCheckShare: 0.1,
  },
  small: {
    name: 'small',
    description: 'Small day 2026-11-21 for tests and demos: 13 aircraft of the fictional NV (VIE, FRA) and BZ (ZRH) on 14 real European airports.',
    seed: 7,
    operatingDate: OPERATING_DATE,
    airports: ['LHR', 'LIS', 'CDG', 'AMS', 'FRA', 'VIE', 'ZRH', 'CPH', 'BCN', 'FCO', 'ATH', 'HEL', 'OTP', 'IST'],
    hubs: { VIE: 30, FRA: 45, ZRH: 40 },
    extraMaintenanceStations: [],
    airlines: [
      { ...NV, bases: [
        { hub: 'VIE', tailPrefix: 'OE-N', tailStart: 'VA', fleets: { A320: 3, A321: 1, E195: 2 } },
        { hub: 'FRA', tailPrefix: 'D-AN', tailStart: 'VA', fleets: { A320: 2, E190: 2 } },
      ] },
      { ...BZ, bases: [
        { hub: 'ZRH', tailPrefix: 'HB-J', tailStart: 'ZA', fleets: { E190: 2, E195: 1 } },
      ] },
    ],
    maxRoundTrips: 2,
    dayCheckShare: 0.1,
  },
  large: {
    name: 'large',
    description: 'Large day 2026-11-21 for benchmarks: fictional Northvale Airways (NV, hubs VIE, FRA, MUC, BER) and Blue Zephyr Regional (BZ, hub ZRH), over 600 aircraft on 44 real European airports.',
    seed: 424242,
    operatingDate: OPERATING_DATE,
    airports: ALL_AIRPORTS,
    hubs: { VIE: 30, FRA: 45, MUC: 35, BER: 40, ZRH: 40 },
    extraMaintenanceStations: ['HAM'],
    airlines: [
      { ...NV, bases: [
        { hub: 'VIE', tailPrefix: 'OE-N', tailStart: 'VA', fleets: { A319: 16, A320: 50, A321: 30, E190: 24, E195: 30 } },
        { hub: 'FRA', tailPrefix: 'D-AN', tailStart: 'VA', fleets: { A319: 14, A320: 50, A321: 36, E190: 20, E195: 30 } },
        { hub: 'MUC', tailPrefix: 'D-AM', tailStart: 'VA', fleets: { A319: 12, A320: 40, A321: 28, E190: 20, E195: 30 } },
        { hub: 'BER', tailPrefix: 'D-AB', tailStart: 'NA', fleets: { A319: 10, A320: 36, A321: 20, E190: 18, E195: 26 } },
      ] },
      { ...BZ, bases: [
        { hub: 'ZRH', tailPrefix: 'HB-J', tailStart: 'ZA', fleets: { A319: 10, A320: 10, E190: 25, E195: 25 } },
      ] },
    ],
    maxRoundTrips: 4,
    dayCheckShare: 0.1,
  },
};

/** mulberry32: a small, fast 32-bit PRNG; returns a function giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}


/** Great-circle (haversine) distance in km between two points given in degrees. */

/** Scheduled block time in minutes: distance / cruise speed + allowance, rounded up to 5 min. */
export function blockMinutes(distanceKm: number, cruiseSpeedKmh: number): number {
  return Math.ceil((distanceKm / cruiseSpeedKmh * 60 + TAXI_CLIMB_ALLOWANCE_MINUTES) / 5) * 5;
}

/** Serialize a schedule file: top-level keys one per line, one record per line in each array. */
export function serializeSchedule(file: ScheduleFile): string {
  const entries = Object.entries(file);
  const lines = ['{'];
  entries.forEach(([key, value], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length > 0) {
      lines.push(`  ${JSON.stringify(key)}: [`);
      value.forEach((record, j) => lines.push(`    ${JSON.stringify(record)}${j < value.length - 1 ? ',' : ''}`));
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
    }
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

interface Leg { origin: string; dest: string; dep: number; arr: number; distanceKm: number }
interface RoundTrip { out: Leg; back: Leg; hub: string; outNumber?: string; backNumber?: string }
interface Plane { tail: string; airline: string; fleet: FleetSpec; base: string; roundTrips: RoundTrip[]; crewBreaks: Set<number> }
interface GenFlight extends Leg { id: string; flightNumber: string; airline: string; tail: string; booked: number; seats: number }

/** Build one day's schedule from a spec. Pure: the same spec always gives the same file. */
export function generateSchedule(spec: ScheduleSpec): ScheduleFile {
  const rng = mulberry32(spec.seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
  const step = (lo: number, hi: number, by: number): number => lo + by * int(0, Math.floor((hi - lo) / by));
  const pick = <T>(items: readonly T[], weights: readonly number[]): T => {
    const total = weights.reduce((s, w) => s + w, 0);
    let r = rng() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  };
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = int(0, i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  // Turn buffer above the minimum: mostly 0-10 min, sometimes 15-30.
  const turnBuffer = (): number => {
    const u = rng();
    if (u < 0.6) return step(0, 10, 5);
    if (u < 0.85) return step(15, 20, 5);
    return step(25, 30, 5);
  };

  const dayStart = parseInstantMinutes(`${spec.operatingDate}T00:00:00Z`);
  const airportData = spec.airports.map((code) => {
    const a = AIRPORTS_BY_CODE.get(code);
    if (!a) throw new Error(`airport ${code} is not in airports.ts`);
    return a;
  });
  const inFile = new Set(spec.airports);
  for (const hub of Object.keys(spec.hubs)) if (!inFile.has(hub)) throw new Error(`hub ${hub} is not among the airports`);
  const offset = new Map(airportData.map((a) => [a.code, utcOffsetMinutes(a.timeZone, dayStart + 12 * 60)]));
  /** Local wall-clock minutes since local midnight of the operating date (may pass 1440). */
  const local = (t: number, code: string): number => t - dayStart + offset.get(code)!;
  const distance = new Map<string, number>();
  const dist = (a: string, b: string): number => {
    const key = a < b ? `${a}-${b}` : `${b}-${a}`;
    let d = distance.get(key);
    if (d === undefined) {
      const pa = AIRPORTS_BY_CODE.get(a)!;
      const pb = AIRPORTS_BY_CODE.get(b)!;
      d = Math.round(greatCircleKm(pa.lat, pa.lon, pb.lat, pb.lon));
      distance.set(key, d);
    }
    return d;
  };
  const turn = (fleet: FleetSpec, airport: string): number => minTurnaroundMinutes(DEFAULT_TURNAROUND, fleet.code, airport);

  // Preference of a fleet for a route: E-jets fly the shorter sectors, the A321 the longer ones.
  const routeWeight = (fleet: FleetSpec, from: string, to: string, airline: AirlineSpec): number => {
    const d = dist(from, to);
    let w = AIRPORTS_BY_CODE.get(to)!.demand;
    if (fleet.family === 'E-JET') w *= d <= 1300 ? 1 : d <= 1800 ? 0.25 : 0.05;
    if (fleet.code === 'A321') w *= d >= 900 ? 1.5 : 0.3;
    // Hub-to-hub feed: doubled demand, shared out when the airline has more than two hubs.
    if (airline.bases.some((b) => b.hub === to)) w *= 2 / (airline.bases.length - 1);
    return w;
  };

  const planes: Plane[] = [];
  const checks: ScheduleFile['maintenance'] = [];
  const routeDeps = new Map<string, number[]>();

  for (const airline of spec.airlines) {
    const airlinePlanes: Plane[] = [];
    for (const base of airline.bases) {
      let index = (base.tailStart.charCodeAt(0) - 65) * 26 + (base.tailStart.charCodeAt(1) - 65);
      for (const fleet of FLEETS) {
        const count = base.fleets[fleet.code] ?? 0;
        for (let i = 0; i < count; i++, index++) {
          const n = index % 676;
          const tail = `${base.tailPrefix}${String.fromCharCode(65 + Math.floor(n / 26))}${String.fromCharCode(65 + (n % 26))}`;
          airlinePlanes.push({ tail, airline: airline.code, fleet, base: base.hub, roundTrips: [], crewBreaks: new Set() });
        }
      }
    }
    const checkCount = Math.max(1, Math.round(airlinePlanes.length * spec.dayCheckShare));
    const withCheck = new Set(shuffle(airlinePlanes.map((_, i) => i)).slice(0, checkCount));

    airlinePlanes.forEach((plane, planeIndex) => {
      const hub = plane.base;
      const spokes = spec.airports.filter((s) => s !== hub && dist(hub, s) >= MIN_ROUTE_KM && dist(hub, s) <= MAX_ROUTE_KM);
      const block = (a: string, b: string): number => blockMinutes(dist(a, b), plane.fleet.cruiseSpeedKmh);
      let t = dayStart - offset.get(hub)! + step(FIRST_DEPARTURE_LOCAL[0], FIRST_DEPARTURE_LOCAL[1], 5);
      while (plane.roundTrips.length < spec.maxRoundTrips) {
        const spokeBuffer = turnBuffer();
        const legsTo = (s: string): RoundTrip => {
          const out: Leg = { origin: hub, dest: s, dep: t, arr: t + block(hub, s), distanceKm: dist(hub, s) };
          const backDep = out.arr + turn(plane.fleet, s) + spokeBuffer;
          return { hub, out, back: { origin: s, dest: hub, dep: backDep, arr: backDep + block(s, hub), distanceKm: dist(s, hub) } };
        };
        const fits = (rt: RoundTrip): boolean => local(rt.out.dep, hub) >= EARLIEST_DEPARTURE_LOCAL
          && local(rt.out.arr, rt.out.dest) <= LATEST_ARRIVAL_LOCAL
          && local(rt.back.dep, rt.back.origin) >= EARLIEST_DEPARTURE_LOCAL
          && local(rt.back.arr, hub) <= LATEST_ARRIVAL_LOCAL;
        const feasible = spokes.filter((s) => fits(legsTo(s)));
        if (feasible.length === 0) break;
        const spaced = feasible.filter((s) => !(routeDeps.get(`${hub}-${s}`) ?? []).some((d) => Math.abs(d - t) < ROUTE_SPACING_MINUTES));
        const choices = spaced.length > 0 ? spaced : feasible;
        const spoke = pick(choices, choices.map((s) => routeWeight(plane.fleet, hub, s, airline)));
        const rt = legsTo(spoke);
        plane.roundTrips.push(rt);
        const key = `${hub}-${spoke}`;
        routeDeps.set(key, [...(routeDeps.get(key) ?? []), t]);
        t = rt.back.arr + turn(plane.fleet, hub) + turnBuffer();
        if (withCheck.has(planeIndex) && plane.roundTrips.length === 1) {
          // A check during the day at the base: on the ground from the inbound to the next departure.
          const start = rt.back.arr + step(20, 90, 5);
          const end = start + step(120, 240, 15);
          checks.push({ tail: plane.tail, type: rng() < 0.7 ? 'daily_check' : 'a_check', station: hub, start: formatUtc(start), end: formatUtc(end) });
          t = end + turn(plane.fleet, hub) + turnBuffer();
          plane.crewBreaks.add(1);
        }
      }
      // Overnight check at the base: every aircraft ends its day there.
      const first = plane.roundTrips[0]!.out.dep;
      const last = plane.roundTrips[plane.roundTrips.length - 1]!.back.arr;
      checks.push({
        tail: plane.tail, type: 'overnight_check', station: hub,
        start: formatUtc(last + step(30, 60, 5)), end: formatUtc(first + 1440 - step(45, 90, 5)),
      });
    });

    // Flight numbers: per airline, rotations grouped by hub and route, in departure order; the
    // outbound gets an even number and the return the next (odd) one.
    const hubOrder = airline.bases.map((b) => b.hub);
    const rts = airlinePlanes.flatMap((p) => p.roundTrips);
    rts.sort((a, b) => hubOrder.indexOf(a.hub) - hubOrder.indexOf(b.hub)
      || (a.out.dest < b.out.dest ? -1 : a.out.dest > b.out.dest ? 1 : 0) || a.out.dep - b.out.dep);
    rts.forEach((rt, k) => {
      if (100 + 2 * k + 1 > 9999) throw new Error(`airline ${airline.code} has too many flights for 4-digit numbers`);
      rt.outNumber = `${airline.code}${100 + 2 * k}`;
      rt.backNumber = `${airline.code}${100 + 2 * k + 1}`;
    });
    planes.push(...airlinePlanes);
  }

  // Flights and passengers. Load factor ~ 0.8 +- 0.11 (Irwin-Hall, pure arithmetic), clipped to 0.45-1.0.
  const loadFactor = (): number => {
    const z = (rng() + rng() + rng() + rng() - 2) / Math.sqrt(1 / 3);
    return Math.min(1, Math.max(0.45, 0.8 + 0.11 * z));
  };
  const flightsOfPlane = new Map<string, GenFlight[]>();
  const flights: GenFlight[] = [];
  for (const plane of planes) {
    const list: GenFlight[] = [];
    for (const rt of plane.roundTrips) {
      for (const [leg, number] of [[rt.out, rt.outNumber!], [rt.back, rt.backNumber!]] as const) {
        const seats = plane.fleet.seats;
        const booked = Math.min(seats, Math.round(seats * loadFactor()));
        list.push({ ...leg, id: `${number}_${formatUtc(leg.dep)}`, flightNumber: number, airline: plane.airline, tail: plane.tail, booked, seats });
      }
    }
    flightsOfPlane.set(plane.tail, list);
    flights.push(...list);
  }
  const byDeparture = (a: GenFlight, b: GenFlight): number =>
    a.dep - b.dep || (a.flightNumber < b.flightNumber ? -1 : a.flightNumber > b.flightNumber ? 1 : 0);
  flights.sort(byDeparture);

  // Crew pairings: 1-3 consecutive rotations of one tail (2-6 sectors), within the EASA maximum FDP.
  interface Pairing { airline: string; base: string; flights: GenFlight[]; start: number; end: number; max: number }
  const pairings: Pairing[] = [];
  for (const plane of planes) {
    const legs = flightsOfPlane.get(plane.tail)!;
    const segments: number[][] = [[]];
    plane.roundTrips.forEach((_, i) => {
      if (plane.crewBreaks.has(i)) segments.push([]);
      segments[segments.length - 1]!.push(i);
    });
    const make = (rtIndexes: number[]): Pairing => {
      const fl = rtIndexes.flatMap((i) => [legs[2 * i]!, legs[2 * i + 1]!]);
      const start = fl[0]!.dep - REPORT_BEFORE_DEPARTURE_MINUTES;
      const end = fl[fl.length - 1]!.arr;
      const reportLocal = ((local(start, plane.base) % 1440) + 1440) % 1440;
      return { airline: plane.airline, base: plane.base, flights: fl, start, end, max: easaMaxFdpMinutes(reportLocal, fl.length) };
    };
    for (const segment of segments) {
      let i = 0;
      while (i < segment.length) {
        let n = Math.min(pick([1, 2, 3], [0.1, 0.55, 0.35]), segment.length - i);
        let pairing = make(segment.slice(i, i + n));
        const tooLong = (p: Pairing): boolean => p.end - p.start > p.max - MIN_FDP_SLACK_MINUTES;
        while (n > 1 && tooLong(pairing)) pairing = make(segment.slice(i, i + --n));
        if (tooLong(pairing)) throw new Error(`no legal pairing for ${plane.tail}`);
        pairings.push(pairing);
        i += n;
      }
    }
  }
  pairings.sort((a, b) => a.start - b.start || (a.flights[0]!.tail < b.flights[0]!.tail ? -1 : 1));
  const crew: ScheduleFile['crew'] = [];
  for (const airline of spec.airlines) {
    const own = pairings.filter((p) => p.airline === airline.code);
    const width = Math.max(4, String(own.length).length);
    for (const role of ['cockpit', 'cabin'] as const) {
      own.forEach((p, k) => crew.push({
        crew_id: `${airline.code}-${role === 'cockpit' ? 'FC' : 'CC'}${String(k + 1).padStart(width, '0')}`,
        airline: airline.code, role, base: p.base, duty_start: formatUtc(p.start), duty_end: formatUtc(p.end),
        max_duty_minutes: p.max, flights: p.flights.map((f) => f.id),
      }));
    }
  }

  // Connecting itineraries through the airline's own hubs.
  const itineraries: ScheduleFile['itineraries'] = [];
  const budget = new Map(flights.map((f) => [f.id, Math.round(f.booked * (0.25 + 0.2 * rng()))]));
  for (const airline of spec.airlines) {
    const own = flights.filter((f) => f.airline === airline.code);
    let counter = 0;
    const found: Array<{ first: GenFlight; second: GenFlight; pax: number }> = [];
    for (const base of airline.bases) {
      const hub = base.hub;
      const mct = spec.hubs[hub]!;
      const inbound = own.filter((f) => f.dest === hub).sort((a, b) => a.arr - b.arr || byDeparture(a, b));
      const outbound = own.filter((f) => f.origin === hub);
      for (const first of inbound) {
        const candidates = shuffle(outbound.filter((f) => f.dep - first.arr >= mct && f.dep - first.arr <= MAX_CONNECTION_MINUTES
          && f.dest !== first.origin && budget.get(f.id)! > 0));
        for (const second of candidates) {
          const left = budget.get(first.id)!;
          if (left <= 0) break;
          const pax = Math.min(int(1, 20), left, budget.get(second.id)!);
          budget.set(first.id, left - pax);
          budget.set(second.id, budget.get(second.id)! - pax);
          found.push({ first, second, pax });
        }
      }
    }
    found.sort((a, b) => a.first.arr - b.first.arr || byDeparture(a.first, b.first) || byDeparture(a.second, b.second));
    const width = Math.max(5, String(found.length).length);
    for (const it of found) {
      itineraries.push({ itinerary_id: `${airline.code}-IT${String(++counter).padStart(width, '0')}`, passengers: it.pax, flights: [it.first.id, it.second.id] });
    }
  }

  const tailOrder = new Map(planes.map((p, i) => [p.tail, i]));
  checks.sort((a, b) => tailOrder.get(a.tail)! - tailOrder.get(b.tail)! || (a.start < b.start ? -1 : 1));
  const usedFleets = new Set(planes.map((p) => p.fleet.code));
  const maintenanceStations = new Set([...Object.keys(spec.hubs), ...spec.extraMaintenanceStations]);

  return {
    format_version: 1,
    name: spec.name,
    description: spec.description,
    operating_date: spec.operatingDate,
    generator: { seed: spec.seed, version: GENERATOR_VERSION },
    airlines: spec.airlines.map((a) => ({ code: a.code, name: a.name })),
    airports: AIRPORTS.filter((a) => inFile.has(a.code)).map((a) => ({
      code: a.code, name: a.name, time_zone: a.timeZone, lat: a.lat, lon: a.lon,
      hub: a.code in spec.hubs, maintenance_station: maintenanceStations.has(a.code),
      min_connection_minutes: spec.hubs[a.code] ?? a.spokeMct,
    })),
    fleets: FLEETS.filter((f) => usedFleets.has(f.code)).map((f) => ({ code: f.code, family: f.family, seats: f.seats, cruise_speed_kmh: f.cruiseSpeedKmh })),
    aircraft: planes.map((p) => ({ tail: p.tail, airline: p.airline, fleet: p.fleet.code, seats: p.fleet.seats, base: p.base })),
    flights: flights.map((f) => ({
      flight_number: f.flightNumber, airline: f.airline, tail: f.tail, origin: f.origin, dest: f.dest,
      dep: formatUtc(f.dep), arr: formatUtc(f.arr), distance_km: f.distanceKm, booked_passengers: f.booked,
    })),
    maintenance: checks,
    crew,
    itineraries,
  };
}

/** Where the CLI writes the files: this directory. */
export const SCHEDULES_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Generate and write every bundled schedule file; returns the paths written. */
export function writeSchedules(dir: string = SCHEDULES_DIR): string[] {
  return Object.values(SPECS).map((spec) => {
    const path = `${dir.replace(/\/$/, '')}/${spec.name}.json`;
    writeFileSync(path, serializeSchedule(generateSchedule(spec)));
    return path;
  });
}

const COMMAND = 'npm run schedules';
const USAGE = `Usage: npm run schedules                      rewrite the bundled schedules (default, small, large) from their seeds
       npm run schedules -- import-ssim FILE [--name NAME] [--schedules-dir DIR] [--force]
       npm run schedules -- export-ssim [--schedule NAME] [--out FILE]

import-ssim: reads an IATA SSIM Chapter 7 file (records 1-5) and writes DIR/NAME.json (default
  schedules/<file name>.json), a schedule the service serves like the bundled ones: every leg's period
  expanded into dated flights, aircraft assigned as docs/spec/ssim.md says. A malformed record is
  refused with the file and line (exit 2); an existing schedule is kept unless --force.
export-ssim: writes a schedule (default: default) as SSIM, in local time, to FILE or standard output.
  --help                  this text`;

/** The command line of `npm run schedules`; returns the exit code. */
export function runSchedulesCommand(args: readonly string[]): number {
  const { values, positionals } = readCommandLine({
    command: COMMAND, usage: USAGE, args, allowPositionals: true,
    options: { name: { type: 'string' }, 'schedules-dir': { type: 'string' }, force: { type: 'boolean', default: false }, schedule: { type: 'string' }, out: { type: 'string' } },
  });
  const [command, ...files] = positionals;
  switch (command) {
    case undefined:
      if (Object.values(values).some((v) => v !== undefined && v !== false)) usageError(COMMAND, 'options need a command: import-ssim or export-ssim');
      for (const path of writeSchedules()) console.log(`wrote ${path}`);
      return 0;
    case 'import-ssim': {
      if (files.length !== 1) usageError(COMMAND, 'import-ssim takes one SSIM file');
      return importSsim(files[0]!, values);
    }
    case 'export-ssim': {
      if (files.length !== 0) usageError(COMMAND, 'export-ssim takes no file name: give --out FILE');
      const name = values.schedule ?? 'default';
      const path = join(SCHEDULES_DIR, `${name}.json`);
      if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(path)) usageError(COMMAND, `--schedule must name a bundled schedule (schedules/<name>.json), not '${name}'`);
      const text = scheduleToSsim(ScheduleFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));
      if (values.out) writeFileSync(values.out, text);
      else process.stdout.write(text);
      return 0;
    }
    default:
      return usageError(COMMAND, `unknown command '${command}': give import-ssim or export-ssim, or nothing to rewrite the bundled schedules`);
  }
}

function importSsim(file: string, values: { name?: string; 'schedules-dir'?: string; force?: boolean }): number {
  const name = values.name ?? basename(file).replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+/, '');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) usageError(COMMAND, `--name must be lower-case letters, digits and dashes, not '${name}'`);
  const dir = values['schedules-dir'] ?? SCHEDULES_DIR;
  const out = join(dir, `${name}.json`);
  if (existsSync(out) && !values.force) usageError(COMMAND, `${out} exists; pass --force to replace it`);
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (error) {
    return usageError(COMMAND, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let schedule: ScheduleFile;
  try {
    schedule = ssimToScheduleFile(text, file, { name, knownZones: new Map(AIRPORTS.map((a) => [a.code, a.timeZone])) });
  } catch (error) {
    if (error instanceof SsimFormatError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // The checks the service makes when it loads the file: what is written will be served.
  const parsed = ScheduleFileSchema.safeParse(schedule);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    process.stderr.write(`${file}: the imported schedule would be invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}\n`);
    return 2;
  }
  buildSchedule(parsed.data);
  writeFileSync(out, serializeImportedSchedule(parsed.data));
  process.stderr.write(`wrote ${out}: ${schedule.flights.length} flights, ${schedule.aircraft.length} aircraft, ${schedule.airports.length} airports of ${schedule.airlines.map((a) => a.code).join(', ')}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = runSchedulesCommand(process.argv.slice(2));
}
