// Where the passengers go, for a fixed operating plan (spec 3.2, 4.7-4.9, 5.2): an integer
// multi-commodity flow over the flown legs, solved by GLPK. Every booking either travels on one or
// more paths to its destination (split over several records when that is cheaper) or is cancelled; a
// path starts with the booking's fixed part and continues on legs that depart at or after the window
// start, with connections of at least 30 minutes; each leg of a path is travelled in any cabin with
// seats (downgrading costs, upgrading is free); the seats of every leg and cabin bound the loads.
//
// The paths of a booking are the cheapest journeys of up to three legs the service's journey search
// finds over the flown legs (passengers/journeys.ts, priced by the booking's arrival cost under the
// cost model, within the outbound delay limit): the plan is optimal over those paths, not over every
// path (the engine claims no bound).
import type { CabinCode, CostModel, TripFacts } from '../model/cost-model.ts';
import { ModelBuilder, type Term } from '../model/linear-model.ts';
import type { Solver } from '../model/solver-port.ts';
import { JourneyFinder, type JourneyNetwork, type JourneyPrice } from '../passengers/journeys.ts';
import { MAX_OUTBOUND_DELAY_MINUTES, MIN_CONNECTION_MINUTES, disruptionDelays, fixedPart, legClass, tripFacts } from './bookings.ts';
import { CABIN_CODES, UNLIMITED_SEATS, type CabinSeats, type NetworkBooking, type NetworkProblem, type PassengerLine, type PlanLeg } from './problem.ts';

type Cabin = CabinCode;
type BookedFlight = NetworkBooking['flights'][number];

/** Legs a re-routed booking may take after its fixed part. */
const MAX_PATH_LEGS = 3;
/** Cheapest paths kept per booking: enough alternatives to share out scarce seats. */
const PATHS_PER_BOOKING = 24;
/**
 * Bookings up to which every booking gets its full set of paths. Past it (the challenge's sets B and X
 * have 10,000 to 28,000), 24 paths for each would make a model GLPK cannot solve in minutes (measured:
 * 578,000 columns at the set X size, no integer plan in 240 s), so bookings that still fly as booked
 * keep only paths no costlier than that. On A01-A04 the restriction costs 0.2-1.9 % more.
 */
const FULL_MODEL_MAX_BOOKINGS = 5_000;
/**
 * What each leg adds to a path's value in the search, on top of its cost: among paths of equal cost the
 * fewer legs come first (and the search prunes the ties by it). Far below any cost difference (cents).
 */
const PER_LEG = 1e-6;
/** Bookings whose paths are built between two turns for the timers (about 20-60 ms of CPU on an A instance). */
const BOOKINGS_PER_TURN = 250;

interface FlownLeg {
  /** The flight id. */
  id: string;
  /** Its place in the plan (names its rows and variables). */
  index: number;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
  /** Seats per cabin of the operating aircraft (-1 unlimited). */
  seats: CabinSeats;
}

interface Path {
  legs: FlownLeg[];
  /** Per passenger: delay cost and delay compensation (downgrading is priced per leg and cabin in the model). */
  cost: number;
}

interface Booking {
  booking: NetworkBooking;
  trip: TripFacts;
  fixed: readonly BookedFlight[];
  paths: Path[];
  /** Per passenger, when the booking is cancelled. */
  cancellationCost: number;
}

export interface PassengerPlan {
  lines: PassengerLine[];
  /** Passenger-dependent cost of the plan, weighted (delay, cancellation, downgrading, legal compensations). */
  objective: number;
}

/** Every flown leg by flight id, and the network of them the paths are searched on (any airport's connection: 30 minutes). */
function flownLegs(problem: NetworkProblem, legs: readonly PlanLeg[]) {
  const byKey = new Map<string, FlownLeg>();
  const fromAirport = new Map<string, FlownLeg[]>();
  const flights: FlownLeg[] = [];
  for (const [index, r] of legs.entries()) {
    if (r.tail === null) continue;
    const aircraft = problem.aircraft.get(r.tail);
    if (!aircraft) continue;
    const leg: FlownLeg = { id: r.flightId, index, origin: r.origin, dest: r.dest, depMinutes: r.depMinutes, arrMinutes: r.arrMinutes, seats: aircraft.seats };
    byKey.set(leg.id, leg);
    flights.push(leg);
  }
  // Sorted once (stable: legs leaving together keep the plan's order), and so is each airport's list.
  flights.sort((a, b) => a.depMinutes - b.depMinutes);
  for (const leg of flights) {
    const list = fromAirport.get(leg.origin);
    if (list) list.push(leg); else fromAirport.set(leg.origin, [leg]);
  }
  const network: JourneyNetwork<FlownLeg> = { flights, fromAirport, connectionMinutes: () => MIN_CONNECTION_MINUTES, keepsSearches: false };
  return { byKey, network };
}

class PassengerModel {
  private readonly delays: ReadonlyMap<string, number>;
  private readonly legs: ReturnType<typeof flownLegs>;
  private readonly restrictIntact: boolean;
  /** The search's leg prices: PER_LEG on every flown leg. */
  private readonly perLeg: Float64Array;
  /** Fewest legs over the flown network (ignoring time) to each airport from a key airport, and from each airport to it. */
  private readonly hopsFrom = new Map<string, Map<string, number>>();
  private readonly hopsTo = new Map<string, Map<string, number>>();
  /** The airports each airport has a flown leg to (`from`), and from (`to`). */
  private readonly neighbours = { from: new Map<string, Set<string>>(), to: new Map<string, Set<string>>() };
  /** The cheapest paths of each search so far (bookings alike in where, when and how they are priced share them). */
  private readonly pathsOf = new Map<string, Path[]>();

  constructor(private readonly problem: NetworkProblem, legs: readonly PlanLeg[], private readonly cost: CostModel) {
    this.delays = disruptionDelays(problem);
    this.legs = flownLegs(problem, legs);
    this.restrictIntact = problem.bookings.length > FULL_MODEL_MAX_BOOKINGS;
    this.perLeg = new Float64Array(this.legs.network.flights.length).fill(PER_LEG);
    const add = (map: Map<string, Set<string>>, a: string, b: string) => {
      const set = map.get(a);
      if (set) set.add(b); else map.set(a, new Set([b]));
    };
    for (const leg of this.legs.network.flights) {
      add(this.neighbours.from, leg.origin, leg.dest);
      add(this.neighbours.to, leg.dest, leg.origin);
    }
  }

  /** The booking's paths and costs; null when its fixed part is not flown (nothing can be decided for it). */
  booking(itinerary: NetworkBooking): Booking | null {
    const fixed = fixedPart(this.problem, itinerary, this.delays);
    const fixedLegs = fixed.map((l) => this.legs.byKey.get(l.flightId));
    if (fixedLegs.some((l) => l === undefined)) return null;
    const trip = tripFacts(this.problem, itinerary, fixed.length > 0);
    const first = this.problem.flightsById.get(itinerary.flights[0]!.flightId)!;
    const last = this.problem.flightsById.get(itinerary.flights.at(-1)!.flightId)!;
    const plannedArr = last.arrMinutes;
    const dest = last.dest;
    const cancellationCost = this.cost.tripCancellation(trip);
    // The path is priced by its arrival; whether it is the booked one matters only to a cost model
    // that charges a move (ROADEF's does not: the booked path is told apart by the tie-break).
    const arrivalCost = (arr: number) => this.cost.arrival(trip, arr - plannedArr, false);
    const latest = itinerary.direction === 'outbound' ? plannedArr + MAX_OUTBOUND_DELAY_MINUTES[trip.haul] : Number.POSITIVE_INFINITY;

    const lastFixed = fixedLegs.at(-1);
    if (lastFixed && lastFixed.dest === dest && fixed.length === itinerary.flights.length) {
      return { booking: itinerary, trip, fixed, paths: [{ legs: [], cost: arrivalCost(lastFixed.arrMinutes) }], cancellationCost };
    }
    const from = lastFixed?.dest ?? first.origin;
    // Legs that are not part of the fixed part leave at or after the window start: the rest has happened.
    const readyAt = Math.max(this.problem.window.startMinutes, lastFixed ? lastFixed.arrMinutes + MIN_CONNECTION_MINUTES : first.depMinutes);
    // On a network past FULL_MODEL_MAX_BOOKINGS, a booking that can still fly as booked keeps only the
    // paths no costlier than that (its booked path included): it gives up seats to others only by
    // moving for free. That keeps the model to the bookings that need a decision; it is a restriction.
    const booked = this.bookedPath(itinerary, fixed.length, readyAt, latest);
    const bound = booked && this.restrictIntact ? arrivalCost(booked.at(-1)!.arrMinutes) : Number.POSITIVE_INFINITY;
    // No leg of a path lands after the outbound limit or costs more than `bound` (a path lands no
    // earlier than any of its legs, and the cost never falls with a later arrival).
    const price: JourneyPrice = {
      cost: arrivalCost,
      worth: bound === Number.POSITIVE_INFINITY ? (arr) => arr <= latest : (arr) => arr <= latest && arrivalCost(arr) <= bound,
      lastDepartureMinutes: latest,
      key: [trip.cabin, trip.haul, trip.plannedTripMinutes, plannedArr, latest, bound].join('|'),
    };
    const found = [...this.cheapestPaths(from, dest, readyAt, price)];
    const isBooked = (p: Path) => booked !== null && p.legs.length === booked.length && p.legs.every((l, j) => l === booked[j]);
    // The booked path stays among them: flying as booked must always remain possible.
    if (booked && !found.some(isBooked)) {
      if (found.length === PATHS_PER_BOOKING) found.pop();
      found.push({ legs: booked, cost: arrivalCost(booked.at(-1)!.arrMinutes) });
    }
    // Cheapest first, the booked path first among equal costs (the solver's order of the columns).
    found.sort((a, b) => a.cost - b.cost || Number(isBooked(b)) - Number(isBooked(a)) || a.legs.length - b.legs.length);
    return { booking: itinerary, trip, fixed, paths: found, cancellationCost };
  }

  /**
   * The cheapest paths from `from` (leaving at or after `readyAt`) to `dest` under `price`: the fewer
   * legs first among equal costs, the earlier departures first among those. The search is handed only
   * the legs that could be on a path of MAX_PATH_LEGS at all (by the hops from `from` to the leg and
   * on to `dest`, a pruning the search's own bounds would also make, but after laying every leg out).
   */
  private cheapestPaths(from: string, dest: string, readyAt: number, price: JourneyPrice): readonly Path[] {
    const key = `${from}|${dest}|${readyAt}|${price.key}`;
    const known = this.pathsOf.get(key);
    if (known) return known;
    const before = this.hops(this.hopsFrom, from, 'from');
    const after = this.hops(this.hopsTo, dest, 'to');
    const onAPath = (leg: FlownLeg) => (before.get(leg.origin) ?? MAX_PATH_LEGS) + (after.get(leg.dest) ?? MAX_PATH_LEGS) < MAX_PATH_LEGS;
    const query = { origin: from, dest, earliestMinutes: readyAt, excluded: new Set<FlownLeg>(), returnsToOrigin: true };
    const finder = new JourneyFinder(this.legs.network, price, query, onAPath, MAX_PATH_LEGS);
    const paths = finder.best(this.perLeg, Number.MAX_VALUE, PATHS_PER_BOOKING, () => false)
      .map(({ journey }) => ({ legs: [...journey], cost: price.cost(journey.at(-1)!.arrMinutes) }));
    this.pathsOf.set(key, paths);
    return paths;
  }

  /** Fewest legs from `airport` to every airport (`from`) or from every airport to it (`to`), up to MAX_PATH_LEGS − 1, over the flown legs ignoring time. */
  private hops(cache: Map<string, Map<string, number>>, airport: string, way: 'from' | 'to'): Map<string, number> {
    let hops = cache.get(airport);
    if (hops) return hops;
    const next = this.neighbours[way];
    hops = new Map([[airport, 0]]);
    let frontier = [airport];
    for (let h = 1; frontier.length > 0 && h < MAX_PATH_LEGS; h++) {
      const reached: string[] = [];
      for (const at of frontier) for (const b of next.get(at) ?? []) if (!hops.has(b)) { hops.set(b, h); reached.push(b); }
      frontier = reached;
    }
    cache.set(airport, hops);
    return hops;
  }

  /**
   * The booked legs after the fixed part, when every one is flown, the first leaves at or after
   * `readyAt`, each connection holds and the arrival is within `latest`; else null.
   */
  private bookedPath(itinerary: NetworkBooking, fixedLegs: number, readyAt: number, latest: number): FlownLeg[] | null {
    const path: FlownLeg[] = [];
    let ready = readyAt;
    for (const l of itinerary.flights.slice(fixedLegs)) {
      const leg = this.legs.byKey.get(l.flightId);
      if (!leg || leg.depMinutes < ready) return null;
      path.push(leg);
      ready = leg.arrMinutes + MIN_CONNECTION_MINUTES;
    }
    return path.length > 0 && path.at(-1)!.arrMinutes <= latest ? path : null;
  }

  /**
   * What a passenger of this booking pays for travelling `leg` in `cabin` depends only on its reference
   * cabin and the cabin it booked on that very leg, if any (spec 5.2: a booked leg in its booked cabin
   * is free, other legs pay from the reference cabin down, upgrades are free): its cabin group there.
   */
  cabinGroup(booking: Booking, leg: FlownLeg): CabinGroup {
    const booked = booking.booking.flights.find((l) => l.flightId === leg.id)?.cabin ?? null;
    return { reference: booking.trip.cabin, booked, trip: booking.trip };
  }

  downgradeCost(group: CabinGroup, leg: FlownLeg, cabin: Cabin): number {
    return this.cost.downgrade(group.trip, legClass(this.problem, leg.origin, leg.dest), cabin, group.booked);
  }
}

/** Riders of a leg whose downgrading costs the same: one reference cabin, one booked cabin there (`trip`: the first rider's, for the cost model). */
interface CabinGroup { reference: Cabin; booked: Cabin | null; trip: TripFacts }

/** Cabins of a leg that have seats. */
function openCabins(leg: FlownLeg): Cabin[] {
  return CABIN_CODES.filter((c) => leg.seats[c] !== 0);
}

/**
 * Per passenger, what a path that is not the booked one costs on top (a hundredth of a cent): among
 * plans of equal cost the solver keeps passengers on their bookings instead of moving them for nothing.
 */
const TIE_BREAK = 1e-4;

/**
 * The passenger plan for the operating plan `legs`: solved by `solver` (GLPK) within `timeLimitMs` (and by `deadline`, a performance.now() instant);
 * null when the solver returned no plan or `signal` aborted the build (the caller keeps its own). Lines in the order of the
 * problem's bookings.
 *
 * Model: for each booking, integer passengers per path and cancelled; for each flown leg and cabin
 * group (see cabinGroup), integer passengers per cabin, summing to the group's riders there; seats per
 * leg and cabin. Passengers of one group are interchangeable on that leg, so the cabins per group are
 * handed out to the bookings afterwards (an integral transportation problem, solved greedily) without
 * changing the cost.
 */
export async function planPassengers(
  problem: NetworkProblem, legs: readonly PlanLeg[], cost: CostModel, solver: Solver, options: { timeLimitMs: number; signal?: AbortSignal; deadline?: number },
): Promise<PassengerPlan | null> {
  const model = new PassengerModel(problem, legs, cost);
  const builder = new ModelBuilder(`network_passengers_${problem.name}`);
  const bookings: { k: number; booking: Booking }[] = [];
  const unplanned: NetworkBooking[] = [];
  /** Per flown leg and cabin group: the group, the leg, and the path variables riding it. */
  const groups = new Map<string, { leg: FlownLeg; group: CabinGroup; riders: { k: number; path: number; leg: number; variable: string }[] }>();
  for (const [k, itinerary] of problem.bookings.entries()) {
    // The build holds the thread (150-500 ms of CPU on an A instance, seconds on a loaded machine):
    // the timers (a limit's abort) and other searches get a turn every so many bookings, and an
    // aborted build stops there.
    if (k > 0 && k % BOOKINGS_PER_TURN === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) return null;
    }
    const booking = model.booking(itinerary);
    if (!booking) { unplanned.push(itinerary); continue; }
    bookings.push({ k, booking });
    const pax = itinerary.passengers;
    const cover: Term[] = [{ variable: builder.addVariable(`cancel_${k}`, 'integer', booking.cancellationCost, 0, pax), coef: 1 }];
    booking.paths.forEach((path, p) => {
      const tieBreak = sameLegs(path, booking.fixed, itinerary) ? 0 : TIE_BREAK;
      const x = builder.addVariable(`path_${k}_${p}`, 'integer', path.cost + tieBreak, 0, pax);
      cover.push({ variable: x, coef: 1 });
      path.legs.forEach((leg, j) => {
        const group = model.cabinGroup(booking, leg);
        const key = `${leg.id}|${group.reference}|${group.booked ?? '-'}`;
        const entry = groups.get(key) ?? groups.set(key, { leg, group, riders: [] }).get(key)!;
        entry.riders.push({ k, path: p, leg: j, variable: x });
      });
    });
    builder.addConstraint(`passengers_${k}`, cover, '=', pax);
  }
  const seatTerms = new Map<string, { leg: FlownLeg; cabin: Cabin; terms: Term[] }>();
  const groupVariables = new Map<string, Map<Cabin, string>>();
  for (const [key, { leg, group, riders }] of groups) {
    const name = `${leg.index}_${group.reference}${group.booked ?? 'x'}`;
    const balance: Term[] = riders.map((r) => ({ variable: r.variable, coef: -1 }));
    const byCabin = new Map<Cabin, string>();
    for (const c of openCabins(leg)) {
      const w = builder.addVariable(`cabin_${name}_${c}`, 'integer', model.downgradeCost(group, leg, c), 0);
      byCabin.set(c, w);
      balance.push({ variable: w, coef: 1 });
      if (leg.seats[c] === UNLIMITED_SEATS) continue;
      const row = `seats_${leg.index}_${c}`;
      const seat = seatTerms.get(row) ?? seatTerms.set(row, { leg, cabin: c, terms: [] }).get(row)!;
      seat.terms.push({ variable: w, coef: 1 });
    }
    groupVariables.set(key, byCabin);
    builder.addConstraint(`group_${name}`, balance, '=', 0);
  }
  for (const [row, { leg, cabin, terms }] of seatTerms) builder.addConstraint(row, terms, '<=', leg.seats[cabin]);

  // With a deadline (the search's end), the solve may wait for a worker until then, not only the
  // pool's queue timeout: searches side by side (eight in engine.test.ts) queue behind each other.
  const outcome = await solver.solve({ model: builder.build(), timeLimitMs: options.timeLimitMs, mipGap: 0 }, { signal: options.signal, deadline: options.deadline });
  if (outcome.objective === null) return null;
  const count = (name: string) => Math.round(outcome.values[name] ?? 0);

  // Hand each group's cabins out to its riders, path by path.
  const cabinsOf = new Map<string, Map<Cabin, number>>(); // `${booking}|${path}|${leg}` -> passengers per cabin
  for (const [key, { riders }] of groups) {
    const left = new Map([...groupVariables.get(key)!].map(([c, w]) => [c, count(w)]));
    for (const r of riders) {
      let riding = count(r.variable);
      const share = new Map<Cabin, number>();
      for (const c of CABIN_CODES) {
        const n = Math.min(riding, left.get(c) ?? 0);
        if (n === 0) continue;
        share.set(c, n);
        left.set(c, left.get(c)! - n);
        riding -= n;
      }
      cabinsOf.set(`${r.k}|${r.path}|${r.leg}`, share);
    }
  }

  const lines: PassengerLine[] = [];
  let movedPassengers = 0;
  for (const { k, booking: b } of bookings) {
    const { booking: it, fixed } = b;
    const cancelled = count(`cancel_${k}`);
    if (cancelled > 0) lines.push({ booking: it.id, passengers: cancelled, flights: fixed, cancelled: true });
    b.paths.forEach((path, p) => {
      let travelling = count(`path_${k}_${p}`);
      if (travelling === 0) return;
      if (!sameLegs(path, fixed, it)) movedPassengers += travelling;
      // One record per distinct choice of cabins along the path.
      const left = path.legs.map((_, j) => new Map(cabinsOf.get(`${k}|${p}|${j}`)!));
      while (travelling > 0) {
        const cabins = left.map((m) => CABIN_CODES.find((c) => (m.get(c) ?? 0) > 0)!);
        const n = Math.min(travelling, ...left.map((m, j) => m.get(cabins[j]!)!));
        lines.push({ booking: it.id, passengers: n, flights: [...fixed, ...path.legs.map((leg, j) => ({ flightId: leg.id, cabin: cabins[j]! }))], cancelled: false });
        left.forEach((m, j) => m.set(cabins[j]!, m.get(cabins[j]!)! - n));
        travelling -= n;
      }
    });
  }
  for (const it of unplanned) lines.push({ booking: it.id, passengers: it.passengers, flights: [], cancelled: true });
  return {
    lines,
    objective: outcome.objective - TIE_BREAK * movedPassengers,
  };
}

/** Whether a path continues the booking exactly as booked (same flights after the fixed part). */
function sameLegs(path: Path, fixed: readonly BookedFlight[], booking: NetworkBooking): boolean {
  const rest = booking.flights.slice(fixed.length);
  return rest.length === path.legs.length && rest.every((l, j) => l.flightId === path.legs[j]!.id);
}
