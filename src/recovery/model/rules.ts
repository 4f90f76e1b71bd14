// The feasibility rules of an aircraft route (docs/model.md 1.3), one named function each. Route
// generation (aircraft-routes.ts) applies LEG_RULES to every flight it appends and ROUTE_RULES to
// every route it closes; a route that breaks one is never a column of the model. Soft rules (crew
// duty, maintenance when soft) are costs, not rules: they appear here only in their hard form.
import type { Aircraft, Flight, MaintenanceCheck, Schedule } from '../../domain/schedule.ts';
import type { SolverConfig } from './solver-config.ts';

/** Fleet policy: may `candidate` fly a flight planned for `planned`? */
export function mayFly(policy: SolverConfig['constraints']['swap_fleet_policy'], candidate: Aircraft, planned: Aircraft): boolean {
  if (policy === 'any') return true;
  if (policy === 'same_fleet') return candidate.fleet === planned.fleet;
  return candidate.family === planned.family;
}

/** A crew whose maximum flight-duty period ends before `arrMinutes`, the arrival of `flight`. */
export interface CrewBreach { flight: Flight; crewId: string; limitMinutes: number; arrMinutes: number }

/** The crews of `flight` that arriving at `arrMinutes` would take past their maximum flight-duty period. */
export function crewBreaches(schedule: Schedule, flight: Flight, arrMinutes: number): CrewBreach[] {
  const breaches: CrewBreach[] = [];
  for (const crewId of flight.crewIds) {
    const duty = schedule.crewById.get(crewId)!;
    const limitMinutes = duty.dutyStartMinutes + duty.maxDutyMinutes;
    if (arrMinutes > limitMinutes) breaches.push({ flight, crewId, limitMinutes, arrMinutes });
  }
  return breaches;
}

/** One flight appended to a route, with everything the leg rules look at. */
export interface LegContext {
  schedule: Schedule;
  config: SolverConfig;
  /** The aircraft flying the route. */
  aircraft: Aircraft;
  flight: Flight;
  /** Where the aircraft is when the leg would start. */
  station: string;
  depMinutes: number;
  arrMinutes: number;
  delayMinutes: number;
  /** The earliest the flight may leave: its scheduled departure plus its disruption's minimum delay. */
  earliestDepMinutes: number;
  /** The most this flight may be delayed: max_delay_minutes, or the disruption's minimum delay if larger. */
  delayLimitMinutes: number;
  /** Flights of the route flown by another aircraft than planned, this one included. */
  swaps: number;
  /** The aircraft's checks not yet performed on the route. */
  pendingChecks: readonly MaintenanceCheck[];
  /** Periods [from, to) in which the aircraft is out of service. */
  unavailable: readonly { fromMinutes: number; toMinutes: number }[];
  /** The flight is cancelled by a disruption. */
  cancelledByDisruption: boolean;
}

export interface LegRule { name: string; allows(leg: LegContext): boolean }

export const LEG_RULES: readonly LegRule[] = [
  {
    name: 'continuity',
    /** An aircraft departs from the airport where it is. */
    allows: (leg) => leg.flight.origin === leg.station,
  },
  {
    name: 'fleet_policy',
    /** Another aircraft than planned flies a flight only within constraints.swap_fleet_policy. */
    allows: (leg) => leg.flight.tail === leg.aircraft.tail
      || mayFly(leg.config.constraints.swap_fleet_policy, leg.aircraft, leg.schedule.aircraft.get(leg.flight.tail)!),
  },
  {
    name: 'flight_cancelled',
    /** A flight a disruption cancels is flown by no aircraft. */
    allows: (leg) => !leg.cancelledByDisruption,
  },
  {
    name: 'earliest_departure',
    /** No flight leaves before its scheduled departure plus its disruption's minimum delay. */
    allows: (leg) => leg.depMinutes >= leg.earliestDepMinutes,
  },
  {
    name: 'aircraft_unavailable',
    /** An aircraft flies nothing that overlaps a period in which it is out of service. */
    allows: (leg) => leg.unavailable.every((p) => leg.arrMinutes <= p.fromMinutes || leg.depMinutes >= p.toMinutes),
  },
  {
    name: 'max_delay',
    /** No flight leaves later than its delay limit allows. */
    allows: (leg) => leg.delayMinutes <= leg.delayLimitMinutes,
  },
  {
    name: 'max_swaps',
    /** A route flies at most constraints.max_swaps flights planned for other aircraft. */
    allows: (leg) => withinMaxSwaps(leg.config, leg.swaps),
  },
  {
    name: 'crew_duty_hard',
    /** With crew_duty hard, no flight arrives after the end of a crew's maximum flight-duty period. */
    allows: (leg) => leg.config.constraints.crew_duty !== 'hard' || crewBreaches(leg.schedule, leg.flight, leg.arrMinutes).length === 0,
  },
  {
    name: 'maintenance_reachable',
    /**
     * With maintenance hard, a check not yet performed whose start passes while the aircraft is in
     * the air can no longer be met. (Performing it before this leg is a separate branch of the search.)
     */
    allows: (leg) => checksStillReachable(leg.config, leg.pendingChecks, leg.arrMinutes),
  },
];

/** Rule max_swaps on its own (the pricing problem checks it per label, where the route so far is known). */
export function withinMaxSwaps(config: SolverConfig, swaps: number): boolean {
  return swaps <= config.constraints.max_swaps;
}

/** Rule maintenance_reachable on its own: with hard maintenance, no pending check has started by `arrMinutes`. */
export function checksStillReachable(config: SolverConfig, pendingChecks: readonly MaintenanceCheck[], arrMinutes: number): boolean {
  return config.constraints.maintenance !== 'hard' || pendingChecks.every((check) => arrMinutes <= check.startMinutes);
}

/** The first leg rule `leg` breaks, or null when it breaks none. */
export function brokenLegRule(leg: LegContext): string | null {
  for (const rule of LEG_RULES) if (!rule.allows(leg)) return rule.name;
  return null;
}

/** A finished route, with everything the route rules look at. */
export interface RouteContext {
  config: SolverConfig;
  endStation: string;
  /** When the aircraft could leave again after its last leg (turnaround and checks included). */
  readyMinutes: number;
  missedChecks: number;
  requiredEndStation: string;
  /** Scheduled departure of the aircraft's first flight after the recovery window, or null (no window, or none). */
  nextDepartureAfterWindow: number | null;
}

export interface RouteRule { name: string; allows(route: RouteContext): boolean }

export const ROUTE_RULES: readonly RouteRule[] = [
  {
    name: 'maintenance_hard',
    /** With maintenance hard, every check of the aircraft is performed. */
    allows: (route) => route.config.constraints.maintenance !== 'hard' || route.missedChecks === 0,
  },
  {
    name: 'window_end_position',
    /** An aircraft with flights after the recovery window ends where the first of them leaves, in time for it. */
    allows: (route) => route.nextDepartureAfterWindow === null
      || (route.endStation === route.requiredEndStation && route.readyMinutes <= route.nextDepartureAfterWindow),
  },
];

/** The first route rule `route` breaks, or null when it breaks none. */
export function brokenRouteRule(route: RouteContext): string | null {
  for (const rule of ROUTE_RULES) if (!rule.allows(route)) return rule.name;
  return null;
}
