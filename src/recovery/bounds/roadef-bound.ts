// Lower bounds of the ROADEF 2009 objective (docs/spec/roadef2009.md section 5) on the network engine's
// problem (network/problem.ts), priced through the cost model (model/cost-model.ts). The argument that
// each is a bound of every plan of its problem is in docs/model.md 3.9 ("The ROADEF bounds").
//
// The objective is rewritten as
//   Σ over flown legs (planned or new) of α·H(block)·COST(aircraft)  −  K
//   + what the passengers cost (delay, cancellation, downgrading, both legal compensations)  + positions,
// K = Σ over every planned leg of α·H(block)·COST(planned aircraft), a constant: a planned leg flown by
// its own aircraft adds 0 (its share of K comes back), by another the difference, cancelled −its share,
// a new flight its own cost (spec 5.3). Every term but −K is at least 0, so each part is bounded apart:
//   - flying: the legs a plan must fly (fixed, disrupted, shuttle legs on their own aircraft; in the
//     keeps-flights problem every leg outside `mayCancel`, each on some aircraft of its family within
//     the minutes that aircraft has left, a leg taking its block and the family's least ground time;
//     or, where higher, each aircraft a route in time through the legs, priced with what the legs'
//     passengers pay for their delay and seats: roadef-routes.ts), new flights at 0 (at most their cost
//     less their seats' share in the routes);
//   - passengers: each passenger at least the cheaper of its least cancellation and its arrival cost at
//     the earliest arrival any plan could give it (every flown leg at any departure its rules allow,
//     new flights from wherever an aircraft could first be, none in a clock hour whose capacity the
//     pinned legs already take), a path on a paid new flight also paying the least cost of a seat of
//     the dearest one it takes (no other part counts a new flight's cost), downgrading at 0; those
//     bound for a metro (airports the ground shuttles tie) from outside it held to the seats that can
//     land there each clock hour (the Lagrangian of those rows);
//   - positions: the required end positions (spec 5.4) that no plan can fill, because the aircraft
//     of that family, model or configuration that could stand there are too few once those out of
//     service to the window's end are counted where they stand (leastPositionCost).
import type { CostModel, TripFacts } from '../model/cost-model.ts';
import { startedHours } from '../model/cost-model.ts';
import { CANCELLED, MAX_OUTBOUND_DELAY_MINUTES, MIN_CONNECTION_MINUTES, aircraftFacts, disruptionDelays, fixedPart, tripFacts } from '../network/bookings.ts';
import { disruptedDeparture, legsTheDisruptionsMayCancel, rotations } from '../network/forced-cancellations.ts';
import { capacityCuts, hourCapacity } from '../network/operating-plan.ts';
import { leastFlyingOnRoutes, type Blocked, type RouteFamily, type RouteLeg } from './roadef-routes.ts';
import { UNLIMITED_SEATS, type NetworkAircraft, type NetworkBooking, type NetworkFlight, type NetworkProblem } from '../network/problem.ts';

export interface RoadefBoundParts {
  /** −K plus the least cost of flying the legs the problem's plans must fly. */
  flying: number;
  /** The passengers' least costs, summed. */
  passengers: number;
  /** The least position penalty (end positions no plan can fill). */
  positions: number;
}

export interface RoadefBounds {
  /** A lower bound of every feasible plan (the official objective: any leg may be cancelled, spec 5.3 credits it). */
  official: number;
  /** A lower bound of every feasible plan that cancels no planned leg outside `mayCancel` and the disruptions' cancellations. */
  keepsFlights: number;
  parts: { official: RoadefBoundParts; keepsFlights: RoadefBoundParts };
  /**
   * The planned legs the disruptions may force to go (flight ids; legsTheDisruptionsMayCancel): from the
   * first leg of a rotation that, flown as planned with the disruption delays propagated and held past
   * capacity cuts, lands after the window, meets its aircraft's unavailability or breaks its check, the
   * rest of that rotation. The keeps-flights problem cancels nothing else.
   */
  mayCancel: ReadonlySet<string>;
  /** Passengers whose least cost the bound counts as a cancellation (no arrival any plan could give them is cheaper). */
  cancelledPassengers: number;
  /** How much the seats that can land in each metro each clock hour lift the passengers' part (entrySeatsLift; included in it). */
  entrySeats: number;
  /** How much the seats of the aircraft that fly the legs lift the keeps-flights flying part (leastFlyingWithSeats; included in it). */
  legSeats: number;
  /** How much the aircraft's routes lift the keeps-flights flying part above the transportation problems (leastFlyingOnRoutes; included in it). */
  routes: number;
  /** How much the seat's share of the paid new flights lifts the passengers' least costs (leastPassengerCosts; included in the passengers' part). */
  newFlightSeats: number;
}

/** Both bounds of `problem` under `cost` (the ROADEF objective: its newLeg prices α·H·COST, its cancelledLeg credits it). */
export function roadefLowerBounds(problem: NetworkProblem, cost: CostModel): RoadefBounds {
  const delays = disruptionDelays(problem);
  const S = problem.window.startMinutes;
  const byTail = rotations(problem);
  const mayCancel = legsTheDisruptionsMayCancel(problem);
  const fly = (tail: string, blockMinutes: number) => cost.newLeg(aircraftFacts(problem, tail), blockMinutes) ?? 0;

  // Legs pinned to their planned aircraft: fixed (departed before S), disrupted (delayed: that very
  // departure on that aircraft), and the ground shuttles' (spec 4.3). The others are free to move.
  let constantK = 0;
  const free: NetworkFlight[] = [];
  for (const f of problem.flights) {
    const block = f.arrMinutes - f.depMinutes;
    constantK += fly(f.tail, block);
    const d = delays.get(f.id);
    if (d === CANCELLED) continue;
    const pinned = d !== undefined || f.depMinutes < S || problem.aircraft.get(f.tail)?.shuttle === true;
    if (pinned) constantK -= fly(f.tail, block); // flown by its own aircraft: its share of K comes back
    else free.push(f);
  }
  const positions = leastPositionCost(problem, cost, byTail, delays);
  const passengers = leastPassengerCosts(problem, cost, delays);
  const official: RoadefBoundParts = { flying: -constantK, passengers: passengers.total, positions };
  const mustFly = free.filter((f) => !mayCancel.has(f.id));
  const mayGo = free.filter((f) => mayCancel.has(f.id));
  // A passenger's excess over its least cost is charged over its legs that every plan flies and those
  // the plan may cancel (`charged`), each a share of one over their number: once in all.
  const charged = new Set([...mustFly, ...mayGo].map((f) => f.id));
  const spills = seatSpills(problem, mustFly, charged, passengers);
  const routes: RouteInputs = {
    mayGo, mayCancel, delayCosts: legDelayCosts(problem, charged, passengers), shareOf: newFlightSeatShares(problem, cost), closed: closedHours(problem, delays),
  };
  const flying = leastFlyingCost(problem, mustFly, byTail, delays, fly, spills, routes);
  const keepsFlights: RoadefBoundParts = { flying: -constantK + flying.total, passengers: passengers.total, positions };
  const sum = (p: RoadefBoundParts) => p.flying + p.passengers + p.positions;
  return {
    official: sum(official),
    keepsFlights: sum(keepsFlights),
    parts: { official, keepsFlights },
    mayCancel,
    cancelledPassengers: passengers.cancelled,
    entrySeats: passengers.entrySeats,
    legSeats: flying.seatsLift,
    routes: flying.routesLift,
    newFlightSeats: passengers.newFlightSeats,
  };
}

/**
 * Where and when each aircraft is first free at or after the window start: after its last leg departing
 * before S (after its disruption: a leg planned before S but delayed to S or later leaves inside the
 * window, and the aircraft is free before it), else at its base at S.
 */
function firstFree(problem: NetworkProblem, byTail: ReadonlyMap<string, readonly NetworkFlight[]>, delays: ReadonlyMap<string, number>): Map<string, { at: string; from: number }> {
  const S = problem.window.startMinutes;
  const state = new Map<string, { at: string; from: number }>();
  for (const a of problem.aircraft.values()) {
    let at = a.base;
    let from = S;
    for (const f of byTail.get(a.tail) ?? []) {
      if (delays.get(f.id) === CANCELLED || disruptedDeparture(f, delays) >= S) continue;
      const d = delays.get(f.id) ?? 0;
      at = f.dest;
      from = Math.max(S, f.arrMinutes + d);
    }
    state.set(a.tail, { at, from });
  }
  return state;
}

/**
 * The least α·H·COST of flying `legs` when each goes to some aircraft of its family and an aircraft
 * flies at most the airborne minutes it has left (from when it is first free to the window's end,
 * less its pinned legs and its time out of service), plus what the seats of the aircraft that flies a
 * leg leave its passengers to pay (`spills`). Per family the larger of two values, each a bound:
 * without the seats, the greedy of leastFlyingWithoutSeats (the transportation problem's optimum);
 * with them, the Lagrangian of leastFlyingWithSeats.
 */
function leastFlyingCost(
  problem: NetworkProblem, legs: readonly NetworkFlight[], byTail: ReadonlyMap<string, readonly NetworkFlight[]>,
  delays: ReadonlyMap<string, number>, fly: (tail: string, blockMinutes: number) => number, spills: SeatSpills, routes: RouteInputs,
): { total: number; seatsLift: number; routesLift: number } {
  const free = firstFree(problem, byTail, delays);
  const familyOf = (f: NetworkFlight) => problem.aircraft.get(f.tail)?.family ?? '';
  const families = new Map<string, NetworkFlight[]>();
  for (const f of legs) (families.get(familyOf(f)) ?? families.set(familyOf(f), []).get(familyOf(f))!).push(f);
  let total = 0;
  let seatsLift = 0;
  let routesLift = 0;
  for (const [family, own] of families) {
    const aircraft = [...problem.aircraft.values()].filter((a) => a.family === family && !a.shuttle);
    // The least time any aircraft of the family spends on the ground between two legs.
    const ground = Math.min(...aircraft.map((a) => Math.min(a.turnaroundMinutes, a.transitMinutes)));
    const fleet = aircraft.map((a) => ({
      perHour: fly(a.tail, 60), seats: totalSeats(a), minutes: busyMinutesLeft(problem, a, free.get(a.tail)!.from, ground, byTail, delays, routes.mayCancel),
    }));
    const demand = own.map((f) => ({ id: f.id, busy: f.arrMinutes - f.depMinutes + ground, hours: startedHours(f.arrMinutes - f.depMinutes) }));
    const withoutSeats = leastFlyingWithoutSeats(fleet, demand);
    const withSeats = leastFlyingWithSeats(fleet, demand, spills);
    const onRoutes = leastFlyingOnRoutes(routeFamily(problem, aircraft, own, routes.mayGo.filter((f) => familyOf(f) === family), ground, free, byTail, delays, fly, routes));
    total += Math.max(withoutSeats, withSeats, onRoutes);
    seatsLift += Math.max(0, withSeats - withoutSeats);
    routesLift += Math.max(0, onRoutes - Math.max(withoutSeats, withSeats));
  }
  return { total, seatsLift, routesLift };
}

/**
 * Width of the stretch of departures that starts `delayMinutes` after a leg's planned departure (RouteLeg).
 * A copy lands as if it left at its stretch's start and leaves at its end, so the routes gain up to a
 * width per leg: halving 10/20/30/60 to these lifted A01-A04 by 2,177 / 131 / 785 / 962 for about twice the copies.
 */
function stretchWidth(delayMinutes: number): number {
  return delayMinutes < 60 ? 5 : delayMinutes < 180 ? 10 : delayMinutes < 360 ? 15 : 30;
}

/**
 * The aircraft routes of one family (roadef-routes.ts) over the legs it must fly. A leg's stretches
 * cover every departure from its planned one (R7) to the last that lands by the window's end (R27),
 * each shorter than its block plus the family's least ground time (so a copy lands after it leaves);
 * an aircraft starts where and when it is first free (firstFree), waits at least its least ground time
 * after each leg (R25-R26), and flies nothing overlapping its unavailability (R21), its check (R28,
 * R31: a leg leaving before the check lands by its start, none leaves during it) or its pinned legs
 * (disrupted, leaving after it is first free, with its ground time either side). A copy costs
 * α·H·COST of the class plus what the leg's passengers pay beyond their least when it leaves in the
 * stretch with the class's seats (legDelayCosts); a leg the plan may cancel is flown once or cancelled,
 * cancelling it costing what its passengers pay then (legDelayCosts.cancelled); a new flight takes half
 * the shortest pair out of its origin plus half the shortest into its destination, rounded down, and
 * costs its operating cost less its seats' share, half at each end.
 */
function routeFamily(
  problem: NetworkProblem, aircraft: readonly NetworkAircraft[], mustFly: readonly NetworkFlight[], mayGo: readonly NetworkFlight[], ground: number,
  free: ReadonlyMap<string, { at: string; from: number }>, byTail: ReadonlyMap<string, readonly NetworkFlight[]>,
  delays: ReadonlyMap<string, number>, fly: (tail: string, blockMinutes: number) => number, { delayCosts, shareOf, mayCancel, closed }: RouteInputs,
): RouteFamily {
  const E = problem.window.endMinutes;
  const index = new Map<string, number>();
  const airport = (code: string) => index.get(code) ?? index.set(code, index.size).get(code)!;
  for (const f of problem.flights) { airport(f.origin); airport(f.dest); }
  for (const a of problem.aircraft.values()) airport(a.base);
  for (const key of problem.airportPairs.keys()) for (const code of key.split('-')) airport(code);
  const outMinutes = new Float64Array(index.size).fill(Number.POSITIVE_INFINITY);
  const inMinutes = new Float64Array(index.size).fill(Number.POSITIVE_INFINITY);
  for (const [key, pair] of problem.airportPairs) {
    const [origin, dest] = key.split('-') as [string, string];
    if (origin === dest) continue;
    const half = Math.floor(pair.blockMinutes / 2);
    outMinutes[airport(origin)] = Math.min(outMinutes[airport(origin)]!, half);
    inMinutes[airport(dest)] = Math.min(inMinutes[airport(dest)]!, half);
  }
  const classes: { perHour: number; seats: number }[] = [];
  const classOf = (a: NetworkAircraft) => {
    const perHour = fly(a.tail, 60);
    const seats = totalSeats(a);
    let k = classes.findIndex((c) => c.perHour === perHour && c.seats === seats);
    if (k < 0) k = classes.push({ perHour, seats }) - 1;
    return k;
  };
  const pinnedLegs: { flight: NetworkFlight; departure: number; owner: number }[] = [];
  const routeAircraft = aircraft.map((a, owner) => {
    const { at, from } = free.get(a.tail)!;
    const turnMinutes = Math.min(a.turnaroundMinutes, a.transitMinutes);
    const blocked: Blocked[] = [];
    for (const d of problem.disruptions) if (d.type === 'aircraft_unavailable' && d.tail === a.tail) blocked.push({ start: d.fromMinutes, end: d.toMinutes });
    if (a.check) blocked.push({ start: a.check.startMinutes, end: a.check.endMinutes });
    for (const f of byTail.get(a.tail) ?? []) {
      const d = delays.get(f.id);
      if (d === undefined || d === CANCELLED || f.depMinutes + d < from) continue;
      // A pinned leg the plan may cancel does not hold its aircraft.
      if (!mayCancel.has(f.id)) blocked.push({ start: f.depMinutes + d - turnMinutes, end: f.arrMinutes + d + turnMinutes });
      pinnedLegs.push({ flight: f, departure: f.depMinutes + d, owner });
    }
    return { airport: airport(at), from, turnMinutes, cls: classOf(a), blocked };
  });
  const stretched = (f: NetworkFlight, mustFlyIt: boolean) => {
    const block = f.arrMinutes - f.depMinutes;
    const lastDeparture = E - block;
    const stretchStarts: number[] = [];
    for (let u = f.depMinutes; u <= lastDeparture; u += Math.max(1, Math.min(stretchWidth(u - f.depMinutes), block + ground - 1))) stretchStarts.push(u);
    // A leg a plan may move leaves and lands only in clock hours the pinned legs leave open (closedHours).
    const firstUsable = stretchStarts.map((u) => firstOpenDeparture(closed.get(f.origin), closed.get(f.dest), block, u, lastDeparture));
    return { origin: airport(f.origin), dest: airport(f.dest), blockMinutes: block, stretchStarts, lastDeparture, firstUsable, mustFly: mustFlyIt };
  };
  // Legs every plan flies (rows: flown once), legs it may cancel (rows: flown once or cancelled, the
  // cancellation costing what their passengers then pay beyond their least, legDelayCosts.cancelled),
  // then pinned legs (arcs a route may take: the plan's routes use them to move its aircraft). A leg that
  // may go costs, flown, its operating cost (its share of K is credited) and its passengers' excess as a
  // leg that must fly; a pinned leg 0 (its share of K came back), at its one departure, for its aircraft only.
  const kinds = [...mustFly.map((f) => ({ f, kind: 'must' as const })), ...mayGo.map((f) => ({ f, kind: 'may' as const })), ...pinnedLegs.map((p) => ({ f: p.flight, kind: 'pinned' as const }))];
  const routeLegs: RouteLeg[] = [
    ...mustFly.map((f) => stretched(f, true)),
    ...mayGo.map((f) => ({ ...stretched(f, false), cancelCost: delayCosts.cancelled(f) })),
    ...pinnedLegs.map(({ flight, departure, owner }) => ({
      origin: airport(flight.origin), dest: airport(flight.dest), blockMinutes: flight.arrMinutes - flight.depMinutes,
      stretchStarts: [departure], lastDeparture: departure, mustFly: false, pinnedTo: owner,
    })),
  ];
  // New flights: per class, each pair's α·H·COST less its seats' share (leastPassengerCosts charges each
  // passenger of a paid new flight at most σ(block)); the teleport layer charges half the least out of an
  // airport and half the least into its destination (a chain of new flights costs at least its first one
  // plus its last, each at least twice its half).
  const outCost = classes.map(() => new Float64Array(index.size).fill(Number.POSITIVE_INFINITY));
  const inCost = classes.map(() => new Float64Array(index.size).fill(Number.POSITIVE_INFINITY));
  for (const [key, pair] of problem.airportPairs) {
    const [origin, dest] = key.split('-') as [string, string];
    if (origin === dest) continue;
    const share = shareOf(pair.blockMinutes);
    classes.forEach((c, k) => {
      const half = Math.max(0, startedHours(pair.blockMinutes) * c.perHour - (Number.isFinite(share) ? share * c.seats : 0)) / 2;
      outCost[k]![airport(origin)] = Math.min(outCost[k]![airport(origin)]!, half);
      inCost[k]![airport(dest)] = Math.min(inCost[k]![airport(dest)]!, half);
    });
  }
  return {
    airportCount: index.size, outMinutes, inMinutes, legs: routeLegs, aircraft: routeAircraft, outCost, inCost,
    copyCosts(leg, stretch) {
      const { f, kind } = kinds[leg]!;
      const hours = startedHours(f.arrMinutes - f.depMinutes);
      if (kind === 'pinned') return classes.map(() => 0);
      const departure = routeLegs[leg]!.firstUsable![stretch]!;
      const passengers = delayCosts.costs(f, departure, classes.map((c) => c.seats));
      return classes.map((c, k) => hours * c.perHour + passengers[k]!);
    },
  };
}

interface FleetMinutes { perHour: number; seats: number; minutes: number }
interface LegDemand { id: string; busy: number; hours: number }

/** Seats of every cabin of an aircraft (a ground shuttle's are unlimited: Infinity). */
function totalSeats(a: NetworkAircraft): number {
  return a.seats.E === UNLIMITED_SEATS ? Number.POSITIVE_INFINITY : a.seats.F + a.seats.B + a.seats.E;
}

/**
 * The transportation problem of leastFlyingCost without the seats. Minutes of leg ℓ on aircraft a
 * cost (H(ℓ)/busy(ℓ))·c(a): costs that are a product, so the greedy that gives the dearest minutes
 * (most started hours per busy minute) to the cheapest aircraft is optimal (rearrangement; the
 * northwest-corner rule on a Monge matrix).
 */
function leastFlyingWithoutSeats(fleet: readonly FleetMinutes[], demand: readonly LegDemand[]): number {
  const left = fleet.map((a) => ({ ...a })).sort((x, y) => x.perHour - y.perHour);
  const legs = [...demand].sort((x, y) => y.hours / y.busy - x.hours / x.busy);
  let total = 0;
  let k = 0;
  for (const leg of legs) {
    let minutesLeft = leg.busy;
    while (minutesLeft > 0 && k < left.length) {
      const take = Math.min(minutesLeft, left[k]!.minutes);
      total += (take / leg.busy) * leg.hours * left[k]!.perHour;
      minutesLeft -= take;
      left[k]!.minutes -= take;
      if (left[k]!.minutes <= 0) k++;
    }
    // More minutes than the family has left cannot all be flown; charge them at the cheapest rate (a bound still).
    if (minutesLeft > 0) total += (minutesLeft / leg.busy) * leg.hours * (left[0]?.perHour ?? 0);
  }
  return total;
}

/** Subgradient steps of the Lagrangian of leastFlyingWithSeats (without the seats it reaches the greedy's optimum within 0.3 on A01-A04). */
const SEAT_FLYING_ITERATIONS = 400;
/** Steps without a better value before the step is halved. */
const SEAT_FLYING_PATIENCE = 5;

/**
 * The transportation problem of leastFlyingCost with the seats: aircraft of one hourly cost and one
 * number of seats form a class with their minutes summed; leg ℓ flown by class k costs
 * H(ℓ)·c(k) plus spill(ℓ, seats(k)) (SeatSpills). Every plan gives each leg one class within the
 * classes' minutes, so for prices v_k ≥ 0 per minute of class k,
 * Σ_ℓ min_k (cost(ℓ, k) + v_k·busy(ℓ)) − Σ_k v_k·minutes(k) is at most what it pays (weak duality).
 * The prices follow the subgradient (each class's minutes taken beyond its own), the step halved after
 * SEAT_FLYING_PATIENCE steps without a better value; the best value is kept. A family with more
 * minutes to fly than it has gets −Infinity here (the greedy charges the rest).
 */
function leastFlyingWithSeats(fleet: readonly FleetMinutes[], demand: readonly LegDemand[], spills: SeatSpills): number {
  const classes: FleetMinutes[] = [];
  for (const a of fleet) {
    const same = classes.find((c) => c.perHour === a.perHour && c.seats === a.seats);
    if (same) same.minutes += a.minutes; else classes.push({ ...a });
  }
  const K = classes.length;
  const capacity = classes.reduce((n, c) => n + c.minutes, 0);
  if (K === 0 || demand.reduce((n, l) => n + l.busy, 0) > capacity) return Number.NEGATIVE_INFINITY;
  const costs = demand.map((leg) => Float64Array.from(classes, (c) => leg.hours * c.perHour + spills.cost(leg.id, c.seats)));
  const price = new Float64Array(K);
  const taken = new Float64Array(K);
  let best = Number.NEGATIVE_INFINITY;
  // The first step: the largest spread of one leg's costs per busy minute (a price beyond it changes nothing).
  let step = Math.max(1e-6, ...demand.map((leg, i) => (Math.max(...costs[i]!) - Math.min(...costs[i]!)) / leg.busy));
  let stalled = 0;
  for (let iteration = 0; iteration < SEAT_FLYING_ITERATIONS; iteration++) {
    taken.fill(0);
    let value = 0;
    demand.forEach((leg, i) => {
      let least = Number.POSITIVE_INFINITY;
      let chosen = 0;
      for (let k = 0; k < K; k++) {
        const c = costs[i]![k]! + price[k]! * leg.busy;
        if (c < least) { least = c; chosen = k; }
      }
      value += least;
      taken[chosen]! += leg.busy;
    });
    for (let k = 0; k < K; k++) value -= price[k]! * classes[k]!.minutes;
    if (value > best + 1e-9) { best = value; stalled = 0; } else if (++stalled >= SEAT_FLYING_PATIENCE) { step /= 2; stalled = 0; }
    const gradient = Array.from(price, (v, k) => (v > 0 || taken[k]! > classes[k]!.minutes ? taken[k]! - classes[k]!.minutes : 0));
    const norm = Math.hypot(...gradient);
    if (norm === 0) break; // every class within its minutes at these prices: the Lagrangian is at its optimum
    for (let k = 0; k < K; k++) price[k] = Math.max(0, price[k]! + (step * gradient[k]!) / norm);
  }
  return best;
}

/**
 * The least position penalty of every plan. An aircraft out of service from the window's start to its
 * end ends where it stands when that starts (heldAt); every other one may end anywhere. For
 * each required family, model and configuration `k`, with `N_k` aircraft required in all and `n_k`
 * aircraft of `k` not held so, at least `N_k − n_k − Σ_X min(required_X, held_X)` required aircraft
 * stand nowhere with one of `k` (each free aircraft fills at most one, each held one only where it is).
 * Those counts are summed per level, as the penalty counts them (spec 5.4); the penalty is priced only
 * where it does not fall as a count rises (cost.positions), which holds for the ROADEF weights.
 */
function leastPositionCost(problem: NetworkProblem, cost: CostModel, byTail: ReadonlyMap<string, readonly NetworkFlight[]>, delays: ReadonlyMap<string, number>): number {
  if (problem.requiredPositions.length === 0) return 0;
  const S = problem.window.startMinutes;
  const E = problem.window.endMinutes;
  // Out of service from the window's start (or before) to its end, an aircraft stays where it is when
  // that starts: after its last leg landed by then (a leg still in the air then leaves it unknown).
  const heldAt = (a: NetworkAircraft): string | null => {
    const out = problem.disruptions.find((d) => d.type === 'aircraft_unavailable' && d.tail === a.tail && d.fromMinutes <= S && d.toMinutes >= E);
    if (out?.type !== 'aircraft_unavailable') return null;
    let at = a.base;
    for (const f of byTail.get(a.tail) ?? []) {
      const d = delays.get(f.id);
      if (d === CANCELLED || disruptedDeparture(f, delays) >= out.fromMinutes) continue;
      if (f.arrMinutes + (d ?? 0) > out.fromMinutes) return null;
      at = f.dest;
    }
    return at;
  };
  const familyOf = new Map<string, string>();
  for (const a of problem.aircraft.values()) if (!familyOf.has(a.fleet)) familyOf.set(a.fleet, a.family);
  const levels = ['family', 'model', 'configuration'] as const;
  const keyAt = (level: (typeof levels)[number], family: string | undefined, fleet: string, configuration: string) =>
    level === 'family' ? `${family}` : level === 'model' ? `${family}|${fleet}` : `${family}|${fleet}|${configuration}`;
  const missing = { family: 0, model: 0, configuration: 0 };
  for (const level of levels) {
    const required = new Map<string, Map<string, number>>(); // key -> airport -> count
    for (const r of problem.requiredPositions) {
      const key = keyAt(level, familyOf.get(r.fleet), r.fleet, r.configuration);
      const at = required.get(key) ?? required.set(key, new Map()).get(key)!;
      at.set(r.airport, (at.get(r.airport) ?? 0) + r.count);
    }
    const freeCount = new Map<string, number>();
    const held = new Map<string, Map<string, number>>();
    for (const a of problem.aircraft.values()) {
      const key = keyAt(level, a.family, a.fleet, a.configuration);
      const airport = heldAt(a);
      if (airport === null) freeCount.set(key, (freeCount.get(key) ?? 0) + 1);
      else {
        const at = held.get(key) ?? held.set(key, new Map()).get(key)!;
        at.set(airport, (at.get(airport) ?? 0) + 1);
      }
    }
    for (const [key, at] of required) {
      let unfilled = -(freeCount.get(key) ?? 0);
      for (const [airport, count] of at) unfilled += count - Math.min(count, held.get(key)?.get(airport) ?? 0);
      missing[level] += Math.max(0, unfilled);
    }
  }
  // At one airport the misses of a family are at most those of its models, theirs at most those of their configurations.
  const least = { family: missing.family, model: Math.max(missing.model, missing.family), configuration: Math.max(missing.configuration, missing.model, missing.family) };
  const value = cost.positions(least);
  const rises = (more: typeof least) => cost.positions(more) >= value;
  const monotone = rises({ ...least, family: least.family + 1, model: least.model + 1, configuration: least.configuration + 1 })
    && rises({ ...least, model: least.model + 1, configuration: least.configuration + 1 }) && rises({ ...least, configuration: least.configuration + 1 });
  return monotone ? value : 0;
}

/**
 * Minutes aircraft `a` can still spend on free legs, each leg counting its block plus `ground` (the
 * family's least ground time): from `from` to the window's end, plus one `ground` (the last leg needs
 * none after it) and one more per period out of service (the legs before it need none either), less its
 * disrupted legs leaving after `from` that a plan may not cancel (block plus `ground` each; until
 * 2026-11-29 also those it may, whose minutes a plan that cancels them has) and its time out of service.
 */
function busyMinutesLeft(
  problem: NetworkProblem, a: NetworkAircraft, from: number, ground: number, byTail: ReadonlyMap<string, readonly NetworkFlight[]>,
  delays: ReadonlyMap<string, number>, mayCancel: ReadonlySet<string>,
): number {
  const E = problem.window.endMinutes;
  let minutes = Math.max(0, E - from) + ground;
  for (const f of byTail.get(a.tail) ?? []) {
    const d = delays.get(f.id);
    if (d === undefined || d === CANCELLED || mayCancel.has(f.id)) continue;
    if (f.depMinutes + d >= from) minutes -= f.arrMinutes - f.depMinutes + ground;
  }
  for (const d of problem.disruptions) {
    if (d.type !== 'aircraft_unavailable' || d.tail !== a.tail) continue;
    const overlap = Math.max(0, Math.min(E, d.toMinutes) - Math.max(from, d.fromMinutes));
    if (overlap > 0) minutes -= overlap - ground;
  }
  return Math.max(0, minutes);
}

/**
 * A flight any plan could give a passenger out of an airport: pinned to one departure, or free to leave
 * at or after its planned one, at the first minute from then whose clock hours (of its departure and
 * of its arrival) are not closed to it (`leave`, non-decreasing).
 */
interface PassengerArc { dest: string; block: number; pinnedDeparture: number | null; earliestDeparture: number; leave(minute: number): number; flightId: string | null }

/** The clock hours (minutes / 60) closed to departures and to arrivals at one airport (closedHours). */
interface ClosedHours { departures: ReadonlySet<number>; arrivals: ReadonlySet<number> }

/**
 * The first minute from `minute` at which a flight of `block` minutes may leave an airport closed in
 * `from` and land at one closed in `to` in open clock hours; once past `end` (too late to land in the
 * window) the minute reached. Each step skips only minutes that cannot be used, so this is the least
 * usable minute, and it is non-decreasing in `minute`.
 */
function firstOpenDeparture(from: ClosedHours | undefined, to: ClosedHours | undefined, block: number, minute: number, end: number): number {
  let t = minute;
  while (t <= end) {
    if (from?.departures.has(Math.floor(t / 60))) t = (Math.floor(t / 60) + 1) * 60;
    else if (to?.arrivals.has(Math.floor((t + block) / 60))) t = (Math.floor((t + block) / 60) + 1) * 60 - block;
    else return t;
  }
  return t;
}

/**
 * Per airport, the clock hours closed to every flight a plan may move or add: those whose capacity
 * (spec 4.6) the legs every plan flies at their own minutes already take (fixed, disrupted; ground
 * shuttles are not counted), a capacity of 0 among them. Only the hours from the window start to its
 * end are looked at.
 */
function closedHours(problem: NetworkProblem, delays: ReadonlyMap<string, number>): Map<string, ClosedHours> {
  const S = problem.window.startMinutes;
  const E = problem.window.endMinutes;
  const taken = new Map<string, number>();
  const count = (key: string) => taken.set(key, (taken.get(key) ?? 0) + 1);
  const airports = new Set<string>(problem.airportCapacity.keys());
  for (const f of problem.flights) {
    airports.add(f.origin);
    airports.add(f.dest);
    const d = delays.get(f.id);
    if (d === CANCELLED || problem.aircraft.get(f.tail)?.shuttle === true) continue;
    if (d === undefined && f.depMinutes >= S) continue; // not pinned: a plan may move it
    const shift = d ?? 0;
    count(`departures ${f.origin} ${Math.floor((f.depMinutes + shift) / 60)}`);
    count(`arrivals ${f.dest} ${Math.floor((f.arrMinutes + shift) / 60)}`);
  }
  const closed = new Map<string, { departures: Set<number>; arrivals: Set<number> }>();
  const close = (kind: 'departures' | 'arrivals', airport: string, hour: number) =>
    (closed.get(airport) ?? closed.set(airport, { departures: new Set(), arrivals: new Set() }).get(airport)!)[kind].add(hour);
  if (problem.hourlyLimits) {
    for (const l of problem.hourlyLimits) {
      const hour = Math.floor(l.hourStartMinutes / 60);
      if (l.max - l.outside - (taken.get(`${l.kind} ${l.airport} ${hour}`) ?? 0) <= 0) close(l.kind, l.airport, hour);
    }
    return closed;
  }
  const cuts = capacityCuts(problem);
  for (const airport of airports) {
    for (let hour = Math.floor(S / 60); hour <= Math.floor(E / 60); hour++) {
      const cap = hourCapacity(problem, cuts, airport, hour);
      if (cap === null) continue;
      for (const kind of ['departures', 'arrivals'] as const) {
        if (cap[kind] - (taken.get(`${kind} ${airport} ${hour}`) ?? 0) <= 0) close(kind, airport, hour);
      }
    }
  }
  return closed;
}

/**
 * Each passenger's least cost: the cheaper of its least cancellation and the arrival cost at its
 * earliest possible arrival. The earliest arrival is a time-dependent shortest path from where the
 * passenger is when the window starts (after its booking's fixed part, 30 minutes to connect; else at
 * its origin from its planned departure, spec R48) over every planned leg not cancelled by the
 * disruptions (a pinned one at its departure, any other at any departure from its planned one) and a
 * new flight between any two airports of the pairs, leaving no earlier than any aircraft could be
 * there (earliestAircraft), all landing by the window's end. Seats, aircraft, capacities and whether
 * those legs are flown at all are relaxed away; then the passengers bound for each metro from outside it
 * are held to the seats that can land there each hour (entrySeatsLift), which lifts their total by `entrySeats`.
 */
function leastPassengerCosts(problem: NetworkProblem, cost: CostModel, delays: ReadonlyMap<string, number>): PassengerCosts {
  const shareOf = newFlightSeatShares(problem, cost);
  // The seat's shares of the new flights passengers may take, from the least (σ) up.
  const shares = [...new Set([...problem.airportPairs.values()].map((p) => shareOf(p.blockMinutes)).filter(Number.isFinite))].sort((x, y) => x - y);
  const seatShare = shares[0] ?? 0;
  const search = new PassengerSearch(problem, cost, delays, passengerArcs(problem, delays), shareOf);
  const each: PassengerCosts['each'] = [];
  const metroOf = metros(problem);
  const entering = new Map<string, EnteringPassengers[]>();
  let total = 0;
  let cancelled = 0;
  let newFlightSeats = 0;
  for (const b of problem.bookings) {
    const start = passengerStart(problem, cost, b, delays);
    // A line takes no paid new flight (only planned legs and ground shuttles' new flights: it lands no
    // earlier than the search without paid ones), or takes some, the dearest of them a seat's share
    // `σ_k` (it pays that share and lands no earlier than the search with the paid ones of at most σ_k).
    const paid = search.arrivals(start).get(start.dest);
    const reachPaid = search.reachCost(start, paid);
    const options: { share: number; arrival: number }[] = [];
    let cheapest = start.cancellation;
    for (const share of [0, ...shares]) {
      if (paid === undefined || share + reachPaid >= start.cancellation) break; // dearer shares cost more at every arrival
      if (share + reachPaid >= cheapest) {
        // This share and every dearer one cost at least `share` and land no earlier than `paid`: one
        // term stands for them all at every arrival, and none of them is the least.
        options.push({ share, arrival: paid });
        break;
      }
      const arrival = share === shares.at(-1) || search.reachedByPlannedLegs(start, start.dest) ? paid : search.arrivalsAvoiding(start, null, share).get(start.dest);
      if (arrival === undefined) continue;
      options.push({ share, arrival });
      cheapest = Math.min(cheapest, share + search.reachCost(start, arrival));
      if (arrival === paid) break; // no dearer share lands earlier
    }
    const at = (minute: number) => options.reduce(
      (least, o) => Math.min(least, o.share + search.reachCost(start, Math.max(o.arrival, minute))), start.cancellation,
    );
    const least = at(Number.NEGATIVE_INFINITY);
    if (start.cancellation <= least) cancelled += b.passengers;
    total += b.passengers * least;
    newFlightSeats += b.passengers * (least - Math.min(start.cancellation, reachPaid));
    const metro = metroOf(start.dest);
    each.push({ booking: b, start, least, metro: metroOf(start.airport) !== metro ? metro : null });
    if (paid !== undefined && least < start.cancellation && metroOf(start.airport) !== metro) {
      (entering.get(metro) ?? entering.set(metro, []).get(metro)!).push({ passengers: b.passengers, least, cancellation: start.cancellation, earliest: paid, at });
    }
  }
  let entrySeats = 0;
  const lifted = new Set<string>();
  if (entering.size > 0) {
    const seats = entrySeatsByHour(problem, delays, metroOf);
    const shuttlesFrom = shuttleNewFlightStart(problem, delays);
    for (const [metro, group] of entering) {
      const lift = entrySeatsLift(group, seats(metro), shuttlesFrom, problem.window.endMinutes);
      entrySeats += lift;
      if (lift > 0) lifted.add(metro);
    }
  }
  return { total: total + entrySeats, cancelled, entrySeats, newFlightSeats, each, lifted, search, seatShare };
}

/** leastPassengerCosts' answer: the total and, per booking, where it starts and its least cost. */
interface PassengerCosts {
  total: number;
  cancelled: number;
  entrySeats: number;
  /** How much the seat's shares of paid new flights lift the least costs above those of free new flights. */
  newFlightSeats: number;
  /** Per booking: `metro` is the one it is bound for from outside it, else null. */
  each: { booking: NetworkBooking; start: PassengerStart; least: number; metro: string | null }[];
  /** The metros whose entering passengers the seats that can land lift above their least costs. */
  lifted: ReadonlySet<string>;
  search: PassengerSearch;
  /** `σ`, the least a seat of a new flight costs (leastNewFlightSeatCost), which a line on a paid new flight is charged. */
  seatShare: number;
}

/** What the routes of leastFlyingOnRoutes need beyond the transportation problems': the free legs a plan may cancel, the legs' passenger costs, the seat's share of a new flight. */
interface RouteInputs {
  mayGo: readonly NetworkFlight[];
  mayCancel: ReadonlySet<string>;
  delayCosts: LegDelayCosts;
  shareOf: (blockMinutes: number) => number;
  /** The clock hours closed to every leg a plan may move (closedHours): no copy leaves or lands in them. */
  closed: ReadonlyMap<string, ClosedHours>;
}

/** What the passengers booked on a leg pay beyond their least costs when it is flown with so many seats. */
interface SeatSpills { cost(flightId: string, seats: number): number }

/**
 * The seats' share of the flying part (leastFlyingWithSeats). A leg ℓ that every plan flies, flown
 * with `s` seats in all, carries at most `s` of the `B` passengers booked on it: at least `B − s` of
 * them take none of its seats. Such a passenger p costs at least `L¬(p, ℓ)`, the cheaper of its least
 * cancellation and its arrival cost at the earliest arrival without ℓ, where a path on a new flight
 * flown by an aircraft that is not a ground shuttle pays at least `σ`, the least a seat of a new
 * flight costs (α·H·COST over the seats, over every aircraft and pair within its range): that cost is
 * in no other part of the bound (the flying part counts no new flight), and a new flight carries at
 * most its seats. A ground shuttle's new flight costs nothing (from shuttleNewFlightStart, within its
 * range). So `spill(ℓ, s)` = the sum of the `B − s` least `w(p)·(L¬(p, ℓ) − least(p))` over those
 * passengers is at most what they pay beyond their least costs, `w(p)` = 1 over the number of the
 * booking's charged legs, those every plan flies and those it may cancel (each passenger's excess
 * counted once in all, here and in legDelayCosts, whichever of them a family's bound takes); the bookings bound for a
 * metro whose seats that can land lift its passengers (entrySeatsLift) count 0 (that excess is theirs).
 * Only legs with more passengers booked than the fewest seats of their family are counted.
 */
function seatSpills(problem: NetworkProblem, mustFly: readonly NetworkFlight[], charged: ReadonlySet<string>, passengers: PassengerCosts): SeatSpills {
  const booked = new Map<string, number>();
  for (const b of problem.bookings) for (const l of b.flights) booked.set(l.flightId, (booked.get(l.flightId) ?? 0) + b.passengers);
  const fewestSeats = new Map<string, number>();
  for (const a of problem.aircraft.values()) if (!a.shuttle) fewestSeats.set(a.family, Math.min(fewestSeats.get(a.family) ?? Number.POSITIVE_INFINITY, totalSeats(a)));
  const counted = new Set(mustFly.filter((f) => (booked.get(f.id) ?? 0) > (fewestSeats.get(problem.aircraft.get(f.tail)?.family ?? '') ?? Number.POSITIVE_INFINITY)).map((f) => f.id));
  const excess = new Map<string, number[]>();
  if (counted.size > 0) {
    const seatShare = passengers.seatShare;
    for (const { booking, start, least, metro } of passengers.each) {
      if (metro !== null && passengers.lifted.has(metro)) continue;
      // The weight is over the booking's charged legs, as legDelayCosts', whose routes replace this bound where higher.
      const weight = 1 / booking.flights.filter((l) => charged.has(l.flightId)).length;
      for (const { flightId } of booking.flights.filter((l) => counted.has(l.flightId))) {
        const more = (notRidingCost(passengers.search, start, flightId, seatShare) - least) * weight;
        if (more <= 0) continue;
        const list = excess.get(flightId) ?? excess.set(flightId, []).get(flightId)!;
        for (let i = 0; i < booking.passengers; i++) list.push(more);
      }
    }
  }
  // Per leg, the sums of its passengers' least excesses (those not listed pay 0 more): prefix[n] for the n least.
  const prefix = new Map<string, { booked: number; sums: Float64Array }>();
  for (const [flightId, list] of excess) {
    const all = booked.get(flightId)!;
    const values = new Float64Array(all);
    values.set(list, all - list.length);
    values.sort();
    const sums = new Float64Array(all + 1);
    for (let i = 0; i < all; i++) sums[i + 1] = sums[i]! + values[i]!;
    prefix.set(flightId, { booked: all, sums });
  }
  return {
    cost(flightId, seats) {
      const p = prefix.get(flightId);
      if (!p || seats >= p.booked) return 0;
      return p.sums[p.booked - Math.max(0, seats)]!;
    },
  };
}

/** What the passengers booked on a leg pay beyond their least costs when it leaves at a minute with so many seats, or when it is cancelled (legDelayCosts). */
interface LegDelayCosts {
  costs(flight: NetworkFlight, departure: number, seats: readonly number[]): number[];
  cancelled(flight: NetworkFlight): number;
}

/** Ready minutes of the searches from a leg's destination are rounded down to this grid (an earlier start never lands later). */
const RIDE_SEARCH_GRID_MINUTES = 30;

/**
 * The passengers' share of a route's copy (routeFamily). A passenger p booked on a charged leg ℓ (one
 * that every plan flies, or one it may cancel) either rides it or not. Riding it, leaving at `departure` or later, it lands at its destination
 * no earlier than `departure + block` and, when ℓ lands elsewhere, than the earliest arrival from ℓ's
 * destination 30 minutes after it lands (the search of leastPassengerCosts with every flight and no
 * seat share: lower, so still a bound): `ride(p)`, its arrival cost then. Not riding it, it costs at
 * least `L¬(p, ℓ)` (seatSpills). Its cost is also at least `least(p)`, so it pays beyond it at least
 * `e = max(0, min(ride, L¬) − least)` riding and `s = max(0, L¬ − least)` ≥ e not. With `n` seats at
 * most `n` of the `B` booked ride, so the leg's passengers pay at least `Σ w·e + the B − n least
 * w·(s − e)` (those not listed at 0), `w(p)` = 1 over the booking's charged legs (so a passenger's
 * excess is charged once in all, over its legs: the same weights as seatSpills). A cancelled leg
 * carries none of them: they pay at least `Σ w·s` (`cancelled`). Bookings bound for a metro whose
 * seats that can land lift its passengers count 0 (that excess is theirs).
 */
function legDelayCosts(problem: NetworkProblem, charged: ReadonlySet<string>, passengers: PassengerCosts): LegDelayCosts {
  const booked = new Map<string, number>();
  for (const b of problem.bookings) for (const l of b.flights) booked.set(l.flightId, (booked.get(l.flightId) ?? 0) + b.passengers);
  const search = passengers.search;
  const onLeg = new Map<string, PassengerCosts['each'][number][]>();
  for (const entry of passengers.each) {
    if (entry.metro !== null && passengers.lifted.has(entry.metro)) continue;
    for (const { flightId } of entry.booking.flights) if (charged.has(flightId)) (onLeg.get(flightId) ?? onLeg.set(flightId, []).get(flightId)!).push(entry);
  }
  // Per leg, found when a route first prices it (a family without routes needs none of these searches).
  const riders = new Map<string, { start: PassengerStart; least: number; weight: number; notRiding: number; passengers: number }[]>();
  const ridersOf = (flightId: string) => {
    let list = riders.get(flightId);
    if (!list) {
      list = (onLeg.get(flightId) ?? []).map(({ booking, start, least }) => ({
        start, least, weight: 1 / booking.flights.filter((l) => charged.has(l.flightId)).length,
        notRiding: notRidingCost(search, start, flightId, passengers.seatShare), passengers: booking.passengers,
      }));
      riders.set(flightId, list);
    }
    return list;
  };
  return {
    costs(flight, departure, seats) {
      const list = ridersOf(flight.id);
      const landing = departure + flight.arrMinutes - flight.depMinutes;
      const readyAt = Math.floor((landing + MIN_CONNECTION_MINUTES) / RIDE_SEARCH_GRID_MINUTES) * RIDE_SEARCH_GRID_MINUTES;
      let riding = 0;
      const gains: { perPassenger: number; passengers: number }[] = [];
      for (const r of list) {
        const arrival = r.start.dest === flight.dest ? landing : search.arrivals({ airport: flight.dest, arrived: Number.POSITIVE_INFINITY, readyAt }).get(r.start.dest);
        const ride = search.reachCost(r.start, arrival);
        const e = Math.max(0, Math.min(ride, r.notRiding) - r.least);
        riding += r.passengers * r.weight * e;
        gains.push({ perPassenger: r.weight * (Math.max(0, r.notRiding - r.least) - e), passengers: r.passengers });
      }
      gains.sort((x, y) => x.perPassenger - y.perPassenger);
      const all = booked.get(flight.id) ?? 0;
      const unlisted = all - gains.reduce((n, g) => n + g.passengers, 0);
      return seats.map((n) => {
        let left = Math.max(0, all - n) - unlisted;
        let spilled = 0;
        for (const g of gains) {
          if (left <= 0) break;
          const take = Math.min(left, g.passengers);
          spilled += take * g.perPassenger;
          left -= take;
        }
        return riding + spilled;
      });
    },
    cancelled(flight) {
      return ridersOf(flight.id).reduce((sum, r) => sum + r.passengers * r.weight * Math.max(0, r.notRiding - r.least), 0);
    },
  };
}

/** `L¬(p, ℓ)`: the cheaper of p's least cancellation and its arrival cost without leg `flightId` (a path on a paid new flight paying `seatShare`). */
function notRidingCost(search: PassengerSearch, start: PassengerStart, flightId: string, seatShare: number): number {
  const withoutPaid = search.reachCost(start, search.arrivalsAvoiding(start, flightId, Number.NEGATIVE_INFINITY).get(start.dest));
  const withPaid = search.reachCost(start, search.arrivalsAvoiding(start, flightId, Number.POSITIVE_INFINITY).get(start.dest)) + seatShare;
  return Math.min(start.cancellation, withoutPaid, withPaid);
}

/**
 * The least a seat of a new flight of `block` minutes costs: α·H·COST over its seats, the least over
 * every aircraft that is not a ground shuttle and has the range (+Infinity: none has). Its least over
 * the pairs is `σ`.
 */
function newFlightSeatShares(problem: NetworkProblem, cost: CostModel): (block: number) => number {
  const fleets: { facts: ReturnType<typeof aircraftFacts>; seats: number; range: number }[] = [];
  const seen = new Set<string>();
  for (const a of problem.aircraft.values()) {
    const key = `${a.fleet} ${a.configuration} ${a.costPerBlockHour} ${a.rangeMinutes}`;
    if (a.shuttle || seen.has(key) || totalSeats(a) <= 0) continue;
    seen.add(key);
    fleets.push({ facts: aircraftFacts(problem, a.tail), seats: totalSeats(a), range: a.rangeMinutes });
  }
  const known = new Map<number, number>();
  return (block) => {
    let least = known.get(block);
    if (least === undefined) {
      least = Number.POSITIVE_INFINITY;
      if (block > 0) for (const f of fleets) if (block <= f.range) least = Math.min(least, Math.max(0, (cost.newLeg(f.facts, block) ?? 0) / f.seats));
      known.set(block, least);
    }
    return least;
  };
}

/** Passengers of one booking bound for a metro they are not in, with their least cost, earliest arrival, and cost arriving no earlier than a minute. */
interface EnteringPassengers { passengers: number; least: number; cancellation: number; earliest: number; at(minute: number): number }

/**
 * Airports tied by ground shuttles' legs (CDG and ORY in the ROADEF instances), each named by one of
 * them; every other airport is its own. A passenger reaches an airport of a metro from outside it
 * only by a flight landing in it: the shuttles' planned legs stay inside.
 */
function metros(problem: NetworkProblem): (airport: string) => string {
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    const p = parent.get(a);
    if (p === undefined || p === a) return a;
    const root = find(p);
    parent.set(a, root);
    return root;
  };
  for (const f of problem.flights) {
    if (problem.aircraft.get(f.tail)?.shuttle !== true) continue;
    const [x, y] = [find(f.origin), find(f.dest)];
    if (x !== y) parent.set(x, y);
  }
  return find;
}

/**
 * Per metro, the seats that can land in it in each clock hour of the window (Infinity where an airport
 * of it has no capacity that hour): per airport, the seats of the pinned legs (fixed, disrupted; every
 * plan lands them there then) and the arrivals its capacity leaves (spec 4.6; ground shuttles are not
 * counted), each with at most the most seats of any aircraft.
 */
function entrySeatsByHour(problem: NetworkProblem, delays: ReadonlyMap<string, number>, metroOf: (airport: string) => string): (metro: string) => Map<number, number> {
  const S = problem.window.startMinutes;
  const E = problem.window.endMinutes;
  const seatsOf = (tail: string) => Object.values(problem.aircraft.get(tail)?.seats ?? {}).reduce((n, s) => n + Math.max(0, s), 0);
  const most = Math.max(0, ...[...problem.aircraft.values()].filter((a) => !a.shuttle).map((a) => seatsOf(a.tail)));
  const pinnedLandings = new Map<string, { count: number; seats: number }>();
  for (const f of problem.flights) {
    const d = delays.get(f.id);
    if (d === CANCELLED || problem.aircraft.get(f.tail)?.shuttle === true) continue;
    if (d === undefined && f.depMinutes >= S) continue; // not pinned: a plan may move it
    const key = `${f.dest} ${Math.floor((f.arrMinutes + (d ?? 0)) / 60)}`;
    const p = pinnedLandings.get(key) ?? pinnedLandings.set(key, { count: 0, seats: 0 }).get(key)!;
    p.count += 1;
    p.seats += seatsOf(f.tail);
  }
  const limits = new Map<string, number>();
  for (const l of problem.hourlyLimits ?? []) if (l.kind === 'arrivals') limits.set(`${l.airport} ${Math.floor(l.hourStartMinutes / 60)}`, l.max - l.outside);
  const cuts = capacityCuts(problem);
  const capacity = (airport: string, hour: number): number | null =>
    problem.hourlyLimits ? (limits.get(`${airport} ${hour}`) ?? null) : (hourCapacity(problem, cuts, airport, hour)?.arrivals ?? null);
  const airports = new Set<string>([...problem.airportCapacity.keys(), ...problem.flights.flatMap((f) => [f.origin, f.dest])]);
  return (metro) => {
    const byHour = new Map<number, number>();
    for (let hour = Math.floor(S / 60); hour * 60 <= E; hour++) {
      let seats = 0;
      for (const airport of airports) {
        if (metroOf(airport) !== metro) continue;
        const cap = capacity(airport, hour);
        const pinned = pinnedLandings.get(`${airport} ${hour}`) ?? { count: 0, seats: 0 };
        seats += cap === null ? Number.POSITIVE_INFINITY : pinned.seats + Math.max(0, cap - pinned.count) * most;
      }
      byHour.set(hour, seats);
    }
    return byHour;
  };
}

/** Subgradient steps of the entry seats' Lagrangian (entrySeatsLift): enough for its value to settle on A04. */
const ENTRY_SEAT_ITERATIONS = 300;
/** Steps without a better value after which the step halves. */
const ENTRY_SEAT_PATIENCE = 5;

/**
 * How much the seats that can land in a metro each hour lift the least costs of `group` (passengers
 * bound for it from outside): each lands on its way in in some clock hour, on a counted flight (at most
 * `seats` of the hour, an hour not listed unlimited) or on a shuttle's new flight from `shuttlesFrom`
 * (not counted), and then costs at least `at` of that hour's start; or is not carried (its cancellation). The
 * Lagrangian of the hourly seat rows with prices π ≥ 0, Σ min over hours (at(h) + π_h) − Σ π_h·seats_h,
 * is at most the least total over such landings (weak duality) and is Σ least at π = 0; the prices
 * follow the subgradient (the passengers each hour takes beyond its seats), its step halved whenever
 * ENTRY_SEAT_PATIENCE steps find no better value; the best value is kept.
 */
function entrySeatsLift(group: readonly EnteringPassengers[], seats: ReadonlyMap<number, number>, shuttlesFrom: number, end: number): number {
  const hours = [...seats.keys()].sort((x, y) => x - y);
  const limited = hours.filter((h) => Number.isFinite(seats.get(h)!));
  if (limited.length === 0) return 0;
  // Per booking, the cost of landing in each hour from its earliest on, and of what needs no counted seat;
  // of the limited hours only those cheaper than the latter (a price is never negative).
  const capacity = Float64Array.from(limited, (h) => seats.get(h)!);
  const options = group.map((p) => {
    const open = hours.filter((h) => h * 60 + 59 >= p.earliest);
    const unlimited = Math.min(
      p.cancellation,
      ...open.filter((h) => !Number.isFinite(seats.get(h)!)).map((h) => p.at(h * 60)),
      shuttlesFrom <= end ? p.at(shuttlesFrom) : Number.POSITIVE_INFINITY,
    );
    const rows: number[] = [];
    const costs: number[] = [];
    limited.forEach((h, i) => {
      if (h * 60 + 59 < p.earliest) return;
      const c = p.at(h * 60);
      if (c < unlimited) { rows.push(i); costs.push(c); }
    });
    return { passengers: p.passengers, least: p.least, unlimited, rows: Int32Array.from(rows), costs: Float64Array.from(costs) };
  });
  const base = group.reduce((n, p) => n + p.passengers * p.least, 0);
  const price = new Float64Array(limited.length);
  const taken = new Float64Array(limited.length);
  let best = base;
  // The first step: the most an entering passenger's cost can rise above its least (a price beyond it changes nothing).
  let step = Math.max(1, ...options.map((o) => o.unlimited - o.least));
  let stalled = 0;
  for (let k = 0; k < ENTRY_SEAT_ITERATIONS; k++) {
    taken.fill(0);
    let value = 0;
    for (const o of options) {
      let least = o.unlimited;
      let row = -1;
      for (let j = 0; j < o.rows.length; j++) {
        const c = o.costs[j]! + price[o.rows[j]!]!;
        if (c < least) { least = c; row = o.rows[j]!; }
      }
      value += o.passengers * least;
      if (row >= 0) taken[row]! += o.passengers;
    }
    for (let i = 0; i < limited.length; i++) value -= price[i]! * capacity[i]!;
    if (value > best + 1e-9) { best = value; stalled = 0; } else if (++stalled >= ENTRY_SEAT_PATIENCE) { step /= 2; stalled = 0; }
    const gradient = Array.from(price, (pi, i) => (pi > 0 || taken[i]! > capacity[i]! ? taken[i]! - capacity[i]! : 0));
    const norm = Math.hypot(...gradient);
    if (norm === 0) break; // every hour within its seats at these prices: the Lagrangian is at its optimum
    for (let i = 0; i < limited.length; i++) price[i] = Math.max(0, price[i]! + (step * gradient[i]!) / norm);
  }
  return best - base;
}

/** Where a booking's passengers stand when the window starts, and what they cost not carried. */
interface PassengerStart {
  trip: TripFacts;
  outbound: boolean;
  /** The airport they leave from; `arrived` is when they landed there (+Infinity at their origin), `readyAt` the first minute they may leave. */
  airport: string;
  arrived: number;
  readyAt: number;
  dest: string;
  plannedArrival: number;
  /** Per passenger, the least cancellation (leastCancellation). */
  cancellation: number;
}

function passengerStart(problem: NetworkProblem, cost: CostModel, b: NetworkBooking, delays: ReadonlyMap<string, number>): PassengerStart {
  const fixed = fixedPart(problem, b, delays);
  const trip = tripFacts(problem, b, fixed.length > 0);
  const first = problem.flightsById.get(b.flights[0]!.flightId)!;
  const last = problem.flightsById.get(b.flights.at(-1)!.flightId)!;
  const base = { trip, outbound: b.direction !== 'inbound', dest: last.dest, plannedArrival: last.arrMinutes, cancellation: leastCancellation(cost, trip) };
  if (fixed.length > 0) {
    const leg = problem.flightsById.get(fixed.at(-1)!.flightId)!;
    const arrived = leg.arrMinutes + (delays.get(leg.id) ?? 0);
    return { ...base, airport: leg.dest, arrived, readyAt: arrived + MIN_CONNECTION_MINUTES };
  }
  return { ...base, airport: first.origin, arrived: Number.POSITIVE_INFINITY, readyAt: first.depMinutes };
}

/** Earliest-arrival searches over one set of passenger arcs, cached, and what an arrival costs a passenger. */
class PassengerSearch {
  private readonly cache = new Map<string, Map<string, number>>();
  constructor(
    private readonly problem: NetworkProblem, private readonly cost: CostModel,
    private readonly delays: ReadonlyMap<string, number>, private readonly arcs: ReadonlyMap<string, readonly PassengerArc[]>,
    private readonly shareOf: (block: number) => number,
  ) {}

  /** Earliest arrivals from where `start` stands. */
  arrivals(start: Pick<PassengerStart, 'airport' | 'arrived' | 'readyAt'>): Map<string, number> {
    const key = `${start.airport} ${start.arrived} ${start.readyAt}`;
    let found = this.cache.get(key);
    if (!found) {
      const viaNew = new Set<string>();
      this.cache.set(key, (found = earliestArrivalsFrom(this.arcs, start.airport, start.arrived, start.readyAt, this.problem.window.endMinutes, undefined, viaNew)));
      this.viaNew.set(key, viaNew);
    }
    return found;
  }

  /** Whether arrivals(start) reaches `airport` that early over planned legs alone (then no search with fewer arcs lands there earlier). */
  reachedByPlannedLegs(start: Pick<PassengerStart, 'airport' | 'arrived' | 'readyAt'>, airport: string): boolean {
    this.arrivals(start);
    return !this.viaNew.get(`${start.airport} ${start.arrived} ${start.readyAt}`)!.has(airport);
  }

  private readonly viaNew = new Map<string, ReadonlySet<string>>();

  /**
   * Earliest arrivals from where `start` stands without planned leg `flightId` (null: every leg), on
   * paid new flights whose seat's share is at most `paidUpTo` (+Infinity: every one; −Infinity: none)
   * and ground shuttles' new flights (from shuttleNewFlightStart, within their range).
   */
  arrivalsAvoiding(start: Pick<PassengerStart, 'airport' | 'arrived' | 'readyAt'>, flightId: string | null, paidUpTo: number): Map<string, number> {
    const key = `${start.airport} ${start.arrived} ${start.readyAt} ${flightId} ${paidUpTo}`;
    let found = this.cache.get(key);
    if (!found) {
      const shuttles = this.shuttleNewFlights ??= shuttleNewFlightReach(this.problem, this.delays);
      const admit = (arc: PassengerArc) => {
        if (flightId !== null && arc.flightId === flightId) return null;
        if (arc.flightId !== null || this.shareOf(arc.block) <= paidUpTo) return Number.NEGATIVE_INFINITY;
        return arc.block <= shuttles.rangeMinutes ? shuttles.from : null;
      };
      this.cache.set(key, (found = earliestArrivalsFrom(this.arcs, start.airport, start.arrived, start.readyAt, this.problem.window.endMinutes, admit)));
    }
    return found;
  }

  private shuttleNewFlights: { from: number; rangeMinutes: number } | undefined;

  /** Per passenger, arriving at `arrival` (undefined: never): the arrival cost, +Infinity when not allowed (R50) or never. */
  reachCost(start: PassengerStart, arrival: number | undefined): number {
    if (arrival === undefined) return Number.POSITIVE_INFINITY;
    const delay = Math.max(0, arrival - start.plannedArrival);
    if (start.outbound && delay > MAX_OUTBOUND_DELAY_MINUTES[start.trip.haul]) return Number.POSITIVE_INFINITY;
    return this.cost.arrival(start.trip, delay, true);
  }
}

/**
 * The flights any plan could give a passenger: every planned leg not cancelled by the disruptions
 * (pinned at its departure, the others at any departure from their planned one) and a new flight
 * between any two airports of the pairs, leaving no earlier than any aircraft could be there
 * (earliestAircraft); none in a clock hour the pinned legs close.
 */
function passengerArcs(problem: NetworkProblem, delays: ReadonlyMap<string, number>): Map<string, PassengerArc[]> {
  const S = problem.window.startMinutes;
  const E = problem.window.endMinutes;
  const arcs = new Map<string, PassengerArc[]>();
  const add = (from: string, arc: PassengerArc) => (arcs.get(from) ?? arcs.set(from, []).get(from)!).push(arc);
  const closed = closedHours(problem, delays);
  const leaving = (origin: string, dest: string, block: number) => {
    const from = closed.get(origin);
    const to = closed.get(dest);
    return from?.departures.size || to?.arrivals.size ? (minute: number) => firstOpenDeparture(from, to, block, minute, E) : (minute: number) => minute;
  };
  for (const f of problem.flights) {
    const d = delays.get(f.id);
    if (d === CANCELLED) continue;
    const pinned = d !== undefined || f.depMinutes < S || problem.aircraft.get(f.tail)?.shuttle === true;
    const block = f.arrMinutes - f.depMinutes;
    add(f.origin, { dest: f.dest, block, pinnedDeparture: pinned ? disruptedDeparture(f, delays) : null, earliestDeparture: f.depMinutes, leave: leaving(f.origin, f.dest, block), flightId: f.id });
  }
  const ready = earliestAircraft(problem, delays);
  const longest = Math.max(0, ...[...problem.aircraft.values()].map((a) => a.rangeMinutes));
  for (const [key, pair] of problem.airportPairs) {
    const [origin, dest] = key.split('-') as [string, string];
    const at = ready.get(origin);
    if (at === undefined || pair.blockMinutes > longest || origin === dest) continue;
    add(origin, { dest, block: pair.blockMinutes, pinnedDeparture: null, earliestDeparture: Math.max(S, at), leave: leaving(origin, dest, pair.blockMinutes), flightId: null });
  }
  return arcs;
}

/** The least a passenger of `trip` not carried costs: a trip begun is cancelled at the inbound price; one not begun at the cheaper of both (no legs, or misrouted). */
function leastCancellation(cost: CostModel, trip: TripFacts): number {
  const begun = cost.tripCancellation({ ...trip, begun: true });
  return trip.begun ? begun : Math.min(begun, cost.tripCancellation({ ...trip, begun: false }));
}

/**
 * Earliest arrival at every airport from `origin` (where the passenger arrived at `arrived`, or
 * +Infinity when it starts there) leaving at `readyAt` or later, a 30-minute connection after each leg,
 * landing by `end`, over the arcs `admit` lets leave (at the minute it returns or later; null: never):
 * Dijkstra on arrival times (the arcs are FIFO: leaving later never lands earlier). `viaNew`, when
 * given, gets the airports whose earliest arrival the search reached only over a new flight: one it
 * leaves out is reached that early by planned legs alone (one it lists may be too, when two paths tie).
 */
function earliestArrivalsFrom(
  arcs: ReadonlyMap<string, readonly PassengerArc[]>, origin: string, arrived: number, readyAt: number, end: number,
  admit: (arc: PassengerArc) => number | null = () => Number.NEGATIVE_INFINITY, viaNew?: Set<string>,
): Map<string, number> {
  // A round trip ends where it starts: the origin's arrival is only a leg's (or the fixed part's).
  const best = new Map<string, number>(arrived === Number.POSITIVE_INFINITY ? [] : [[origin, arrived]]);
  const done = new Set<string>();
  const readyOf = new Map<string, number>([[origin, readyAt]]);
  for (let next = settleNext(readyOf, done); next !== null; next = settleNext(readyOf, done)) {
    const [airport, at] = next;
    for (const arc of arcs.get(airport) ?? []) {
      const from = admit(arc);
      if (from === null) continue;
      const dep = arc.pinnedDeparture ?? arc.leave(Math.max(arc.earliestDeparture, at, from));
      if (dep < at || dep < from) continue;
      const arr = dep + arc.block;
      if (arr > end) continue;
      const known = best.get(arc.dest) ?? Number.POSITIVE_INFINITY;
      const overNew = arc.flightId === null || viaNew?.has(airport) === true;
      if (arr < known) {
        best.set(arc.dest, arr);
        if (overNew) viaNew?.add(arc.dest);
        else viaNew?.delete(arc.dest);
        if (!done.has(arc.dest)) readyOf.set(arc.dest, Math.min(readyOf.get(arc.dest) ?? Number.POSITIVE_INFINITY, arr + MIN_CONNECTION_MINUTES));
      } else if (arr === known && !overNew) viaNew?.delete(arc.dest);
    }
  }
  return best;
}

/**
 * Dijkstra's selection step of earliestArrivalsFrom and earliestAircraft: the unsettled airport of `keys`
 * with the least key, now settled (added to `done`), or null when every airport reached is settled.
 * A linear scan: the airports reached are a few hundred at most.
 */
function settleNext(keys: ReadonlyMap<string, number>, done: Set<string>): [string, number] | null {
  let airport: string | null = null;
  let least = Number.POSITIVE_INFINITY;
  for (const [a, key] of keys) if (!done.has(a) && key < least) { airport = a; least = key; }
  if (airport === null) return null;
  done.add(airport);
  return [airport, least];
}

/**
 * The earliest minute some aircraft could stand at each airport ready to leave: from where each
 * aircraft is first free (firstFree), over new flights it has the range for (block plus its
 * turnaround) and planned legs' airport pairs at their planned block or later departure. Every
 * aircraft, out of service or not, and with no regard to its other legs: the least over all.
 */
function earliestAircraft(problem: NetworkProblem, delays: ReadonlyMap<string, number>): Map<string, number> {
  const byTail = rotations(problem);
  const free = firstFree(problem, byTail, delays);
  const plannedPairs = new Map<string, { dest: string; block: number; earliestDeparture: number }[]>();
  for (const f of problem.flights) {
    if (delays.get(f.id) === CANCELLED) continue;
    (plannedPairs.get(f.origin) ?? plannedPairs.set(f.origin, []).get(f.origin)!).push({ dest: f.dest, block: f.arrMinutes - f.depMinutes, earliestDeparture: f.depMinutes });
  }
  const pairsFrom = new Map<string, { dest: string; block: number }[]>();
  for (const [key, pair] of problem.airportPairs) {
    const [origin, dest] = key.split('-') as [string, string];
    if (origin !== dest) (pairsFrom.get(origin) ?? pairsFrom.set(origin, []).get(origin)!).push({ dest, block: pair.blockMinutes });
  }
  const earliest = new Map<string, number>();
  // Aircraft that share a start, a range and a turnaround reach the same airports at the same minutes.
  const starts = new Map<string, { at: string; from: number; range: number; turn: number }>();
  for (const a of problem.aircraft.values()) {
    const { at, from } = free.get(a.tail)!;
    starts.set(`${at} ${from} ${a.rangeMinutes} ${a.turnaroundMinutes}`, { at, from, range: a.rangeMinutes, turn: Math.min(a.turnaroundMinutes, a.transitMinutes) });
  }
  for (const { at, from, range, turn } of starts.values()) {
    const readyAt = new Map<string, number>([[at, from]]);
    const done = new Set<string>();
    for (let next = settleNext(readyAt, done); next !== null; next = settleNext(readyAt, done)) {
      const [airport, t] = next;
      if (t < (earliest.get(airport) ?? Number.POSITIVE_INFINITY)) earliest.set(airport, t);
      const relax = (dest: string, arr: number) => {
        if (arr + turn < (readyAt.get(dest) ?? Number.POSITIVE_INFINITY)) readyAt.set(dest, arr + turn);
      };
      for (const p of pairsFrom.get(airport) ?? []) if (p.block <= range) relax(p.dest, Math.max(t, problem.window.startMinutes) + p.block);
      for (const p of plannedPairs.get(airport) ?? []) relax(p.dest, Math.max(t, p.earliestDeparture) + p.block);
    }
  }
  return earliest;
}

/**
 * The earliest minute a ground shuttle (a TranspCom aircraft, which flies free and is not counted in
 * the capacities) could leave on a new flight: the start of the first stretch between its legs that
 * every plan flies as planned (spec R19a-c), or after the last, long enough for the shortest pair within
 * its range and landing by the window's end. +Infinity when there is none.
 */
function shuttleNewFlightStart(problem: NetworkProblem, delays: ReadonlyMap<string, number>): number {
  return shuttleNewFlightReach(problem, delays).from;
}

/** shuttleNewFlightStart, and the longest block a ground shuttle may fly (0 without one). */
function shuttleNewFlightReach(problem: NetworkProblem, delays: ReadonlyMap<string, number>): { from: number; rangeMinutes: number } {
  const E = problem.window.endMinutes;
  const byTail = rotations(problem);
  const free = firstFree(problem, byTail, delays);
  let earliest = Number.POSITIVE_INFINITY;
  let rangeMinutes = 0;
  for (const a of problem.aircraft.values()) {
    if (!a.shuttle) continue;
    rangeMinutes = Math.max(rangeMinutes, a.rangeMinutes);
    const shortest = Math.min(...[...problem.airportPairs.values()].map((p) => p.blockMinutes).filter((m) => m > 0 && m <= a.rangeMinutes));
    let ready = free.get(a.tail)!.from;
    for (const f of byTail.get(a.tail) ?? []) {
      if (delays.get(f.id) === CANCELLED) continue;
      const dep = disruptedDeparture(f, delays);
      if (dep < ready) continue;
      if (dep - ready >= shortest) break;
      ready = f.arrMinutes + (delays.get(f.id) ?? 0);
    }
    if (E - ready >= shortest) earliest = Math.min(earliest, ready);
  }
  return { from: earliest, rangeMinutes };
}
