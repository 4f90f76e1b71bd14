// The network engine's search: a local search over whole-network operating plans of a NetworkProblem
// (problem.ts), each plan priced exactly for its passengers by GLPK, under the cost model it is given.
//
// A plan is the reference walk (operating-plan.ts, which keeps every aircraft, maintenance and airport
// rule) over changes a search may make: departures held, flights given to another aircraft or
// cancelled, ferries added. Its cost is the operating cost (plan-cost.ts) plus the optimal passenger
// plan for it (passenger-plan.ts, an integer multi-commodity flow). The search starts from the
// reference plan and applies moves while they lower the cost:
//   - hold: a leg whose booked connection the delays broke waits until the connection holds again
//     (departure = the feeder's arrival + 30 minutes), its aircraft's later legs following: for
//     passengers cancelled, and (tried later) for passengers re-routed;
//   - exchange: two aircraft of a family on the ground at one airport swap the rest of their rotations
//     (the one that cannot fly hers, unavailable or stranded, hands them to one that can; or a full
//     leg that leaves passengers behind goes to a larger aircraft);
//   - ferry: an aircraft that ends the window away from where the next day needs it flies there empty
//     after its last leg (a new flight, priced at its operating cost);
//   - transfer: a round trip goes to an aircraft of the family, cheaper or larger, idle at the trip's
//     airport for it (round-trip-transfers.ts); or, tried after every other move, one that lands there
//     later, the trip held until it is ready (a late transfer);
//   - trip: passengers left without a seat are flown to their destination by an aircraft whose
//     rotation ends where they are (there and back), or fetched by one that ends where they go (two
//     new flights after its last leg);
//   - cancel a round trip: two or three legs that bring an aircraft back where it was are cancelled,
//     their operating cost saved, when their passengers find other seats;
//   - position ferries, tried after the others but the last moves (holds for re-routed passengers,
//     late transfers): one aircraft, or two of a family
//     trading places, ferry to where the next day needs their model or configuration, when the
//     penalty saved pays the ferries.
// Without the round-trip cancellations (`engine-keeps-flights`) the search keeps to the keeps-flights
// problem: a hold or an exchange can make the walk cancel a leg the disruptions leave flyable (it
// pushes legs past the window, hands an aircraft legs it cannot reach), and such a plan is dropped
// after its walk, before its passengers are priced (forced-cancellations.ts says which legs a plan may cancel).
// The first incumbent is the reference plan itself, so there is a solution from the first millisecond;
// each better plan is reported as it is found.
import type { CostModel } from '../model/cost-model.ts';
import { RecoveryError } from '../model/failure.ts';
import type { Solver } from '../model/solver-port.ts';
import type { WalkRules } from '../model/walk-rules.ts';
import { MIN_CONNECTION_MINUTES, aircraftFacts, disruptionDelays, fixedPart, passengersLeftBehind, pinned } from './bookings.ts';
import { keepsFlights, legsTheDisruptionsMayCancel, rotations } from './forced-cancellations.ts';
import { solveReferencePlan, type NewTrip, type PlanChanges } from './operating-plan.ts';
import { planPassengers } from './passenger-plan.ts';
import { endAirports, lastFlownLegs, missingPositions, operatingCost } from './plan-cost.ts';
import { LAST_MOVES_PRIORITY, roundTripTransfers } from './round-trip-transfers.ts';
import { CABIN_CODES, pairKey, type NetworkBooking, type NetworkPlan, type NetworkProblem, type PlanLeg } from './problem.ts';

/** Longest hold tried to protect a connection, minutes. */
const MAX_HOLD_MINUTES = 180;
/** Minutes late from which a leg's aircraft is offered an exchange (rotationExchanges' `late`). */
const LATE_EXCHANGE_MINUTES = 30;
/** Late legs offered an exchange from one plan, the most passenger-minutes late first. */
const LATE_EXCHANGES = 8;
/** Aircraft tried per group of stranded passengers and way (there and back, or fetched), earliest available first. */
const TRIP_AIRCRAFT = 3;
/** End-position ferries offered from one plan, the largest net savings first. */
const POSITION_FERRIES = 8;
/** Longest a passenger plan may take, milliseconds (an A instance takes about one second, the set X size about 45 s). */
const PASSENGER_SOLVE_LIMIT_MS = 180_000;

/** A plan the search has priced: the changes it layers on the reference walk, the plan, its cost. */
interface Plan {
  changes: Required<PlanChanges>;
  solution: NetworkPlan;
  cost: number;
}

interface Move {
  /** Identifies the move, so that one tried without gain is not tried again from the same plan. */
  key: string;
  /** How promising the move is (mostly the passengers it may help): moves are tried highest first. */
  priority: number;
  apply: (changes: Required<PlanChanges>) => Required<PlanChanges>;
}

/** The legs a plan flies, by flight id. */
function flownByKey(plan: Plan): Map<string, PlanLeg> {
  return new Map(plan.solution.legs.filter((r) => r.tail !== null).map((r) => [r.flightId, r]));
}

class EngineSearch {
  private readonly delays: ReadonlyMap<string, number>;
  private readonly S: number;
  /** Where each aircraft's planned rotation leaves it. */
  private readonly plannedEnd = new Map<string, string>();
  /** The problem's bookings by id. */
  private readonly bookings: ReadonlyMap<string, NetworkBooking>;
  /** Without `cancelRoundTrips`: the legs a plan may cancel besides the disruptions' own cancellations. */
  private readonly mayCancel: ReadonlySet<string> | null;

  constructor(
    private readonly problem: NetworkProblem, private readonly glpk: Solver, private readonly signal: AbortSignal, private readonly deadline: number,
    private readonly options: EngineOptions,
  ) {
    this.delays = disruptionDelays(problem);
    this.bookings = new Map(problem.bookings.map((b) => [b.id, b]));
    this.S = problem.window.startMinutes;
    this.mayCancel = options.cancelRoundTrips ? null : legsTheDisruptionsMayCancel(problem);
    for (const [tail, legs] of rotations(problem)) this.plannedEnd.set(tail, legs.at(-1)!.dest);
  }

  /**
   * The operating plan of `changes` (the walk, a few milliseconds on an A instance); null when it
   * leaves the search's problem: without `cancelRoundTrips`, it cancels a leg outside the disruptions'
   * cancellations and the legs they may force to go.
   */
  walk(changes: Required<PlanChanges>): NetworkPlan | null {
    const ops = solveReferencePlan(this.problem, changes, this.options.rules);
    return this.mayCancel && !keepsFlights(this.problem, ops, this.mayCancel) ? null : ops;
  }

  /** The walked plan of `changes` with its optimal passengers; null when no passenger plan came back in time. */
  async price(changes: Required<PlanChanges>, ops: NetworkPlan): Promise<Plan | null> {
    const left = this.deadline - performance.now();
    if (left <= 0 || this.signal.aborted) return null;
    const passengers = await planPassengers(this.problem, ops.legs, this.options.cost, this.glpk, { timeLimitMs: Math.min(PASSENGER_SOLVE_LIMIT_MS, left), signal: this.signal, deadline: this.deadline });
    if (!passengers) return null;
    return { changes, solution: { legs: ops.legs, passengers: passengers.lines }, cost: operatingCost(this.problem, ops.legs, this.options.cost) + passengers.objective };
  }

  /** Whether the search may move a flight (spec 4.3): not disrupted, not before the window, not a shuttle's. */
  private movable(key: string): boolean {
    const leg = this.problem.flightsById.get(key);
    return !!leg && !pinned(this.problem, this.delays, leg);
  }

  /**
   * Holds that would mend a booked connection the plan breaks, for bookings not carried as booked:
   * those with passengers cancelled (priority: those passengers), and, as moves of their own, those
   * re-routed (in -2..-1, the most passengers first: after every other move but the late transfers,
   * LAST_MOVES_PRIORITY, so the search follows its old path first; tried among the other moves, they
   * took A03's search off the path to its position ferries). On A01 a missed connection sends
   * re-routed passengers hours later, where a hold of minutes costs the departing leg's passengers less.
   */
  private holds(plan: Plan): Move[] {
    const flown = flownByKey(plan);
    const cancelled = new Map<string, number>(); // booking -> passengers cancelled
    const rerouted = new Map<string, number>(); // booking -> passengers carried on other flights than booked
    for (const line of plan.solution.passengers) {
      const booked = this.bookings.get(line.booking)!.flights;
      const asBooked = !line.cancelled && line.flights.length === booked.length && line.flights.every((l, i) => l.flightId === booked[i]!.flightId);
      const into = line.cancelled ? cancelled : asBooked ? null : rerouted;
      into?.set(line.booking, (into.get(line.booking) ?? 0) + line.passengers);
    }
    const moves = new Map<string, Move>();
    for (const [unserved, priority] of [[cancelled, (n: number) => n], [rerouted, (n: number) => LAST_MOVES_PRIORITY - 1 / (1 + n)]] as const) {
      const wanted = new Map<string, { notBefore: number; passengers: number }>();
      for (const it of this.problem.bookings) {
        const lost = unserved.get(it.id) ?? 0;
        if (lost === 0) continue;
        for (let i = 0; i + 1 < it.flights.length; i++) {
          const feeder = flown.get(it.flights[i]!.flightId);
          const nextKey = it.flights[i + 1]!.flightId;
          const next = flown.get(nextKey);
          if (!feeder || !next || !this.movable(nextKey)) continue;
          const needed = feeder.arrMinutes + MIN_CONNECTION_MINUTES;
          if (next.depMinutes >= needed || needed - next.depMinutes > MAX_HOLD_MINUTES) continue;
          const seen = wanted.get(nextKey);
          wanted.set(nextKey, { notBefore: Math.max(seen?.notBefore ?? 0, needed), passengers: (seen?.passengers ?? 0) + lost });
        }
      }
      for (const [key, { notBefore, passengers }] of wanted) {
        const move: Move = {
          key: `hold ${key} ${notBefore}`,
          priority: priority(passengers),
          apply: (c) => ({ ...c, notBefore: new Map([...c.notBefore, [key, Math.max(c.notBefore.get(key) ?? 0, notBefore)]]) }),
        };
        if (!moves.has(move.key)) moves.set(move.key, move);
      }
    }
    return [...moves.values()];
  }

  /**
   * Exchanges of the rest of two rotations (rotationExchanges), for the aircraft the plan leaves with
   * cancelled legs or with passengers behind, and, among the last moves (LAST_MOVES_PRIORITY), for the
   * first of each run of legs an aircraft flies late (its delay carried from an earlier leg): from that
   * leg, to an aircraft of its family standing there at its planned departure, the LATE_EXCHANGES legs
   * with the most passenger-minutes late first (in -2..-1). Tried among the other moves (below the
   * trips), they paid on A01 and took A02's search off its path.
   */
  private exchanges(plan: Plan): Move[] {
    const load = new Map<string, number>();
    for (const line of plan.solution.passengers) if (!line.cancelled) for (const l of line.flights) load.set(l.flightId, (load.get(l.flightId) ?? 0) + line.passengers);
    const runs = new Map<string, number>();
    const previous = new Map<string, PlanLeg>();
    for (const r of [...plan.solution.legs].filter((x) => x.tail !== null && !x.isNew).sort((a, b) => a.depMinutes - b.depMinutes)) {
      const late = r.depMinutes - this.problem.flightsById.get(r.flightId)!.depMinutes;
      const before = previous.get(r.tail!);
      previous.set(r.tail!, r);
      const runGoesOn = before && before.depMinutes - this.problem.flightsById.get(before.flightId)!.depMinutes >= LATE_EXCHANGE_MINUTES && this.movable(before.flightId);
      if (late >= LATE_EXCHANGE_MINUTES && this.movable(r.flightId) && !runGoesOn) runs.set(r.flightId, late * (load.get(r.flightId) ?? 0));
    }
    const late = new Map([...runs].sort((a, b) => b[1] - a[1]).slice(0, LATE_EXCHANGES).map(([key, minutes]) => [key, LAST_MOVES_PRIORITY - 1 + minutes / (minutes + 1e4)]));
    return rotationExchanges(this.problem, plan.solution.legs, plan.changes.aircraft, (key) => this.movable(key), passengersLeftBehind(this.bookings, plan.solution), late)
      .map(({ key, priority, assign }) => ({ key, priority, apply: (c) => ({ ...c, aircraft: assign(c.aircraft) }) }));
  }

  /**
   * Ferries home: an aircraft that ends the window away from where its planned rotation leaves it
   * (where position.csv needs it, spec 2.9) flies there empty after its last leg.
   */
  private ferries(plan: Plan): Move[] {
    const ends = lastFlownLegs(plan.solution.legs);
    const moves: Move[] = [];
    for (const aircraft of this.problem.aircraft.values()) {
      if (aircraft.shuttle) continue;
      const home = this.plannedEnd.get(aircraft.tail) ?? aircraft.base;
      const at = ends.get(aircraft.tail)?.dest ?? aircraft.base;
      if (at === home || plan.changes.endAt.get(aircraft.tail) === home) continue;
      moves.push({
        key: `ferry ${aircraft.tail} ${at} ${home}`,
        priority: 1,
        apply: (c) => ({ ...c, endAt: new Map([...c.endAt, [aircraft.tail, home]]) }),
      });
    }
    return moves;
  }

  /**
   * Ferries for the end positions (spec 5.4): one aircraft, or two of a family trading places, fly
   * empty after their last legs to where position.csv needs their model or configuration, when the
   * penalty saved exceeds the ferries' operating cost. The ferry home (`ferries`) sends an aircraft
   * only where its own planned rotation ends, and after an exchange two aircraft can each end where
   * the other was planned to (A03: the A318 BIQ needs at BES, the A319 0/28/51 BES needs at BIQ,
   * 10,000 of penalty), where neither ferry home pays alone: each leaves its airport one aircraft of
   * the family short. Tried after every other move (negative priorities), so the search reaches the
   * plan it stopped at before by the same path and only goes on from there.
   */
  private positionFerries(plan: Plan): Move[] {
    const { problem } = this;
    const ends = endAirports(problem, plan.solution.legs);
    const last = lastFlownLegs(plan.solution.legs);
    // A move saves only where an aircraft is missing now, and there only where its aircraft's family is
    // needed (a ferry), or one of the two models (a trade within a family: its counts stay).
    const short = new Set([...new Set(problem.requiredPositions.map((p) => p.airport))].filter((airport) => {
      const missing = missingPositions(problem, ends, new Set([airport]));
      return missing.family + missing.model + missing.configuration > 0;
    }));
    if (short.size === 0) return [];
    const familyOf = new Map([...problem.aircraft.values()].map((a) => [a.fleet, a.family]));
    const needed = new Set(problem.requiredPositions.flatMap((p) => [`${p.airport}|${familyOf.get(p.fleet)}`, `${p.airport}|${familyOf.get(p.fleet)}|${p.fleet}`]));
    /** The operating cost of `tail` ferrying to `to` after its last leg, or null when the walk could not fly it (range, window, check ahead) or the cost model allows no new leg. */
    const ferry = (tail: string, to: string): number | null => {
      const aircraft = problem.aircraft.get(tail)!;
      const from = ends.get(tail);
      if (aircraft.shuttle || !from || from === to || plan.changes.endAt.has(tail)) return null;
      const pair = problem.airportPairs.get(pairKey(from, to));
      if (!pair || pair.blockMinutes > aircraft.rangeMinutes) return null;
      const end = last.get(tail);
      const ready = Math.max(this.S, end ? end.arrMinutes + aircraft.turnaroundMinutes : this.S);
      if (ready + pair.blockMinutes > problem.window.endMinutes || (aircraft.check && ready < aircraft.check.endMinutes)) return null;
      return this.options.cost.newLeg(aircraftFacts(problem, tail), pair.blockMinutes);
    };
    /** The position penalty saved by moving the aircraft of `moved` to their airports (counted at the airports that change). */
    const saved = (moved: ReadonlyMap<string, string>): number => {
      const changed = new Set([...moved.values(), ...[...moved.keys()].map((tail) => ends.get(tail)!)]);
      return this.options.cost.positions(missingPositions(problem, ends, changed)) - this.options.cost.positions(missingPositions(problem, new Map([...ends, ...moved]), changed));
    };
    const found: { key: string; net: number; moved: Map<string, string> }[] = [];
    const tails = [...problem.aircraft.keys()].filter((tail) => ends.get(tail));
    for (const a of tails) {
      const { family } = problem.aircraft.get(a)!;
      for (const to of short) {
        const cost = to === this.plannedEnd.get(a) || !needed.has(`${to}|${family}`) ? null : ferry(a, to); // the ferry home is `ferries`' move
        if (cost === null) continue;
        const moved = new Map([[a, to]]);
        const net = saved(moved) - cost;
        if (net > 0) found.push({ key: `ferry ${a} ${ends.get(a)} ${to}`, net, moved });
      }
    }
    for (const [i, a] of tails.entries()) {
      const one = problem.aircraft.get(a)!;
      for (const b of tails.slice(i + 1)) {
        const other = problem.aircraft.get(b)!;
        if (other.family !== one.family || (other.fleet === one.fleet && other.configuration === one.configuration)) continue;
        const there = ends.get(b)!;
        const here = ends.get(a)!;
        if (!(short.has(there) && needed.has(`${there}|${one.family}|${one.fleet}`)) && !(short.has(here) && needed.has(`${here}|${other.family}|${other.fleet}`))) continue;
        const costA = ferry(a, there);
        const costB = costA === null ? null : ferry(b, here);
        if (costA === null || costB === null) continue;
        const moved = new Map([[a, there], [b, here]]);
        const net = saved(moved) - costA - costB;
        if (net > 0) found.push({ key: `ferries ${a} ${b} ${here} ${there}`, net, moved });
      }
    }
    return found.sort((x, y) => y.net - x.net || (x.key < y.key ? -1 : 1)).slice(0, POSITION_FERRIES).map(({ key, net, moved }) => ({
      key,
      priority: -1 / (1 + net / 1000),
      apply: (c) => ({ ...c, endAt: new Map([...c.endAt, ...moved]) }),
    }));
  }

  /**
   * Cancellations of round trips (two or three legs that bring an aircraft back where it was): the
   * operating cost is saved and the aircraft catches up on its delay; worth it when the passengers
   * find other seats. Tried after the other moves, lightest loads first.
   */
  private roundTrips(plan: Plan): Move[] {
    const load = new Map<string, number>();
    for (const line of plan.solution.passengers) for (const l of line.flights) load.set(l.flightId, (load.get(l.flightId) ?? 0) + line.passengers);
    const byAircraft = new Map<string, PlanLeg[]>();
    for (const r of plan.solution.legs) {
      if (r.tail === null || !this.movable(r.flightId)) continue;
      const list = byAircraft.get(r.tail) ?? byAircraft.set(r.tail, []).get(r.tail)!;
      list.push(r);
    }
    const moves: Move[] = [];
    for (const legs of byAircraft.values()) {
      legs.sort((a, b) => a.depMinutes - b.depMinutes);
      for (let i = 0; i < legs.length; i++) {
        for (let j = i + 1; j < Math.min(legs.length, i + 3); j++) {
          if (legs[j]!.origin !== legs[j - 1]!.dest) break;
          if (legs[j]!.dest !== legs[i]!.origin) continue;
          const keys = legs.slice(i, j + 1).map((r) => r.flightId);
          const passengers = keys.reduce((sum, k) => sum + (load.get(k) ?? 0), 0);
          moves.push({
            key: `cancel ${keys.join(' ')}`,
            priority: 1 / (2 + passengers), // below every other move (their priorities are at least 1)
            apply: (c) => ({ ...c, cancel: new Set([...c.cancel, ...keys]) }),
          });
        }
      }
    }
    return moves;
  }

  /**
   * New flights for passengers the plan leaves without a seat (cancelled lines): grouped by where they
   * are (the end of their fixed part, or their origin) and where they go, each group is offered to the
   * aircraft whose rotation ends where they are (a flight there and one back) or where they go (one to
   * fetch them and one back), earliest available first. The walk flies them after the last leg
   * (PlanChanges.trips); like every move, the plan is priced with its optimal passengers and the new
   * flights' operating cost, so only trips that pay are kept.
   */
  private trips(plan: Plan): Move[] {
    const flown = flownByKey(plan);
    const groups = new Map<string, { from: string; dest: string; ready: number; passengers: number }>();
    for (const line of plan.solution.passengers) {
      if (!line.cancelled) continue;
      const itinerary = this.bookings.get(line.booking)!;
      const last = this.problem.flightsById.get(itinerary.flights.at(-1)!.flightId)!;
      const fixed = fixedPart(this.problem, itinerary, this.delays).at(-1);
      const landed = fixed ? flown.get(fixed.flightId) : undefined;
      if (fixed && !landed) continue;
      const first = this.problem.flightsById.get(itinerary.flights[0]!.flightId)!;
      const from = landed ? landed.dest : first.origin;
      const ready = Math.max(this.S, landed ? landed.arrMinutes + MIN_CONNECTION_MINUTES : first.depMinutes);
      if (from === last.dest) continue;
      const key = `${from} ${last.dest}`;
      const seen = groups.get(key);
      groups.set(key, { from, dest: last.dest, ready: Math.min(seen?.ready ?? ready, ready), passengers: (seen?.passengers ?? 0) + line.passengers });
    }
    if (groups.size === 0) return [];
    const ends = lastFlownLegs(plan.solution.legs);
    const E = this.problem.window.endMinutes;
    const moves: Move[] = [];
    for (const group of groups.values()) {
      const out = this.problem.airportPairs.get(pairKey(group.from, group.dest));
      const back = this.problem.airportPairs.get(pairKey(group.dest, group.from));
      if (!out || !back) continue;
      // Aircraft that could fly both new flights within their range and the window, earliest available first.
      const candidates: { id: string; at: string; free: number; trips: NewTrip[] }[] = [];
      for (const aircraft of this.problem.aircraft.values()) {
        if (aircraft.shuttle || plan.changes.trips.has(aircraft.tail)) continue;
        if (Math.max(out.blockMinutes, back.blockMinutes) > aircraft.rangeMinutes) continue;
        const end = ends.get(aircraft.tail);
        const at = end?.dest ?? aircraft.base;
        const free = Math.max(this.S, end ? end.arrMinutes + aircraft.turnaroundMinutes : this.S);
        // There and back from where they are, or fetched from where they go: the carrying flight leaves once they are ready.
        const trips: NewTrip[] | null = at === group.from ? [{ dest: group.dest, notBefore: group.ready }, { dest: group.from, notBefore: this.S }]
          : at === group.dest ? [{ dest: group.from, notBefore: this.S }, { dest: group.dest, notBefore: group.ready }] : null;
        if (!trips) continue;
        const carriedFrom = at === group.from ? Math.max(free, group.ready) : Math.max(free + back.blockMinutes + aircraft.turnaroundMinutes, group.ready);
        const home = carriedFrom + out.blockMinutes + (at === group.from ? aircraft.turnaroundMinutes + back.blockMinutes : 0);
        if (home > E) continue;
        candidates.push({ id: aircraft.tail, at, free, trips });
      }
      candidates.sort((a, b) => a.free - b.free || (a.id < b.id ? -1 : 1));
      for (const way of [group.from, group.dest]) {
        for (const c of candidates.filter((x) => x.at === way).slice(0, TRIP_AIRCRAFT)) {
          moves.push({
            key: `trip ${c.id} ${group.from} ${group.dest}`,
            // After holds, exchanges and ferries (priorities of 1 and more), whose changes move where
            // rotations end: trips tried first could stand in their way (measured on A03: 42,747 instead of 27,311).
            priority: 1 - 1 / (2 + group.passengers),
            apply: (changes) => ({ ...changes, trips: new Map([...changes.trips, [c.id, c.trips]]) }),
          });
        }
      }
    }
    return moves;
  }

  moves(plan: Plan): Move[] {
    return [...this.holds(plan), ...this.exchanges(plan), ...this.ferries(plan), ...this.trips(plan), ...(this.options.cancelRoundTrips ? this.roundTrips(plan) : []), ...this.positionFerries(plan)]
      .concat(roundTripTransfers(this.problem, plan.solution, (key) => this.movable(key), plan.changes.placeAt))
      .sort((a, b) => b.priority - a.priority || (a.key < b.key ? -1 : 1));
  }
}

/** An exchange of the rest of two rotations: `assign` gives their legs to their new aircraft (PlanChanges.aircraft). */
export interface RotationExchange { key: string; giver: string; taker: string; priority: number; assign: (aircraft: ReadonlyMap<string, string>) => Map<string, string> }

/**
 * Exchanges of the rest of two rotations at an airport where both aircraft stand, the legs going to
 * an aircraft of the same family that is there too: for an aircraft `legs` (a plan's, cancelled ones
 * without a tail; `assigned` the legs given to other aircraft than planned) leaves with cancelled
 * legs (out of service, stranded), from its first cancelled leg; and for a leg that leaves booked
 * passengers behind for want of seats (`left`: passengers per leg), to a larger aircraft, from that
 * leg. Each move gives the legs to their new aircraft (PlanChanges.aircraft); the walk keeps every
 * rule around them. The network search of the service tries them too (service-search.ts).
 */
export function rotationExchanges(
  problem: NetworkProblem, rotations: readonly PlanLeg[], assigned: ReadonlyMap<string, string>, movable: (key: string) => boolean,
  left: ReadonlyMap<string, number>, late: ReadonlyMap<string, number> = new Map(),
): RotationExchange[] {
  const byAircraft = new Map<string, PlanLeg[]>();
  for (const r of rotations) {
    const key = r.flightId;
    const planned = problem.flightsById.get(key);
    const owner = r.tail ?? (planned ? assigned.get(key) ?? planned.tail : null);
    if (owner === null) continue;
    const list = byAircraft.get(owner) ?? byAircraft.set(owner, []).get(owner)!;
    list.push(r);
  }
  for (const list of byAircraft.values()) list.sort((a, b) => a.depMinutes - b.depMinutes);
  const seats = (tail: string) => { const a = problem.aircraft.get(tail)!; return CABIN_CODES.reduce((sum, c) => sum + a.seats[c], 0); };
  const moves: RotationExchange[] = [];
  const exchange = (giver: string, from: PlanLeg, given: PlanLeg[], priority: number, larger: boolean, when = from.depMinutes) => {
    const family = problem.aircraft.get(giver)!.family;
    for (const [taker, theirs] of byAircraft) {
      const aircraft = problem.aircraft.get(taker)!;
      if (taker === giver || aircraft.family !== family || (larger && seats(taker) <= seats(giver))) continue;
      // The taker stands at the first given leg's airport at `when`: its last landing before it is there.
      const before = theirs.filter((r) => r.tail !== null && r.arrMinutes + aircraft.turnaroundMinutes <= when).at(-1);
      const at = before ? before.dest : aircraft.base;
      if (at !== from.origin) continue;
      const rest = theirs.filter((r) => r.depMinutes >= when && movable(r.flightId));
      moves.push({
        key: `exchange ${giver} ${taker} ${from.flightId}${when === from.depMinutes ? '' : ` at ${when}`}`,
        giver, taker, priority,
        assign: (aircraftOf) => {
          const assigned = new Map(aircraftOf);
          for (const r of given) assigned.set(r.flightId, taker);
          for (const r of rest) assigned.set(r.flightId, giver);
          return assigned;
        },
      });
    }
  };
  for (const [giver, legs] of byAircraft) {
    const firstCancelled = legs.findIndex((r) => r.tail === null && movable(r.flightId));
    if (firstCancelled === -1) continue;
    const lost = legs.slice(firstCancelled).filter((r) => movable(r.flightId));
    exchange(giver, lost[0]!, lost, lost.length, false);
  }
  for (const [giver, legs] of byAircraft) {
    legs.forEach((r, i) => {
      const key = r.flightId;
      if (r.tail === null || !left.has(key) || !movable(key)) return;
      exchange(giver, r, legs.slice(i).filter((x) => movable(x.flightId)), left.get(key)!, true);
    });
  }
  for (const [giver, legs] of byAircraft) {
    legs.forEach((r, i) => {
      const priority = late.get(r.flightId);
      if (priority === undefined || r.tail === null) return;
      exchange(giver, r, legs.slice(i).filter((x) => movable(x.flightId)), priority, false, problem.flightsById.get(r.flightId)!.depMinutes);
    });
  }
  return moves;
}

/** Plans evaluated at once when the solver does not say how many threads it has. */
const DEFAULT_PARALLEL_EVALUATIONS = 2;

export interface EngineOptions {
  /** What a plan costs: the search, the passenger plan and the reported costs all price through it. */
  cost: CostModel;
  /** What an aircraft may do: the walk asks every plan's questions of them (model/walk-rules.ts). */
  rules: WalkRules;
  /**
   * Cancel round trips when that is cheaper (the challenge's cost function credits a cancelled leg's
   * operating cost, spec 5.3, so lightly loaded flights whose passengers fit elsewhere are cancelled).
   * Off, the engine cancels only what the rules force.
   */
  cancelRoundTrips: boolean;
}

export interface NetworkIncumbent {
  /** Milliseconds since the solve started. */
  elapsedMs: number;
  plan: NetworkPlan;
  /** The plan's cost under the engine's cost model (operating cost and optimal passengers), as the search compared it; null for the reference plan, given before its passengers are priced. */
  cost: number | null;
  /** A proven lower bound on the cost, when the engine knows one; else null. */
  bound: number | null;
}

export interface NetworkSolveOptions {
  /** Wall-clock budget in milliseconds; `signal` aborts when it is spent. */
  timeLimitMs: number;
  signal: AbortSignal;
  /** GLPK (the worker pool), for the passenger plans. */
  glpk: Solver;
  /** Called with each new incumbent, best last. */
  onProgress: (incumbent: NetworkIncumbent) => void;
}

/** Solve a problem: resolves to the best plan found by the time `signal` aborts (or earlier). */
export type NetworkSolver = (problem: NetworkProblem, options: NetworkSolveOptions) => Promise<NetworkPlan>;

/**
 * The network engine: from the reference plan (the first incumbent, at once), moves while they lower
 * the cost under `options.cost`, each plan priced with its optimal passengers.
 */
export function createNetworkEngine(options: EngineOptions): NetworkSolver {
  return async (problem, { signal, glpk, timeLimitMs, onProgress }) => {
    const started = performance.now();
    const reference = solveReferencePlan(problem, {}, options.rules);
    onProgress({ elapsedMs: performance.now() - started, plan: reference, cost: null, bound: null });
    const search = new EngineSearch(problem, glpk, signal, started + timeLimitMs, options);
    const inTime = () => !signal.aborted && performance.now() < started + timeLimitMs;
    const none: Required<PlanChanges> = { aircraft: new Map(), notBefore: new Map(), cancel: new Set(), trips: new Map(), endAt: new Map(), placeAt: new Map() };
    let first: Plan | null | typeof UNPRICED = UNPRICED;
    while (first === UNPRICED && inTime()) {
      first = await search.price(none, reference).catch(unpriced);
      if (first === UNPRICED) await pause();
    }
    if (!first || first === UNPRICED) return reference;
    let best: Plan = first;
    onProgress({ elapsedMs: performance.now() - started, plan: best.solution, cost: best.cost, bound: null });
    const tried = new Set<string>();
    // One plan per solver thread keeps the pool busy.
    const parallel = glpk.stats?.().threads ?? DEFAULT_PARALLEL_EVALUATIONS;
    let moves: Move[] = search.moves(best);
    while (inTime()) {
      // The last moves (holds for re-routed passengers, late transfers) only once every other move is
      // tried, so that the search first follows its path without them: a batch of both took a late
      // transfer before the last idle one on A01 and left that path (late transfers are many: 56-343
      // on A01-A04's reference plans).
      const pending = moves.filter((m) => !tried.has(m.key));
      const late = (m: Move) => m.priority < LAST_MOVES_PRIORITY;
      const batch = pending.slice(0, parallel).filter((m) => late(m) === late(pending[0]!));
      if (batch.length === 0) break;
      // Each move of the batch walked, one at a time: a plan that leaves the problem is dropped before
      // its passengers are priced, and each walk gives the timers (the limit's abort) and the searches
      // beside this one a turn, since a run of refused walks would otherwise hold the thread. (Filling
      // the batch with the next moves instead ended A02 and A03 dearer: docs/model.md 4.4.)
      const from: Plan = best;
      const walked: { move: Move; changes: Required<PlanChanges>; ops: NetworkPlan }[] = [];
      for (const move of batch) {
        await new Promise((resolve) => setImmediate(resolve));
        if (!inTime()) break;
        const changes = move.apply(from.changes);
        const ops = search.walk(changes);
        if (ops) walked.push({ move, changes, ops });
        else tried.add(move.key);
      }
      const plans = await Promise.all(walked.map(({ changes, ops }) => search.price(changes, ops).catch(unpriced)));
      // Moves that did not pay are not tried again; one that paid but lost to a better one of its batch
      // is tried again on top of the winner, and one the pool had no worker for comes again.
      walked.forEach(({ move }, i) => { const plan = plans[i]; if (plan !== UNPRICED && (!plan || plan.cost >= from.cost - 0.005)) tried.add(move.key); });
      if (walked.length > 0 && plans.every((plan) => plan === UNPRICED)) await pause();
      const better = plans.filter((p): p is Plan => p !== null && p !== UNPRICED && p.cost < from.cost - 0.005).sort((a, b) => a.cost - b.cost)[0];
      if (better) {
        best = better;
        moves = search.moves(best);
        onProgress({ elapsedMs: performance.now() - started, plan: best.solution, cost: best.cost, bound: null });
      }
    }
    return best.solution;
  };
}

/** A plan the pool had no worker for (its queue full, or the wait too long): not priced, to be tried again. */
const UNPRICED = Symbol('unpriced');
/** How long the search waits for a worker after the pool refused every plan of a batch, milliseconds. */
const BUSY_PAUSE_MS = 200;
const pause = () => new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));

/**
 * A solve the pool had no worker for (busy) is UNPRICED; one it lost or the limit aborted gives no
 * plan (null), and the best so far stands.
 */
function unpriced(error: unknown): null | typeof UNPRICED {
  if (error instanceof RecoveryError) return error.failure.kind === 'busy' ? UNPRICED : null;
  throw error;
}
