// The network bound (docs/model.md 3.9): a lower bound of every plan that respects the aircraft, not
// only the flights. The relaxation is a time-space network per aircraft (each flight copied at its
// departures, the aircraft's turnarounds, its time out of service, where and by when it must end)
// tied by rows over all aircraft: each flight flown once or cancelled, the airport capacities, the
// limits on swaps and cancellations, and the connections of the passengers' itineraries. Those rows
// are priced (Lagrangian relaxation): at any prices, each aircraft's cheapest route at its reduced
// costs (a shortest path over its acyclic network) gives a bound of every plan, so the bound is valid
// at every iteration and only grows as the prices improve (subgradient steps). The prices start at
// the flight bound's LP duals (flight-bound.ts), so the first iteration is already at least the
// flight bound. Pure TypeScript on the simulation thread (never the HTTP thread), yielding between
// iterations; the one LP it needs (the flight bound) goes to the solver port.
import type { Flight, Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator } from '../neighbourhood/aircraft-routes.ts';
import { capacityRowName } from '../neighbourhood/rows/row-families.ts';
import { ServiceCostModel, type AircraftCostFacts, type CostModel, type TripFacts } from '../model/cost-model.ts';
import { lpName } from '../model/linear-model.ts';
import { crewBreaches, mayFly } from '../model/rules.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { Solver } from '../model/solver-port.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
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
}

export interface NetworkBoundOptions {
  signal?: AbortSignal;
  /** A performance.now() instant by which it returns (with the best bound so far); default 60 s from the call. */
  deadline?: number;
  /**
   * The cost of the best plan known, if any (read at every iteration): the subgradient steps aim at
   * it. Without one they aim a little above the best bound so far. Never changes what is proven, only
   * how fast the bound grows.
   */
  target?: () => number | null;
  /** Called with each better bound, as soon as it is known. */
  onBound?: (bound: number) => void;
  /** Stop after this many iterations (default: until the deadline or converged). */
  maxIterations?: number;
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
  /** Cancellation: cost, and whether allowed or forced. */
  cancelCost: number;
  mayCancel: boolean;
  forced: boolean;
  cancel: number;
}

/** A priced inequality row (activity ≤ rhs), its price ≥ 0. */
interface PricedRow { rhs: number; price: number; activity: number }

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
}

interface MissedGroup { cost: number; rows: PricedRow[]; missed: number }

/** One aircraft's network: its copies as events in time order. */
interface AircraftNet {
  a: AircraftInScope;
  /** Per copy: flight index, stretch index, what this aircraft adds to the copy's cost (swap, spill), whether it is a swap. */
  flight: Int32Array;
  stretch: Int32Array;
  extra: Float64Array;
  swap: Uint8Array;
  origin: Int32Array;
  dest: Int32Array;
  /** Events: copy*4 + kind (0 arrival, 1 deadline, 2 departure; the source is kind 0 with copy −1: −4), in time order. */
  events: Int32Array;
  station: number;
  endStation: number;
  hasDeadline: boolean;
  away: number;
  /** Scratch per iteration. */
  value: Float64Array;
  pred: Int32Array;
}

/** Stretch widths by how late a departure is: the first hour at the grid, then coarser (docs/model.md 3.9). */
function stretchWidth(delayMinutes: number, step: number): number {
  if (delayMinutes < 60) return step;
  if (delayMinutes < 180) return Math.max(step, 15);
  return Math.max(step, 30);
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

/** A passenger trip as the cost model sees it, for the service's groups (no cabins, no fares). */
function tripFacts(passengers: number, compensationPerPassenger: number, plannedTripMinutes: number): TripFacts {
  return { passengers, cabin: 'E', haul: 'D', direction: 'outbound', fare: 0, plannedTripMinutes, compensationPerPassenger, begun: false };
}

/** The least a disrupted passenger of `trip` costs: re-accommodated at once, or not carried. */
function leastPerPassenger(cost: CostModel, trip: TripFacts): number {
  return Math.max(0, Math.min(cost.arrival(trip, 0, true), cost.tripCancellation(trip)));
}

/** The relaxation, built once; `evaluate` prices it. */
export class NetworkRelaxation {
  readonly flights: FlightData[] = [];
  readonly nets: AircraftNet[] = [];
  readonly capacities: (PricedRow & { name: string; members: [number, number][] })[] = [];
  readonly connections: ConnectionRows[] = [];
  readonly missedGroups: MissedGroup[] = [];
  maxCancellations: PricedRow | null = null;
  maxSwaps: PricedRow | null = null;
  /** Flight prices π (free), by flight index. */
  readonly price: Float64Array;
  private readonly airports: string[] = [];
  private readonly bestAt: Float64Array;
  private readonly bestArg: Int32Array;
  /** Cost every plan pays whatever it does (flights a disruption cancels). */
  private constant = 0;

  constructor(input: NetworkBoundInput) {
    const { schedule, scope, groups, config } = input;
    const cost = input.costModel ?? new ServiceCostModel(config.cost_weights, { crewDuty: config.constraints.crew_duty === 'hard', maintenance: config.constraints.maintenance === 'hard' });
    const factsOf = input.aircraftFacts ?? ((tail: string): AircraftCostFacts => ({ tail, seats: schedule.aircraft.get(tail)!.seats, costPerBlockHour: 0 }));
    const ev = new RouteEvaluator(schedule, scope, config);
    const airportIndex = new Map<string, number>();
    const airport = (code: string) => { let i = airportIndex.get(code); if (i === undefined) { i = this.airports.length; this.airports.push(code); airportIndex.set(code, i); } return i; };
    const flightIndex = new Map<string, number>();
    const cancellationGroup = new Map(groups.cancellations.map((g) => [g.flight.id, g]));
    const cancels: number[] = [];

    for (const f of scope.flights) {
      const forced = scope.cancelledFlights.has(f.id);
      const block = f.arrMinutes - f.depMinutes;
      const group = cancellationGroup.get(f.id);
      const passengers = group ? group.passengers * leastPerPassenger(cost, tripFacts(group.passengers, group.compensationPerPassenger, block)) : 0;
      const cancelCost = cost.cancelledLeg({ blockMinutes: block, bookedPassengers: f.bookedPassengers, planned: factsOf(f.tail) }) + passengers;
      if (forced) { this.constant += cancelCost; continue; }
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
        cancelCost, mayCancel, forced, cancel: 0,
      });
    }
    this.price = new Float64Array(this.flights.length);
    const limit = config.constraints.max_cancellations;
    if (limit !== null && cancels.length > limit) this.maxCancellations = { rhs: limit, price: 0, activity: 0 };
    if (config.constraints.max_swaps < this.flights.length) this.maxSwaps = { rhs: config.constraints.max_swaps, price: 0, activity: 0 };

    for (const [i, c] of scope.capacities.entries()) {
      const members: [number, number][] = [];
      this.flights.forEach((d, fi) => {
        const f = d.flight;
        if (c.kind === 'departures' ? f.origin !== c.airport : f.dest !== c.airport) return;
        const shift = c.kind === 'departures' ? 0 : f.arrMinutes - f.depMinutes;
        d.stretches.forEach((s, si) => { const at = s.from + shift; if (at >= c.hourStartMinutes && at < c.hourStartMinutes + 60) members.push([fi, si]); });
      });
      this.capacities.push({ name: capacityRowName(c, i), members, rhs: c.max - c.fixed, price: 0, activity: 0 });
    }

    for (const group of groups.misconnections) {
      const perPassenger = leastPerPassenger(cost, tripFacts(group.passengers, group.compensationPerPassenger, group.originalArrivalMinutes - group.legs[0]!.depMinutes));
      // An itinerary with a leg a disruption cancels is never a misconnection (its passengers are that flight's cancellation group).
      if (group.passengers <= 0 || perPassenger <= 0 || group.legs.some((f) => scope.cancelledFlights.has(f.id))) continue;
      const missed: MissedGroup = { cost: group.passengers * perPassenger, rows: [], missed: 0 };
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
        this.connections.push({ group: this.missedGroups.length, arriving, leaving, others, instants: kept, rows, connectionMinutes: c.connectionMinutes });
        missed.rows.push(...rows);
      }
      if (missed.rows.length > 0) this.missedGroups.push(missed);
    }

    const policy = config.constraints.swap_fleet_policy;
    for (const a of scope.aircraft) {
      const tail = a.aircraft.tail;
      const facts = factsOf(tail);
      const copies: { fi: number; si: number; extra: number; swap: boolean; dep: number; ready: number }[] = [];
      this.flights.forEach((d, fi) => {
        const f = d.flight;
        if (!mayFly(policy, a.aircraft, schedule.aircraft.get(f.tail)!)) return;
        const block = f.arrMinutes - f.depMinutes;
        const planned = factsOf(f.tail);
        const extra = cost.flownLeg({ blockMinutes: block, delayMinutes: 0, bookedPassengers: f.bookedPassengers, planned, flownBy: facts }, 0);
        if (!Number.isFinite(extra)) return;
        const turn = ev.turnaround(a, f.dest);
        d.stretches.forEach((s, si) => {
          // Out of service: kept if some departure of the stretch overlaps no period.
          if (a.unavailable.length > 0 && !someMinute(s.from, s.to, (t) => a.unavailable.every((p) => t + block <= p.fromMinutes || t >= p.toMinutes))) return;
          if (!Number.isFinite(d.cost[si]!)) return;
          copies.push({ fi, si, extra, swap: f.tail !== tail, dep: s.to, ready: s.from + block + turn });
        });
      });
      const n = copies.length;
      const events: [number, number, number][] = [[a.readyMinutes, 0, -4]];
      copies.forEach((c, j) => { events.push([c.ready, 0, 4 * j]); events.push([c.dep, 2, 4 * j + 2]); });
      const deadline = a.nextDepartureAfterWindow;
      if (deadline !== null) events.push([deadline, 1, 1]);
      events.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      this.nets.push({
        a,
        flight: Int32Array.from(copies, (c) => c.fi), stretch: Int32Array.from(copies, (c) => c.si),
        extra: Float64Array.from(copies, (c) => c.extra), swap: Uint8Array.from(copies, (c) => (c.swap ? 1 : 0)),
        origin: Int32Array.from(copies, (c) => airport(this.flights[c.fi]!.flight.origin)),
        dest: Int32Array.from(copies, (c) => airport(this.flights[c.fi]!.flight.dest)),
        events: Int32Array.from(events, (e) => e[2]),
        station: airport(a.station), endStation: airport(a.requiredEndStation), hasDeadline: deadline !== null,
        away: Math.max(0, cost.positions({ family: 1, model: 1, configuration: 1 })),
        value: new Float64Array(n), pred: new Int32Array(n),
      });
    }
    this.bestAt = new Float64Array(this.airports.length);
    this.bestArg = new Int32Array(this.airports.length);
  }

  get copies(): number {
    return this.nets.reduce((sum, n) => sum + n.flight.length, 0);
  }

  /** Start from an LP's duals of the flight bound's rows (GLPK's signs: a ≤ row's dual is ≤ 0). */
  startFrom(duals: Record<string, number>): void {
    this.flights.forEach((d, fi) => { this.price[fi] = duals[`flight__${lpName(d.flight.id)}`] ?? 0; d.adjust.fill(0); });
    for (const c of this.capacities) {
      c.price = Math.max(0, -(duals[c.name] ?? 0));
      for (const [fi, si] of c.members) this.flights[fi]!.adjust[si]! += c.price;
    }
    if (this.maxCancellations) this.maxCancellations.price = Math.max(0, -(duals.max_cancellations ?? 0));
    // A departure variable at its upper bound 1 may have a negative reduced cost in the LP's duals; its
    // flight's price then moves by that much (the same dual value: the flight row already holds it at
    // 1), so that no copy prices negative and several aircraft cannot each collect it.
    this.flights.forEach((d, fi) => {
      let least = 0;
      d.stretches.forEach((_, si) => { least = Math.min(least, d.cost[si]! + d.adjust[si]! - this.price[fi]!); });
      this.price[fi]! += least;
    });
  }

  /**
   * The Lagrangian bound at the current prices (a bound of every plan), with the subgradient left in
   * the rows' activities and the flights' use. Infinity when some aircraft has no route at all (then
   * no plan exists).
   */
  evaluate(): number {
    let bound = this.constant;
    for (const [fi, d] of this.flights.entries()) {
      d.adjust.fill(-this.price[fi]!);
      d.use.fill(0);
      bound += this.price[fi]!;
    }
    for (const c of this.capacities) {
      for (const [fi, si] of c.members) this.flights[fi]!.adjust[si]! += c.price;
      bound -= c.price * c.rhs;
    }
    const cancelAdjust = new Float64Array(this.flights.length);
    for (const cr of this.connections) this.priceConnection(cr, cancelAdjust);
    for (const m of this.missedGroups) {
      let rc = m.cost;
      for (const r of m.rows) { rc -= r.price; bound -= r.price * r.rhs; }
      m.missed = rc < 0 ? 1 : 0;
      bound += Math.min(0, rc);
    }
    const cancelPrice = this.maxCancellations?.price ?? 0;
    if (this.maxCancellations) bound -= cancelPrice * this.maxCancellations.rhs;
    const swapPrice = this.maxSwaps?.price ?? 0;
    if (this.maxSwaps) bound -= swapPrice * this.maxSwaps.rhs;
    for (const [fi, d] of this.flights.entries()) {
      d.cancel = 0;
      if (!d.mayCancel) continue;
      const rc = d.cancelCost - this.price[fi]! + cancelPrice + cancelAdjust[fi]!;
      if (rc < 0) { d.cancel = 1; bound += rc; }
    }
    let swaps = 0;
    for (const net of this.nets) {
      const route = this.cheapestRoute(net, swapPrice);
      if (route === null) return Number.POSITIVE_INFINITY;
      bound += route.value;
      for (const j of route.copies) {
        this.flights[net.flight[j]!]!.use[net.stretch[j]!]!++;
        swaps += net.swap[j]!;
      }
    }
    // Activities for the subgradient.
    for (const c of this.capacities) { c.activity = 0; for (const [fi, si] of c.members) c.activity += this.flights[fi]!.use[si]!; }
    for (const cr of this.connections) this.connectionActivity(cr);
    if (this.maxCancellations) this.maxCancellations.activity = this.flights.reduce((s, d) => s + d.cancel, 0);
    if (this.maxSwaps) this.maxSwaps.activity = swaps;
    return bound;
  }

  /**
   * Adds the connection rows' prices to the copies' adjustments: a copy of the arriving leg is in the
   * rows at instants before its earliest landing plus the connection time, a copy of the leaving leg in
   * those at or after the stretch's last minute; the other legs' cancellations have coefficient −1.
   */
  private priceConnection(cr: ConnectionRows, cancelAdjust: Float64Array): void {
    const prefix = new Float64Array(cr.rows.length + 1);
    cr.rows.forEach((r, i) => { prefix[i + 1] = prefix[i]! + r.price; });
    const total = prefix[cr.rows.length]!;
    if (total === 0) return;
    if (cr.arriving !== null) {
      const d = this.flights[cr.arriving]!;
      const block = d.flight.arrMinutes - d.flight.depMinutes;
      d.stretches.forEach((s, si) => { d.adjust[si]! += prefix[countBelow(cr.instants, s.from + block + cr.connectionMinutes)]!; });
    }
    if (cr.leaving !== null) {
      const d = this.flights[cr.leaving]!;
      d.stretches.forEach((s, si) => { d.adjust[si]! += total - prefix[countBelow(cr.instants, s.to)]!; });
    }
    for (const o of cr.others) cancelAdjust[o]! -= total;
  }

  private connectionActivity(cr: ConnectionRows): void {
    const m = cr.rows.length;
    const diff = new Float64Array(m + 1);
    if (cr.arriving !== null) {
      const d = this.flights[cr.arriving]!;
      const block = d.flight.arrMinutes - d.flight.depMinutes;
      d.use.forEach((u, si) => { if (u > 0) { diff[0]! += u; diff[countBelow(cr.instants, d.stretches[si]!.from + block + cr.connectionMinutes)]! -= u; } });
    }
    if (cr.leaving !== null) {
      const d = this.flights[cr.leaving]!;
      d.use.forEach((u, si) => { if (u > 0) diff[countBelow(cr.instants, d.stretches[si]!.to)]! += u; });
    }
    const others = cr.others.reduce((s, o) => s + this.flights[o]!.cancel, 0);
    const missed = this.missedGroups[cr.group]!.missed;
    let running = 0;
    cr.rows.forEach((r, i) => { running += diff[i]!; r.activity = running - others - missed; });
  }

  /** The aircraft's cheapest route at the current reduced costs: a sweep over its events in time order. */
  private cheapestRoute(net: AircraftNet, swapPrice: number): { value: number; copies: number[] } | null {
    const { bestAt, bestArg } = this;
    bestAt.fill(Number.POSITIVE_INFINITY);
    bestArg.fill(-2);
    let deadlineValue = Number.POSITIVE_INFINITY;
    let deadlineArg = -2;
    const touched = new Set<number>([net.station]);
    for (const e of net.events) {
      if (e === -4) { bestAt[net.station] = 0; bestArg[net.station] = -1; continue; }
      const kind = e & 3;
      if (kind === 1) { deadlineValue = bestAt[net.endStation]!; deadlineArg = bestArg[net.endStation]!; continue; }
      const j = e >> 2;
      if (kind === 2) {
        const o = net.origin[j]!;
        const from = bestAt[o]!;
        if (from === Number.POSITIVE_INFINITY) { net.value[j] = from; continue; }
        const d = this.flights[net.flight[j]!]!;
        const si = net.stretch[j]!;
        net.value[j] = from + d.cost[si]! + d.adjust[si]! + net.extra[j]! + (net.swap[j]! ? swapPrice : 0);
        net.pred[j] = bestArg[o]!;
      } else {
        const v = net.value[j]!;
        const t = net.dest[j]!;
        if (v < bestAt[t]!) { bestAt[t] = v; bestArg[t] = j; touched.add(t); }
      }
    }
    let value: number;
    let last: number;
    if (net.hasDeadline) { value = deadlineValue; last = deadlineArg; }
    else {
      value = Number.POSITIVE_INFINITY;
      last = -2;
      for (const t of touched) {
        const v = bestAt[t]! + (t === net.endStation ? 0 : net.away);
        if (v < value) { value = v; last = bestArg[t]!; }
      }
    }
    if (value === Number.POSITIVE_INFINITY) return null;
    const copies: number[] = [];
    for (let j = last; j >= 0; j = net.pred[j]!) copies.push(j);
    return { value, copies };
  }

  /** One subgradient step of length `step` along the rows' violations; returns the squared norm used. */
  step(step: number): void {
    this.flights.forEach((d, fi) => {
      let use = d.cancel;
      for (const u of d.use) use += u;
      this.price[fi]! += step * (1 - use);
    });
    const move = (r: PricedRow) => { r.price = Math.max(0, r.price + step * (r.activity - r.rhs)); };
    for (const c of this.capacities) move(c);
    for (const cr of this.connections) for (const r of cr.rows) move(r);
    if (this.maxCancellations) move(this.maxCancellations);
    if (this.maxSwaps) move(this.maxSwaps);
  }

  /** The squared norm of the subgradient (rows that are slack at price 0 do not count). */
  violation(): number {
    let sum = 0;
    for (const d of this.flights) { let use = d.cancel; for (const u of d.use) use += u; sum += (1 - use) ** 2; }
    const add = (r: PricedRow) => { const g = r.activity - r.rhs; if (g > 0 || r.price > 0) sum += g * g; };
    for (const c of this.capacities) add(c);
    for (const cr of this.connections) for (const r of cr.rows) add(r);
    if (this.maxCancellations) add(this.maxCancellations);
    if (this.maxSwaps) add(this.maxSwaps);
    return sum;
  }
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

/** How long an iteration batch runs before it lets the thread's other work in, milliseconds. */
const SLICE_MS = 20;

/**
 * The network bound of a simulation (docs/model.md 3.9), valid for every plan of every strategy, by
 * `options.deadline`. Solves the flight bound's LP on `solver` (the worker pool) for its duals, then
 * improves on it by subgradient steps on this thread, yielding every SLICE_MS; `onBound` hears each
 * better bound. Null when there is no bound: the flight bound LP has no optimum or fails (then no
 * plan may exist, or the pool is gone), or an aircraft has no route at all (no plan exists), or
 * `signal` aborted before any bound.
 */
export async function networkBound(input: NetworkBoundInput, solver: Solver, options: NetworkBoundOptions = {}): Promise<NetworkBound | null> {
  const started = performance.now();
  const deadline = options.deadline ?? started + 60_000;
  const relaxation = new NetworkRelaxation(input);
  let flightBound: number | null = null;
  try {
    const model = flightBoundModel(new RouteEvaluator(input.schedule, input.scope, input.config), input.groups);
    const outcome = await solver.solve({ model, timeLimitMs: Math.max(1, deadline - performance.now()), mipGap: 0, relaxation: true }, { signal: options.signal, deadline });
    if (outcome.status === 'optimal' && outcome.objective !== null) {
      flightBound = outcome.objective;
      relaxation.startFrom(outcome.duals ?? {});
    }
  } catch {
    // The flight bound is where the prices start, not what is proven: start from zero prices.
  }
  let best = Number.NEGATIVE_INFINITY;
  let bestAt = 0;
  let iterations = 0;
  let theta = 1;
  let stale = 0;
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY;
  while (iterations < maxIterations && !options.signal?.aborted && performance.now() < deadline) {
    const slice = performance.now();
    while (iterations < maxIterations && performance.now() - slice < SLICE_MS && performance.now() < deadline) {
      const value = relaxation.evaluate();
      iterations++;
      if (value === Number.POSITIVE_INFINITY) return null;
      if (best === Number.NEGATIVE_INFINITY || value > best + 1e-9 * Math.max(1, Math.abs(best))) {
        best = value;
        bestAt = performance.now() - started;
        stale = 0;
        options.onBound?.(Math.max(best, flightBound ?? best));
      } else if (++stale >= 10) { theta /= 2; stale = 0; }
      const norm = relaxation.violation();
      if (norm === 0 || theta < 1e-4) return finish();
      const target = options.target?.() ?? null;
      const aim = target !== null && target > best ? target : best + Math.max(1, 0.05 * Math.abs(best));
      relaxation.step(theta * (aim - value) / norm);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return finish();

  function finish(): NetworkBound | null {
    if (best === Number.NEGATIVE_INFINITY && flightBound === null) return null;
    return {
      value: Math.max(best, flightBound ?? Number.NEGATIVE_INFINITY), flightBound, iterations, elapsedMs: bestAt,
      aircraft: relaxation.nets.length, copies: relaxation.copies,
    };
  }
}
