// The oracle's own reading of docs/model.md section 1 ("the problem"), shared by the checker and the
// brute-force enumerator and by nothing else. It works on the raw schedule JSON and re-implements
// every rule it needs (time parsing, turnaround precedence, haversine, EU261, scope, groups, costs).
// Nothing here may be imported from src/recovery, solver-wasm or src/domain (types of the file
// format excepted).
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { CostBreakdownView as CostBreakdown, SummaryView as OptionSummary, ViolationView as Violation } from '../../src/http/recovery-schemas.ts';
import type { OracleConfig, OracleStrategy } from './config.ts';

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
}

export interface OAircraft { tail: string; airline: string; fleet: string; family: string; seats: number; base: string }

export interface OCheck {
  /** Index among the checks of its tail (order of the file), used in bit sets. */
  idx: number;
  tail: string;
  type: string;
  station: string;
  ms: number;
  me: number;
  /** Last scheduled flight of the tail arriving by ms (the point where the schedule plans the check), or null. */
  plannedAfter: string | null;
}

export interface OCrew { id: string; limit: number; flights: string[] }
export interface OItinerary { id: string; passengers: number; f1: string; f2: string }
export interface OAirport { code: string; lat: number; lon: number; mct: number }

export interface InitialState {
  station: string;
  arrival: number;
  ready: number;
  /** The last departed flight (sdep < t0) of the aircraft, if any. */
  lastDeparted: OFlight | null;
}

export interface ProblemInput {
  schedule: ScheduleFile;
  disruptedFlight: string;
  minDelayMinutes: number;
  config: OracleConfig;
}

export interface Problem {
  cfg: OracleConfig;
  airline: string;
  f0: OFlight;
  D0: number;
  t0: number;
  /** End of the recovery window (Infinity when recovery_window_hours is null). */
  W: number;
  airports: Map<string, OAirport>;
  fleets: Map<string, { family: string; seats: number }>;
  aircraft: Map<string, OAircraft>;
  flights: Map<string, OFlight>;
  /** Flights of airline A, by scheduled departure then flight number. */
  airlineFlights: OFlight[];
  /** Scheduled rotation of every tail (all its flights, departure order). */
  rotation: Map<string, OFlight[]>;
  /** Aircraft in scope, a0 first then candidates in selection order. */
  K: string[];
  /** Flights in scope, by scheduled departure. */
  F: OFlight[];
  inF: Set<string>;
  init: Map<string, InitialState>;
  /** Required end location L(a). */
  L: Map<string, string>;
  /** First scheduled flight after the window, or null. */
  afterWindow: Map<string, OFlight | null>;
  /** Checks of each a in K that the plan must consider (see relevantChecks). */
  checks: Map<string, OCheck[]>;
  crews: OCrew[];
  crewsByFlight: Map<string, OCrew[]>;
  itineraries: OItinerary[];
  /** Candidate distances (minutes) of the aircraft considered for K, for diagnostics. */
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

export function buildProblem(input: ProblemInput): Problem {
  const { schedule: s, config: cfg } = input;
  const airports = new Map<string, OAirport>(s.airports.map((a) => [a.code, { code: a.code, lat: a.lat!, lon: a.lon!, mct: a.min_connection_minutes }]));
  const fleets = new Map(s.fleets.map((f) => [f.code, { family: f.family, seats: f.seats }]));
  const aircraft = new Map<string, OAircraft>();
  for (const a of s.aircraft) {
    aircraft.set(a.tail, { tail: a.tail, airline: a.airline, fleet: a.fleet, family: fleets.get(a.fleet)?.family ?? `?${a.fleet}`, seats: a.seats, base: a.base });
  }
  const flights = new Map<string, OFlight>();
  for (const f of s.flights) {
    const sdep = isoMinutes(f.dep);
    const sarr = isoMinutes(f.arr);
    if (!Number.isFinite(sdep) || !Number.isFinite(sarr)) throw new Error(`flight ${f.flight_number} has an unreadable time`);
    const id = flightIdOf(f.flight_number, sdep);
    if (flights.has(id)) throw new Error(`flight id ${id} appears twice`);
    if (!aircraft.has(f.tail)) throw new Error(`flight ${id} names unknown tail ${f.tail}`);
    flights.set(id, { id, number: f.flight_number, airline: f.airline, tail: f.tail, origin: f.origin, dest: f.dest, sdep, sarr, block: sarr - sdep, booked: f.booked_passengers });
  }
  const f0 = flights.get(input.disruptedFlight);
  if (!f0) throw new Error(`disrupted flight ${input.disruptedFlight} is not in the schedule`);
  const airline = f0.airline;
  const D0 = input.minDelayMinutes;
  const t0 = f0.sdep;
  const W = cfg.constraints.recovery_window_hours === null ? Number.POSITIVE_INFINITY : t0 + cfg.constraints.recovery_window_hours * 60;

  const all = [...flights.values()].sort(byDeparture);
  const airlineFlights = all.filter((f) => f.airline === airline);
  const rotation = new Map<string, OFlight[]>();
  for (const tail of aircraft.keys()) rotation.set(tail, []);
  for (const f of all) rotation.get(f.tail)!.push(f);

  const p: Problem = {
    cfg, airline, f0, D0, t0, W, airports, fleets, aircraft, flights, airlineFlights, rotation,
    K: [], F: [], inF: new Set(), init: new Map(), L: new Map(), afterWindow: new Map(), checks: new Map(),
    crews: [], crewsByFlight: new Map(), itineraries: [], candidateDistances: new Map(),
  };

  // --- Aircraft in scope (1.2): a0 and up to max_candidate_aircraft others, nearest first, ties by tail.
  const a0 = aircraft.get(f0.tail)!;
  const remaining = rotation.get(a0.tail)!.filter((f) => f.sdep >= t0 && f.sdep < W);
  const horizon = cfg.solver.swap_window_hours * 60;
  const candidates: { tail: string; dist: number }[] = [];
  for (const b of aircraft.values()) {
    if (b.tail === a0.tail || b.airline !== airline) continue;
    if (!policyAllows(p, b.fleet, a0.fleet)) continue;
    const dist = groundDistance(groundIntervals(b, rotation.get(b.tail)!), remaining);
    p.candidateDistances.set(b.tail, dist);
    if (dist <= horizon) candidates.push({ tail: b.tail, dist });
  }
  candidates.sort((x, y) => x.dist - y.dist || (x.tail < y.tail ? -1 : x.tail > y.tail ? 1 : 0));
  p.K = [a0.tail, ...candidates.slice(0, cfg.solver.max_candidate_aircraft).map((c) => c.tail)];
  const inK = new Set(p.K);

  // --- Flights in scope.
  p.F = all.filter((f) => f.sdep >= t0 && f.sdep < W && inK.has(f.tail));
  p.inF = new Set(p.F.map((f) => f.id));

  // --- Initial state, end location, first flight after the window.
  for (const tail of p.K) {
    const rot = rotation.get(tail)!;
    const departed = rot.filter((f) => f.sdep < t0);
    const last = departed.length > 0 ? departed[departed.length - 1]! : null;
    const init: InitialState = last
      ? { station: last.dest, arrival: last.sarr, ready: last.sarr + turnaroundMinutes(cfg.turnaround, aircraft.get(tail)!.fleet, last.dest), lastDeparted: last }
      : { station: rot[0]?.origin ?? aircraft.get(tail)!.base, arrival: Number.NEGATIVE_INFINITY, ready: Number.NEGATIVE_INFINITY, lastDeparted: null };
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
      // "A maintenance check m of a that has not ended by t0 (me > t0)". Assumption: a check that starts
      // at or after the first flight after the window belongs to the part of the day flown as planned.
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
  p.itineraries = s.itineraries.map((it) => ({ id: it.itinerary_id, passengers: it.passengers, f1: it.flights[0]!, f2: it.flights[1]! }));
  return p;
}

interface GroundInterval { station: string; from: number; to: number }

function groundIntervals(b: OAircraft, rot: OFlight[]): GroundInterval[] {
  if (rot.length === 0) return [{ station: b.base, from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }];
  const out: GroundInterval[] = [{ station: rot[0]!.origin, from: Number.NEGATIVE_INFINITY, to: rot[0]!.sdep }];
  for (let i = 0; i < rot.length; i++) {
    out.push({ station: rot[i]!.dest, from: rot[i]!.sarr, to: i + 1 < rot.length ? rot[i + 1]!.sdep : Number.POSITIVE_INFINITY });
  }
  return out;
}

/** Smallest time gap between a ground interval of b and a departure of a0 from the same airport. */
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
// Outcomes: what happens to each flight under a plan

export interface Assignment { flown: boolean; tail: string; dep: number; arr: number }
/** Every flight of the schedule, keyed by id. */
export type Outcome = Map<string, Assignment>;

export function scheduledOutcome(p: Problem): Outcome {
  const o: Outcome = new Map();
  for (const f of p.flights.values()) o.set(f.id, { flown: true, tail: f.tail, dep: f.sdep, arr: f.sarr });
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

/** Delay limit of a flight (constraint 3). */
export function maxDelayOf(p: Problem, f: OFlight): number {
  const m = p.cfg.constraints.max_delay_minutes;
  return f.id === p.f0.id ? Math.max(p.D0, m) : m;
}

/** Earliest departure a flight may take regardless of its aircraft: sdep, plus D0 for f0. */
export function releaseOf(p: Problem, f: OFlight): number {
  return f.sdep + (f.id === p.f0.id ? p.D0 : 0);
}

export interface MissedCheck { check: OCheck; flight: string | null; arrival: number | null }

/**
 * Checks of `tail` not performed by the timed route `legs`.
 * - delay_propagation: a check is performed exactly at its planned point (after the same flight) if the
 *   aircraft is there at its station by the check's start (1.8).
 * - other strategies: a check counts as performed when some point of the route could take it without
 *   changing any time: station = S, arrival <= ms and the next departure (or, at the end, the scheduled
 *   departure of the first flight after the window) >= me. (A plan that deliberately skips a check it
 *   could perform for free is dominated; see the report.)
 * The violation's flight is the flight whose arrival misses the check: the route's first flight that
 * lands at S after ms (its arrival is the violation's `actual`). When none does, the aircraft never
 * gets there: the flight is the route's last flight departing before ms (or null) and `actual` null.
 */
export function missedChecks(p: Problem, tail: string, legs: Leg[], strategy: OracleStrategy): MissedCheck[] {
  const init = p.init.get(tail)!;
  const after = p.afterWindow.get(tail)!;
  const endLimit = after ? after.sdep : Number.POSITIVE_INFINITY;
  const points = [{ station: init.station, arrival: init.arrival, next: legs.length > 0 ? legs[0]!.dep : endLimit, after: init.lastDeparted?.id ?? null }];
  legs.forEach((l, i) => points.push({ station: l.f.dest, arrival: l.arr, next: i + 1 < legs.length ? legs[i + 1]!.dep : endLimit, after: l.f.id }));
  const missed: MissedCheck[] = [];
  for (const m of p.checks.get(tail) ?? []) {
    let done: boolean;
    if (strategy === 'delay_propagation') {
      const pt = points.find((q) => q.after === m.plannedAfter) ?? (m.plannedAfter === null ? points[0] : undefined);
      done = pt !== undefined && pt.station === m.station && pt.arrival <= m.ms;
    } else {
      done = points.some((q) => q.station === m.station && q.arrival <= m.ms && q.next >= m.me);
    }
    if (!done) {
      const late = legs.find((l) => l.f.dest === m.station && l.arr > m.ms);
      const before = legs.filter((l) => l.dep < m.ms);
      missed.push(late
        ? { check: m, flight: late.f.id, arrival: late.arr }
        : { check: m, flight: before.length > 0 ? before[before.length - 1]!.f.id : null, arrival: null });
    }
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
// Passengers (1.6)

export interface Group {
  /** 'C:<flight>' or 'M:<itinerary>'. */
  key: string;
  reason: 'cancellation' | 'misconnection';
  fromFlight: string;
  itineraryId: string | null;
  size: number;
  origArr: number;
  origin: string;
  dest: string;
  /** Compensation per passenger not re-accommodated. */
  comp: number;
  /** Eligible flights with the cost per re-accommodated passenger. */
  eligible: Map<string, number>;
}

export function groupKey(reason: 'cancellation' | 'misconnection', fromFlight: string, itineraryId: string | null): string {
  return reason === 'cancellation' ? `C:${fromFlight}` : `M:${itineraryId}`;
}

function compensationPerPax(p: Problem, origin: string, dest: string): number {
  const a = p.airports.get(origin);
  const b = p.airports.get(dest);
  if (!a || !b) throw new Error(`unknown airport ${origin} or ${dest}`);
  return p.cfg.cost_weights.compensation_multiplier * eu261(haversineKm(a.lat, a.lon, b.lat, b.lon));
}

export function reaccommodationPerPax(p: Problem, g: OFlight, origArr: number): number {
  const w = p.cfg.cost_weights;
  return w.reaccommodation_per_passenger + w.reaccommodation_delay_per_passenger_minute * Math.max(0, g.sarr - origArr);
}

export function disruptedGroups(p: Problem, o: Outcome): Group[] {
  const groups: Group[] = [];
  const flownOf = (f: OFlight) => o.get(f.id)!.flown;
  for (const f of p.F) {
    if (flownOf(f)) continue;
    const eligible = new Map<string, number>();
    for (const g of p.flights.values()) {
      if (g.airline !== f.airline || g.id === f.id || g.origin !== f.origin || g.dest !== f.dest) continue;
      if (g.sdep < f.sdep || !flownOf(g)) continue;
      eligible.set(g.id, reaccommodationPerPax(p, g, f.sarr));
    }
    groups.push({
      key: groupKey('cancellation', f.id, null), reason: 'cancellation', fromFlight: f.id, itineraryId: null,
      size: f.booked, origArr: f.sarr, origin: f.origin, dest: f.dest, comp: compensationPerPax(p, f.origin, f.dest), eligible,
    });
  }
  for (const it of p.itineraries) {
    const f1 = p.flights.get(it.f1);
    const f2 = p.flights.get(it.f2);
    if (!f1 || !f2) continue;
    if (!p.inF.has(f1.id) && !p.inF.has(f2.id)) continue;
    const a1 = o.get(f1.id)!;
    const a2 = o.get(f2.id)!;
    if (!a1.flown || !a2.flown) continue;
    const mct = p.airports.get(f1.dest)?.mct ?? 0;
    if (!(a1.arr + mct > a2.dep)) continue;
    const eligible = new Map<string, number>();
    for (const g of p.flights.values()) {
      if (g.airline !== f2.airline || g.id === f2.id || g.origin !== f1.dest || g.dest !== f2.dest) continue;
      if (g.sdep < a1.arr + mct || !flownOf(g)) continue;
      eligible.set(g.id, reaccommodationPerPax(p, g, f2.sarr));
    }
    groups.push({
      key: groupKey('misconnection', f2.id, it.id), reason: 'misconnection', fromFlight: f2.id, itineraryId: it.id,
      size: it.passengers, origArr: f2.sarr, origin: f1.origin, dest: f2.dest, comp: compensationPerPax(p, f1.origin, f2.dest), eligible,
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

/** One re-accommodation decision: `pax` passengers of group `key` onto flight `to` (null: not re-accommodated). */
export interface PaxMove { key: string; to: string | null; pax: number }

/** The cheapest re-accommodation of the plan's disrupted groups (1.6), exactly. */
export function cheapestReaccommodation(p: Problem, o: Outcome, groups: Group[]): { cost: number; moves: PaxMove[] } {
  const capacity = new Map<string, number>();
  for (const g of groups) for (const fid of g.eligible.keys()) if (!capacity.has(fid)) capacity.set(fid, freeSeats(p, o, fid));
  return minCostTransport(groups, capacity);
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

export interface Evaluation {
  breakdown: CostBreakdown;
  cost: number;
  summary: OptionSummary;
  violations: Violation[];
  groups: Group[];
  missed: MissedCheck[];
  crew: CrewViolation[];
}

export function evaluatePlan(p: Problem, o: Outcome, moves: PaxMove[], strategy: OracleStrategy): Evaluation {
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
      const nf = p.flights.get(m.to);
      if (!nf) continue;
      reacc += m.pax;
      breakdown.reaccommodation += m.pax * reaccommodationPerPax(p, nf, g.origArr);
      const na = o.get(m.to)!;
      disutility += m.pax * (0.5 + 0.5 * Math.min(1, Math.max(0, na.arr - g.origArr) / 360));
    }
  }

  const crew = crewViolations(p, o);
  breakdown.crew_duty = w.crew_duty_violation * crew.length;
  const missed: MissedCheck[] = [];
  let outOfPosition = 0;
  for (const tail of p.K) {
    const legs = routeOf(p, o, tail);
    missed.push(...missedChecks(p, tail, legs, strategy));
    if (!p.afterWindow.get(tail)) {
      const end = legs.length > 0 ? legs[legs.length - 1]!.f.dest : p.init.get(tail)!.station;
      if (end !== p.L.get(tail)) outOfPosition++;
    }
  }
  breakdown.maintenance = w.maintenance_violation * missed.length;
  breakdown.aircraft_position = w.aircraft_out_of_position * outOfPosition;

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
  const violations: Violation[] = [
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
  return { breakdown, cost, summary, violations, groups, missed, crew };
}

/** Key identifying a violation: type, flight, and tail (maintenance) or crew id (crew duty). */
export function violationKey(v: Pick<Violation, 'type' | 'flight' | 'tail' | 'crew_id'>): string {
  return v.type === 'crew_duty' ? `crew_duty|${v.flight}|${v.crew_id}` : `maintenance|${v.flight}|${v.tail}`;
}
