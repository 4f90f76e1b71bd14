// Aircraft routes: a sequence of timed legs an aircraft of the scope flies, with the checks it performs
// on the way, evaluated once (costs, violations, rules) so that each route is one column of the model
// with every aircraft-side cost and rule already in it (docs/model.md 1.3). The evaluator is shared by
// delay propagation (plannedRoute) and by the pricing problem that generates the other routes
// (pricing.ts): both price a leg with legCost and close a route with finish, so a column's cost is the
// cost the pricing problem saw.
import type { Flight, MaintenanceCheck, Schedule } from '../../domain/schedule.ts';
import { minTurnaroundMinutes } from '../../domain/turnaround.ts';
import type { MaintenanceViolation, TimedLeg } from '../../domain/plan.ts';
import { brokenLegRule, brokenRouteRule, crewBreaches, type CrewBreach, type LegContext } from '../model/rules.ts';
import { serviceCostModel, type CostModel } from '../model/cost-model.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';

/** A check the route does not perform, and the flight to blame (see MaintenanceViolation). */
export type MissedCheck = Omit<MaintenanceViolation, 'type'>;

export interface RouteCosts { delay: number; swap: number; spill: number; crew_duty: number; maintenance: number; aircraft_position: number }

export interface Route {
  tail: string;
  legs: TimedLeg[];
  /** Per check of the aircraft (AircraftInScope.checks order): leg index after which it is performed (-1: before the first leg), or null when missed. */
  checkPoints: (number | null)[];
  endStation: string;
  swaps: number;
  crewBreaches: CrewBreach[];
  missedChecks: MissedCheck[];
  outOfPosition: boolean;
  costs: RouteCosts;
  /** Sum of costs: the route column's objective coefficient. */
  cost: number;
  /** Identifies the route: tail, flights with their departure minutes, check points. */
  key: string;
}

/** The aircraft-side cost of one leg (everything of a route's cost that belongs to a single leg). */
export interface LegCost { delay: number; swap: number; spill: number; crewDuty: number; total: number }

export class RouteEvaluator {
  /** How routes are priced: the service's cost model of `config`. */
  readonly cost: CostModel;
  /** One aircraft ending out of position. */
  private readonly outOfPositionCost: number;

  /**
   * `enforceWindow: false` keeps routes that miss their first flight after the window: used only to
   * report what delay propagation alone would break, never for plans.
   */
  constructor(
    readonly schedule: Schedule,
    readonly scope: RecoveryScope,
    readonly config: SolverConfig,
    private readonly enforceWindow = true,
  ) {
    this.cost = serviceCostModel(config);
    this.outOfPositionCost = this.cost.positions({ family: 1, model: 1, configuration: 1 });
  }

  /** Earliest departure of `flight` in any plan: its scheduled departure plus its disruption's minimum delay. */
  earliestDeparture(flight: Flight): number {
    return flight.depMinutes + (this.scope.minDelayMinutes.get(flight.id) ?? 0);
  }

  /** The most `flight` may be delayed: max_delay_minutes, or its disruption's minimum delay if larger. */
  delayLimit(flight: Flight): number {
    return Math.max(this.scope.minDelayMinutes.get(flight.id) ?? 0, this.config.constraints.max_delay_minutes);
  }

  turnaround(a: AircraftInScope, station: string): number {
    return minTurnaroundMinutes(this.config.turnaround, a.aircraft.fleet, station);
  }

  /** The facts the leg rules judge for `a` flying `flight` at `depMinutes` from `station`. */
  legContext(a: AircraftInScope, station: string, flight: Flight, depMinutes: number, swaps: number, pendingChecks: readonly MaintenanceCheck[]): LegContext {
    return {
      schedule: this.schedule, config: this.config, aircraft: a.aircraft, flight, station,
      depMinutes, arrMinutes: depMinutes + (flight.arrMinutes - flight.depMinutes), delayMinutes: depMinutes - flight.depMinutes,
      earliestDepMinutes: this.earliestDeparture(flight), delayLimitMinutes: this.delayLimit(flight), swaps, pendingChecks,
      unavailable: a.unavailable, cancelledByDisruption: this.scope.cancelledFlights.has(flight.id),
    };
  }

  legCost(a: AircraftInScope, flight: Flight, depMinutes: number): LegCost {
    const delayMinutes = depMinutes - flight.depMinutes;
    const arrMinutes = depMinutes + (flight.arrMinutes - flight.depMinutes);
    const delay = delayMinutes * this.cost.legDelayPerMinute(flight.bookedPassengers);
    const swap = flight.tail === a.aircraft.tail ? 0 : this.cost.swapPerLeg();
    const spill = this.cost.spill(flight.bookedPassengers, a.aircraft.seats);
    const crewDuty = this.cost.crewDuty(crewBreaches(this.schedule, flight, arrMinutes).length);
    return { delay, swap, spill, crewDuty, total: delay + swap + spill + crewDuty };
  }

  /** The cost of ending a route: aircraft out of position (when no flight after the window tells where it must be). */
  positionCost(a: AircraftInScope, endStation: string): number {
    return a.nextDepartureAfterWindow === null && endStation !== a.requiredEndStation ? this.outOfPositionCost : 0;
  }

  /** `count` maintenance checks missed (none costs nothing where missing one is forbidden too). */
  private missedChecksCost(count: number): number {
    return count === 0 ? 0 : count * this.cost.missedCheck();
  }

  /** May the check be performed by an aircraft at `station` that landed at `arrivalMinutes`? */
  static eligible(check: MaintenanceCheck, station: string, arrivalMinutes: number): boolean {
    return station === check.station && arrivalMinutes <= check.startMinutes;
  }

  /**
   * How a route of `a` can end at `station` (landed at `arrivalMinutes`, ready at `readyMinutes`, the
   * checks `performed` so far): with `autoPerform`, the checks still eligible there are performed
   * (nothing follows, so that never costs anything); then the route rules decide, and the end costs
   * (missed checks, position) follow. Null when a route rule forbids ending there.
   */
  close(a: AircraftInScope, station: string, arrivalMinutes: number, readyMinutes: number, performed: readonly boolean[], autoPerform: boolean):
    { performedAtEnd: number[]; missed: number[]; cost: number } | null {
    let ready = readyMinutes;
    const performedAtEnd: number[] = [];
    a.checks.forEach((check, i) => {
      if (!performed[i] && autoPerform && RouteEvaluator.eligible(check, station, arrivalMinutes)) {
        performedAtEnd.push(i);
        ready = Math.max(ready, check.endMinutes);
      }
    });
    const missed = a.checks.flatMap((_, i) => (performed[i] || performedAtEnd.includes(i) ? [] : [i]));
    const broken = brokenRouteRule({
      config: this.config, endStation: station, readyMinutes: ready, missedChecks: missed.length,
      requiredEndStation: a.requiredEndStation, nextDepartureAfterWindow: this.enforceWindow ? a.nextDepartureAfterWindow : null,
    });
    if (broken !== null) return null;
    return { performedAtEnd, missed, cost: this.missedChecksCost(missed.length) + this.positionCost(a, station) };
  }

  /**
   * Evaluate a route of `a`: `legs` in order, `checkPoints` per check (leg index after which it is
   * performed, -1 before the first leg, null not performed), closed as `close` says. Null when a route
   * rule forbids it. The legs must already keep the leg rules (the caller built them so).
   */
  finish(a: AircraftInScope, legs: TimedLeg[], checkPoints: (number | null)[], autoPerform = true): Route | null {
    const last = legs.at(-1);
    const endStation = last ? last.flight.dest : a.station;
    const arrival = last ? last.arrMinutes : a.arrivalMinutes;
    // Checks performed after the last leg hold the aircraft until they end (earlier ones were waited
    // for by the legs that follow them).
    const afterLast = legs.length - 1;
    let ready = last ? last.arrMinutes + this.turnaround(a, last.flight.dest) : a.readyMinutes;
    a.checks.forEach((check, i) => { if (checkPoints[i] === afterLast) ready = Math.max(ready, check.endMinutes); });
    const closed = this.close(a, endStation, arrival, ready, checkPoints.map((p) => p !== null), autoPerform);
    if (!closed) return null;
    const points = checkPoints.map((p, i) => (closed.performedAtEnd.includes(i) ? afterLast : p));
    const missedChecks = closed.missed.map((i) => blameForMissedCheck(a.aircraft.tail, a.checks[i]!, legs));
    const costs: RouteCosts = {
      delay: 0, swap: 0, spill: 0, crew_duty: 0,
      maintenance: this.missedChecksCost(missedChecks.length), aircraft_position: this.positionCost(a, endStation),
    };
    let swaps = 0;
    for (const leg of legs) {
      const c = this.legCost(a, leg.flight, leg.depMinutes);
      costs.delay += c.delay;
      costs.swap += c.swap;
      costs.spill += c.spill;
      costs.crew_duty += c.crewDuty;
      if (leg.flight.tail !== a.aircraft.tail) swaps++;
    }
    const cost = costs.delay + costs.swap + costs.spill + costs.crew_duty + costs.maintenance + costs.aircraft_position;
    return {
      tail: a.aircraft.tail, legs, checkPoints: points, endStation, swaps,
      crewBreaches: legs.flatMap((leg) => crewBreaches(this.schedule, leg.flight, leg.arrMinutes)),
      missedChecks, outOfPosition: costs.aircraft_position > 0, costs, cost,
      key: routeKey(a.aircraft.tail, legs, points),
    };
  }

  /**
   * Delay propagation: the planned sequence without the flights a disruption cancels, each flight
   * leaving as early as its aircraft, its disruption and the aircraft's unavailability allow; each
   * check performed where the schedule plans it if the aircraft still arrives by its start, else
   * missed. Null when a rule forbids it (a cancelled flight breaks the rotation, a delay beyond the
   * limit, a hard rule): then the delay-propagation strategy has no plan.
   */
  plannedRoute(a: AircraftInScope): Route | null {
    const legs: TimedLeg[] = [];
    const s: SequenceState = { a, station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, legs, points: a.checks.map(() => null) };
    performPlannedChecks(s, -1);
    let swaps = 0;
    for (const [index, flight] of a.plannedFlights.entries()) {
      if (this.scope.cancelledFlights.has(flight.id)) continue;
      // An aircraft out of service takes its flights after the period.
      const dep = afterUnavailability(a, Math.max(this.earliestDeparture(flight), s.ready), flight.arrMinutes - flight.depMinutes, (t) => t);
      if (flight.tail !== a.aircraft.tail) swaps++;
      const pending = a.checks.filter((_, i) => s.points[i] === null);
      if (brokenLegRule(this.legContext(a, s.station, flight, dep, swaps, pending)) !== null) return null;
      const arr = dep + (flight.arrMinutes - flight.depMinutes);
      legs.push({ flight, depMinutes: dep, arrMinutes: arr, delayMinutes: dep - flight.depMinutes });
      s.station = flight.dest;
      s.arrival = arr;
      s.ready = arr + this.turnaround(a, flight.dest);
      performPlannedChecks(s, index);
    }
    return this.finish(a, legs, s.points, false);
  }
}

/** Where an aircraft stands as its planned sequence is flown (the planned route, the first plan and the network search walk it so). */
export interface SequenceState {
  a: AircraftInScope;
  station: string;
  arrival: number;
  ready: number;
  legs: readonly TimedLeg[];
  points: (number | null)[];
}

/**
 * Performs the checks the schedule plans after the sequence's flight `position` (-1: before the first)
 * when the aircraft is at the check's station by its start: the check's point is the last leg flown,
 * and the aircraft is ready once the check is over.
 */
export function performPlannedChecks(s: SequenceState, position: number): void {
  s.a.checks.forEach((check, i) => {
    if (s.a.plannedCheckPoints[i] === position && s.points[i] === null && RouteEvaluator.eligible(check, s.station, s.arrival)) {
      s.points[i] = s.legs.length - 1;
      s.ready = Math.max(s.ready, check.endMinutes);
    }
  });
}

/**
 * The first departure at or after `dep` (as `next` rounds it, e.g. onto a departure grid) at which a leg
 * of `blockMinutes` overlaps none of the aircraft's unavailable periods: pushed past each period it
 * meets, again and again, whatever the order the periods were given in.
 */
export function afterUnavailability(a: AircraftInScope, dep: number, blockMinutes: number, next: (minutes: number) => number): number {
  let t = dep;
  for (let moved = true; moved;) {
    moved = false;
    for (const p of a.unavailable) {
      if (t < p.toMinutes && t + blockMinutes > p.fromMinutes) {
        t = next(p.toMinutes);
        moved = true;
      }
    }
  }
  return t;
}

export function routeKey(tail: string, legs: readonly TimedLeg[], checkPoints: readonly (number | null)[]): string {
  return `${tail}|${legs.map((l) => `${l.flight.id}@${l.depMinutes}`).join(',')}|${checkPoints.join(',')}`;
}

/**
 * Who is to blame for a check the route misses: the first flight arriving at the check's station after
 * the check's start (its late arrival misses the check), else the last flight leaving before the start
 * (the aircraft never gets back), else none.
 */
export function blameForMissedCheck(tail: string, check: MaintenanceCheck, legs: readonly TimedLeg[]): MissedCheck {
  const lateArrival = legs.find((leg) => leg.flight.dest === check.station && leg.arrMinutes > check.startMinutes);
  if (lateArrival) return { tail, check, flight: lateArrival.flight, arrivalMinutes: lateArrival.arrMinutes };
  return { tail, check, flight: legs.filter((leg) => leg.depMinutes < check.startMinutes).at(-1)?.flight ?? null, arrivalMinutes: null };
}
