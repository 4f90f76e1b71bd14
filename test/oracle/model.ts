// The oracle's own reading of docs/model.md section 1 ("the problem"), shared by the checker and the
// brute-force enumerator and by nothing else. It works on the raw schedule JSON and the disruptions as
// the request writes them, and re-implements every rule it needs (time parsing, turnaround precedence,
// haversine, EU261, scope, grid, capacities, groups, costs). Nothing here may be imported from
// src/recovery, solver-wasm or src/domain (types of the file format and of the response excepted).
// Where section 1 leaves a choice open, the reading taken is written beside the code ("Reading:").
// glpk.js serves only the oracle's own small integer program for passengers on journeys of several
// flights (minCostJourneys), written here from section 1.6 and sharing nothing with the engine's model.
import GLPK from 'glpk.js/node';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type {
  CostBreakdownView as CostBreakdown, SimulationResponse, SummaryView as OptionSummary, ViolationView as Violation,
} from '../../src/http/recovery-schemas.ts';
import type { OracleConfig } from './config.ts';

/** A disruption as the request and the response write it (docs/model.md 1.1). */
export type OracleDisruption = SimulationResponse['disruptions'][number];

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Minutes since the Unix epoch of an ISO 8601 instant (NaN when unparseable). */
export function isoMinutes(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NaN : ms / 60_000;
}

/** ISO 8601 UTC with seconds and Z, e.g. 2026-11-21T08:30:00Z. */
export function isoOf(minutes: number): string {
  return new Date(minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function flightIdOf(flightNumber: string, depMinutes: number): string {
  return `${flightNumber}_${isoOf(depMinutes)}`;
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Minimum turnaround: airport+fleet, then fleet, then airport, then default. */
export function turnaroundMinutes(t: OracleConfig['turnaround'], fleet: string, airport: string): number {
  const af = has(t.by_airport_fleet, airport) ? t.by_airport_fleet[airport]! : undefined;
  if (af && has(af, fleet)) return af[fleet]!;
  if (has(t.by_fleet, fleet)) return t.by_fleet[fleet]!;
  if (has(t.by_airport, airport)) return t.by_airport[airport]!;
  return t.default_minutes;
}

export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Regulation (EC) No 261/2004, Art. 7(1). */
export function eu261(distanceKm: number): number {
  if (distanceKm <= 1500) return 250;
  if (distanceKm <= 3500) return 400;
  return 600;
}

/** Relative comparison used for every float: |a-b| <= 1e-6 * max(1, |a|, |b|). */
export function close(a: number, b: number, rel = 1e-6): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Start minute of every UTC clock hour that overlaps [from, to). */
export function clockHours(from: number, to: number): number[] {
  const hours: number[] = [];
  for (let h = Math.floor(from / 60) * 60; h < to; h += 60) hours.push(h);
  return hours;
}

// ---------------------------------------------------------------------------------------------
// The problem instance (section 1.1 and 1.2)

export interface OFlight {
  id: string;
  number: string;
  airline: string;
  tail: string;
  origin: string;
  dest: string;
  sdep: number;
  sarr: number;
  block: number;
  booked: number;
  /** The file's haul class of the flight (its own, else its airport pair's), used only where an airport has no coordinates. */
  haul: string | null;
}

export interface OAircraft { tail: string; airline: string; fleet: string; family: string; seats: number; base: string }

export interface OCheck {
  /** Index among the relevant checks of its tail (order of the file), used in bit sets. */
  idx: number;
  tail: string;
  type: string;
  station: string;
  ms: number;
  me: number;
  /**
   * Last scheduled flight of the tail arriving by ms (the point where the schedule plans the check), or
   * null. Reading: a departed flight here means the start of the route (the aircraft's state at t0).
   */
  plannedAfter: string | null;
}

export interface OCrew { id: string; limit: number; flights: string[] }
/** A booked journey of two or more flights, in travel order. */
export interface OItinerary { id: string; passengers: number; legs: string[] }
export interface OAirport { code: string; lat: number | null; lon: number | null; mct: number }
export interface Period { from: number; to: number }

/** One airport_capacity disruption: its capped clock hours, dmax departures and amax arrivals of A in each. */
export interface OCapacity { index: number; airport: string; from: number; to: number; dmax: number; amax: number; hours: number[] }
/** One window of an airport's standing capacity (1.1): minutes of the day [from, to) on the airport's clock. */
export interface OStandingWindow { from: number; to: number; dmax: number; amax: number }

export interface InitialState {
  station: string;
  arrival: number;
  ready: number;
  /** The last departed flight (sdep < t0) of the aircraft, if any. */
  lastDeparted: OFlight | null;
}

export interface ProblemInput {
  schedule: ScheduleFile;
  /** At least one (1.1). */
  disruptions: OracleDisruption[];
  config: OracleConfig;
  /** Airline A; by default the airline of the first flight or aircraft a disruption names. */
  airline?: string;
}

export interface Problem {
  cfg: OracleConfig;
  airline: string;
  disruptions: OracleDisruption[];
  /** Disruption time (1.2). */
  t0: number;
  /** End of the recovery window (Infinity when recovery_window_hours is null). */
  W: number;
  /** solver.time_step_minutes. */
  step: number;
  /** D(f) of each delayed flight. */
  D: Map<string, number>;
  /** Flights cancelled by a disruption: in no route of any plan. */
  disruptedCancelled: Set<string>;
  /** Periods of each unavailable aircraft. */
  unavailable: Map<string, Period[]>;
  capacities: OCapacity[];
  /** Standing capacities (1.1) of each airport that has some: its clock (a formatter of its time zone) and windows. */
  standing: Map<string, { clock: Intl.DateTimeFormat; windows: OStandingWindow[] }>;
  /** The limit (null: none that can bind) of each standing slot asked so far (standingLimit): clock arithmetic is slow. */
  standingLimits: Map<string, number | null>;
  /** Ground shuttles (an unlimited cabin): their flights count against no standing capacity (1.1). */
  shuttles: Set<string>;
  airports: Map<string, OAirport>;
  fleets: Map<string, { family: string; seats: number }>;
  aircraft: Map<string, OAircraft>;
  flights: Map<string, OFlight>;
  /** Flights of airline A, by scheduled departure then flight number. */
  airlineFlights: OFlight[];
  /** Scheduled rotation of every tail (all its flights, departure order). */
  rotation: Map<string, OFlight[]>;
  /** Disrupted aircraft, in the order of the disruptions. */
  K0: string[];
  /** Aircraft in scope: K0, then the candidates in selection order. */
  K: string[];
  /** Flights in scope, by scheduled departure (disrupted-cancelled ones included). */
  F: OFlight[];
  inF: Set<string>;
  init: Map<string, InitialState>;
  /** Required end location L(a). */
  L: Map<string, string>;
  /** First scheduled flight after the window, or null. */
  afterWindow: Map<string, OFlight | null>;
  /** Checks of each a in K that the plan must consider (1.3). */
  checks: Map<string, OCheck[]>;
  crews: OCrew[];
  crewsByFlight: Map<string, OCrew[]>;
  itineraries: OItinerary[];
  /** Meeting distance (minutes) of every aircraft considered as a candidate, for diagnostics. */
  candidateDistances: Map<string, number>;
}

function byDeparture(a: OFlight, b: OFlight): number {
  return a.sdep - b.sdep || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0);
}

export function policyAllows(p: Pick<Problem, 'cfg' | 'fleets'>, flyingFleet: string, plannedFleet: string): boolean {
  const policy = p.cfg.constraints.swap_fleet_policy;
  if (policy === 'any') return true;
  if (policy === 'same_fleet') return flyingFleet === plannedFleet;
  const fam = (f: string) => p.fleets.get(f)?.family ?? `?${f}`;
  return fam(flyingFleet) === fam(plannedFleet);
}

/** Minimum turnaround of aircraft `tail` at `airport`. */
export function turnOf(p: Problem, tail: string, airport: string): number {
  return turnaroundMinutes(p.cfg.turnaround, p.aircraft.get(tail)!.fleet, airport);
}

/** Where an aircraft is at t0 and when it is ready (1.2, "Initial state"). */
function stateAt(cfg: OracleConfig, plane: OAircraft, rot: OFlight[], t0: number): InitialState {
  const departed = rot.filter((f) => f.sdep < t0);
  const last = departed.length > 0 ? departed[departed.length - 1]! : null;
  return last
    ? { station: last.dest, arrival: last.sarr, ready: last.sarr + turnaroundMinutes(cfg.turnaround, plane.fleet, last.dest), lastDeparted: last }
    : { station: rot[0]?.origin ?? plane.base, arrival: Number.NEGATIVE_INFINITY, ready: Number.NEGATIVE_INFINITY, lastDeparted: null };
}

/**
 * The problem of section 1 for `input`. Throws (with a sentence) on input section 1.1 calls a
 * contradiction or an unknown reference, and on a flight disruption outside the recovery window,
 * which section 1 does not define (the random instances never make one).
 */
export function buildProblem(input: ProblemInput): Problem {
  const { schedule: s, config: cfg } = input;
  const airports = new Map<string, OAirport>(s.airports.map((a) => [a.code, { code: a.code, lat: a.lat ?? null, lon: a.lon ?? null, mct: a.min_connection_minutes }]));
  const fleets = new Map(s.fleets.map((f) => [f.code, { family: f.family, seats: f.seats }]));
  const aircraft = new Map<string, OAircraft>();
  for (const a of s.aircraft) {
    aircraft.set(a.tail, { tail: a.tail, airline: a.airline, fleet: a.fleet, family: fleets.get(a.fleet)?.family ?? `?${a.fleet}`, seats: a.seats, base: a.base });
  }
  const flights = new Map<string, OFlight>();
  const pairHaul = new Map((s.airport_pairs ?? []).map((pair) => [`${pair.origin}>${pair.dest}`, pair.haul]));
  for (const f of s.flights) {
    const sdep = isoMinutes(f.dep);
    const sarr = isoMinutes(f.arr);
    if (!Number.isFinite(sdep) || !Number.isFinite(sarr)) throw new Error(`flight ${f.flight_number} has an unreadable time`);
    // A flight of an operational day keeps its id when the day retimes it: a day's schedule file names it (day.ts).
    const id = (f as { id?: string }).id ?? flightIdOf(f.flight_number, sdep);
    if (flights.has(id)) throw new Error(`flight id ${id} appears twice`);
    if (!aircraft.has(f.tail)) throw new Error(`flight ${id} names unknown tail ${f.tail}`);
    flights.set(id, { id, number: f.flight_number, airline: f.airline, tail: f.tail, origin: f.origin, dest: f.dest, sdep, sarr, block: sarr - sdep, booked: f.booked_passengers,
      haul: f.haul ?? pairHaul.get(`${f.origin}>${f.dest}`) ?? null });
  }

  // --- Disruptions (1.1).
  const disruptions = input.disruptions;
  if (disruptions.length === 0) throw new Error('at least one disruption is needed');
  const named = disruptions.map((d) => (d.type === 'flight_delay' || d.type === 'flight_cancellation' ? flights.get(d.flight)?.airline
    : d.type === 'aircraft_unavailable' ? aircraft.get(d.tail)?.airline : undefined)).find((x) => x !== undefined);
  const airline = input.airline ?? named;
  if (airline === undefined) throw new Error('the airline is not given and no disruption names a flight or an aircraft');
  const D = new Map<string, number>();
  const disruptedCancelled = new Set<string>();
  const unavailable = new Map<string, Period[]>();
  const capacities: OCapacity[] = [];
  const starts: number[] = [];
  const period = (from: string, to: string, what: string): Period => {
    const p = { from: isoMinutes(from), to: isoMinutes(to) };
    if (!Number.isFinite(p.from) || !Number.isFinite(p.to)) throw new Error(`${what} has an unreadable period`);
    if (p.to <= p.from) throw new Error(`${what} has 'to' at or before 'from'`);
    return p;
  };
  for (const d of disruptions) {
    if (d.type === 'flight_delay' || d.type === 'flight_cancellation') {
      const f = flights.get(d.flight);
      if (!f || f.airline !== airline) throw new Error(`flight ${d.flight} is not a flight of ${airline}`);
      if (D.has(f.id) || disruptedCancelled.has(f.id)) throw new Error(`flight ${f.id} is disrupted twice (a contradiction)`);
      if (d.type === 'flight_delay') D.set(f.id, d.min_delay_minutes);
      else disruptedCancelled.add(f.id);
      starts.push(f.sdep);
    } else if (d.type === 'aircraft_unavailable') {
      if (aircraft.get(d.tail)?.airline !== airline) throw new Error(`aircraft ${d.tail} is not an aircraft of ${airline}`);
      const p = period(d.from, d.to, `the unavailability of ${d.tail}`);
      const list = unavailable.get(d.tail) ?? [];
      if (list.some((q) => q.from < p.to && p.from < q.to)) throw new Error(`aircraft ${d.tail} is given overlapping periods (a contradiction)`);
      list.push(p);
      unavailable.set(d.tail, list);
      starts.push(p.from);
    } else {
      if (!airports.has(d.airport)) throw new Error(`airport ${d.airport} is not in the schedule`);
      const p = period(d.from, d.to, `the capacity of ${d.airport}`);
      if (capacities.some((c) => c.airport === d.airport && c.from < p.to && p.from < c.to)) throw new Error(`airport ${d.airport} is given overlapping periods (a contradiction)`);
      capacities.push({ index: capacities.length, airport: d.airport, from: p.from, to: p.to, dmax: d.max_departures_per_hour, amax: d.max_arrivals_per_hour, hours: clockHours(p.from, p.to) });
      starts.push(p.from);
    }
  }
  const t0 = Math.min(...starts);
  const W = cfg.constraints.recovery_window_hours === null ? Number.POSITIVE_INFINITY : t0 + cfg.constraints.recovery_window_hours * 60;
  for (const fid of [...D.keys(), ...disruptedCancelled]) {
    if (flights.get(fid)!.sdep >= W) throw new Error(`flight ${fid} is disrupted but leaves after the recovery window, which docs/model.md section 1 does not define`);
  }

  const all = [...flights.values()].sort(byDeparture);
  const airlineFlights = all.filter((f) => f.airline === airline);
  const rotation = new Map<string, OFlight[]>();
  for (const tail of aircraft.keys()) rotation.set(tail, []);
  for (const f of all) rotation.get(f.tail)!.push(f);
  const inWindow = (tail: string) => rotation.get(tail)!.filter((f) => f.sdep >= t0 && f.sdep < W);

  const p: Problem = {
    cfg, airline, disruptions, t0, W, step: cfg.solver.time_step_minutes, D, disruptedCancelled, unavailable, capacities,
    standing: standingOf(s), standingLimits: new Map(),
    shuttles: new Set(s.aircraft.filter((a) => a.cabin_seats && Object.values(a.cabin_seats).includes(null)).map((a) => a.tail)),
    airports, fleets, aircraft, flights, airlineFlights, rotation,
    K0: [], K: [], F: [], inF: new Set(), init: new Map(), L: new Map(), afterWindow: new Map(), checks: new Map(),
    crews: [], crewsByFlight: new Map(), itineraries: [], candidateDistances: new Map(),
  };

  // --- Disrupted aircraft K0, in the order of the disruptions.
  const K0: string[] = [];
  const affect = (tail: string) => { if (!K0.includes(tail)) K0.push(tail); };
  for (const d of disruptions) {
    if (d.type === 'flight_delay' || d.type === 'flight_cancellation') affect(flights.get(d.flight)!.tail);
    else if (d.type === 'aircraft_unavailable') affect(d.tail);
    else {
      const c = capacities.find((x) => x.airport === d.airport && x.from === isoMinutes(d.from))!;
      const capped = (m: number) => c.hours.some((h) => m >= h && m < h + 60);
      // Reading: in departure order (section 1 gives no order among the aircraft of one capacity).
      for (const f of airlineFlights) {
        if (f.sdep >= t0 && ((f.origin === c.airport && capped(f.sdep)) || (f.dest === c.airport && capped(f.sarr)))) affect(f.tail);
      }
    }
  }
  p.K0 = K0;

  // --- Candidates: policy-compatible with some aircraft of K0 and on the ground where some aircraft of K0
  // leaves, within swap_window_hours of that departure; nearest first, ties by tail. Reading: an aircraft's
  // ground periods are those of its state at t0 (1.2, "Initial state") and its flights in the window, the
  // last one open-ended: where it was before t0 no longer matters, and the two conditions are independent
  // (compatible with one aircraft of K0, near a departure of any).
  const departures = K0.flatMap((tail) => inWindow(tail));
  const horizon = cfg.solver.swap_window_hours * 60;
  const candidates: { tail: string; dist: number }[] = [];
  for (const b of aircraft.values()) {
    if (K0.includes(b.tail) || b.airline !== airline) continue;
    if (!K0.some((tail) => policyAllows(p, b.fleet, aircraft.get(tail)!.fleet))) continue;
    const dist = groundDistance(groundIntervals(stateAt(cfg, b, rotation.get(b.tail)!, t0), inWindow(b.tail)), departures);
    p.candidateDistances.set(b.tail, dist);
    if (dist <= horizon) candidates.push({ tail: b.tail, dist });
  }
  candidates.sort((x, y) => x.dist - y.dist || (x.tail < y.tail ? -1 : x.tail > y.tail ? 1 : 0));
  p.K = [...K0, ...candidates.slice(0, cfg.solver.max_candidate_aircraft).map((c) => c.tail)];
  const inK = new Set(p.K);

  // --- Flights in scope.
  p.F = all.filter((f) => f.sdep >= t0 && f.sdep < W && inK.has(f.tail));
  p.inF = new Set(p.F.map((f) => f.id));

  // --- Initial state, end location, first flight after the window.
  for (const tail of p.K) {
    const rot = rotation.get(tail)!;
    const init = stateAt(cfg, aircraft.get(tail)!, rot, t0);
    p.init.set(tail, init);
    const after = rot.find((f) => f.sdep >= W) ?? null;
    p.afterWindow.set(tail, after);
    p.L.set(tail, after ? after.origin : rot.length > 0 ? rot[rot.length - 1]!.dest : init.station);
  }

  // --- Maintenance checks of aircraft in K.
  const byTail = new Map<string, ScheduleFile['maintenance']>();
  for (const m of s.maintenance) {
    if (!byTail.has(m.tail)) byTail.set(m.tail, []);
    byTail.get(m.tail)!.push(m);
  }
  for (const tail of p.K) {
    const rot = rotation.get(tail)!;
    const after = p.afterWindow.get(tail)!;
    const list: OCheck[] = [];
    for (const m of byTail.get(tail) ?? []) {
      const ms = isoMinutes(m.start);
      const me = isoMinutes(m.end);
      // "has not ended by t0 (me > t0), and does not start after a's first flight after the window".
      if (!(me > t0)) continue;
      if (after && ms >= after.sdep) continue;
      const before = rot.filter((f) => f.sarr <= ms);
      list.push({ idx: list.length, tail, type: m.type, station: m.station, ms, me, plannedAfter: before.length > 0 ? before[before.length - 1]!.id : null });
    }
    p.checks.set(tail, list);
  }

  // --- Crews and itineraries.
  for (const c of s.crew) {
    const crew: OCrew = { id: c.crew_id, limit: isoMinutes(c.duty_start) + c.max_duty_minutes, flights: c.flights };
    p.crews.push(crew);
    for (const fid of c.flights) {
      if (!p.crewsByFlight.has(fid)) p.crewsByFlight.set(fid, []);
      p.crewsByFlight.get(fid)!.push(crew);
    }
  }
  p.itineraries = s.itineraries.filter((it) => it.flights.length >= 2).map((it) => ({ id: it.itinerary_id, passengers: it.passengers, legs: it.flights }));
  return p;
}

interface GroundInterval { station: string; from: number; to: number }

function groundIntervals(state: InitialState, flightsInWindow: OFlight[]): GroundInterval[] {
  const out: GroundInterval[] = [];
  let station = state.station;
  let from = state.arrival;
  for (const f of flightsInWindow) {
    out.push({ station, from, to: f.sdep });
    station = f.dest;
    from = f.sarr;
  }
  out.push({ station, from, to: Number.POSITIVE_INFINITY });
  return out;
}

/** Smallest time gap between a ground interval and a departure from the same airport. */
function groundDistance(intervals: GroundInterval[], departures: OFlight[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const d of departures) {
    for (const g of intervals) {
      if (g.station !== d.origin) continue;
      const gap = d.sdep < g.from ? g.from - d.sdep : d.sdep > g.to ? d.sdep - g.to : 0;
      best = Math.min(best, gap);
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Flight timing rules (1.3)

/** e(f) = sdep(f) + D(f). */
export function earliestDep(p: Problem, f: OFlight): number {
  return f.sdep + (p.D.get(f.id) ?? 0);
}

/** Delay limit of a flight (constraint 3): max(D(f), max_delay_minutes). */
export function maxDelayOf(p: Problem, f: OFlight): number {
  return Math.max(p.D.get(f.id) ?? 0, p.cfg.constraints.max_delay_minutes);
}

/** Whether `dep` is on f's departure grid e(f) + k x step, k >= 0. */
export function onGrid(p: Problem, f: OFlight, dep: number): boolean {
  const k = (dep - earliestDep(p, f)) / p.step;
  return k >= 0 && Number.isInteger(k);
}

/** The first grid departure of f at or after `ready` (k >= 0). */
export function firstGridDep(p: Problem, f: OFlight, ready: number): number {
  const e = earliestDep(p, f);
  return ready <= e ? e : e + Math.ceil((ready - e) / p.step) * p.step;
}

/** The unavailability period of `tail` that [dep, arr) overlaps, or null (constraint 7). */
export function unavailabilityHit(p: Problem, tail: string, dep: number, arr: number): Period | null {
  return (p.unavailable.get(tail) ?? []).find((u) => dep < u.to && u.from < arr) ?? null;
}

/** `HH:MM` to minutes of the day (`24:00` is 1440). */
const minuteOfDay = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The standing capacities of the schedule file's airports (1.1), read from `hourly_capacity`. */
function standingOf(s: ProblemInput['schedule']): Problem['standing'] {
  const out: Problem['standing'] = new Map();
  for (const a of s.airports) {
    const windows = (a.hourly_capacity ?? []).map((w) => ({ from: minuteOfDay(w.from), to: minuteOfDay(w.to), dmax: w.max_departures_per_hour, amax: w.max_arrivals_per_hour }));
    if (windows.length > 0) out.set(a.code, { clock: new Intl.DateTimeFormat('en-GB', { timeZone: a.time_zone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }), windows });
  }
  return out;
}

/**
 * The limit of the standing capacity on `kind` movements at `airport` in the UTC clock hour starting
 * at `hour`: the window holding the hour's start on the airport's clock; null where no window holds.
 */
function standingWindowLimit(p: Problem, airport: string, kind: 'D' | 'A', hour: number): number | null {
  const st = p.standing.get(airport);
  if (!st) return null;
  const parts = st.clock.formatToParts(new Date(hour * 60_000));
  const clock = Number(parts.find((x) => x.type === 'hour')!.value) * 60 + Number(parts.find((x) => x.type === 'minute')!.value);
  const w = st.windows.find((x) => x.from <= clock && clock < x.to);
  return w === undefined ? null : kind === 'D' ? w.dmax : w.amax;
}

/**
 * The limit of the standing capacity on `kind` movements at `airport` in the UTC clock hour starting
 * at `hour` (the window holding the hour's start on the airport's clock), or null when there is
 * none or when it cannot bind: no more flights of A could move there than it allows, counting every
 * flight whose movement lies there at some delay from 0 to its limit (constraint 3 holds in every
 * plan). Leaving out a slot that cannot bind keeps brute force from telling apart departures no
 * capacity tells apart.
 */
function standingLimit(p: Problem, airport: string, kind: 'D' | 'A', hour: number): number | null {
  if (!p.standing.has(airport)) return null;
  const key = `S|${airport}|${kind}|${hour}`;
  let limit = p.standingLimits.get(key);
  if (limit === undefined) {
    const max = standingWindowLimit(p, airport, kind, hour);
    const reach = p.airlineFlights.filter((f) => (kind === 'D' ? f.origin : f.dest) === airport && !p.disruptedCancelled.has(f.id)
      && (kind === 'D' ? f.sdep : f.sarr) < hour + 60 && (kind === 'D' ? f.sdep : f.sarr) + maxDelayOf(p, f) >= hour).length;
    limit = max !== null && reach > max ? max : null;
    p.standingLimits.set(key, limit);
  }
  return limit;
}

/**
 * The capacity slots a movement of `tail` uses (constraint 8): `<capacity>|D|<hour>` when it leaves a
 * capped airport in a capped hour, `<capacity>|A|<hour>` when it lands at one in a capped hour, and
 * `S|<airport>|D|<hour>`, `S|<airport>|A|<hour>` for a standing capacity that can bind there
 * (standingLimit), unless `tail` is a ground shuttle (1.1).
 */
export function capacitySlots(p: Problem, tail: string, origin: string, dest: string, dep: number, arr: number): string[] {
  const out: string[] = [];
  const hd = Math.floor(dep / 60) * 60;
  const ha = Math.floor(arr / 60) * 60;
  for (const c of p.capacities) {
    if (origin === c.airport && c.hours.includes(hd)) out.push(`${c.index}|D|${hd}`);
    if (dest === c.airport && c.hours.includes(ha)) out.push(`${c.index}|A|${ha}`);
  }
  if (!p.shuttles.has(tail)) {
    if (standingLimit(p, origin, 'D', hd) !== null) out.push(`S|${origin}|D|${hd}`);
    if (standingLimit(p, dest, 'A', ha) !== null) out.push(`S|${dest}|A|${ha}`);
  }
  return out;
}

/** The limit of a capacity slot. */
export function slotLimit(p: Problem, slot: string): number {
  const parts = slot.split('|');
  if (parts[0] === 'S') return standingLimit(p, parts[1]!, parts[2] as 'D' | 'A', Number(parts[3]))!;
  const c = p.capacities[Number(parts[0])]!;
  return parts[1] === 'D' ? c.dmax : c.amax;
}

// ---------------------------------------------------------------------------------------------
// Outcomes: what happens to each flight under a plan

export interface Assignment { flown: boolean; tail: string; dep: number; arr: number }
/** Every flight of the schedule, keyed by id. */
export type Outcome = Map<string, Assignment>;

/** Every flight as scheduled, except the disrupted-cancelled ones, cancelled in every plan. */
export function baseOutcome(p: Problem): Outcome {
  const o: Outcome = new Map();
  for (const f of p.flights.values()) o.set(f.id, { flown: !p.disruptedCancelled.has(f.id), tail: f.tail, dep: f.sdep, arr: f.sarr });
  return o;
}

export interface Leg { f: OFlight; dep: number; arr: number }

/** Route of a in K: the flights of F it flies, by departure. */
export function routeOf(p: Problem, o: Outcome, tail: string): Leg[] {
  const legs: Leg[] = [];
  for (const f of p.F) {
    const a = o.get(f.id)!;
    if (a.flown && a.tail === tail) legs.push({ f, dep: a.dep, arr: a.arr });
  }
  return legs.sort((x, y) => x.dep - y.dep || byDeparture(x.f, y.f));
}

/**
 * Slots of the airport_capacity disruptions whose count exceeds the limit under an outcome
 * (constraint 8). The standing capacities are standingCapacityExcess's (every hour, no slot left out).
 */
export function capacityExcess(p: Problem, o: Outcome): { slot: string; count: number; limit: number }[] {
  const counts = new Map<string, number>();
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) continue;
    for (const slot of capacitySlots(p, a.tail, f.origin, f.dest, a.dep, a.arr)) if (!slot.startsWith('S|')) counts.set(slot, (counts.get(slot) ?? 0) + 1);
  }
  return [...counts].filter(([slot, n]) => n > slotLimit(p, slot)).map(([slot, count]) => ({ slot, count, limit: slotLimit(p, slot) }));
}

export interface StandingExcess { airport: string; kind: 'departures' | 'arrivals'; hourStartMinutes: number; count: number; limit: number }

/**
 * Every airport, movement kind and UTC clock hour where the flights the outcome flies (by the aircraft
 * it gives them; ground shuttles not counted) exceed the standing capacity (1.1) of the window that
 * holds the hour's start on the airport's clock: the checker's count, all day, every hour (the brute
 * force's slots leave out those no plan can fill: standingLimit).
 */
export function standingCapacityExcess(p: Problem, o: Outcome): StandingExcess[] {
  const counts = new Map<string, StandingExcess>();
  const count = (airport: string, kind: StandingExcess['kind'], minutes: number) => {
    if (!p.standing.has(airport)) return;
    const hourStartMinutes = Math.floor(minutes / 60) * 60;
    const key = `${airport}|${kind}|${hourStartMinutes}`;
    const entry = counts.get(key) ?? { airport, kind, hourStartMinutes, count: 0, limit: Number.POSITIVE_INFINITY };
    entry.count++;
    counts.set(key, entry);
  };
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown || p.shuttles.has(a.tail)) continue;
    count(f.origin, 'departures', a.dep);
    count(f.dest, 'arrivals', a.arr);
  }
  const excess: StandingExcess[] = [];
  for (const c of counts.values()) {
    const limit = standingWindowLimit(p, c.airport, c.kind === 'departures' ? 'D' : 'A', c.hourStartMinutes);
    if (limit !== null && c.count > limit) excess.push({ ...c, limit });
  }
  return excess;
}

/** A capacity slot in words, for messages. */
export function slotText(p: Problem, slot: string): string {
  const [index, kind, hour] = slot.split('|');
  const c = p.capacities[Number(index)]!;
  return `${kind === 'D' ? 'departures from' : 'arrivals at'} ${c.airport} in the hour from ${isoOf(Number(hour))}`;
}

// ---------------------------------------------------------------------------------------------
// Maintenance (1.3)

/** A point of a route where a check may be performed: the start, and after each leg. */
export interface RoutePoint {
  station: string;
  arrival: number;
  /** The flight just flown (at the start: the last departed flight, or null). */
  after: string | null;
  /** The next departure (at the end: the first flight after the window, or Infinity): a check done here must end by then. */
  nextDep: number;
}

export function routePoints(p: Problem, tail: string, legs: Leg[]): RoutePoint[] {
  const init = p.init.get(tail)!;
  const after = p.afterWindow.get(tail);
  const endLimit = after ? after.sdep : Number.POSITIVE_INFINITY;
  const points: RoutePoint[] = [{ station: init.station, arrival: init.arrival, after: init.lastDeparted?.id ?? null, nextDep: legs.length > 0 ? legs[0]!.dep : endLimit }];
  legs.forEach((l, i) => points.push({ station: l.f.dest, arrival: l.arr, after: l.f.id, nextDep: i + 1 < legs.length ? legs[i + 1]!.dep : endLimit }));
  return points;
}

/** Whether check m may be performed at point q of a route whose times are given: station, arrival <= ms, done before the next departure. */
export function performableAt(m: OCheck, q: RoutePoint): boolean {
  return q.station === m.station && q.arrival <= m.ms && q.nextDep >= m.me;
}

/**
 * The point where the schedule plans check m (after the same flight), as delay_propagation performs it,
 * or null when that point is not in the route (its flight is not flown by the aircraft).
 */
export function plannedPoint(p: Problem, m: OCheck, points: RoutePoint[]): RoutePoint | null {
  const f = m.plannedAfter === null ? null : p.flights.get(m.plannedAfter)!;
  if (f === null || f.sdep < p.t0) return points[0]!;
  return points.find((q) => q.after === m.plannedAfter) ?? null;
}

/** Checks (indices) a route with these times performs at best: each one it can perform somewhere. */
export function performableChecks(p: Problem, tail: string, legs: Leg[]): Set<number> {
  const points = routePoints(p, tail, legs);
  return new Set((p.checks.get(tail) ?? []).filter((m) => points.some((q) => performableAt(m, q))).map((m) => m.idx));
}

export interface MissedCheck { check: OCheck; flight: string | null; arrival: number | null }

/**
 * Checks of `tail` that the route `legs` does not perform. The violation's flight is the flight whose
 * arrival misses the check: the route's first flight that lands at S after ms (its arrival is the
 * violation's `actual`). When none does, the aircraft never gets there: the flight is the route's last
 * flight departing before ms (or null) and `actual` null.
 */
export function missedChecks(p: Problem, tail: string, legs: Leg[], performed: ReadonlySet<number>): MissedCheck[] {
  const missed: MissedCheck[] = [];
  for (const m of p.checks.get(tail) ?? []) {
    if (performed.has(m.idx)) continue;
    const late = legs.find((l) => l.f.dest === m.station && l.arr > m.ms);
    const before = legs.filter((l) => l.dep < m.ms);
    missed.push(late
      ? { check: m, flight: late.f.id, arrival: late.arr }
      : { check: m, flight: before.length > 0 ? before[before.length - 1]!.f.id : null, arrival: null });
  }
  return missed;
}

export interface CrewViolation { crew: OCrew; flight: OFlight; arr: number }

/** Crew-duty violations on flown flights of airline A (1.5). */
export function crewViolations(p: Problem, o: Outcome, only?: Iterable<OFlight>): CrewViolation[] {
  const out: CrewViolation[] = [];
  for (const f of only ?? p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) continue;
    for (const c of p.crewsByFlight.get(f.id) ?? []) if (a.arr > c.limit) out.push({ crew: c, flight: f, arr: a.arr });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// delay_propagation (1.8)

export interface PropagatedRoute {
  legs: Leg[];
  station: string;
  ready: number;
  /** Checks performed at their planned points. */
  performed: Set<number>;
  /** A disrupted cancellation broke the rotation: the next flight leaves from elsewhere. */
  broken: boolean;
}

/**
 * The delay_propagation route of an aircraft: its own flights of F less the disrupted-cancelled ones,
 * in scheduled order, each at max(e(g), ready) pushed past every unavailability it overlaps (no holds,
 * no grid); each check performed at its planned point if the aircraft is there by the check's start.
 * No feasibility filter is applied here.
 */
export function delayPropagationRoute(p: Problem, tail: string): PropagatedRoute {
  const init = p.init.get(tail)!;
  const checks = p.checks.get(tail) ?? [];
  const legs: Leg[] = [];
  const performed = new Set<number>();
  let station = init.station;
  let arrival = init.arrival;
  let ready = init.ready;
  const performPlanned = () => {
    const points = [{ station, arrival, after: legs.length > 0 ? legs[legs.length - 1]!.f.id : init.lastDeparted?.id ?? null, nextDep: Number.POSITIVE_INFINITY }];
    for (const m of checks) {
      if (performed.has(m.idx)) continue;
      const q = legs.length === 0 ? plannedPoint(p, m, points) : points.find((x) => x.after === m.plannedAfter) ?? null;
      if (q && q.station === m.station && q.arrival <= m.ms) {
        performed.add(m.idx);
        ready = Math.max(ready, m.me);
      }
    }
  };
  performPlanned();
  for (const f of p.F) {
    if (f.tail !== tail || p.disruptedCancelled.has(f.id)) continue;
    if (f.origin !== station) return { legs, station, ready, performed, broken: true };
    let dep = Math.max(earliestDep(p, f), ready);
    for (let hit = unavailabilityHit(p, tail, dep, dep + f.block); hit; hit = unavailabilityHit(p, tail, dep, dep + f.block)) dep = hit.to;
    legs.push({ f, dep, arr: dep + f.block });
    station = f.dest;
    arrival = dep + f.block;
    ready = arrival + turnOf(p, tail, f.dest);
    performPlanned();
  }
  return { legs, station, ready, performed, broken: false };
}

// ---------------------------------------------------------------------------------------------
// Passengers (1.6)

export interface Group {
  /** 'C:<flight>' for a cancelled flight's passengers going no further, 'I:<itinerary>' for an itinerary's. */
  key: string;
  /** What disrupts the group: its flight (or a leg of its itinerary) cancelled, or a connection of its itinerary too short. */
  reason: 'cancellation' | 'misconnection';
  /** The cancelled flight, or the first flight of the itinerary its passengers cannot take. */
  fromFlight: string;
  itineraryId: string | null;
  size: number;
  origArr: number;
  origin: string;
  dest: string;
  /** Compensation per passenger not re-accommodated. */
  comp: number;
  /** Eligible journeys (journeyKey) with the cost per re-accommodated passenger. */
  eligible: Map<string, number>;
  /**
   * Where the passengers may leave their journey, by the flight they then do not take: the cancelled
   * flight; for an itinerary, the next flight after each hub up to where it breaks (its first leg
   * when that is cancelled: they are still at its origin). Each with the eligible journeys from there.
   */
  leaveBefore: Map<string, Set<string>>;
}

/** A new journey's key: its flights' ids in order, joined by '>' (a direct flight's key is its id). */
export const journeyKey = (flightIds: readonly string[]): string => flightIds.join('>');
export const journeyFlights = (key: string): string[] => key.split('>');

export function groupKey(fromFlight: string, itineraryId: string | null): string {
  return itineraryId === null ? `C:${fromFlight}` : `I:${itineraryId}`;
}

/** Haul classes in EU261's bands (docs/model.md 1.6): a distance in each band, only the band counts. */
const HAUL_KM: Record<string, number> = { domestic: 1000, continental: 2000, intercontinental: 5000 };

/**
 * Compensation per passenger of a trip over `legs`: by the great-circle distance of its first origin
 * and last destination, or, where one of them has no coordinates, by its highest haul class.
 */
function compensationPerPax(p: Problem, legs: readonly OFlight[]): number {
  const a = p.airports.get(legs[0]!.origin);
  const b = p.airports.get(legs[legs.length - 1]!.dest);
  if (!a || !b) throw new Error(`unknown airport ${legs[0]!.origin} or ${legs[legs.length - 1]!.dest}`);
  let km: number;
  if (a.lat !== null && a.lon !== null && b.lat !== null && b.lon !== null) km = haversineKm(a.lat, a.lon, b.lat, b.lon);
  else {
    const hauls = legs.map((f) => (f.haul === null ? undefined : HAUL_KM[f.haul]));
    if (hauls.some((h) => h === undefined)) throw new Error(`no distance from ${a.code} to ${b.code}: no coordinates and a flight without a haul class`);
    km = Math.max(...(hauls as number[]));
  }
  return p.cfg.cost_weights.compensation_multiplier * eu261(km);
}

export function reaccommodationPerPax(p: Problem, g: OFlight, origArr: number): number {
  const w = p.cfg.cost_weights;
  return w.reaccommodation_per_passenger + w.reaccommodation_delay_per_passenger_minute * Math.max(0, g.sarr - origArr);
}

/** The problem's flights by origin, in the order of p.flights (built once per problem: the brute force asks for journeys of every plan it enumerates). */
const FLIGHTS_FROM = new WeakMap<Problem, Map<string, OFlight[]>>();
function flightsFrom(p: Problem): Map<string, OFlight[]> {
  let byOrigin = FLIGHTS_FROM.get(p);
  if (!byOrigin) {
    byOrigin = new Map();
    for (const g of p.flights.values()) {
      const list = byOrigin.get(g.origin);
      if (list) list.push(g); else byOrigin.set(g.origin, [g]);
    }
    FLIGHTS_FROM.set(p, byOrigin);
  }
  return byOrigin;
}

/**
 * Every new journey (1.6) from `origin` to `dest` of at most constraints.max_reaccommodation_legs
 * (null: any number) flown flights of `airline`: the first leaves (scheduled) at or after `earliest`; each next one
 * leaves (scheduled) at or after the actual arrival of the one before plus the minimum connection time
 * where it lands; no airport twice; none of `excluded`. As flight id lists.
 */
function journeysOf(p: Problem, o: Outcome, airline: string, origin: string, dest: string, earliest: number, excluded: ReadonlySet<string>): string[][] {
  const found: string[][] = [];
  const path: string[] = [];
  const seen = new Set([origin]);
  const leaving = flightsFrom(p);
  const walk = (at: string, ready: number) => {
    for (const g of leaving.get(at) ?? []) {
      if (g.airline !== airline || g.sdep < ready || excluded.has(g.id) || seen.has(g.dest)) continue;
      const a = o.get(g.id)!;
      if (!a.flown) continue;
      path.push(g.id);
      if (g.dest === dest) found.push([...path]);
      else if (p.cfg.constraints.max_reaccommodation_legs === null || path.length < p.cfg.constraints.max_reaccommodation_legs) {
        seen.add(g.dest);
        walk(g.dest, a.arr + (p.airports.get(g.dest)?.mct ?? 0));
        seen.delete(g.dest);
      }
      path.pop();
    }
  };
  walk(origin, earliest);
  return found;
}

/**
 * The groups a plan disrupts (1.6). A cancelled flight's passengers going no further (its booked
 * passengers less those of the itineraries through it) go to its destination. An itinerary's
 * passengers, whose legs are taken in order, break at the first leg they cannot take: one cancelled,
 * or one that leaves before the leg before it lands plus the connection time. They go from where they
 * are to the itinerary's destination: from its origin when that first leg is its first, otherwise
 * from the hub before it or any earlier hub (where they also were), leaving after they landed there.
 */
export function disruptedGroups(p: Problem, o: Outcome): Group[] {
  const groups: Group[] = [];
  const flownOf = (f: OFlight) => o.get(f.id)!.flown;
  const costOf = (journey: string[], origArr: number) => reaccommodationPerPax(p, p.flights.get(journey[journey.length - 1]!)!, origArr);
  const travelling = new Map<string, number>();
  for (const it of p.itineraries) for (const id of it.legs) travelling.set(id, (travelling.get(id) ?? 0) + it.passengers);
  for (const f of p.F) {
    if (flownOf(f)) continue;
    const size = Math.max(0, f.booked - (travelling.get(f.id) ?? 0));
    const eligible = new Map<string, number>();
    for (const j of journeysOf(p, o, f.airline, f.origin, f.dest, f.sdep, new Set([f.id]))) eligible.set(journeyKey(j), costOf(j, f.sarr));
    groups.push({
      key: groupKey(f.id, null), reason: 'cancellation', fromFlight: f.id, itineraryId: null,
      size, origArr: f.sarr, origin: f.origin, dest: f.dest, comp: compensationPerPax(p, [f]), eligible,
      leaveBefore: new Map([[f.id, new Set(eligible.keys())]]),
    });
  }
  for (const it of p.itineraries) {
    const legs = it.legs.map((id) => p.flights.get(id));
    if (legs.some((f) => !f) || !legs.some((f) => p.inF.has(f!.id))) continue;
    const outcome = legs.map((f) => o.get(f!.id)!);
    const mctAt = (i: number) => p.airports.get(legs[i]!.dest)?.mct ?? 0;
    // The first leg they cannot take.
    const broken = legs.findIndex((_, i) => !outcome[i]!.flown || (i > 0 && outcome[i - 1]!.arr + mctAt(i - 1) > outcome[i]!.dep));
    if (broken < 0) continue;
    const last = legs[legs.length - 1]!;
    const own = new Set(it.legs);
    const eligible = new Map<string, number>();
    const leaveBefore = new Map<string, Set<string>>();
    // Hub h: before leg h; the origin (h = 0) only when the first leg is the one they cannot take.
    for (let hub = broken === 0 ? 0 : 1; hub <= broken; hub++) {
      const here = new Set<string>();
      const from = hub === 0 ? legs[0]!.origin : legs[hub - 1]!.dest;
      const earliest = hub === 0 ? legs[0]!.sdep : outcome[hub - 1]!.arr + mctAt(hub - 1);
      for (const j of journeysOf(p, o, last.airline, from, last.dest, earliest, own)) {
        here.add(journeyKey(j));
        eligible.set(journeyKey(j), costOf(j, last.sarr));
      }
      leaveBefore.set(legs[hub]!.id, here);
    }
    groups.push({
      key: groupKey(legs[broken]!.id, it.id), reason: outcome[broken]!.flown ? 'misconnection' : 'cancellation',
      fromFlight: legs[broken]!.id, itineraryId: it.id,
      size: it.passengers, origArr: last.sarr, origin: legs[0]!.origin, dest: last.dest, comp: compensationPerPax(p, legs as OFlight[]),
      eligible, leaveBefore,
    });
  }
  return groups;
}

/** Seats free for re-accommodated passengers on each flown flight: max(0, seats(tail flying g) - booked(g)). */
export function freeSeats(p: Problem, o: Outcome, flightId: string): number {
  const a = o.get(flightId)!;
  const g = p.flights.get(flightId)!;
  return Math.max(0, p.aircraft.get(a.tail)!.seats - g.booked);
}

/** One re-accommodation decision: `pax` passengers of group `key` onto journey `to` (a journeyKey; null: not re-accommodated). */
export interface PaxMove { key: string; to: string | null; pax: number }

/**
 * The cheapest re-accommodation of the plan's disrupted groups (1.6), exactly: a transportation
 * problem (min-cost flow) while every journey is one flight; with journeys of several flights, whose
 * seats several groups may share, a small integer program (minCostJourneys).
 */
export function cheapestReaccommodation(p: Problem, o: Outcome, groups: Group[]): { cost: number; moves: PaxMove[] } {
  const capacity = new Map<string, number>();
  let direct = true;
  for (const g of groups) {
    for (const key of g.eligible.keys()) {
      const flights = journeyFlights(key);
      if (flights.length > 1) direct = false;
      for (const fid of flights) if (!capacity.has(fid)) capacity.set(fid, freeSeats(p, o, fid));
    }
  }
  return direct ? minCostTransport(groups, capacity) : minCostJourneys(groups, capacity);
}

const glpk = await GLPK();

/**
 * The cheapest allocation of groups to journeys of one or more flights (keys of `eligible`, their
 * flights by journeyFlights) within the flights' free seats, every passenger either on a journey or
 * compensated: min Σ cost·x + Σ comp·s over integers x, s ≥ 0 with Σ_j x_gj + s_g = size_g and, per
 * flight, Σ of the x whose journey takes it ≤ its free seats. Solved to optimality by GLPK's branch and
 * bound (the formulation is written here from section 1.6, independently of the engine's model).
 */
export function minCostJourneys(groups: TransportGroup[], capacity: Map<string, number>): { cost: number; moves: PaxMove[] } {
  const live = groups.filter((g) => g.size > 0);
  const columns: { name: string; key: string; to: string | null; cost: number }[] = [];
  const subjectTo: { name: string; vars: { name: string; coef: number }[]; bnds: { type: number; lb: number; ub: number } }[] = [];
  const seatsRow = new Map<string, { name: string; coef: number }[]>();
  live.forEach((g, i) => {
    const row: { name: string; coef: number }[] = [];
    const add = (to: string | null, cost: number) => {
      const name = `x${columns.length}`;
      columns.push({ name, key: g.key, to, cost });
      row.push({ name, coef: 1 });
      if (to !== null) for (const fid of journeyFlights(to)) { if (!seatsRow.has(fid)) seatsRow.set(fid, []); seatsRow.get(fid)!.push({ name, coef: 1 }); }
    };
    add(null, g.comp);
    for (const [to, cost] of g.eligible) add(to, cost);
    subjectTo.push({ name: `group${i}`, vars: row, bnds: { type: glpk.GLP_FX, lb: g.size, ub: g.size } });
  });
  for (const [fid, vars] of seatsRow) subjectTo.push({ name: `seats_${subjectTo.length}`, vars, bnds: { type: glpk.GLP_UP, lb: 0, ub: Math.max(0, capacity.get(fid) ?? 0) } });
  if (columns.length === 0) return { cost: 0, moves: [] };
  const { result } = glpk.solve({
    name: 'reaccommodation',
    objective: { direction: glpk.GLP_MIN, name: 'cost', vars: columns.map((c) => ({ name: c.name, coef: c.cost })) },
    subjectTo,
    bounds: columns.map((c) => ({ name: c.name, type: glpk.GLP_LO, lb: 0, ub: 0 })),
    generals: columns.map((c) => c.name),
  }, { msglev: glpk.GLP_MSG_OFF });
  if (result.status !== glpk.GLP_OPT) throw new Error(`re-accommodation integer program ended with GLPK status ${result.status} (bug)`);
  const moves: PaxMove[] = [];
  let cost = 0;
  for (const c of columns) {
    const pax = Math.round(result.vars[c.name] ?? 0);
    if (pax > 0) { moves.push({ key: c.key, to: c.to, pax }); cost += pax * c.cost; }
  }
  return { cost, moves };
}

export interface TransportGroup { key: string; size: number; comp: number; eligible: Map<string, number> }

/**
 * Min-cost flow by successive shortest paths (Bellman-Ford on the residual graph, so negative
 * residual arcs are fine): source -> group (size) -> eligible flight (cost per passenger) -> sink
 * (capacity = free seats), and group -> sink at the compensation per passenger (capacity = size, so
 * every passenger can always be routed). Integer capacities give an integer optimum.
 */
export function minCostTransport(groups: TransportGroup[], capacity: Map<string, number>): { cost: number; moves: PaxMove[] } {
  const live = groups.filter((g) => g.size > 0);
  if (live.length === 0) return { cost: 0, moves: [] };
  const flightIds = [...new Set(live.flatMap((g) => [...g.eligible.keys()]))];
  const S = 0;
  const T = 1;
  const gNode = (i: number) => 2 + i;
  const fNode = (j: number) => 2 + live.length + j;
  const n = 2 + live.length + flightIds.length;
  const to: number[] = [];
  const cap: number[] = [];
  const cost: number[] = [];
  const adj: number[][] = Array.from({ length: n }, () => []);
  const addArc = (u: number, v: number, c: number, w: number): number => {
    const e = to.length;
    to.push(v, u); cap.push(c, 0); cost.push(w, -w);
    adj[u]!.push(e); adj[v]!.push(e + 1);
    return e;
  };
  const moveArcs: { e: number; key: string; flight: string | null }[] = [];
  live.forEach((g, i) => {
    addArc(S, gNode(i), g.size, 0);
    moveArcs.push({ e: addArc(gNode(i), T, g.size, g.comp), key: g.key, flight: null });
    for (const [fid, c] of g.eligible) moveArcs.push({ e: addArc(gNode(i), fNode(flightIds.indexOf(fid)), g.size, c), key: g.key, flight: fid });
  });
  flightIds.forEach((fid, j) => addArc(fNode(j), T, Math.max(0, capacity.get(fid) ?? 0), 0));
  const total = live.reduce((s, g) => s + g.size, 0);
  let flow = 0;
  const EPS = 1e-9;
  while (flow < total) {
    const dist = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
    const prevArc = new Array<number>(n).fill(-1);
    dist[S] = 0;
    for (let iter = 0; iter < n; iter++) {
      let changed = false;
      for (let u = 0; u < n; u++) {
        if (dist[u] === Number.POSITIVE_INFINITY) continue;
        for (const e of adj[u]!) {
          if (cap[e]! <= 0) continue;
          const v = to[e]!;
          const nd = dist[u]! + cost[e]!;
          if (nd < dist[v]! - EPS) { dist[v] = nd; prevArc[v] = e; changed = true; }
        }
      }
      if (!changed) break;
    }
    if (dist[T] === Number.POSITIVE_INFINITY) throw new Error('re-accommodation flow cannot route every passenger (bug)');
    let push = total - flow;
    for (let v = T; v !== S; v = to[prevArc[v]! ^ 1]!) push = Math.min(push, cap[prevArc[v]!]!);
    for (let v = T; v !== S; v = to[prevArc[v]! ^ 1]!) { cap[prevArc[v]!]! -= push; cap[prevArc[v]! ^ 1]! += push; }
    flow += push;
  }
  const moves: PaxMove[] = [];
  let totalCost = 0;
  for (const m of moveArcs) {
    const used = cap[m.e + 1]!;
    if (used > 0) {
      moves.push({ key: m.key, to: m.flight, pax: used });
      totalCost += used * cost[m.e]!;
    }
  }
  return { cost: totalCost, moves };
}

// ---------------------------------------------------------------------------------------------
// Evaluation of a complete plan (1.4 - 1.7)


export interface OutOfPosition { tail: string; ends_at: string; required_at: string }

export interface Evaluation {
  breakdown: CostBreakdown;
  cost: number;
  summary: OptionSummary;
  violations: Violation[];
  groups: Group[];
  missed: MissedCheck[];
  crew: CrewViolation[];
  outOfPosition: OutOfPosition[];
}

/**
 * Costs, figures and violations of a complete plan: the outcome of every flight, the re-accommodation
 * `moves`, and the checks each aircraft of K performs (`performed`, by tail; missing means none).
 */
export function evaluatePlan(p: Problem, o: Outcome, moves: PaxMove[], performed: ReadonlyMap<string, ReadonlySet<number>>): Evaluation {
  const w = p.cfg.cost_weights;
  const breakdown: CostBreakdown = { delay: 0, cancellation: 0, swap: 0, spill: 0, reaccommodation: 0, compensation: 0, crew_duty: 0, maintenance: 0, aircraft_position: 0 };
  let flightsDelayed = 0;
  let cancelled = 0;
  let swapped = 0;
  let totalDelay = 0;
  let onTime = 0;
  let spillTotal = 0;
  let disutility = 0;
  let bookedTotal = 0;
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    bookedTotal += f.booked;
    if (!a.flown) { cancelled++; continue; }
    const delay = a.dep - f.sdep;
    if (p.inF.has(f.id)) breakdown.delay += delay * (w.delay_per_minute + w.delay_per_passenger_minute * f.booked);
    if (delay > 0) flightsDelayed++;
    totalDelay += delay;
    if (a.tail !== f.tail) swapped++;
    const spill = Math.max(0, f.booked - p.aircraft.get(a.tail)!.seats);
    spillTotal += spill;
    if (a.arr - f.sarr <= 15) onTime++;
    disutility += spill + (f.booked - spill) * Math.min(1, Math.max(0, a.arr - f.sarr) / 180);
  }
  breakdown.cancellation = w.cancellation_per_flight * cancelled;
  breakdown.swap = w.swap_per_flight * swapped;
  breakdown.spill = w.spill_per_passenger * spillTotal;

  const groups = disruptedGroups(p, o);
  const byKey = new Map(groups.map((g) => [g.key, g]));
  let reacc = 0;
  let notReacc = 0;
  for (const m of moves) {
    const g = byKey.get(m.key);
    if (!g) continue;
    if (m.to === null) {
      notReacc += m.pax;
      breakdown.compensation += m.pax * g.comp;
      disutility += m.pax;
    } else {
      const flights = journeyFlights(m.to);
      const last = flights[flights.length - 1]!;
      const nf = p.flights.get(last);
      if (!nf) continue;
      reacc += m.pax;
      breakdown.reaccommodation += m.pax * reaccommodationPerPax(p, nf, g.origArr);
      const na = o.get(last)!;
      disutility += m.pax * (0.5 + 0.5 * Math.min(1, Math.max(0, na.arr - g.origArr) / 360));
    }
  }

  const crew = crewViolations(p, o);
  breakdown.crew_duty = w.crew_duty_violation * crew.length;
  const missed: MissedCheck[] = [];
  const outOfPosition: OutOfPosition[] = [];
  for (const tail of p.K) {
    const legs = routeOf(p, o, tail);
    missed.push(...missedChecks(p, tail, legs, performed.get(tail) ?? new Set()));
    if (!p.afterWindow.get(tail)) {
      const end = legs.length > 0 ? legs[legs.length - 1]!.f.dest : p.init.get(tail)!.station;
      if (end !== p.L.get(tail)) outOfPosition.push({ tail, ends_at: end, required_at: p.L.get(tail)! });
    }
  }
  breakdown.maintenance = w.maintenance_violation * missed.length;
  breakdown.aircraft_position = w.aircraft_out_of_position * outOfPosition.length;

  const cost = breakdown.delay + breakdown.cancellation + breakdown.swap + breakdown.spill + breakdown.reaccommodation
    + breakdown.compensation + breakdown.crew_duty + breakdown.maintenance + breakdown.aircraft_position;
  const nFlights = p.airlineFlights.length;
  const summary: OptionSummary = {
    otp: nFlights === 0 ? 1 : onTime / nFlights,
    nps: bookedTotal === 0 ? 1 : Math.min(1, Math.max(0, 1 - disutility / bookedTotal)),
    cost,
    flights_delayed: flightsDelayed,
    flights_cancelled: cancelled,
    flights_swapped: swapped,
    passengers_disrupted: groups.reduce((s, g) => s + g.size, 0) + spillTotal,
    passengers_reaccommodated: reacc,
    passengers_not_reaccommodated: notReacc,
    total_delay_minutes: totalDelay,
  };
  return { breakdown, cost, summary, violations: violationsOf(crew, missed, o), groups, missed, crew, outOfPosition };
}

/** Crew and maintenance violations as the response writes them. */
export function violationsOf(crew: CrewViolation[], missed: MissedCheck[], o: Outcome): Violation[] {
  return [
    ...crew.map((c): Violation => ({
      type: 'crew_duty', flight: c.flight.id, tail: o.get(c.flight.id)!.tail, crew_id: c.crew.id,
      limit: isoOf(c.crew.limit), actual: isoOf(c.arr), excess_minutes: c.arr - c.crew.limit,
      detail: `crew ${c.crew.id} ends ${c.flight.id} ${c.arr - c.crew.limit} min beyond its maximum flight-duty period`,
    })),
    ...missed.map((m): Violation => ({
      type: 'maintenance', flight: m.flight, tail: m.check.tail, limit: isoOf(m.check.ms),
      actual: m.arrival === null ? null : isoOf(m.arrival), excess_minutes: m.arrival === null ? null : m.arrival - m.check.ms,
      detail: `${m.check.type} of ${m.check.tail} at ${m.check.station} is not performed`,
    })),
  ];
}

/** Key identifying a violation: type, flight, and tail (maintenance) or crew id (crew duty). */
export function violationKey(v: Pick<Violation, 'type' | 'flight' | 'tail' | 'crew_id'>): string {
  return v.type === 'crew_duty' ? `crew_duty|${v.flight}|${v.crew_id}` : `maintenance|${v.flight}|${v.tail}`;
}
