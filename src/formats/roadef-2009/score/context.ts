// What every rule and cost component of the scorer looks up: the solution indexed once (the first
// record of each leg, the rotation of each aircraft) and the values the specification derives from the
// plan for each booking (spec 2.8, 4.8, 5.1). Independent of any solver: it reads only the format.
import {
  CABIN_RANK, HAUL_RANK, routeKey,
  type BookedLeg, type Cabin, type HaulClass, type Itinerary, type PlannedLeg, type RoadefAircraft, type RoadefInstance,
} from '../instance.ts';
import type { ReadSolution, ReadSolutionLeg, ReadSolutionLine } from '../solution.ts';
import { legKey } from '../text.ts';

/** Shortest passenger connection, minutes (spec 4.8: the official checkers' constant). */
export const MIN_CONNECTION_MINUTES = 30;

/** Values of a booking computed once from the plan (spec 2.8 and 5.1). */
export interface Booking {
  itinerary: Itinerary;
  origin: string;
  dest: string;
  plannedDepMinutes: number;
  plannedArrMinutes: number;
  /** Highest haul class among its legs. */
  haulClass: HaulClass;
  /** Highest booked cabin among its legs. */
  referenceCabin: Cabin;
  /** Sum of the planned durations of its legs, connections excluded. */
  tripMinutes: number;
  /** Cancellation compensation per passenger (250, 400, 600) and delay threshold (120, 180, 240 min). */
  compensation: number;
  delayLimitMinutes: number;
  /** The legs already boarded or flown at the window start (spec 4.8). */
  fixedPart: readonly BookedLeg[];
  /** `flight@day:cabin` of every booked leg, to tell a downgrade from a leg kept as booked. */
  bookedTriples: ReadonlySet<string>;
}

export interface ScoringContext {
  instance: RoadefInstance;
  solution: ReadSolution;
  /** The first record of each (FLIGHT, DATE); later ones count only as duplicates (spec 4.0). */
  recordByKey: ReadonlyMap<string, ReadSolutionLeg>;
  duplicates: readonly ReadSolutionLeg[];
  /** Flown records of each known aircraft, sorted by departure then arrival (spec 4.0). */
  rotations: ReadonlyMap<string, readonly ReadSolutionLeg[]>;
  /** alt_flights.csv delay (minutes, or -1 for cancelled) by leg key. */
  disruption: ReadonlyMap<string, number>;
  bookings: ReadonlyMap<number, Booking>;
}

export function tripKey(leg: BookedLeg): string {
  return `${legKey(leg.flight, leg.day)}:${leg.cabin}`;
}

/** The compensation band of a planned trip duration (spec 5.1). */
export function compensationBand(tripMinutes: number): { compensation: number; delayLimitMinutes: number } {
  if (tripMinutes < 120) return { compensation: 250, delayLimitMinutes: 120 };
  if (tripMinutes < 270) return { compensation: 400, delayLimitMinutes: 180 };
  return { compensation: 600, delayLimitMinutes: 240 };
}

function fixedPartOf(legs: readonly PlannedLeg[], booked: readonly BookedLeg[], disruption: ReadonlyMap<string, number>, windowStart: number): BookedLeg[] {
  const fixed: BookedLeg[] = [];
  for (let i = 0; i < booked.length; i++) {
    const leg = legs[i]!;
    const delay = disruption.get(leg.key) ?? 0;
    if (delay === -1) break;
    const dep = leg.depMinutes + delay;
    if (dep >= windowStart) break;
    if (i > 0) {
      const previous = legs[i - 1]!;
      const previousArr = previous.arrMinutes + (disruption.get(previous.key) ?? 0);
      if (dep - previousArr < MIN_CONNECTION_MINUTES) break;
    }
    fixed.push(booked[i]!);
  }
  return fixed;
}

function bookingOf(instance: RoadefInstance, itinerary: Itinerary, disruption: ReadonlyMap<string, number>): Booking {
  // The reader guarantees every booked leg is planned and every planned route is in dist.csv.
  const legs = itinerary.legs.map((l) => instance.legsByKey.get(legKey(l.flight, l.day))!);
  const flights = legs.map((l) => instance.flights.get(l.flight)!);
  let haulClass: HaulClass = 'D';
  for (const f of flights) {
    const haul = instance.routes.get(routeKey(f.origin, f.dest))!.haulClass;
    if (HAUL_RANK[haul] > HAUL_RANK[haulClass]) haulClass = haul;
  }
  let referenceCabin: Cabin = 'E';
  for (const l of itinerary.legs) if (CABIN_RANK[l.cabin] > CABIN_RANK[referenceCabin]) referenceCabin = l.cabin;
  const tripMinutes = legs.reduce((sum, l) => sum + (l.arrMinutes - l.depMinutes), 0);
  return {
    itinerary,
    origin: flights[0]!.origin,
    dest: flights.at(-1)!.dest,
    plannedDepMinutes: legs[0]!.depMinutes,
    plannedArrMinutes: legs.at(-1)!.arrMinutes,
    haulClass,
    referenceCabin,
    tripMinutes,
    ...compensationBand(tripMinutes),
    fixedPart: fixedPartOf(legs, itinerary.legs, disruption, instance.config.windowStartMinutes),
    bookedTriples: new Set(itinerary.legs.map(tripKey)),
  };
}

export function buildContext(instance: RoadefInstance, solution: ReadSolution): ScoringContext {
  const recordByKey = new Map<string, ReadSolutionLeg>();
  const duplicates: ReadSolutionLeg[] = [];
  for (const r of solution.rotations) {
    const key = legKey(r.flight, r.day);
    if (recordByKey.has(key)) duplicates.push(r); else recordByKey.set(key, r);
  }
  const rotations = new Map<string, ReadSolutionLeg[]>();
  for (const r of recordByKey.values()) {
    if (r.aircraft === null || !instance.aircraft.has(r.aircraft)) continue;
    const list = rotations.get(r.aircraft);
    if (list) list.push(r); else rotations.set(r.aircraft, [r]);
  }
  for (const list of rotations.values()) list.sort((a, b) => a.depMinutes - b.depMinutes || a.arrMinutes - b.arrMinutes);
  const disruption = new Map(instance.flightDisruptions.map((d) => [legKey(d.flight, d.day), d.delayMinutes]));
  const bookings = new Map(instance.itineraries.map((it) => [it.id, bookingOf(instance, it, disruption)]));
  return { instance, solution, recordByKey, duplicates, rotations, disruption, bookings };
}

/** The record of each leg of a line, or null when one of them has no record. */
export function recordsOfLine(ctx: ScoringContext, line: ReadSolutionLine): ReadSolutionLeg[] | null {
  const records: ReadSolutionLeg[] = [];
  for (const l of line.legs) {
    const r = ctx.recordByKey.get(legKey(l.flight, l.day));
    if (!r) return null;
    records.push(r);
  }
  return records;
}

export function aircraftOf(ctx: ScoringContext, id: string | null): RoadefAircraft | undefined {
  return id === null ? undefined : ctx.instance.aircraft.get(id);
}
