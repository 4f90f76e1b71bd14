// The network bound (docs/model.md 3.9): a lower bound of every plan that respects the aircraft, not
// only the flights. The relaxation is a time-space network per aircraft (each flight copied at its
// departures, the aircraft's turnarounds, its time out of service, where and by when it must end)
// tied by rows over all aircraft: each flight flown once or cancelled, the airport capacities, the
// limits on swaps and cancellations, and the connections of the passengers' itineraries. Those rows
// are priced (Lagrangian relaxation): at any prices, each aircraft's cheapest route at its reduced
// costs (a shortest path over its acyclic network) gives a bound of every plan, so the bound is valid
// at every iteration and only grows as the prices improve (subgradient steps). The prices start at
// the flight-level duals (the aircraft relaxed away, as the flight bound's LP of flight-bound.ts, found
// here by subgradient steps), so the first iteration is already near the flight bound. Pure
// TypeScript in a thread of its own (network-bound-thread.ts) or the simulation thread, never the
// HTTP thread; the flight bound's LP, which the result never falls below, goes to the solver port.
import type { Flight, Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, afterUnavailability, type Route } from '../neighbourhood/aircraft-routes.ts';
import { serviceCostModel, serviceTrip, type AircraftCostFacts, type CostModel, type TripFacts } from '../model/cost-model.ts';
import { brokenLegRule, crewBreaches, mayFly } from '../model/rules.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { Solver } from '../model/solver-port.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { JourneyFinder, leastJourneyCost, type Journey, type JourneySearch } from '../passengers/journeys.ts';
import { flightBoundModel } from './flight-bound.ts';

export interface NetworkBoundInput {
  schedule: Schedule;
  scope: RecoveryScope;
  groups: PassengerGroups;
  config: SolverConfig;
  /** How plans are priced; default the service's cost_weights (ServiceCostModel). */
  costModel?: CostModel;
  /** What the cost model knows of an aircraft; default its seats and no operating cost. */
  aircraftFacts?: (tail: string) => AircraftCostFacts;
  /**
   * The least a re-accommodated passenger of a group can cost on the schedule's journeys (by
   * rebookingKey; Infinity where none is cheaper than the compensation): leastRebookingCosts, computed
   * where the journey network is (a thread gets it with the input). Default: the least per passenger.
   */
  leastRebooking?: ReadonlyMap<string, number>;
}

/** The input with the least journeys of its groups (leastRebookingCosts), for the service's cost model. */
export function withLeastRebooking(input: NetworkBoundInput): NetworkBoundInput {
  return input.leastRebooking || input.costModel ? input : { ...input, leastRebooking: leastRebookingCosts(input.groups, input.config) };
}

/**
 * The key of a group in NetworkBoundInput.leastRebooking: a cancellation group (its flight), an
 * itinerary broken at a connection (from its hubs), or broken by a cancelled leg (from its origin or hubs).
 */
export const rebookingKey = (kind: 'cancellation' | 'misconnection' | 'broken', id: string): string => `${kind}:${id}`;

/**
 * Per disrupted group with seat rows (cancellations, itineraries of two flights), the least cost per
 * passenger of a journey of the schedule that the group could take, at scheduled times, whatever the
 * plan cancels or fills: a re-accommodated passenger costs at least that (docs/model.md 3.9).
 * Infinity where no journey costs less than the compensation. The service's cost weights only.
 */
export function leastRebookingCosts(groups: PassengerGroups, config: SolverConfig): Map<string, number> {
  const least = new Map<string, number>();
  const limit = config.constraints.max_reaccommodation_legs;
  // Kept per network and search (journeys.ts): the schedule's network serves every request on it.
  const of = (search: JourneySearch) => leastJourneyCost(groups.network, config, search, limit);
  for (const g of groups.cancellations) least.set(rebookingKey('cancellation', g.flight.id), of(g.search));
  for (const g of groups.misconnections) {
    const fromHubs = Math.min(...g.connections.map((c) => of(c.search)));
    least.set(rebookingKey('misconnection', g.itinerary.id), fromHubs);
    least.set(rebookingKey('broken', g.itinerary.id), g.start ? Math.min(fromHubs, of(g.start.search)) : fromHubs);
  }
  return least;
}

export interface NetworkBoundOptions {
  signal?: AbortSignal;
  /** A performance.now() instant by which it returns (with the best bound so far); default 60 s from the call. */
  deadline?: number;
  /**
   * The cost of the best plan known, if any (read at every iteration): the subgradient steps aim
   * halfway from the best bound to it. Without one they aim a little above the best bound so far.
   * Never changes what is proven, only how fast the bound grows.
   */
  target?: () => number | null;
  /** Called with each better bound, as soon as it is known. */
  /** `source`: the flight bound's LP it starts from, or the network bound itself. */
  onBound?: (bound: number, source: 'flight_bound' | 'network_bound') => void;
  /** Stop after this many iterations (default: until the deadline or converged). */
  maxIterations?: number;
  /** Told of the routes the steps price, each once, as they come (docs/model.md 3.9, "Its routes as plans"); none are kept without it. */
  onRoutes?: (routes: RelaxationRoute[]) => void;
}

/** What a network bound computation gave. */
export interface NetworkBound {
  /** The best bound found: no plan of any strategy costs less. */
  value: number;
  /** The flight bound it started from (an LP optimum), or null when that solve gave none. */
  flightBound: number | null;
  iterations: number;
  /** From the call to the best bound. */
  elapsedMs: number;
  aircraft: number;
  copies: number;
}

/**
 * What the last evaluation's solution does and costs, term by term (benchmarks/bound-terms.ts sets
 * them beside a plan's costs). Not the bound: that adds each row's price times its violation.
 */
export interface RelaxationTerms {
  /** Delay and crew duty of the copies flown, and what their aircraft add (swaps, spill). */
  delay: number; swapAndSpill: number; swaps: number;
  cancellations: number; cancellationCost: number;
  /** Passengers of cancelled flights' groups, of itineraries missed at a connection, of itineraries broken by a cancelled leg (in the seat groups: re-accommodated or not). */
  cancelledFlightsPassengerCost: number; missedItineraries: number; missedCost: number; brokenItineraries: number; brokenCost: number;
  rebookedPassengers: number; strandedPassengers: number;
}

/**
 * A route the relaxation priced, as a rotation a plan may fly (docs/model.md 3.9, "Its routes as
 * plans"): its flights in time order, each at its stretch's first minute or, if later, when its
 * aircraft is ready, which is never past the stretch's end, so each movement stays in the clock hours
 * the relaxation counted it in. Plain data.
 */
export interface RelaxationRoute { tail: string; legs: { flightId: string; depMinutes: number }[] }

/** A stretch of departures [from, to] of one flight, represented by one copy (see docs/model.md 3.9). */
interface Stretch { from: number; to: number }

interface FlightData {
  flight: Flight;
  stretches: Stretch[];
  /** Per stretch: what a flight costs there whoever flies it (delay, crew duty), and what any aircraft adds is in AircraftNet. */
  cost: Float64Array;
  /** Per stretch: Lagrangian price adjustment this iteration (−π plus the priced rows it is in). */
  adjust: Float64Array;
  /** Per stretch: aircraft choosing it this iteration. */
  use: Int32Array;
  /** Cancellation: the flight's own cost, its passengers (when booked), and whether allowed or forced. */
  cancelCost: number;
  seats: SeatGroup | null;
  /** Its per-flight seat row (its journey network index), or −1: cancelled, it has no seats for anyone. */
  seatRow: number;
  mayCancel: boolean;
  forced: boolean;
  cancel: number;
}

/** A priced inequality row (activity ≤ rhs), its price ≥ 0. */
interface PricedRow { rhs: number; price: number; activity: number; direction?: number }

/** One connection of an itinerary: rows at the instants v (ascending) where it can break. */
interface ConnectionRows {
  group: number;
  arriving: number | null;
  /** Arrival-side threshold per stretch of `arriving`: earliest landing plus the connection time. */
  leaving: number | null;
  /** Other legs of the itinerary that may be cancelled (flight indexes). */
  others: number[];
  instants: number[];
  rows: PricedRow[];
  connectionMinutes: number;
  /** Per stretch of `arriving`: the rows its copy is late in (those before `lateBelow`); of `leaving`: early in (from `earlyFrom` on). */
  lateBelow: Int32Array | null;
  earlyFrom: Int32Array | null;
}

interface MissedGroup { cost: number; rows: PricedRow[]; missed: number; seats: SeatGroup | null }

/**
 * An itinerary's passengers when a plan cancels one of its legs (docs/model.md 3.9): `broken` ≥
 * cancel(leg) for each leg the plan may cancel (`rows[k]` for `legs[k]`, rhs 0), `broken` costing
 * `cost` (its passengers at the least a disrupted passenger of it costs).
 */
interface BrokenGroup { cost: number; legs: number[]; rows: PricedRow[]; broken: number }

/**
 * Disrupted passengers as the seat rows see them: each is re-accommodated (at `rebooked`, plus the
 * prices of the seat rows it is in) or not (`stranded`), whichever is cheaper; `rebookedNow` is how
 * many are re-accommodated in this iteration's solution.
 */
interface SeatGroup {
  passengers: number; rebooked: number; stranded: number; origin: string; dest: string; earliestMinutes: number; rows: PricedRow[]; rebookedNow: number;
  /**
   * The group's journeys (service's cost model): each re-accommodated passenger takes a seat on every
   * flight of one, priced by the flights' seat rows. `finder` is made when first searched
   * (NetworkRelaxation.bestJourney): most groups never are (254 of the issue storm's 632 in 300 iterations).
   */
  journeys: (() => JourneyFinder) | null;
  finder: JourneyFinder | null;
  /** This iteration's least journey at the flights' seat prices, by network index (when re-accommodated). */
  journey: number[] | null;
  /** What its passengers cost at this iteration's prices (passengerCost's last answer). */
  costNow: number;
}

/** Event kinds of an aircraft's sweep, in the order they take at one instant. */
const SOURCE = 0, ARRIVAL = 1, RELEASE = 2, SNAPSHOT = 3, DEADLINE = 4, DEPARTURE = 5;

/** A check an aircraft's network models: performed by a route at `station` by `snapshotMinutes`, holding it until `releaseMinutes`. */
interface CheckEvent { station: number; snapshotMinutes: number; releaseMinutes: number }

/** One aircraft's network: its copies as events in time order. */
interface AircraftNet {
  a: AircraftInScope;
  /** Per copy: flight index, stretch index, what this aircraft adds to the copy's cost (swap, spill), whether it is a swap. */
  flight: Int32Array;
  stretch: Int32Array;
  /** Per copy: its (flight, stretch) in NetworkRelaxation's flat numbering. */
  global: Int32Array;
  extra: Float64Array;
  swap: Uint8Array;
  /** Per copy: its block plus this aircraft's turnaround at its destination (a RelaxationRoute's timing). */
  blockTurn: Int32Array;
  /**
   * Per copy: its flight's per-flight seat row (−1: none), and the seats this aircraft has free on it
   * (in hundreds): the row's right side is 0, each copy flown offers its aircraft's seats.
   */
  seatRow: Int32Array;
  freeSeats: Float64Array;
  /** Per copy: where the sweep reads its seat row's price (past the last row, a price that stays 0, where it has none). */
  seatPriceAt: Int32Array;
  /**
   * The copies' events in time order, two numbers each: 2j (copy j's departure) or 2j + 1 (its
   * arrival), then its origin's (destination's) first label (airport index times the states). Copies
   * are numbered in the order they depart. The few other events (source, deadline, checks) are
   * `marks`, each taken just before the copy event numbered `at`, after `departed` departures.
   */
  events: Int32Array;
  marks: { at: number; kind: number; index: number; departed: number }[];
  station: number;
  endStation: number;
  hasDeadline: boolean;
  away: number;
  /** The checks modelled (at most MODELLED_CHECKS); a route's state is the set it performed (a bit mask). */
  checks: CheckEvent[];
  /** What each check not performed costs (Infinity when checks are hard rules). */
  missedCheck: number;
  /** Scratch per iteration, per state and copy (state s of copy j at s × copies + j: before a check's release only state 0's, in sequence); a label is named j × states + s. */
  value: Float64Array;
  pred: Int32Array;
}

/**
 * An aircraft's copies while its network is built (NetworkRelaxation.aircraftNet), one per stretch at
 * most; per flight its airports' numbers; the flights it has copies of, in order.
 */
interface CopyScratch {
  flight: Int32Array; stretch: Int32Array; extra: Float64Array; swap: Uint8Array; dep: Float64Array; ready: Float64Array; blockTurn: Int32Array;
  origin: Int32Array; dest: Int32Array; withCopies: Int32Array;
}

/**
 * Seat rows count passengers in hundreds: a row counted in passengers is violated by hundreds where a
 * flight row is by one, and its share of the subgradient would make every other price's step tiny.
 */
const SEAT_ROW_SCALE = 100;

/**
 * The share of the magnitude of the terms of a Lagrangian bound that it gives up for the rounding of
 * their sum (each addition rounds within 2^-53 of its result; far fewer than 10^6 terms).
 */
const ROUNDING_SHARE = 1e-9;

/** Checks per aircraft the sweep keeps apart (states double with each); others are relaxed away (free). */
const MODELLED_CHECKS = 2;

/**
 * Stretch widths by how late a departure is (past the flight's earliest): the first hour at the grid,
 * then 15 minutes, from three hours on 90 (docs/model.md 3.9, "A wider last stretch": 14-15 % fewer
 * copies than 30 there, the storms' bounds as high after as many iterations).
 */
function stretchWidth(delayMinutes: number, step: number): number {
  if (delayMinutes < 60) return step;
  if (delayMinutes < 180) return Math.max(step, 15);
  return Math.max(step, 90);
}

/**
 * Stretches covering every whole minute a plan may leave at, [earliest, latest], cut where a row or a
 * cost changes (a capacity's clock hour at either end, a crew's duty limit) so that every departure of
 * a stretch counts in the same rows and costs at least its first minute, and never longer than the
 * block (so a copy lands after its stretch ends).
 */
function stretchesOf(ev: RouteEvaluator, flight: Flight): Stretch[] {
  const earliest = ev.earliestDeparture(flight);
  const latest = flight.depMinutes + ev.delayLimit(flight);
  if (latest < earliest) return [];
  const block = flight.arrMinutes - flight.depMinutes;
  const cuts = new Set<number>();
  for (let t = earliest; t <= latest; t += Math.max(1, Math.min(block, stretchWidth(t - earliest, ev.config.solver.time_step_minutes)))) cuts.add(t);
  for (const c of ev.scope.capacities) {
    const shift = c.kind === 'departures' ? (c.airport === flight.origin ? 0 : null) : (c.airport === flight.dest ? block : null);
    if (shift === null) continue;
    for (const t of [c.hourStartMinutes - shift, c.hourStartMinutes + 60 - shift]) if (t > earliest && t <= latest) cuts.add(t);
  }
  for (const crewId of flight.crewIds) {
    const duty = ev.schedule.crewById.get(crewId);
    // From this departure on, the arrival is past the crew's limit.
    const t = duty ? duty.dutyStartMinutes + duty.maxDutyMinutes - block + 1 : null;
    if (t !== null && t > earliest && t <= latest) cuts.add(t);
  }
  const starts = [...cuts].sort((p, q) => p - q);
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? starts[i + 1]! - 1 : latest }));
}

/** The least a disrupted passenger of `trip` costs: re-accommodated at once, or not carried. */
function leastPerPassenger(cost: CostModel, trip: TripFacts): number {
  return Math.max(0, Math.min(cost.arrival(trip, 0, true), cost.tripCancellation(trip)));
}

/** The relaxation, built once; `evaluate` prices it. */
export class NetworkRelaxation {
  readonly flights: FlightData[] = [];
  readonly nets: AircraftNet[] = [];
  readonly capacities: (PricedRow & { members: [number, number][] })[] = [];
  readonly connections: ConnectionRows[] = [];
  readonly missedGroups: MissedGroup[] = [];
  readonly brokenGroups: BrokenGroup[] = [];
  readonly seatGroups: SeatGroup[] = [];
  readonly seatRows: PricedRow[] = [];
  /**
   * Per-flight seat rows (docs/model.md 3.9), by the journey network's flight index: the passengers
   * re-accommodated onto a flight are at most its free seats. Empty without the journeys (other cost models).
   */
  readonly flightSeatRows: PricedRow[] = [];
  /** Their prices per passenger (price / SEAT_ROW_SCALE), a new array at every step: a JourneyFinder keeps bounds per array. */
  private flightSeatPrices = new Float64Array(0);
  /** The per-flight seat rows' prices (not per passenger), copied at each evaluation for the sweeps, and a 0 past them (copies without a row). */
  private seatRowPrice = new Float64Array(1);
  private readonly networkIndex = new Map<Flight, number>();
  maxCancellations: PricedRow | null = null;
  maxSwaps: PricedRow | null = null;
  /** Where each flight's stretches start in the flat numbering, and each stretch's reduced cost this iteration (before the aircraft's part). */
  private readonly stretchOffset: number[] = [];
  private stretchCost = new Float64Array(0);
  /** Flight prices π (free), by flight index. */
  readonly price: Float64Array;
  private readonly airports: string[] = [];
  private bestAt = new Float64Array(0);
  private bestArg = new Int32Array(0);
  /** Builds the aircraft's networks (`buildNetworks`), until it has run. */
  private pendingNetworks: (() => void) | null = null;
  /** Scratch of the sweep: the labels at the end station at the deadline, and at each check's station at its start, per state. */
  private readonly deadlineValue = new Float64Array(1 << MODELLED_CHECKS);
  private readonly deadlineArg = new Int32Array(1 << MODELLED_CHECKS);
  private readonly snapValue = new Float64Array(MODELLED_CHECKS << MODELLED_CHECKS);
  private readonly snapArg = new Int32Array(MODELLED_CHECKS << MODELLED_CHECKS);
  /** Scratch per evaluation: what the rows other than its own add to each flight's cancellation. */
  private readonly cancelAdjust: Float64Array;
  /** Cost every plan pays whatever it does (flights a disruption cancels). */
  private constant = 0;
  /** The last evaluation's route of each aircraft (its copies), for `terms`. */
  private readonly routes: number[][] = [];
  /**
   * Where the subgradient iterations left off (iterateRelaxation): the best bound they found (at
   * some prices of this relaxation, so a bound of its problem), the step scale and the iterations
   * since the best. With the prices and the direction, which stay on the relaxation, a later call goes
   * on as one run would: five calls of 30 iterations that went back to the best prices with full
   * steps each reached 981,613 on the issue storm, one run of 180 1,088,142.
   */
  readonly progress = { best: Number.NEGATIVE_INFINITY, stepScale: 1, stale: 0 };
  /** Whether evaluations keep the routes they price for `drainRoutes` (off: the bound alone needs none). */
  collectRoutes = false;
  /** Every route priced so far (aircraft and copies), and those not yet taken by `drainRoutes`. */
  private readonly routesSeen = new Set<string>();
  private freshRoutes: RelaxationRoute[] = [];

  /**
   * `networksLater`: the aircraft's networks (most of the build) wait for `buildNetworks`, so that the
   * flight-level start's bound (`startFromFlights`) comes before them; `evaluate` needs them.
   */
  constructor(input: NetworkBoundInput, { networksLater = false }: { networksLater?: boolean } = {}) {
    const { schedule, scope, groups, config } = input;
    const cost = input.costModel ?? serviceCostModel(config);
    const factsOf = input.aircraftFacts ?? ((tail: string): AircraftCostFacts => ({ tail, seats: schedule.aircraft.get(tail)!.seats, costPerBlockHour: 0 }));
    const ev = new RouteEvaluator(schedule, scope, config);
    const airportIndex = new Map<string, number>();
    const airport = (code: string) => { let i = airportIndex.get(code); if (i === undefined) { i = this.airports.length; this.airports.push(code); airportIndex.set(code, i); } return i; };
    const flightIndex = new Map<string, number>();
    const cancellationGroup = new Map(groups.cancellations.map((g) => [g.flight.id, g]));
    const cancels: number[] = [];
    const journeysOf = (search: JourneySearch) => new JourneyFinder(groups.network, config, search, () => true, config.constraints.max_reaccommodation_legs);

    for (const f of scope.flights) {
      const forced = scope.cancelledFlights.has(f.id);
      const block = f.arrMinutes - f.depMinutes;
      const group = cancellationGroup.get(f.id);
      const trip = group ? serviceTrip(group.passengers, group.compensationPerPassenger, block) : null;
      const cancelCost = cost.cancelledLeg({ blockMinutes: block, bookedPassengers: f.bookedPassengers, planned: factsOf(f.tail) });
      if (forced) { this.constant += cancelCost + (group && trip ? group.passengers * leastPerPassenger(cost, trip) : 0); continue; }
      const seats = group && trip ? this.seatGroup(cost, trip, f.origin, f.dest, f.depMinutes, input.leastRebooking?.get(rebookingKey('cancellation', f.id)), () => journeysOf(group.search)) : null;
      const stretches = stretchesOf(ev, f);
      const own = factsOf(f.tail);
      const flightCost = new Float64Array(stretches.length);
      stretches.forEach((s, i) => {
        const breaches = crewBreaches(schedule, f, s.from + block).length;
        // The aircraft's part (swap, spill) is added per aircraft: here the planned aircraft's cost.
        flightCost[i] = cost.flownLeg({ blockMinutes: block, delayMinutes: s.from - f.depMinutes, bookedPassengers: f.bookedPassengers, planned: own, flownBy: own }, breaches)
          - cost.flownLeg({ blockMinutes: block, delayMinutes: 0, bookedPassengers: f.bookedPassengers, planned: own, flownBy: own }, 0);
      });
      flightIndex.set(f.id, this.flights.length);
      const mayCancel = config.constraints.allow_cancellations;
      if (mayCancel) cancels.push(this.flights.length);
      this.flights.push({
        flight: f, stretches, cost: flightCost, adjust: new Float64Array(stretches.length), use: new Int32Array(stretches.length),
        cancelCost, seats, seatRow: -1, mayCancel, forced, cancel: 0,
      });
    }
    this.price = new Float64Array(this.flights.length);
    this.cancelAdjust = new Float64Array(this.flights.length);
    this.flownHead = new Int32Array(this.flights.length);
    const limit = config.constraints.max_cancellations;
    if (limit !== null && cancels.length > limit) this.maxCancellations = { rhs: limit, price: 0, activity: 0 };
    if (config.constraints.max_swaps < this.flights.length) this.maxSwaps = { rhs: config.constraints.max_swaps, price: 0, activity: 0 };

    for (const c of scope.capacities) {
      const members: [number, number][] = [];
      this.flights.forEach((d, fi) => {
        const f = d.flight;
        if (c.kind === 'departures' ? f.origin !== c.airport : f.dest !== c.airport) return;
        const shift = c.kind === 'departures' ? 0 : f.arrMinutes - f.depMinutes;
        d.stretches.forEach((s, si) => { const at = s.from + shift; if (at >= c.hourStartMinutes && at < c.hourStartMinutes + 60) members.push([fi, si]); });
      });
      this.capacities.push({ members, rhs: c.max - c.fixed, price: 0, activity: 0 });
    }

    for (const group of groups.misconnections) {
      // Passengers of three flights or more may leave from any hub up to the break: the least journey over all of them.
      const journey = input.leastRebooking?.get(rebookingKey('misconnection', group.itinerary.id));
      const trip = serviceTrip(group.passengers, group.compensationPerPassenger, group.originalArrivalMinutes - group.legs[0]!.depMinutes);
      const perPassenger = Math.min(Math.max(leastPerPassenger(cost, trip), journey ?? 0), Math.max(0, cost.tripCancellation(trip)));
      // An itinerary with a leg a disruption cancels is never a misconnection (its passengers are that flight's cancellation group).
      if (group.passengers <= 0 || group.legs.some((f) => scope.cancelledFlights.has(f.id))) continue;
      // A leg the plan cancels breaks the itinerary: its passengers leave from its origin or a hub.
      const cancellable = group.legs.flatMap((f) => { const fi = flightIndex.get(f.id); return fi !== undefined && this.flights[fi]!.mayCancel ? [fi] : []; });
      const fromAnywhere = input.leastRebooking?.get(rebookingKey('broken', group.itinerary.id));
      const brokenCost = group.passengers * Math.min(Math.max(leastPerPassenger(cost, trip), fromAnywhere ?? 0), Math.max(0, cost.tripCancellation(trip)));
      if (cancellable.length > 0 && brokenCost > 0) {
        this.brokenGroups.push({ cost: brokenCost, legs: cancellable, rows: cancellable.map((): PricedRow => ({ rhs: 0, price: 0, activity: 0 })), broken: 0 });
      }
      if (perPassenger <= 0) continue;
      // Passengers of two flights wait at the one hub (docs/model.md 1.6) from the scheduled arrival on.
      const first = group.connections[0]!;
      const seats = group.legs.length === 2
        ? this.seatGroup(cost, serviceTrip(group.passengers, group.compensationPerPassenger, group.originalArrivalMinutes - group.legs[0]!.depMinutes), first.arriving.dest, group.legs[1]!.dest, first.arriving.arrMinutes + first.connectionMinutes,
          input.leastRebooking?.get(rebookingKey('misconnection', group.itinerary.id)), () => journeysOf(first.search))
        : null;
      const missed: MissedGroup = { cost: group.passengers * perPassenger, rows: [], missed: 0, seats };
      for (const c of group.connections) {
        const arriving = flightIndex.get(c.arriving.id) ?? null;
        const leaving = flightIndex.get(c.missed.id) ?? null;
        // A leg outside the scope flies as scheduled.
        if (arriving === null && leaving === null) continue;
        const block = c.arriving.arrMinutes - c.arriving.depMinutes;
        const latestLanding = arriving === null ? c.arriving.arrMinutes : Math.max(...this.flights[arriving]!.stretches.map((s) => s.from + block));
        const instants = leaving === null ? [c.missed.depMinutes] : this.flights[leaving]!.stretches.map((s) => s.to);
        const kept = instants.filter((v) => v < latestLanding + c.connectionMinutes);
        if (kept.length === 0) continue;
        const others = group.legs.flatMap((f, j) => (j !== c.index && j !== c.index + 1 && flightIndex.has(f.id) ? [flightIndex.get(f.id)!] : []));
        // Rows: late + early − others − missed ≤ 1 − (legs outside the scope, each late or early as scheduled).
        const constant = (arriving === null ? 1 : 0) + (leaving === null ? 1 : 0);
        const rows = kept.map((): PricedRow => ({ rhs: 1 - constant, price: 0, activity: 0 }));
        this.connections.push({
          group: this.missedGroups.length, arriving, leaving, others, instants: kept, rows, connectionMinutes: c.connectionMinutes,
          lateBelow: arriving === null ? null : Int32Array.from(this.flights[arriving]!.stretches, (s) => countBelow(kept, s.from + block + c.connectionMinutes)),
          earlyFrom: leaving === null ? null : Int32Array.from(this.flights[leaving]!.stretches, (s) => countBelow(kept, s.to)),
        });
        missed.rows.push(...rows);
      }
      if (missed.rows.length > 0) this.missedGroups.push(missed);
    }

    this.buildSeatRows(schedule, scope, groups, config);
    this.buildFlightSeatRows(schedule, scope, groups, config);
    let offset = 0;
    for (const d of this.flights) { this.stretchOffset.push(offset); offset += d.stretches.length; }
    this.stretchCost = new Float64Array(offset);

    // Scratch for one aircraft's copies (at most one per stretch), in flight and stretch order.
    const most = offset;
    const scratch: CopyScratch = {
      flight: new Int32Array(most), stretch: new Int32Array(most), extra: new Float64Array(most), swap: new Uint8Array(most),
      dep: new Float64Array(most), ready: new Float64Array(most), blockTurn: new Int32Array(most),
      origin: new Int32Array(this.flights.length), dest: new Int32Array(this.flights.length), withCopies: new Int32Array(this.flights.length),
    };
    this.pendingNetworks = () => {
      for (const a of scope.aircraft) this.nets.push(this.aircraftNet(a, { schedule, config, cost, factsOf, ev, airport }, scratch));
      this.bestAt = new Float64Array(this.airports.length << MODELLED_CHECKS);
      this.bestArg = new Int32Array(this.airports.length << MODELLED_CHECKS);
    };
    if (!networksLater) this.buildNetworks();
  }

  /** Builds the aircraft's networks, once (the constructor does, unless asked to leave them for later). */
  buildNetworks(): void {
    const build = this.pendingNetworks;
    this.pendingNetworks = null;
    build?.();
  }

  /** One aircraft's network (AircraftNet): its copies, their events in time order, its checks. */
  private aircraftNet(
    a: AircraftInScope,
    { schedule, config, cost, factsOf, ev, airport }: { schedule: Schedule; config: SolverConfig; cost: CostModel; factsOf: (tail: string) => AircraftCostFacts; ev: RouteEvaluator; airport: (code: string) => number },
    { flight: copyFlight, stretch: copyStretch, extra: copyExtra, swap: copySwap, dep: copyDep, ready: copyReady, blockTurn: copyBlockTurn, origin, dest, withCopies }: CopyScratch,
  ): AircraftNet {
    const policy = config.constraints.swap_fleet_policy;
    const tail = a.aircraft.tail;
    const facts = factsOf(tail);
    let n = 0;
    let flightsWithCopies = 0;
    for (let fi = 0; fi < this.flights.length; fi++) {
      const d = this.flights[fi]!;
      const f = d.flight;
      if (!mayFly(policy, a.aircraft, schedule.aircraft.get(f.tail)!)) continue;
      const block = f.arrMinutes - f.depMinutes;
      const planned = factsOf(f.tail);
      const extra = cost.flownLeg({ blockMinutes: block, delayMinutes: 0, bookedPassengers: f.bookedPassengers, planned, flownBy: facts }, 0);
      if (!Number.isFinite(extra)) continue;
      const turn = ev.turnaround(a, f.dest);
      const swap = f.tail !== tail ? 1 : 0;
      const before = n;
      for (let si = 0; si < d.stretches.length; si++) {
        const s = d.stretches[si]!;
        // Out of service: kept if some departure of the stretch overlaps no period.
        if (a.unavailable.length > 0 && !someMinute(s.from, s.to, (t) => a.unavailable.every((p) => t + block <= p.fromMinutes || t >= p.toMinutes))) continue;
        if (!Number.isFinite(d.cost[si]!)) continue;
        copyFlight[n] = fi; copyStretch[n] = si; copyExtra[n] = extra; copySwap[n] = swap;
        copyDep[n] = s.to; copyReady[n] = s.from + block + turn; copyBlockTurn[n] = block + turn;
        n++;
      }
      if (n > before) withCopies[flightsWithCopies++] = fi;
    }
    const events: [number, number, number][] = [[a.readyMinutes, SOURCE, -1]];
    const deadline = a.nextDepartureAfterWindow;
    if (deadline !== null) events.push([deadline, DEADLINE, -1]);
    // A check is performed by an aircraft that landed at its station by its start (ready by the start
    // plus the turnaround) and holds it until its end. One that ends by that instant is not modelled
    // (free): its release would come before its snapshot at one instant (RELEASE sorts first), so every
    // route would miss it, the plan that performs it too.
    const checks: CheckEvent[] = [];
    for (const m of a.checks) {
      const snapshotMinutes = m.startMinutes + ev.turnaround(a, m.station);
      if (checks.length >= MODELLED_CHECKS || m.endMinutes <= snapshotMinutes) continue;
      events.push([snapshotMinutes, SNAPSHOT, checks.length], [m.endMinutes, RELEASE, checks.length]);
      checks.push({ station: airport(m.station), snapshotMinutes, releaseMinutes: m.endMinutes });
    }
    const states = 1 << checks.length;
    // Airports numbered as they first appear (the copies' origins, their destinations, the aircraft's
    // station and end): the sweep's last step takes the first of equal ends in that order.
    for (let k = 0; k < flightsWithCopies; k++) origin[withCopies[k]!] = airport(this.flights[withCopies[k]!]!.flight.origin);
    for (let k = 0; k < flightsWithCopies; k++) dest[withCopies[k]!] = airport(this.flights[withCopies[k]!]!.flight.dest);
    const station = airport(a.station);
    const { eventKind, eventIndex } = sortEvents(events, copyDep.subarray(0, n), copyReady.subarray(0, n));
    // A copy that leaves before any route can be at its origin (whatever the prices) has no label but
    // at Infinity, which changes no other: it is left out (20 % of the default hub storm's copies).
    // The others are numbered in the order they depart, so that a sweep reads their data in sequence;
    // the events keep sortEvents' order (ties by the first numbering), so the labels and routes are its.
    const reached = new Uint8Array(n);
    const airportReached = new Uint8Array(this.airports.length);
    const number = new Int32Array(n);
    const byDeparture = new Int32Array(n);
    let kept = 0;
    for (let e = 0; e < eventKind.length; e++) {
      const j = eventIndex[e]!;
      if (eventKind[e] === SOURCE) airportReached[station] = 1;
      else if (eventKind[e] === DEPARTURE) {
        if (airportReached[origin[copyFlight[j]!]!]) { reached[j] = 1; number[j] = kept; byDeparture[kept++] = j; }
      } else if (eventKind[e] === ARRIVAL && reached[j]) airportReached[dest[copyFlight[j]!]!] = 1;
    }
    const sweepEvents = new Int32Array(4 * kept);
    const marks: AircraftNet['marks'] = [];
    let at = 0;
    let departed = 0;
    for (let e = 0; e < eventKind.length; e++) {
      const kind = eventKind[e]!;
      const j = eventIndex[e]!;
      if (kind !== DEPARTURE && kind !== ARRIVAL) { marks.push({ at, kind, index: j, departed }); continue; }
      if (!reached[j]) continue;
      if (kind === DEPARTURE) departed++;
      sweepEvents[2 * at] = 2 * number[j]! + (kind === ARRIVAL ? 1 : 0);
      sweepEvents[2 * at + 1] = (kind === ARRIVAL ? dest : origin)[copyFlight[j]!]! * states;
      at++;
    }
    const net: AircraftNet = {
      a,
      flight: new Int32Array(kept), stretch: new Int32Array(kept), global: new Int32Array(kept), extra: new Float64Array(kept), swap: new Uint8Array(kept),
      blockTurn: new Int32Array(kept), seatRow: new Int32Array(kept), freeSeats: new Float64Array(kept), seatPriceAt: new Int32Array(kept),
      events: sweepEvents, marks,
      station, endStation: airport(a.requiredEndStation), hasDeadline: deadline !== null,
      away: Math.max(0, cost.positions({ family: 1, model: 1, configuration: 1 })),
      checks, missedCheck: Math.max(0, cost.missedCheck()),
      value: new Float64Array(kept * states), pred: new Int32Array(kept * states),
    };
    for (let k = 0; k < kept; k++) {
      const j = byDeparture[k]!;
      const fi = copyFlight[j]!;
      const d = this.flights[fi]!;
      net.flight[k] = fi;
      net.stretch[k] = copyStretch[j]!;
      net.global[k] = this.stretchOffset[fi]! + copyStretch[j]!;
      net.extra[k] = copyExtra[j]!;
      net.swap[k] = copySwap[j]!;
      net.blockTurn[k] = copyBlockTurn[j]!;
      net.seatRow[k] = d.seatRow;
      net.freeSeats[k] = Math.max(0, a.aircraft.seats - d.flight.bookedPassengers) / SEAT_ROW_SCALE;
      net.seatPriceAt[k] = d.seatRow >= 0 ? d.seatRow : this.flightSeatRows.length;
    }
    return net;
  }

  private seatGroup(cost: CostModel, trip: TripFacts, origin: string, dest: string, earliestMinutes: number, leastJourney: number | undefined, journeys: (() => JourneyFinder) | null): SeatGroup {
    const rebooked = Math.max(0, cost.arrival(trip, 0, true), leastJourney ?? 0);
    const stranded = Math.max(0, cost.tripCancellation(trip));
    const group: SeatGroup = {
      passengers: trip.passengers, rebooked, stranded,
      origin, dest, earliestMinutes, rows: [], rebookedNow: 0,
      // Only with the least journeys known (the service's cost model), and where one is cheaper than not carrying them.
      journeys: journeys && leastJourney !== undefined && rebooked < stranded ? journeys : null, finder: null, journey: null, costNow: 0,
    };
    this.seatGroups.push(group);
    return group;
  }

  /**
   * Seat rows (docs/model.md 3.9): the passengers re-accommodated from airport X whose journeys may
   * leave no earlier than τ take seats on flights leaving X at or after τ, at most the seats those
   * flights can have free (the largest aircraft that may fly each, less its bookings); the same for
   * the flights landing at their destination. One row per airport, side and such τ, where it can bind.
   */
  private buildSeatRows(schedule: Schedule, scope: RecoveryScope, groups: PassengerGroups, config: SolverConfig): void {
    const free = freeSeats(schedule, scope, config);
    const seats = groups.network.flights.map(free);
    for (const side of ['origin', 'dest'] as const) {
      const byAirport = new Map<string, SeatGroup[]>();
      for (const g of this.seatGroups) { const members = byAirport.get(g[side]); if (members) members.push(g); else byAirport.set(g[side], [g]); }
      // The network's flights (by index, in its order) leaving (landing at) each airport of a group.
      const flightsAt = new Map<string, number[]>([...byAirport.keys()].map((airport) => [airport, []]));
      groups.network.flights.forEach((f, k) => flightsAt.get(side === 'origin' ? f.origin : f.dest)?.push(k));
      for (const [airport, members] of byAirport) {
        const flights = flightsAt.get(airport)!;
        for (const tau of [...new Set(members.map((g) => g.earliestMinutes))].sort((p, q) => p - q)) {
          const inRow = members.filter((g) => g.earliestMinutes >= tau);
          let rhs = 0;
          for (const k of flights) rhs += groups.network.flights[k]!.depMinutes >= tau ? seats[k]! : 0;
          if (rhs >= inRow.reduce((sum, g) => sum + g.passengers, 0)) continue;
          const row: PricedRow = { rhs: rhs / SEAT_ROW_SCALE, price: 0, activity: 0 };
          this.seatRows.push(row);
          for (const g of inRow) g.rows.push(row);
        }
      }
    }
  }

  /**
   * Per-flight seat rows: one per flight of the journey network, its free seats: outside the scope
   * its own aircraft's, in it those of the aircraft whose copy flies it (the copies' coefficients); priced only once some group's journey takes it (a row at price 0 and below its seats
   * moves nothing).
   */
  private buildFlightSeatRows(schedule: Schedule, scope: RecoveryScope, groups: PassengerGroups, config: SolverConfig): void {
    if (!this.seatGroups.some((g) => g.journeys)) return;
    const free = freeSeats(schedule, scope, config);
    const byId = new Map<string, number>();
    groups.network.flights.forEach((f, k) => {
      this.networkIndex.set(f, k);
      byId.set(f.id, k);
      // A flight of the scope has the seats of the copy that flies it (none when cancelled): right side 0.
      this.flightSeatRows.push({ rhs: scope.flightIds.has(f.id) ? 0 : free(f) / SEAT_ROW_SCALE, price: 0, activity: 0 });
    });
    for (const d of this.flights) d.seatRow = byId.get(d.flight.id) ?? -1;
    this.flightSeatPrices = new Float64Array(groups.network.flights.length);
    this.seatRowPrice = new Float64Array(groups.network.flights.length + 1);
  }

  /**
   * What a group's passengers cost if disrupted at the current seat prices; sets who is
   * re-accommodated then (and on which journey). `exact` false: a lower bound, without the search of
   * the group's journeys at the flights' seat prices (their least at zero prices instead), enough
   * wherever disrupting the group does not pay even so.
   */
  private passengerCost(g: SeatGroup, exact = true): number {
    let prices = 0;
    for (const r of g.rows) prices += r.price / SEAT_ROW_SCALE;
    let rebook = g.rebooked + prices;
    g.journey = null;
    if (exact && g.journeys && rebook < g.stranded) {
      const best = this.bestJourney(g, g.stranded - prices);
      // Not carried when no journey is cheaper (the search looks no further than that).
      rebook = best ? Math.max(rebook, best.value + prices) : Number.POSITIVE_INFINITY;
      if (best) g.journey = best.journey.map((f) => this.networkIndex.get(f)!);
    }
    g.rebookedNow = rebook < g.stranded ? g.passengers : 0;
    g.costNow = g.passengers * Math.min(rebook, g.stranded);
    return g.costNow;
  }

  /**
   * A group's least journey at the flights' seat prices, if one's value is at most `threshold`; its
   * finder is made here when first asked. (The benchmarks wrap it: bound-terms.ts, bound-lp.ts.)
   */
  bestJourney(g: SeatGroup, threshold: number): { journey: Journey; value: number } | undefined {
    g.finder ??= g.journeys!();
    return g.finder.best(this.flightSeatPrices, threshold, 1, () => false)[0];
  }

  get copies(): number {
    return this.nets.reduce((sum, n) => sum + n.flight.length, 0);
  }

  /**
   * Start from the flight bound's duals found here, without its LP (whose answer reaches a thread
   * only through the simulation thread, busy for up to a second at a storm's start): the aircraft,
   * connections and seats relaxed away, each flight flies its cheapest stretch at the capacities'
   * prices or is cancelled (its cost and its passengers' least), and those prices (with
   * max_cancellations') rise by subgradient steps on that dual for `iterations`; each flight is then
   * priced at its cheapest choice, so that no copy prices negative. Returns that small dual's value
   * (with what every plan pays, less the rounding's share): a bound of every plan that needs no
   * network (docs/model.md 3.9, "The flight-level start's own bound"), told by a thread before it
   * builds them; the evaluations' bounds are at least it from the first.
   */
  startFromFlights(iterations = FLIGHT_LEVEL_ITERATIONS): number {
    const cancelOf = this.flights.map((d) => (d.mayCancel ? d.cancelCost + (d.seats ? d.seats.passengers * Math.min(d.seats.rebooked, d.seats.stranded) : 0) : Number.POSITIVE_INFINITY));
    const rows: PricedRow[] = [...this.capacities, ...(this.maxCancellations ? [this.maxCancellations] : [])];
    const prices = new Float64Array(rows.length);
    let best = Number.NEGATIVE_INFINITY;
    let bestPrices = prices.slice();
    let theta = 1;
    let stale = 0;
    const choice = new Int32Array(this.flights.length);
    const least = new Float64Array(this.flights.length);
    /** Each flight's cheapest choice at `prices` (−1: cancelled), and the dual's value there. */
    const value = (): number => {
      this.flights.forEach((d) => d.adjust.fill(0));
      this.capacities.forEach((c, r) => { for (const [fi, si] of c.members) this.flights[fi]!.adjust[si]! += prices[r]!; });
      const cancelPrice = this.maxCancellations ? prices[rows.length - 1]! : 0;
      let total = 0;
      this.flights.forEach((d, fi) => {
        let v = cancelOf[fi]! + cancelPrice;
        let k = -1;
        for (let si = 0; si < d.stretches.length; si++) { const c = d.cost[si]! + d.adjust[si]!; if (c < v) { v = c; k = si; } }
        choice[fi] = k;
        least[fi] = v;
        total += Number.isFinite(v) ? v : 0;
      });
      rows.forEach((r, i) => { total -= prices[i]! * r.rhs; });
      return total;
    };
    for (let it = 0; it < iterations && rows.length > 0; it++) {
      const v = value();
      if (best === Number.NEGATIVE_INFINITY || v > best + 1e-9 * Math.max(1, Math.abs(best))) { best = v; bestPrices = prices.slice(); stale = 0; } else if (++stale >= FLIGHT_LEVEL_STALE_ITERATIONS) { theta /= 2; stale = 0; }
      const g = rows.map((r) => -r.rhs);
      this.capacities.forEach((c, r) => { for (const [fi, si] of c.members) if (choice[fi] === si) g[r]!++; });
      if (this.maxCancellations) g[rows.length - 1]! += choice.reduce((n, k, fi) => n + (k === -1 && this.flights[fi]!.mayCancel ? 1 : 0), 0);
      // An inequality row at price 0 is not pushed below it.
      g.forEach((x, i) => { if (prices[i]! <= 0 && x < 0) g[i] = 0; });
      const norm = g.reduce((s, x) => s + x * x, 0);
      if (norm === 0 || theta < 1e-4) break;
      const aim = best + Math.max(1, SELF_AIM * Math.abs(best));
      const step = theta * (aim - v) / norm;
      g.forEach((x, i) => { prices[i] = Math.max(0, prices[i]! + step * x); });
    }
    prices.set(bestPrices);
    const bound = value() + this.constant;
    let magnitude = Math.abs(this.constant);
    least.forEach((v) => { magnitude += Number.isFinite(v) ? Math.abs(v) : 0; });
    rows.forEach((r, i) => { magnitude += Math.abs(prices[i]! * r.rhs); });
    rows.forEach((r, i) => { r.price = prices[i]!; });
    this.flights.forEach((d, fi) => { this.price[fi] = Number.isFinite(least[fi]!) ? least[fi]! : 0; d.adjust.fill(0); });
    return bound - ROUNDING_SHARE * magnitude;
  }

  /**
   * The Lagrangian bound at the current prices (a bound of every plan), with the subgradient left in
   * the rows' activities and the flights' use. Infinity when some aircraft has no route at all (then
   * no plan exists).
   */
  evaluate(): number {
    let bound = this.constant;
    // The magnitude of what is summed: the rounding of a sum in floating point is within a tiny share
    // of it, which the bound gives up (ROUNDING_SHARE) so that it stays a bound whatever the prices.
    let magnitude = Math.abs(this.constant);
    const { flights, price } = this;
    for (let fi = 0; fi < flights.length; fi++) {
      const d = flights[fi]!;
      d.adjust.fill(-price[fi]!);
      d.use.fill(0);
      bound += price[fi]!;
      magnitude += Math.abs(price[fi]!);
    }
    for (const c of this.capacities) {
      for (const [fi, si] of c.members) this.flights[fi]!.adjust[si]! += c.price;
      bound -= c.price * c.rhs;
      magnitude += Math.abs(c.price * c.rhs) + c.price * c.members.length;
    }
    const cancelAdjust = this.cancelAdjust.fill(0);
    for (const cr of this.connections) this.priceConnection(cr, cancelAdjust);
    for (let fi = 0; fi < flights.length; fi++) {
      const { cost, adjust } = flights[fi]!;
      const offset = this.stretchOffset[fi]!;
      for (let si = 0; si < cost.length; si++) this.stretchCost[offset + si] = cost[si]! + adjust[si]!;
    }
    for (const r of this.seatRows) { bound -= r.price * r.rhs; magnitude += Math.abs(r.price * r.rhs) + r.price; }
    for (const r of this.flightSeatRows) { bound -= r.price * r.rhs; magnitude += Math.abs(r.price * r.rhs) + r.price; }
    for (const m of this.missedGroups) {
      let rows = 0;
      for (const r of m.rows) { rows += r.price; bound -= r.price * r.rhs; magnitude += r.price * (Math.abs(r.rhs) + 4); }
      let rc = (m.seats ? this.passengerCost(m.seats, false) : m.cost) - rows;
      // The search of the journeys only where missing the connection pays at their least at zero prices.
      if (m.seats && rc < 0) rc = this.passengerCost(m.seats) - rows;
      m.missed = rc < 0 ? 1 : 0;
      if (m.seats && !m.missed) m.seats.rebookedNow = 0;
      bound += Math.min(0, rc);
      magnitude += Math.abs(rc);
    }
    for (const b of this.brokenGroups) {
      let rc = b.cost;
      for (let k = 0; k < b.legs.length; k++) { const p = b.rows[k]!.price; rc -= p; cancelAdjust[b.legs[k]!]! += p; magnitude += p; }
      b.broken = rc < 0 ? 1 : 0;
      bound += Math.min(0, rc);
      magnitude += Math.abs(rc);
    }
    const cancelPrice = this.maxCancellations?.price ?? 0;
    if (this.maxCancellations) bound -= cancelPrice * this.maxCancellations.rhs;
    const swapPrice = this.maxSwaps?.price ?? 0;
    if (this.maxSwaps) bound -= swapPrice * this.maxSwaps.rhs;
    for (let fi = 0; fi < flights.length; fi++) {
      const d = flights[fi]!;
      d.cancel = 0;
      if (!d.mayCancel) { if (d.seats) d.seats.rebookedNow = 0; continue; }
      const others = -price[fi]! + cancelPrice + cancelAdjust[fi]!;
      let rc = d.cancelCost + (d.seats ? this.passengerCost(d.seats, false) : 0) + others;
      // The search of the journeys only where cancelling pays at their least at zero prices.
      if (d.seats && rc < 0) rc = d.cancelCost + this.passengerCost(d.seats) + others;
      if (rc < 0) { d.cancel = 1; bound += rc; } else if (d.seats) d.seats.rebookedNow = 0;
      magnitude += Math.abs(rc);
    }
    let swaps = 0;
    // Each flight's copies flown, a list through flownNext from flownHead (−1 ends it), for the connections' activities.
    let flown = 0;
    this.flownHead.fill(-1);
    // The per-flight seat rows' prices in one array: the sweeps read one per copy.
    for (let k = 0; k < this.flightSeatRows.length; k++) this.seatRowPrice[k] = this.flightSeatRows[k]!.price;
    for (let i = 0; i < this.nets.length; i++) {
      const net = this.nets[i]!;
      const route = this.cheapestRoute(net, swapPrice);
      if (route === null) return Number.POSITIVE_INFINITY;
      this.routes[i] = route.copies;
      if (this.collectRoutes) this.keep(i, net, route.copies);
      bound += route.value;
      magnitude += Math.abs(route.value) + route.magnitude;
      for (const j of route.copies) {
        const fi = net.flight[j]!;
        flights[fi]!.use[net.stretch[j]!]!++;
        swaps += net.swap[j]!;
        if (flown === this.flownStretch.length) this.growFlown();
        this.flownStretch[flown] = net.stretch[j]!;
        this.flownNext[flown] = this.flownHead[fi]!;
        this.flownHead[fi] = flown++;
      }
    }
    // Activities for the subgradient.
    for (const c of this.capacities) { c.activity = 0; for (const [fi, si] of c.members) c.activity += flights[fi]!.use[si]!; }
    for (const cr of this.connections) this.connectionActivity(cr);
    for (const b of this.brokenGroups) for (let k = 0; k < b.legs.length; k++) b.rows[k]!.activity = flights[b.legs[k]!]!.cancel - b.broken;
    if (this.maxCancellations) { let cancels = 0; for (const d of flights) cancels += d.cancel; this.maxCancellations.activity = cancels; }
    for (const r of this.seatRows) r.activity = 0;
    for (const r of this.flightSeatRows) r.activity = 0;
    for (const g of this.seatGroups) {
      if (g.rebookedNow <= 0) continue;
      for (const r of g.rows) r.activity += g.rebookedNow / SEAT_ROW_SCALE;
      for (const k of g.journey ?? []) this.flightSeatRows[k]!.activity += g.rebookedNow / SEAT_ROW_SCALE;
    }
    for (let i = 0; i < this.nets.length; i++) {
      const net = this.nets[i]!;
      for (const j of this.routes[i]!) if (net.seatRow[j]! >= 0) this.flightSeatRows[net.seatRow[j]!]!.activity -= net.freeSeats[j]!;
    }
    if (this.maxSwaps) this.maxSwaps.activity = swaps;
    return bound - ROUNDING_SHARE * magnitude;
  }

  /** Keeps a route of aircraft `i` (its copies, last first) the first time an evaluation prices it. */
  private keep(i: number, net: AircraftNet, copies: readonly number[]): void {
    const key = `${i}:${copies.join(',')}`;
    if (this.routesSeen.has(key)) return;
    this.routesSeen.add(key);
    const legs: RelaxationRoute['legs'] = [];
    let ready = net.a.readyMinutes;
    for (let k = copies.length - 1; k >= 0; k--) {
      const j = copies[k]!;
      const d = this.flights[net.flight[j]!]!;
      const depMinutes = Math.max(d.stretches[net.stretch[j]!]!.from, ready);
      ready = depMinutes + net.blockTurn[j]!;
      legs.push({ flightId: d.flight.id, depMinutes });
    }
    this.freshRoutes.push({ tail: net.a.aircraft.tail, legs });
  }

  /** Forgets the routes priced so far: each is told again, once, when an evaluation next prices it (a new bound on a kept relaxation). */
  forgetRoutes(): void {
    this.routesSeen.clear();
    this.freshRoutes = [];
  }

  /** The routes priced since the last call, each once (docs/model.md 3.9, "Its routes as plans"). */
  drainRoutes(): RelaxationRoute[] {
    const routes = this.freshRoutes;
    this.freshRoutes = [];
    return routes;
  }

  /** The last evaluation's solution, term by term (see RelaxationTerms). */
  terms(): RelaxationTerms {
    const t: RelaxationTerms = {
      delay: 0, swapAndSpill: 0, swaps: 0, cancellations: 0, cancellationCost: this.constant, cancelledFlightsPassengerCost: 0,
      missedItineraries: 0, missedCost: 0, brokenItineraries: 0, brokenCost: 0, rebookedPassengers: 0, strandedPassengers: 0,
    };
    const seats = (g: SeatGroup | null) => {
      if (!g) return 0;
      if (g.rebookedNow > 0) t.rebookedPassengers += g.passengers; else t.strandedPassengers += g.passengers;
      return g.costNow;
    };
    for (const d of this.flights) {
      // A copy not flown may cost Infinity (a hard crew rule): only those flown count.
      d.use.forEach((u, si) => { if (u > 0) t.delay += u * d.cost[si]!; });
      if (!d.cancel) continue;
      t.cancellations++;
      t.cancellationCost += d.cancelCost;
      t.cancelledFlightsPassengerCost += seats(d.seats);
    }
    this.nets.forEach((net, i) => { for (const j of this.routes[i] ?? []) { t.swapAndSpill += net.extra[j]!; t.swaps += net.swap[j]!; } });
    for (const m of this.missedGroups) if (m.missed) { t.missedItineraries++; t.missedCost += m.seats ? seats(m.seats) : m.cost; }
    for (const b of this.brokenGroups) if (b.broken) { t.brokenItineraries++; t.brokenCost += b.cost; }
    return t;
  }

  /**
   * Adds the connection rows' prices to the copies' adjustments: a copy of the arriving leg is in the
   * rows at instants before its earliest landing plus the connection time, a copy of the leaving leg in
   * those at or after the stretch's last minute; the other legs' cancellations have coefficient −1.
   */
  private priceConnection(cr: ConnectionRows, cancelAdjust: Float64Array): void {
    const prefix = this.connectionScratch(cr.rows.length + 1);
    prefix[0] = 0;
    for (let i = 0; i < cr.rows.length; i++) prefix[i + 1] = prefix[i]! + cr.rows[i]!.price;
    const total = prefix[cr.rows.length]!;
    if (total === 0) return;
    if (cr.arriving !== null) {
      const adjust = this.flights[cr.arriving]!.adjust;
      const late = cr.lateBelow!;
      for (let si = 0; si < adjust.length; si++) adjust[si]! += prefix[late[si]!]!;
    }
    if (cr.leaving !== null) {
      const adjust = this.flights[cr.leaving]!.adjust;
      const early = cr.earlyFrom!;
      for (let si = 0; si < adjust.length; si++) adjust[si]! += total - prefix[early[si]!]!;
    }
    for (const o of cr.others) cancelAdjust[o]! -= total;
  }

  private connectionActivity(cr: ConnectionRows): void {
    const m = cr.rows.length;
    const diff = this.connectionScratch(m + 1).fill(0, 0, m + 1);
    const { flownHead, flownNext, flownStretch } = this;
    if (cr.arriving !== null) {
      const late = cr.lateBelow!;
      for (let k = flownHead[cr.arriving]!; k >= 0; k = flownNext[k]!) { diff[0]!++; diff[late[flownStretch[k]!]!]!--; }
    }
    if (cr.leaving !== null) {
      const early = cr.earlyFrom!;
      for (let k = flownHead[cr.leaving]!; k >= 0; k = flownNext[k]!) diff[early[flownStretch[k]!]!]!++;
    }
    let others = 0;
    for (const o of cr.others) others += this.flights[o]!.cancel;
    const missed = this.missedGroups[cr.group]!.missed;
    let running = 0;
    for (let i = 0; i < m; i++) { running += diff[i]!; cr.rows[i]!.activity = running - others - missed; }
  }

  /** The last evaluation's copies flown, by flight: the first's index in flownStretch (−1: none), the next's, and each one's stretch. */
  private readonly flownHead: Int32Array;
  private flownNext = new Int32Array(256);
  private flownStretch = new Int32Array(256);

  private growFlown(): void {
    const next = new Int32Array(2 * this.flownNext.length);
    next.set(this.flownNext);
    this.flownNext = next;
    const stretch = new Int32Array(2 * this.flownStretch.length);
    stretch.set(this.flownStretch);
    this.flownStretch = stretch;
  }

  /** A scratch array of at least `n` numbers for a connection's rows (its contents undefined). */
  private connectionScratch(n: number): Float64Array {
    if (this.scratch.length < n) this.scratch = new Float64Array(2 * n);
    return this.scratch;
  }

  private scratch = new Float64Array(64);

  /**
   * The aircraft's cheapest route at the current reduced costs: a sweep over its events in time order,
   * with a label per airport and set of checks performed (the best route so far that is there and
   * ready); a label is identified by copy × states + state (−1 the start).
   */
  private cheapestRoute(net: AircraftNet, swapPrice: number): { value: number; copies: number[]; magnitude: number } | null {
    const { bestAt, bestArg } = this;
    const S = 1 << net.checks.length;
    const airports = this.airports.length;
    bestAt.fill(Number.POSITIVE_INFINITY, 0, airports * S);
    bestArg.fill(-2, 0, airports * S);
    const { deadlineValue, deadlineArg, snapValue, snapArg } = this;
    deadlineValue.fill(Number.POSITIVE_INFINITY, 0, S);
    deadlineArg.fill(-2, 0, S);
    snapValue.fill(Number.POSITIVE_INFINITY, 0, net.checks.length * S);
    snapArg.fill(-2, 0, net.checks.length * S);
    // Until a check's release no label has performed one: the copies' events only carry state 0 till then.
    let firstFull = -1;
    let from = 0;
    for (const { at, kind, index: j, departed } of net.marks) {
      sweepCopies(net, from, at, S, firstFull, this.stretchCost, this.seatRowPrice, swapPrice, bestAt, bestArg);
      from = at;
      if (kind === SOURCE) {
        bestAt[net.station * S] = 0;
        bestArg[net.station * S] = -1;
      } else if (kind === SNAPSHOT) {
        const c = net.checks[j]!;
        for (let s = 0; s < S; s++) if (!(s & (1 << j))) { snapValue[j * S + s] = bestAt[c.station * S + s]!; snapArg[j * S + s] = bestArg[c.station * S + s]!; }
      } else if (kind === RELEASE) {
        const c = net.checks[j]!;
        if (firstFull < 0) firstFull = departed;
        for (let s = 0; s < S; s++) {
          const v = snapValue[j * S + s]!;
          const to = c.station * S + (s | (1 << j));
          if (v < bestAt[to]!) { bestAt[to] = v; bestArg[to] = snapArg[j * S + s]!; }
        }
      } else {
        for (let s = 0; s < S; s++) { deadlineValue[s] = bestAt[net.endStation * S + s]!; deadlineArg[s] = bestArg[net.endStation * S + s]!; }
      }
    }
    sweepCopies(net, from, net.events.length >> 1, S, firstFull, this.stretchCost, this.seatRowPrice, swapPrice, bestAt, bestArg);
    let value = Number.POSITIVE_INFINITY;
    let last = -2;
    for (let s = 0; s < S; s++) {
      const missed = net.checks.length - popcount(s);
      const checks = missed === 0 ? 0 : missed * net.missedCheck;
      if (net.hasDeadline) {
        const v = deadlineValue[s]! + checks;
        if (v < value) { value = v; last = deadlineArg[s]!; }
      } else {
        // An airport no label reached is at Infinity.
        for (let t = 0; t < airports; t++) {
          const v = bestAt[t * S + s]! + checks + (t === net.endStation ? 0 : net.away);
          if (v < value) { value = v; last = bestArg[t * S + s]!; }
        }
      }
    }
    if (value === Number.POSITIVE_INFINITY) return null;
    const copies: number[] = [];
    let magnitude = 0;
    for (let label = last; label >= 0; label = net.pred[(label % S) * net.global.length + Math.floor(label / S)]!) {
      const j = Math.floor(label / S);
      copies.push(j);
      const d = this.flights[net.flight[j]!]!;
      const k = net.seatRow[j]!;
      magnitude += Math.abs(d.cost[net.stretch[j]!]!) + Math.abs(d.adjust[net.stretch[j]!]!) + Math.abs(net.extra[j]!) + swapPrice + (k >= 0 ? this.flightSeatRows[k]!.price * net.freeSeats[j]! : 0);
    }
    return { value, copies, magnitude };
  }

  /** Flight rows' search direction (deflected subgradient). */
  private flightDirection: Float64Array | null = null;

  /**
   * Per row, the running mean of its squared subgradient (flight rows first, then the inequality rows
   * in `direct`'s order), and the step's scale that follows from it (docs/model.md 3.9, "Convergence").
   */
  private meanSquare: Float64Array | null = null;
  private rowScale: Float64Array | null = null;

  /**
   * The search direction: the subgradient (each row's violation) plus `deflection` times the last
   * direction (Camerini, Fratta and Maffioli), an inequality row at price 0 not pushed below it; each
   * row's step is scaled by 1/√(SCALE_FLOOR + the running mean of its squared violation), so rows that
   * swing widely (a capacity row, a flight that aircraft keep fighting over) move less than rows that
   * are seldom off. Returns the direction's squared norm in that metric (what a Polyak step divides by).
   */
  direct(deflection: number): number {
    this.flightDirection ??= new Float64Array(this.flights.length);
    const fd = this.flightDirection;
    const rows: PricedRow[] = [];
    for (const c of this.capacities) rows.push(c);
    for (const cr of this.connections) for (const r of cr.rows) rows.push(r);
    for (const r of this.seatRows) rows.push(r);
    for (const r of this.flightSeatRows) rows.push(r);
    for (const b of this.brokenGroups) for (const r of b.rows) rows.push(r);
    if (this.maxCancellations) rows.push(this.maxCancellations);
    if (this.maxSwaps) rows.push(this.maxSwaps);
    const n = this.flights.length + rows.length;
    if (this.meanSquare?.length !== n) { this.meanSquare = new Float64Array(n); this.rowScale = new Float64Array(n); }
    const meanSquare = this.meanSquare;
    const scale = this.rowScale!;
    const scaled = (k: number, own: number) => {
      meanSquare[k] = SCALE_MEMORY * meanSquare[k]! + (1 - SCALE_MEMORY) * own * own;
      scale[k] = 1 / Math.sqrt(SCALE_FLOOR + meanSquare[k]!);
      return scale[k]!;
    };
    let sum = 0;
    let violated = 0;
    this.flights.forEach((d, fi) => {
      let use = d.cancel;
      for (const u of d.use) use += u;
      violated += (1 - use) ** 2;
      const w = scaled(fi, 1 - use);
      fd[fi] = (1 - use) + deflection * fd[fi]!;
      sum += w * fd[fi]! ** 2;
    });
    rows.forEach((r, i) => {
      const own = r.activity - r.rhs;
      // Violated, or slack at a price above 0 (complementary slackness fails).
      if (own > 0 || (own < 0 && r.price > 0)) violated += own * own;
      const w = scaled(this.flights.length + i, own);
      let g = own + deflection * (r.direction ?? 0);
      if (r.price <= 0 && g < 0) g = 0;
      r.direction = g;
      sum += w * g * g;
    });
    this.violated = violated;
    return sum;
  }

  /**
   * The squared violation of the rows by the last evaluation's solution (set by `direct`): 0 when it
   * keeps every row, with complementary slackness, so that its bound is the relaxation's optimum.
   */
  violated = Number.POSITIVE_INFINITY;

  /** Moves the prices by `step` along the direction, each row's scaled as `direct` set it, inequality rows' prices kept at or above 0. */
  step(step: number): void {
    const fd = this.flightDirection!;
    const scale = this.rowScale!;
    this.flights.forEach((_, fi) => { this.price[fi]! += step * scale[fi]! * fd[fi]!; });
    let k = this.flights.length;
    const move = (r: PricedRow) => { r.price = Math.max(0, r.price + step * scale[k++]! * (r.direction ?? 0)); };
    for (const c of this.capacities) move(c);
    for (const cr of this.connections) for (const r of cr.rows) move(r);
    for (const r of this.seatRows) move(r);
    for (const r of this.flightSeatRows) move(r);
    if (this.flightSeatRows.length > 0) this.flightSeatPrices = Float64Array.from(this.flightSeatRows, (r) => r.price / SEAT_ROW_SCALE);
    for (const b of this.brokenGroups) for (const r of b.rows) move(r);
    if (this.maxCancellations) move(this.maxCancellations);
    if (this.maxSwaps) move(this.maxSwaps);
  }

}

/**
 * The copies' events [from, to) of an aircraft's sweep (NetworkRelaxation.cheapestRoute): a departure
 * takes the best label at its origin in each state plus the copy's reduced cost (the stretch's, what
 * this aircraft adds, the swap price, less the seats it offers at their row's price); an arrival
 * improves its destination's labels. `firstFull` −1: only state 0 is reachable yet (no check
 * released), the others are not written; else the first copy (they are numbered as they depart) that
 * left after a release: those before it are at Infinity in every other state, and not read there.
 */
function sweepCopies(net: AircraftNet, from: number, to: number, S: number, firstFull: number, base: Float64Array, seatPrice: Float64Array, swapPrice: number, bestAt: Float64Array, bestArg: Int32Array): void {
  const { events, global, extra, swap, seatPriceAt, freeSeats, value, pred } = net;
  const n = global.length;
  if (firstFull < 0) {
    for (let e = from; e < to; e++) {
      const code = events[2 * e]!;
      const j = code >> 1;
      if ((code & 1) === 0) {
        const o = events[2 * e + 1]!;
        value[j] = bestAt[o]! + (base[global[j]!]! + extra[j]! + swapPrice * swap[j]! - seatPrice[seatPriceAt[j]!]! * freeSeats[j]!);
        pred[j] = bestArg[o]!;
      } else {
        const t = events[2 * e + 1]!;
        const v = value[j]!;
        if (v < bestAt[t]!) { bestAt[t] = v; bestArg[t] = j * S; }
      }
    }
  } else {
    for (let e = from; e < to; e++) {
      const code = events[2 * e]!;
      const j = code >> 1;
      if ((code & 1) === 0) {
        const o = events[2 * e + 1]!;
        const r = base[global[j]!]! + extra[j]! + swapPrice * swap[j]! - seatPrice[seatPriceAt[j]!]! * freeSeats[j]!;
        for (let s = 0; s < S; s++) { value[s * n + j] = bestAt[o + s]! + r; pred[s * n + j] = bestArg[o + s]!; }
      } else {
        const t = events[2 * e + 1]!;
        for (let s = 0, states = j < firstFull ? 1 : S; s < states; s++) {
          const v = value[s * n + j]!;
          if (v < bestAt[t + s]!) { bestAt[t + s] = v; bestArg[t + s] = j * S + s; }
        }
      }
    }
  }
}

function popcount(x: number): number {
  let n = 0;
  for (let y = x; y > 0; y &= y - 1) n++;
  return n;
}

/**
 * An aircraft's events in time order, kinds in their order at one instant: `others` (source,
 * deadline, checks) and each copy's arrival (when `ready`) and departure (from its node at `dep`), ties
 * by index. Where the instants are whole minutes, ordered as (instant, kind, index) keys: counted into
 * buckets per instant and kind when those are few beside the events, else sorted as numbers, each key
 * packed exactly into one double; other instants sorted as tuples. Exported for its test.
 */
export function sortEvents(others: [number, number, number][], dep: Float64Array, ready: Float64Array): { eventKind: Uint8Array; eventIndex: Int32Array } {
  const n = dep.length;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let whole = true;
  const see = (t: number) => {
    if (!Number.isFinite(t)) return;
    if (t < low) low = t;
    if (t > high) high = t;
    if (!Number.isInteger(t)) whole = false;
  };
  for (const e of others) see(e[0]);
  for (let j = 0; j < n; j++) { see(dep[j]!); see(ready[j]!); }
  const base = Number.isFinite(low) ? low - 1 : 0;
  const packable = whole && n + others.length < 1 << 20 && (Number.isFinite(high) ? high - base : 0) < 1e6;
  if (!packable) {
    const events = [...others];
    for (let j = 0; j < n; j++) events.push([ready[j]!, ARRIVAL, j], [dep[j]!, DEPARTURE, j]);
    events.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    return { eventKind: Uint8Array.from(events, (e) => e[1]), eventIndex: Int32Array.from(events, (e) => e[2]) };
  }
  const count = others.length + 2 * n;
  const eventKind = new Uint8Array(count);
  const eventIndex = new Int32Array(count);
  // An instant that is not finite takes the place before every other (as its packed key does).
  const bucket = (t: number, kind: number) => (Number.isFinite(t) ? t - base : 0) * 8 + kind;
  const buckets = ((Number.isFinite(high) ? high - base : 0) + 1) * 8;
  if (buckets <= 8 * count + 4096) {
    // Counted: each (instant, kind) bucket filled in index order (others' indexes ascend within a kind, as pushed).
    const next = new Int32Array(buckets + 1);
    for (const e of others) next[bucket(e[0], e[1]) + 1]!++;
    for (let j = 0; j < n; j++) { next[bucket(ready[j]!, ARRIVAL) + 1]!++; next[bucket(dep[j]!, DEPARTURE) + 1]!++; }
    for (let b = 0; b < buckets; b++) next[b + 1]! += next[b]!;
    const place = (b: number, kind: number, index: number) => { const at = next[b]!++; eventKind[at] = kind; eventIndex[at] = index; };
    for (const e of others) place(bucket(e[0], e[1]), e[1], e[2]);
    for (let j = 0; j < n; j++) { place(bucket(ready[j]!, ARRIVAL), ARRIVAL, j); place(bucket(dep[j]!, DEPARTURE), DEPARTURE, j); }
    return { eventKind, eventIndex };
  }
  const INDEX = 1 << 20;
  const keys = new Float64Array(count);
  const key = (t: number, kind: number, index: number) => bucket(t, kind) * INDEX + index + 1;
  others.forEach((e, i) => { keys[i] = key(e[0], e[1], e[2]); });
  for (let j = 0; j < n; j++) {
    keys[others.length + 2 * j] = key(ready[j]!, ARRIVAL, j);
    keys[others.length + 2 * j + 1] = key(dep[j]!, DEPARTURE, j);
  }
  keys.sort();
  for (let e = 0; e < keys.length; e++) {
    const k = keys[e]!;
    eventIndex[e] = (k % INDEX) - 1;
    eventKind[e] = Math.floor(k / INDEX) % 8;
  }
  return { eventKind, eventIndex };
}

/**
 * The seats a flight can have free in any plan (docs/model.md 1.6, 3.9): none when a disruption
 * cancels it, else those of the largest aircraft that may fly it (its own outside the scope) less its bookings.
 */
function freeSeats(schedule: Schedule, scope: RecoveryScope, config: SolverConfig): (f: Flight) => number {
  const policy = config.constraints.swap_fleet_policy;
  const largestFor = new Map<string, number>();
  const largest = (tail: string): number => {
    let seats = largestFor.get(tail);
    if (seats === undefined) {
      const planned = schedule.aircraft.get(tail)!;
      seats = Math.max(planned.seats, ...scope.aircraft.filter((a) => mayFly(policy, a.aircraft, planned)).map((a) => a.aircraft.seats));
      largestFor.set(tail, seats);
    }
    return seats;
  };
  return (f) => (scope.cancelledFlights.has(f.id) ? 0
    : Math.max(0, (scope.flightIds.has(f.id) ? largest(f.tail) : schedule.aircraft.get(f.tail)!.seats) - f.bookedPassengers));
}

/** Whether `holds` is true of some whole minute in [from, to]. */
function someMinute(from: number, to: number, holds: (minute: number) => boolean): boolean {
  for (let t = from; t <= to; t++) if (holds(t)) return true;
  return false;
}

/** How many of the ascending `values` are below `x`. */
function countBelow(values: readonly number[], x: number): number {
  let lo = 0, hi = values.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (values[mid]! < x) lo = mid + 1; else hi = mid; }
  return lo;
}

/**
 * Iterations without a better bound after which the step halves (30 until 2026-11-29; with the rows'
 * scales, 15 reached the issue storm's 1.08 M after 97 iterations where 20 took 100 and 30 117, the
 * hub storm's 0.78 M after 143, 166 and 180: docs/model.md 3.9, "Convergence").
 */
export const STALE_ITERATIONS = 15;

/** Subgradient steps of the flight-level dual that startFromFlights takes (each costs a pass over the flights' stretches). */
const FLIGHT_LEVEL_ITERATIONS = 400;

/** Steps of the flight-level dual without a better value after which its step halves. */
const FLIGHT_LEVEL_STALE_ITERATIONS = 30;

/**
 * Share of the last direction kept in the next (deflected subgradient). Measured on the default hub
 * storm aiming at a plan of 1,100,000 (what the service has at 10 s), bound after 100 and 250
 * iterations: 0.8 728,213 and 764,875; 0.9 743,507 and 787,641; 0.95 729,944 and 780,575; without a
 * plan, 0.8 588,588 and 745,218, 0.9 681,519 and 772,309 (deterministic: iterations, not time).
 */
export const DEFLECTION = 0.9;

/**
 * The rows' step scales (NetworkRelaxation.direct): each row's running mean of its squared violation
 * keeps this share of its last value, and the scale is 1/√(SCALE_FLOOR + that mean), so a row never
 * off keeps scale 1 and one off by ±1 at every step about 0.7. Memories 0.8-0.95 and floors 0.3-3 gave
 * within 1 % of each other after 300 iterations on both storms (docs/model.md 3.9, "Convergence").
 */
const SCALE_MEMORY = 0.9;
const SCALE_FLOOR = 1;

/** Without a plan to aim at, the steps aim this share above the best bound so far. */
const SELF_AIM = 0.5;

/**
 * With a plan, the steps aim this share of the way from the best bound to the plan's cost: a plan far
 * above the optimum (a storm's at 10 s costs 1.25-1.6 M) made full steps overshoot. Bound after 40,
 * 70 and 100 iterations (deterministic: iterations, not time), aiming at the whole way and at half of it:
 * the issue storm aiming at 1.6 M 462,000, 943,000, 945,000 and 862,000, 950,000, 950,000; at 2 M
 * 427,793, 735,000, 893,000 and 816,000, 855,000, 986,000; the default hub storm aiming at 1.3 M
 * 588,000, 677,000, 715,000 and 577,000, 639,000, 687,000; at 1.56 M 521,000, 666,000, 701,000 and
 * 548,000, 687,000, 725,000; after 250 iterations within 1 % of each other.
 */
export const TARGET_SHARE = 0.5;


/**
 * The network bound of a simulation (docs/model.md 3.9), valid for every plan of every strategy, by
 * `options.deadline`. Solves the flight bound's LP on `solver` (the worker pool), which `onBound`
 * hears and the result never falls below, and meanwhile improves on it by subgradient steps from the
 * flight-level duals (NetworkRelaxation.startFromFlights): in `options.thread` (a thread of its own,
 * so that the search and the column generation keep the simulation thread; the service's cost model
 * only), else on this thread, yielding every SLICE_MS. The steps never wait for the LP: its answer
 * reaches a thread only through the simulation thread, which a storm's start holds for up to a second
 * (at 2 s that was most of the bound's time). `onBound` hears each better bound. Null when there is no
 * bound: the flight bound LP has no optimum or fails and no iteration ends, or an aircraft has no
 * route at all (no plan exists), or `signal` aborted before any bound.
 */
export async function networkBound(input: NetworkBoundInput, solver: Solver, options: NetworkBoundOptions & { thread?: RelaxationThread } = {}): Promise<NetworkBound | null> {
  const started = performance.now();
  const deadline = options.deadline ?? started + 60_000;
  const flightBound = flightBoundLp(input, solver, { ...options, deadline });
  // In a thread of its own, the thread finds the least journeys (network-bound-thread-worker.ts).
  if (options.thread && !input.costModel && !input.aircraftFacts) return options.thread(input, flightBound, options);
  const relaxation = new NetworkRelaxation(withLeastRebooking(input));
  relaxation.startFromFlights();
  // On this thread the LP's answer is in by now (the build held the thread): its value bounds the result.
  return iterateRelaxation(relaxation, await flightBound, options);
}

/**
 * How long past the bound's deadline the flight bound's LP may take, milliseconds: its GLPK limit and
 * the solver's wait. The LP takes 40-100 ms of a worker's CPU on a storm, but its answer is read on
 * the simulation thread, which a 2 s storm's first asking holds with its walks, descent and model
 * builds for most of the budget, under load past the deadline; a timer is heard before a worker's
 * message, so the solver's wait ended at the deadline with the answer waiting there, and the storm was
 * answered with the closed form's bound (140,208 on the issue storm, gap 92.7 %; 112,978 on the hub
 * storm) in 8 of 36 runs at 2 s, load average 15-25. With only the wait moved (the LP's limit still the
 * deadline), the hard stop at that limit plus the solver's grace, also a timer, came first instead and
 * stopped the worker that had answered (docs/model.md 3.9, "The flight bound's LP, heard late"). Nothing waits for it the longer: the
 * strategies read the bound by their deadline, and the bound's signal ends the wait once they are done.
 */
const FLIGHT_LP_WAIT_GRACE_MS = 2_000;

/** The flight bound's LP optimum (it goes to `onBound`), or null when that solve gives none. */
async function flightBoundLp(input: NetworkBoundInput, solver: Solver, options: NetworkBoundOptions & { deadline: number }): Promise<number | null> {
  try {
    const model = flightBoundModel(new RouteEvaluator(input.schedule, input.scope, input.config), input.groups);
    const waitUntil = options.deadline + FLIGHT_LP_WAIT_GRACE_MS;
    const outcome = await solver.solve({ model, timeLimitMs: Math.max(1, waitUntil - performance.now()), mipGap: 0, relaxation: true }, { signal: options.signal, deadline: waitUntil });
    if (outcome.status === 'optimal' && outcome.objective !== null) {
      options.onBound?.(outcome.objective, 'flight_bound');
      return outcome.objective;
    }
  } catch {
    // The network bound stands without it.
  }
  return null;
}

/**
 * Runs the iterations of a relaxation elsewhere (a worker thread: network-bound-thread.ts) from the
 * flight-level duals, with the same options (deadline, target, onBound, signal), resolving as
 * iterateRelaxation does, never below `flightBound` (the LP's optimum, once it comes).
 */
export type RelaxationThread = (input: NetworkBoundInput, flightBound: Promise<number | null>, options: NetworkBoundOptions) => Promise<NetworkBound | null>;

/** How long an iteration batch runs before it lets the thread's other work in, milliseconds. */
const SLICE_MS = 20;

/**
 * Subgradient iterations on `relaxation` from its current prices until `options.deadline`, the
 * iteration limit, convergence or `options.signal`; each better bound goes to `onBound` (never below
 * `flightBound`). Null when an aircraft has no route (no plan exists) or nothing is known. A later call
 * on the same relaxation (the same problem asked again: network-bound-thread-worker.ts) goes on where
 * this one left off (NetworkRelaxation.progress), its best bound told at once; each route is told once per call.
 */
export async function iterateRelaxation(relaxation: NetworkRelaxation, flightBound: number | null, options: NetworkBoundOptions): Promise<NetworkBound | null> {
  const started = performance.now();
  const deadline = options.deadline ?? started + 60_000;
  const progress = relaxation.progress;
  let { best, stepScale: theta, stale } = progress;
  let bestAt = 0;
  let iterations = 0;
  // An iteration is not cut short: the next starts only if one as long as the last ends by the deadline.
  let lastMs = 0;
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY;
  if (options.onRoutes) relaxation.collectRoutes = true;
  relaxation.forgetRoutes();
  // Going on from an earlier call: its best bound is known at once.
  if (best > Number.NEGATIVE_INFINITY && (flightBound === null || best > flightBound)) options.onBound?.(best, 'network_bound');
  const tellRoutes = () => {
    const routes = options.onRoutes ? relaxation.drainRoutes() : [];
    if (routes.length > 0) options.onRoutes!(routes);
  };
  while (iterations < maxIterations && !options.signal?.aborted && performance.now() < deadline) {
    const slice = performance.now();
    while (iterations < maxIterations && performance.now() - slice < SLICE_MS && performance.now() + lastMs < deadline) {
      const before = performance.now();
      const value = relaxation.evaluate();
      lastMs = performance.now() - before;
      iterations++;
      if (value === Number.POSITIVE_INFINITY) return null;
      if (best === Number.NEGATIVE_INFINITY || value > best + 1e-9 * Math.max(1, Math.abs(best))) {
        best = value;
        bestAt = performance.now() - started;
        stale = 0;
        if (flightBound === null || best > flightBound) options.onBound?.(best, 'network_bound');
      } else if (++stale >= STALE_ITERATIONS) { theta /= 2; stale = 0; }
      const norm = relaxation.direct(DEFLECTION);
      if (relaxation.violated === 0 || norm === 0 || theta < 1e-4) return finish();
      const target = options.target?.() ?? null;
      const aim = target !== null && target > best ? best + TARGET_SHARE * (target - best) : best + Math.max(1, SELF_AIM * Math.abs(best));
      relaxation.step(theta * (aim - value) / norm);
    }
    tellRoutes();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return finish();

  function finish(): NetworkBound | null {
    tellRoutes();
    Object.assign(progress, { best, stepScale: theta, stale });
    if (best === Number.NEGATIVE_INFINITY && flightBound === null) return null;
    return {
      value: Math.max(best, flightBound ?? Number.NEGATIVE_INFINITY), flightBound, iterations, elapsedMs: bestAt,
      aircraft: relaxation.nets.length, copies: relaxation.copies,
    };
  }
}

/**
 * A relaxation's route as a route of the service (a column of the strategies' models): its legs in
 * order, each at the first minute of its departure grid (its earliest departure + k x time_step_minutes)
 * at or after its minute in the relaxation, the last leg's landing plus the ground time, and past the
 * aircraft's unavailability; each check performed after the first leg that lands at its station by its
 * start and leaves none before its end (else missed, and charged). Null where a leg or route rule
 * forbids it (an aircraft out of service whose stretch it left early enough in the relaxation but not
 * here, say). The grid is why the minutes move: a stretch starts where a capacity hour or a crew limit
 * cuts it and a copy leaves once its aircraft is ready, any minute; on an imported ROADEF schedule
 * (blocks of any length) a dive's plan left the grid until this rounding (test/http/simulate-imported.test.ts).
 */
export function relaxationRouteAsRoute(ev: RouteEvaluator, a: AircraftInScope, route: RelaxationRoute): Route | null {
  const step = ev.config.solver.time_step_minutes;
  let ready = a.readyMinutes;
  const legs = route.legs.map(({ flightId, depMinutes: relaxed }) => {
    const flight = ev.schedule.flightsById.get(flightId)!;
    const block = flight.arrMinutes - flight.depMinutes;
    const e = ev.earliestDeparture(flight);
    const onGrid = (minutes: number) => e + Math.ceil(Math.max(0, minutes - e) / step) * step;
    const depMinutes = afterUnavailability(a, onGrid(Math.max(relaxed, ready)), block, onGrid);
    ready = depMinutes + block + ev.turnaround(a, flight.dest);
    return { flight, depMinutes, arrMinutes: depMinutes + block, delayMinutes: depMinutes - flight.depMinutes };
  });
  const points = a.checks.map((m) => {
    for (let k = -1; k < legs.length; k++) {
      const at = k < 0 ? a.station : legs[k]!.flight.dest;
      const landed = k < 0 ? a.arrivalMinutes : legs[k]!.arrMinutes;
      if (at === m.station && landed <= m.startMinutes && (legs[k + 1]?.depMinutes ?? Number.POSITIVE_INFINITY) >= m.endMinutes) return k;
    }
    return null;
  });
  let station = a.station;
  let swaps = 0;
  for (const [k, leg] of legs.entries()) {
    if (leg.flight.tail !== a.aircraft.tail) swaps++;
    const pending = a.checks.filter((_, i) => points[i] === null || points[i]! >= k);
    if (brokenLegRule(ev.legContext(a, station, leg.flight, leg.depMinutes, swaps, pending)) !== null) return null;
    station = leg.flight.dest;
  }
  return ev.finish(a, legs, points);
}
