// The pricing problem of the column generation (docs/model.md section 3): for one aircraft, the route
// of least reduced cost among ALL its feasible routes, by a label-setting sweep over its time-space
// network. Nodes are flight copies: flight f leaving at a minute of its departure grid
// (earliest(f), earliest(f) + step, ..., up to its delay limit). A label is a partial route ending at a
// node; it is extended to every node leaving the same airport after its aircraft is ready (turnaround,
// and the end of any check performed in between). Reduced costs are additive over legs (every row a
// route column has a coefficient in is a sum over its legs), so the sweep is exact: the least reduced
// cost it returns is the minimum over the whole route space of the aircraft, which is what makes the
// LP bound of the master a bound of the full problem.
//
// Resources: the checks performed (a bit mask, for maintenance costs and hard maintenance), the flights
// flown for other aircraft (only while constraints.max_swaps can bind), and in the 'own' and 'planned'
// modes the index of the last planned flight flown. Routes may repeat a flight (a relaxation: a column
// flying a flight twice can never be part of an integer plan, so it only weakens the LP bound a little
// and never makes it invalid); enumerateRoutes, which the optimality proof relies on, returns simple
// routes only.
import type { Flight, MaintenanceCheck } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from './aircraft-routes.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { brokenLegRule, checksStillReachable, withinMaxSwaps } from '../model/rules.ts';
import type { AircraftInScope } from '../model/scope.ts';

/** Which flights a route may fly: all planned ones in order (delay propagation with chosen times), a subsequence of them (cancellations), or any compatible flight of the scope. */
export type PricingMode = 'planned' | 'own' | 'any';

/** Dual prices of the master's rows, as the pricing problem needs them. */
export interface PricingDuals {
  /** Σ π·coef over the rows a leg of `a` flying `flight` at `depMinutes` has a coefficient in (flight, passenger, seat and capacity rows). */
  leg(a: AircraftInScope, flight: Flight, depMinutes: number): number;
  /** π of the aircraft's row (Σ of its routes = 1). */
  aircraft(a: AircraftInScope): number;
  /** π of the max_swaps row (a route's coefficient is its number of swapped flights); 0 without one. */
  perSwap: number;
  /**
   * Departure minutes of `flight` at which some row coefficient of its legs may change (a connection's
   * threshold, a clock hour of a capacity): between two of them, a leg's duals do not depend on when it
   * leaves, so a later departure there only costs more delay. Optional: without it every copy is priced.
   */
  breakpoints?(flight: Flight): readonly number[];
}

export interface PricedRoute { route: Route; reducedCost: number }

/** enumerateRoutes reads the clock once per this many steps (a power of 2). */
const CLOCK_EVERY = 1024;

/** Up to this many checks per aircraft, the proof's completion bounds know which were performed (2^n passes). */
const MASKED_CHECKS = 4;

interface Node {
  flight: Flight;
  /** Position of the flight in the mode's flight list (and of its copies in AircraftCopies.copies). */
  index: number;
  dep: number;
  arr: number;
  /** When the aircraft is ready again after this leg (its arrival and the turnaround at its destination). */
  ready: number;
  swapped: boolean;
  /** Place among the network's nodes (departure order): where its leg value and region are. */
  position: number;
}

interface Label {
  /** Reduced cost so far (the aircraft row's dual included). */
  rc: number;
  station: string;
  arrival: number;
  ready: number;
  /** Checks performed so far (bit i = a.checks[i]). */
  mask: number;
  swaps: number;
  /** Index in the mode's flight list of the last flight flown ('own', 'planned'); always -1 in 'any'. */
  last: number;
  legs: number;
  prev: Label | null;
  node: Node | null;
  /** Checks performed right after this label's leg (or at the start). */
  performed: number;
}

/** The departure grid of a flight: earliest, earliest + step, ..., not beyond its delay limit. */
export function departureGrid(ev: RouteEvaluator, flight: Flight, stepMinutes: number): number[] {
  const times: number[] = [];
  const latest = flight.depMinutes + ev.delayLimit(flight);
  for (let t = ev.earliestDeparture(flight); t <= latest; t += stepMinutes) times.push(t);
  return times;
}

/** The flights a route of `a` may fly in `mode`, in the order the mode's `last` index refers to. */
export function pricingFlights(ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode): Flight[] {
  if (mode !== 'any') return a.plannedFlights.filter((f) => !ev.scope.cancelledFlights.has(f.id));
  return ev.scope.flights.filter((f) => !ev.scope.cancelledFlights.has(f.id));
}

/** The departures an aircraft may take of one flight, whatever the duals: computed once per solve. */
interface FlightCopies {
  flight: Flight;
  /** Position in the mode's flight list. */
  index: number;
  block: number;
  /** Minutes the aircraft needs at the flight's destination before its next leg. */
  turnaround: number;
  /** Grid departures that keep the leg rules independent of the route so far. */
  deps: number[];
  swapped: boolean;
  /** Delay cost per minute of departure delay. */
  delayPerMinute: number;
  /** Departures from which an arrival passes a crew's limit (the crew cost changes there). */
  crewBreaks: number[];
  /** The last breakpoints of the duals (PricingDuals.breakpoints) and, merged with crewBreaks and sorted, this copy's regions' bounds. */
  regionsFor?: { breakpoints: readonly number[]; bounds: number[] };
}

/** The flight copies of one aircraft's network and its nodes in the sweep's order: all but the duals. */
interface AircraftCopies {
  copies: FlightCopies[];
  nodes: Node[];
  /** Per node, the leg's own cost (delay, swap, spill, crew duty): its leg value before the duals. */
  legCosts: Float64Array;
  /**
   * Per node, in flat arrays for the sweep, which visits every node of the network each time and
   * extends only about one in twenty (measured on the default schedule's single delays: 9.3 million
   * nodes visited, 0.45 million extended): its departure, its flight's position in the mode's list,
   * and its origin's number (`stations`).
   */
  depAt: Float64Array;
  flightAt: Int32Array;
  originAt: Int32Array;
  /** The airports some node leaves from, by number. */
  stations: Map<string, number>;
  /** Flights of other aircraft with at least one copy (max_swaps can bind only below this many). */
  foreignFlights: number;
}

/**
 * Per aircraft and mode, the flight copies of its network: they depend on the scope and the
 * configuration only, not on the duals or the strategy, so a simulation's strategies share one cache
 * (StrategyRun), and a pricing round builds none.
 */
export type PricingCache = Map<string, AircraftCopies>;

function aircraftCopies(ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode, stepMinutes: number, cache?: PricingCache): AircraftCopies {
  const key = `${a.aircraft.tail}|${mode}|${stepMinutes}`;
  const known = cache?.get(key);
  if (known) return known;
  const copies = flightCopies(ev, a, mode, stepMinutes);
  // Every copy by one number (its flight's copies one after another), sorted by departure then flight
  // (the sweep's order) in flat arrays: a network has up to tens of thousands of copies.
  const firstCopy = new Int32Array(copies.length + 1);
  for (let ci = 0; ci < copies.length; ci++) firstCopy[ci + 1] = firstCopy[ci]! + copies[ci]!.deps.length;
  const count = firstCopy[copies.length]!;
  const copyDep = new Float64Array(count);
  const copyFlight = new Int32Array(count);
  for (let ci = 0; ci < copies.length; ci++) {
    const { deps } = copies[ci]!;
    for (let di = 0; di < deps.length; di++) {
      copyDep[firstCopy[ci]! + di] = deps[di]!;
      copyFlight[firstCopy[ci]! + di] = ci;
    }
  }
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[k] = k;
  order.sort((p, q) => copyDep[p]! - copyDep[q]! || copyFlight[p]! - copyFlight[q]!);
  const positionOf = new Int32Array(count);
  const stations = new Map<string, number>();
  const depAt = new Float64Array(count);
  const flightAt = new Int32Array(count);
  const originAt = new Int32Array(count);
  const nodes = new Array<Node>(count);
  for (let position = 0; position < count; position++) {
    const k = order[position]!;
    const c = copies[copyFlight[k]!]!;
    const dep = copyDep[k]!;
    positionOf[k] = position;
    let station = stations.get(c.flight.origin);
    if (station === undefined) stations.set(c.flight.origin, (station = stations.size));
    depAt[position] = dep;
    flightAt[position] = c.index;
    originAt[position] = station;
    nodes[position] = { flight: c.flight, index: c.index, dep, arr: dep + c.block, ready: dep + c.block + c.turnaround, swapped: c.swapped, position };
  }
  const legCosts = new Float64Array(count);
  for (let ci = 0; ci < copies.length; ci++) {
    const c = copies[ci]!;
    // The crew costs change only at the crew breaks: one legCost per stretch between them.
    let next = 0;
    let constant = 0;
    for (let di = 0; di < c.deps.length; di++) {
      const dep = c.deps[di]!;
      if (di === 0 || (next < c.crewBreaks.length && c.crewBreaks[next]! <= dep)) {
        while (next < c.crewBreaks.length && c.crewBreaks[next]! <= dep) next++;
        const cost = ev.legCost(a, c.flight, dep);
        constant = cost.swap + cost.spill + cost.crewDuty;
      }
      legCosts[positionOf[firstCopy[ci]! + di]!] = c.delayPerMinute * (dep - c.flight.depMinutes) + constant;
    }
  }
  const foreignFlights = copies.filter((c) => c.swapped && c.deps.length > 0).length;
  const entry = { copies, nodes, legCosts, depAt, flightAt, originAt, stations, foreignFlights };
  cache?.set(key, entry);
  return entry;
}

function flightCopies(ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode, stepMinutes: number): FlightCopies[] {
  return pricingFlights(ev, a, mode).map((flight, index): FlightCopies => {
    const block = flight.arrMinutes - flight.depMinutes;
    return {
      flight, index, block, turnaround: ev.turnaround(a, flight.dest), swapped: flight.tail !== a.aircraft.tail,
      // The rules that do not depend on the route so far; the others are checked when a label is extended.
      deps: departureGrid(ev, flight, stepMinutes).filter((dep) => brokenLegRule(ev.legContext(a, flight.origin, flight, dep, 0, [])) === null),
      delayPerMinute: ev.cost.legDelayPerMinute(flight.bookedPassengers),
      crewBreaks: flight.crewIds.map((id) => { const duty = ev.schedule.crewById.get(id)!; return duty.dutyStartMinutes + duty.maxDutyMinutes - block + 1; }).sort((p, q) => p - q),
    };
  });
}

/** The departures at which a copy's leg value may change: the duals' breakpoints and its crew breaks, sorted (kept while the duals' are the same). */
function regionBounds(c: FlightCopies, breakpoints: readonly number[]): number[] {
  if (c.regionsFor?.breakpoints !== breakpoints) c.regionsFor = { breakpoints, bounds: [...breakpoints, ...c.crewBreaks].sort((p, q) => p - q) };
  return c.regionsFor.bounds;
}

class Heap<T> {
  private readonly items: T[] = [];
  constructor(private readonly before: (p: T, q: T) => boolean) {}
  get size(): number { return this.items.length; }
  peek(): T | undefined { return this.items[0]; }
  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(a[i]!, a[parent]!)) break;
      const item = a[i]!;
      a[i] = a[parent]!;
      a[parent] = item;
      i = parent;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.before(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        const item = a[i]!;
        a[i] = a[m]!;
        a[m] = item;
        i = m;
      }
    }
    return top;
  }
}

/**
 * The time-space network of one aircraft: its nodes (with their leg values under `duals`) and the
 * helpers the sweep and the enumeration share.
 */
class AircraftNetwork {
  readonly nodes: readonly Node[];
  readonly copies: AircraftCopies;
  readonly trackSwaps: boolean;
  readonly flightCount: number;
  /**
   * Per node: the leg's reduced cost (its own cost less the duals of its rows), NaN until asked for
   * (legValueAt): the sweep extends few nodes, the enumeration asks for all.
   */
  private readonly legValue: Float64Array;
  private readonly hardMaintenance: boolean;
  private readonly pendingByMask = new Map<number, MaintenanceCheck[]>();
  private readonly checkStations: Set<string>;
  /** Per flight (its position in the mode's list), its region bounds under these duals, once asked for. */
  private readonly regionBoundsOf: (number[] | undefined)[];

  constructor(readonly ev: RouteEvaluator, readonly a: AircraftInScope, readonly mode: PricingMode, readonly duals: PricingDuals, stepMinutes: number, trackSwaps: boolean, cache?: PricingCache) {
    this.copies = aircraftCopies(ev, a, mode, stepMinutes, cache);
    const { copies, nodes } = this.copies;
    this.flightCount = copies.length;
    this.nodes = nodes;
    this.legValue = new Float64Array(nodes.length).fill(Number.NaN);
    this.trackSwaps = trackSwaps && ev.config.constraints.max_swaps < this.copies.foreignFlights;
    this.hardMaintenance = ev.config.constraints.maintenance === 'hard';
    this.checkStations = new Set(a.checks.map((c) => c.station));
    this.regionBoundsOf = new Array(this.flightCount);
  }

  /** The leg's reduced cost at node `position`: its own cost less the duals of its rows at its departure. */
  legValueAt(position: number): number {
    let value = this.legValue[position]!;
    if (Number.isNaN(value)) {
      const node = this.nodes[position]!;
      const price = this.duals.leg(this.a, node.flight, node.dep) + (node.swapped ? this.duals.perSwap : 0);
      this.legValue[position] = value = this.copies.legCosts[position]! - price;
    }
    return value;
  }

  /**
   * The first departure after `dep` at which the leg value of flight `index` (its position in the
   * mode's list) may change: its duals' breakpoints (PricingDuals.breakpoints) and its crew breaks.
   * Between two of them the duals and the crew costs do not change; without breakpoints, every copy
   * may differ (`dep` itself is returned: no later copy is before it).
   */
  nextRegionAfter(index: number, dep: number): number {
    if (!this.duals.breakpoints) return dep;
    let bounds = this.regionBoundsOf[index];
    if (!bounds) {
      const c = this.copies.copies[index]!;
      this.regionBoundsOf[index] = bounds = regionBounds(c, this.duals.breakpoints(c.flight));
    }
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bounds[mid]! <= dep) lo = mid + 1; else hi = mid;
    }
    return lo < bounds.length ? bounds[lo]! : Number.POSITIVE_INFINITY;
  }

  /**
   * May a label be extended by `node`? The order of the mode, and the two leg rules that depend on the
   * route so far (the others were applied to the node): max_swaps and maintenance_reachable.
   */
  extends(label: Label, node: Node): boolean {
    if (this.mode === 'planned' && node.index !== label.last + 1) return false;
    if (this.mode === 'own' && node.index <= label.last) return false;
    if (this.trackSwaps && node.swapped && !withinMaxSwaps(this.ev.config, label.swaps + 1)) return false;
    if (this.hardMaintenance && !checksStillReachable(this.ev.config, this.pending(label.mask), node.arr)) return false;
    return true;
  }

  private pending(mask: number): MaintenanceCheck[] {
    let list = this.pendingByMask.get(mask);
    if (!list) this.pendingByMask.set(mask, (list = this.a.checks.filter((_, i) => (mask & (1 << i)) === 0)));
    return list;
  }

  /** The label after flying `node`. */
  fly(label: Label, node: Node): Label {
    return {
      rc: label.rc + this.legValueAt(node.position), station: node.flight.dest, arrival: node.arr, ready: node.ready,
      mask: label.mask, swaps: label.swaps + (node.swapped ? 1 : 0), last: this.mode === 'any' ? -1 : node.index, legs: label.legs + 1, prev: label, node, performed: 0,
    };
  }

  /** May a check be performed at `station`? (Else withChecks(label) is [label].) */
  checksAt(station: string): boolean {
    return this.checkStations.has(station);
  }

  /** `label` and its variants that perform checks eligible where it is (each subset of them), before anything else. */
  withChecks(label: Label): Label[] {
    if (!this.checkStations.has(label.station)) return [label];
    const eligible = this.a.checks.map((check, i) => ({ check, i }))
      .filter(({ check, i }) => (label.mask & (1 << i)) === 0 && check.station === label.station && label.arrival <= check.startMinutes);
    const variants = [label];
    for (const { check, i } of eligible) {
      for (const v of [...variants]) variants.push(performCheck(v, check, i));
    }
    return variants;
  }

  start(): Label {
    const a = this.a;
    return { rc: -this.duals.aircraft(a), station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, mask: 0, swaps: 0, last: -1, legs: 0, prev: null, node: null, performed: 0 };
  }

  /** The reduced cost of ending the route at `label` (its end costs added), or null when a route rule forbids ending there. */
  endValue(label: Label): number | null {
    if (this.mode === 'planned' && label.last !== this.flightCount - 1) return null;
    const closed = this.ev.close(this.a, label.station, label.arrival, label.ready, this.a.checks.map((_, i) => (label.mask & (1 << i)) !== 0), true);
    return closed === null ? null : label.rc + closed.cost;
  }

  /**
   * A lower bound of the cost of ending a route right after `node` (+Infinity when no route may end
   * there): every check counted as performed and none holding the aircraft, so that only the station
   * and the arrival decide; ending never costs less than that.
   */
  endBound(node: Node): number {
    const closed = this.ev.close(this.a, node.flight.dest, node.arr, node.arr + this.ev.turnaround(this.a, node.flight.dest), this.a.checks.map(() => true), false);
    return closed === null ? Number.POSITIVE_INFINITY : closed.cost;
  }

  toRoute(label: Label): Route | null {
    // One walk back along the labels: a label's leg is the route's (legs − 1)th, and the checks it
    // performed come right after that leg (-1: before the first). A check is performed once per route.
    const legs: TimedLeg[] = [];
    const checks = this.a.checks.length;
    const points = new Array<number | null>(checks).fill(null);
    for (let l: Label | null = label; l; l = l.prev) {
      const node = l.node;
      if (node) legs.push({ flight: node.flight, depMinutes: node.dep, arrMinutes: node.arr, delayMinutes: node.dep - node.flight.depMinutes });
      if (l.performed !== 0) for (let i = 0; i < checks; i++) if (l.performed & (1 << i)) points[i] = l.legs - 1;
    }
    return this.ev.finish(this.a, legs.reverse(), points);
  }
}

function flightSequence(label: Label): string {
  const ids: string[] = [];
  for (let l: Label | null = label; l; l = l.prev) if (l.node) ids.push(l.node.flight.id);
  return `${label.mask}|${ids.join(',')}`;
}

function performCheck(label: Label, check: MaintenanceCheck, index: number): Label {
  return { ...label, ready: Math.max(label.ready, check.endMinutes), mask: label.mask | (1 << index), performed: label.performed | (1 << index) };
}

/**
 * Labels with the same checks and order index, kept only while no other is at least as good: fewer
 * or as many swaps (when swaps are tracked) and a reduced cost as low.
 */
class ParetoLabels {
  /** By (mask, last) as one number: mask · 2^21 + last + 1 (a flight list is far shorter than 2^21). */
  private readonly fronts = new Map<number, Label[]>();
  /** Grows whenever a label is kept: two looks at the same version see the same labels. */
  version = 0;
  constructor(private readonly trackSwaps: boolean) {}

  add(label: Label): void {
    const key = label.mask * 2_097_152 + label.last + 1;
    const front = this.fronts.get(key);
    this.version++;
    if (!front) { this.fronts.set(key, [label]); return; }
    const track = this.trackSwaps;
    for (const l of front) if ((!track || l.swaps <= label.swaps) && l.rc <= label.rc) { this.version--; return; }
    let kept = 0;
    for (const l of front) if (!((!track || label.swaps <= l.swaps) && label.rc <= l.rc)) front[kept++] = l;
    front.length = kept;
    front.push(label);
  }

  forEach(visit: (label: Label) => void): void {
    for (const front of this.fronts.values()) for (const label of front) visit(label);
  }

  /** Each of these labels that may take `node` (AircraftNetwork.extends), flown, into `into`. */
  extendInto(net: AircraftNetwork, node: Node, into: ParetoLabels): void {
    for (const front of this.fronts.values()) for (const label of front) if (net.extends(label, node)) into.add(net.fly(label, node));
  }

  clear(): void {
    this.fronts.clear();
    this.version++;
  }
}

/**
 * The routes of `a` whose reduced cost is below `threshold` (at most `maxRoutes`, least first), and
 * the least reduced cost over the whole route space of `a` when that is negative (exact); when no
 * route prices negative, some value ≥ 0 that need not be the least (+Infinity when no route ends
 * below 0 even before its end costs), so min(0, value) is always a lower bound of every route's.
 */
export function priceRoutes(
  ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode, duals: PricingDuals,
  options: { stepMinutes: number; threshold: number; maxRoutes: number; cache?: PricingCache },
): { routes: PricedRoute[]; leastReducedCost: number } {
  // constraints.max_swaps per route rarely binds, and tracking swaps multiplies the labels: price
  // without it first (a relaxation: its least reduced cost is still a bound), and again with it only
  // when a negative route breaks it.
  const relaxed = sweep(ev, a, mode, duals, options, false);
  if (relaxed.routes.every(({ route }) => withinMaxSwaps(ev.config, route.swaps))) return relaxed;
  const exact = sweep(ev, a, mode, duals, options, true);
  return { routes: exact.routes, leastReducedCost: Math.max(relaxed.leastReducedCost, exact.leastReducedCost) };
}

function sweep(
  ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode, duals: PricingDuals,
  options: { stepMinutes: number; threshold: number; maxRoutes: number; cache?: PricingCache }, trackSwaps: boolean,
): { routes: PricedRoute[]; leastReducedCost: number } {
  const net = new AircraftNetwork(ev, a, mode, duals, options.stepMinutes, trackSwaps, options.cache);
  // The labels ready at each airport by the sweep's time: any of them may take any later departure.
  const stations = new Map<string, ParetoLabels>();
  const events = new Heap<Label>((p, q) => p.ready < q.ready);
  const ends: { label: Label; value: number }[] = [];
  let least = Number.POSITIVE_INFINITY;
  const settle = (label: Label) => {
    if (!net.checksAt(label.station)) settleVariant(label);
    else for (const variant of net.withChecks(label)) settleVariant(variant);
  };
  const settleVariant = (variant: Label) => {
    events.push(variant);
    // Ending adds costs, never subtracts, and costs at least the position's (missed checks only add
    // to it): a label whose reduced cost with that is at or above the threshold and at or above
    // 0 (or the least so far) can neither become a column nor lower the least reduced cost where it
    // must be exact (below 0). About two ends in three were such (measured on the default schedule).
    const atLeast = variant.rc + ev.positionCost(a, variant.station);
    if (atLeast >= options.threshold && (atLeast >= 0 || atLeast >= least)) return;
    const value = net.endValue(variant);
    if (value === null) return;
    least = Math.min(least, value);
    if (value < options.threshold) ends.push({ label: variant, value });
  };
  settle(net.start());
  // A later copy of a flight in the same region (before `regionEnd`), seeing the same labels at its
  // airport, is dominated by the earlier one: the same predecessors, the same duals, more delay and a
  // later arrival.
  const lookedAt = new Float64Array(net.flightCount).fill(-1);
  const regionEnd = new Float64Array(net.flightCount);
  // The best extension per resulting state; a node's labels are settled once all are known. (One set,
  // emptied per node: the sweep visits every node of the network each round, in flat arrays.)
  const extended = new ParetoLabels(net.trackSwaps);
  const { depAt, flightAt, originAt, stations: stationNumber } = net.copies;
  const byOrigin: (ParetoLabels | undefined)[] = new Array(stationNumber.size);
  // When the next label is ready (read again after every change to the events).
  let nextReady = events.peek()?.ready ?? Number.POSITIVE_INFINITY;
  for (let position = 0; position < depAt.length; position++) {
    const dep = depAt[position]!;
    if (nextReady <= dep) {
      while (events.size > 0 && events.peek()!.ready <= dep) {
        const label = events.pop()!;
        let labels = stations.get(label.station);
        if (!labels) {
          stations.set(label.station, (labels = new ParetoLabels(net.trackSwaps)));
          const number = stationNumber.get(label.station);
          if (number !== undefined) byOrigin[number] = labels;
        }
        labels.add(label);
      }
      nextReady = events.peek()?.ready ?? Number.POSITIVE_INFINITY;
    }
    const here = byOrigin[originAt[position]!];
    if (!here) continue;
    const index = flightAt[position]!;
    if (lookedAt[index] === here.version && dep < regionEnd[index]!) continue;
    lookedAt[index] = here.version;
    regionEnd[index] = net.nextRegionAfter(index, dep);
    const node = net.nodes[position]!;
    extended.clear();
    here.extendInto(net, node, extended);
    extended.forEach(settle);
    nextReady = events.peek()?.ready ?? Number.POSITIVE_INFINITY;
  }
  // The best timing of each distinct sequence of flights: columns that differ only by a hold tell the
  // master little, distinct sequences tell it more per round.
  ends.sort((p, q) => p.value - q.value);
  const routes: PricedRoute[] = [];
  const sequences = new Set<string>();
  for (const { label, value } of ends) {
    if (routes.length >= options.maxRoutes) break;
    const sequence = flightSequence(label);
    if (sequences.has(sequence)) continue;
    const route = net.toRoute(label);
    if (!route) continue;
    sequences.add(sequence);
    routes.push({ route, reducedCost: value });
  }
  return { routes, leastReducedCost: least };
}

/**
 * Every simple route of `a` (no flight twice) whose reduced cost is at most `threshold`, by a
 * depth-first search pruned with completion bounds (the least reduced cost from a node to any end,
 * computed backwards over the same network for each set of checks performed, the other resources
 * relaxed). Stops after `maxRoutes`
 * routes, or at the performance.now() instant `deadline`, and says so (`complete: false`).
 */
export function enumerateRoutes(
  ev: RouteEvaluator, a: AircraftInScope, mode: PricingMode, duals: PricingDuals,
  options: { stepMinutes: number; threshold: number; maxRoutes: number; cache?: PricingCache; deadline?: number },
): { routes: PricedRoute[]; complete: boolean } {
  const net = new AircraftNetwork(ev, a, mode, duals, options.stepMinutes, true, options.cache);
  // Completion bound of a node for the checks performed before it (a mask): its leg value plus the
  // better of ending after it or continuing with a node leaving its destination once the aircraft
  // is ready (and done with the checks it chose to perform there). Relaxed, so never above the true
  // completion: the order of flights, swaps and whether a flight is flown twice are ignored. Ending
  // costs the position (endBound) plus the checks still missed then, or is forbidden. Nodes are in
  // departure order, so a backward pass sees every possible successor first; one pass per mask
  // (aircraft have a check or two; beyond MASKED_CHECKS the checks all count as performed).
  const checkWeight = ev.cost.missedCheck();
  const masks = a.checks.length <= MASKED_CHECKS ? 1 << a.checks.length : 1;
  const fullMask = (1 << a.checks.length) - 1;
  const eligibleAt = (node: Node) => a.checks.reduce((m, check, i) => (RouteEvaluator.eligible(check, node.flight.dest, node.arr) ? m | (1 << i) : m), 0);
  const missed = (mask: number) => {
    let count = 0;
    for (let i = 0; i < a.checks.length; i++) if ((mask & (1 << i)) === 0) count++;
    return count;
  };
  // The clock is read every CLOCK_EVERY steps of either pass: a step is cheap, but a network-wide
  // aircraft has tens of thousands of nodes and a search step can look at thousands of successors,
  // and this thread also runs the solver pool's hard-stop timers.
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  let steps = 0;
  const late = () => (++steps & (CLOCK_EVERY - 1)) === 0 && performance.now() >= deadline;
  const completion = Array.from({ length: masks }, () => new Float64Array(net.nodes.length));
  const suffix = Array.from({ length: masks }, () => new Map<string, { deps: number[]; best: number[] }>());
  for (let i = net.nodes.length - 1; i >= 0; i--) {
    if (late()) return { routes: [], complete: false };
    const node = net.nodes[i]!;
    const ready = node.arr + ev.turnaround(a, node.flight.dest);
    const endBase = net.endBound(node);
    const eligible = masks > 1 ? eligibleAt(node) : 0;
    for (let m = 0; m < masks; m++) {
      // Each subset of the checks newly eligible here may be performed (holding the aircraft until
      // they end) or not (their cost stays due), as the route itself would choose.
      let best = Number.POSITIVE_INFINITY;
      const open = masks > 1 ? eligible & ~m : 0;
      for (let performed = open; ; performed = (performed - 1) & open) {
        const after = masks > 1 ? m | performed : fullMask;
        const lacking = masks > 1 ? missed(after) : 0;
        const end = endBase + (lacking === 0 ? 0 : lacking * checkWeight);
        let from = ready;
        for (let c = 0; c < a.checks.length; c++) if (performed & (1 << c)) from = Math.max(from, a.checks[c]!.endMinutes);
        // The successors' list holds deps in decreasing order (built backwards) with the best
        // completion of the nodes leaving at that dep or later.
        const next = suffix[masks > 1 ? after : 0]!.get(node.flight.dest);
        let bestNext = Number.POSITIVE_INFINITY;
        if (next) {
          const k = lastAtOrAbove(next.deps, from);
          if (k >= 0) bestNext = next.best[k]!;
        }
        best = Math.min(best, end, bestNext);
        if (performed === 0) break;
      }
      const value = net.legValueAt(i) + best;
      completion[m]![i] = value;
      let list = suffix[m]!.get(node.flight.origin);
      if (!list) suffix[m]!.set(node.flight.origin, (list = { deps: [], best: [] }));
      list.best.push(Math.min(value, list.best.at(-1) ?? Number.POSITIVE_INFINITY));
      list.deps.push(node.dep);
    }
  }
  // Per airport, its nodes in departure order with their completion bounds per mask: the successors
  // of a label are a suffix of its airport's list, found by binary search on its ready time. With each
  // bound, the least bound from there to the end of the list (the backward pass's suffix minima, in
  // departure order): a scan stops where no later node fits.
  const byOrigin = new Map<string, { nodes: Node[]; deps: number[]; bounds: number[][]; leastAfter: number[][] }>();
  net.nodes.forEach((node, i) => {
    let list = byOrigin.get(node.flight.origin);
    if (!list) {
      const leastAfter = suffix.map((lists) => [...lists.get(node.flight.origin)!.best].reverse());
      byOrigin.set(node.flight.origin, (list = { nodes: [], deps: [], bounds: Array.from({ length: masks }, () => []), leastAfter }));
    }
    list.nodes.push(node);
    list.deps.push(node.dep);
    for (let m = 0; m < masks; m++) list.bounds[m]!.push(completion[m]![i]!);
  });
  const routes: PricedRoute[] = [];
  const keys = new Set<string>();
  let complete = true;
  const flown = new Uint8Array(net.flightCount);
  const visit = (label: Label): void => {
    if (!complete) return;
    if (late()) { complete = false; return; }
    for (const variant of net.withChecks(label)) {
      const value = net.endValue(variant);
      if (value !== null && value <= options.threshold) {
        const route = net.toRoute(variant)!;
        if (!keys.has(route.key)) {
          if (routes.length >= options.maxRoutes) { complete = false; return; }
          keys.add(route.key);
          routes.push({ route, reducedCost: value });
        }
      }
      const next = byOrigin.get(variant.station);
      if (!next) continue;
      const room = options.threshold + 1e-9 - variant.rc;
      const bounds = next.bounds[masks > 1 ? variant.mask : 0]!;
      const leastAfter = next.leastAfter[masks > 1 ? variant.mask : 0]!;
      for (let k = firstAtOrAfter(next.deps, variant.ready); k < next.nodes.length; k++) {
        if (late()) { complete = false; return; }
        if (leastAfter[k]! > room) break;
        if (bounds[k]! > room) continue;
        const node = next.nodes[k]!;
        if (flown[node.index] || !net.extends(variant, node)) continue;
        flown[node.index] = 1;
        visit(net.fly(variant, node));
        flown[node.index] = 0;
        if (!complete) return;
      }
    }
  };
  visit(net.start());
  return { routes, complete };
}

/** The last index of the descending `values` at or above `at` (-1 when none is). */
function lastAtOrAbove(values: readonly number[], at: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! >= at) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

/** The first index of the ascending `values` at or above `at` (values.length when none is). */
function firstAtOrAfter(values: readonly number[], at: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < at) lo = mid + 1; else hi = mid;
  }
  return lo;
}
