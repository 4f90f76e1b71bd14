// Candidate aircraft routes: for each aircraft in scope, sequences of flights it could fly, timed by
// propagating delays (docs/model.md 1.3). Each route becomes one binary column of the model, with
// every aircraft-related cost and rule (rules.ts) already evaluated, so the model itself stays a small
// set partitioning problem however complex the timing rules are.
import { pushTo } from '../domain/collections.ts';
import type { Flight, MaintenanceCheck, Schedule } from '../domain/schedule.ts';
import { minTurnaroundMinutes } from '../domain/turnaround.ts';
import type { MaintenanceViolation, TimedLeg } from './result.ts';
import { brokenLegRule, brokenRouteRule, crewBreaches, type CrewBreach } from './rules.ts';
import type { AircraftInScope, RecoveryScope } from './scope.ts';
import type { SolverConfig } from './solver-config.ts';

/** A check the route does not perform, and the flight to blame (see MaintenanceViolation). */
export type MissedCheck = Omit<MaintenanceViolation, 'type'>;

export interface RouteCosts { delay: number; swap: number; spill: number; crew_duty: number; maintenance: number; aircraft_position: number }

export interface Route {
  tail: string;
  legs: TimedLeg[];
  /** Per check of the aircraft (AircraftInScope.checks order): leg index after which it is performed (-1: before the first leg), or null when missed. */
  checkPoints: (number | null)[];
  endStation: string;
  deviations: number;
  swaps: number;
  crewBreaches: CrewBreach[];
  missedChecks: MissedCheck[];
  outOfPosition: boolean;
  costs: RouteCosts;
  /** Sum of costs: the route column's objective coefficient. */
  cost: number;
  key: string;
}

export type RouteMode = 'own' | 'any';

interface SearchState {
  station: string;
  arrival: number;
  ready: number;
  legs: TimedLeg[];
  checkPoints: (number | null)[];
  deviations: number;
  swaps: number;
  /** Index in plannedFlights of the last own flight taken (mode 'own'). */
  ownIndex: number;
}

/** Shared per-disruption context for route generation. */
export class RouteFactory {
  private readonly byOrigin = new Map<string, Flight[]>();
  private readonly rotationNext = new Map<string, Flight | undefined>();

  /**
   * `enforceWindow: false` keeps routes that miss their first flight after the window: used only to
   * report what delay propagation alone would break, never for plans.
   */
  constructor(
    private readonly schedule: Schedule,
    private readonly scope: RecoveryScope,
    private readonly config: SolverConfig,
    private readonly enforceWindow = true,
  ) {
    for (const f of scope.flights) pushTo(this.byOrigin, f.origin, f);
    // Every flight in scope belongs to an aircraft in scope: only their rotations are ever asked.
    for (const a of scope.aircraft) {
      const rotation = schedule.rotations.get(a.aircraft.tail) ?? [];
      rotation.forEach((f, i) => this.rotationNext.set(f.id, rotation[i + 1]));
    }
  }

  /** Earliest departure of `flight` by an aircraft ready at `ready`, with the disruption's minimum delay. */
  private departure(flight: Flight, ready: number): number {
    const earliest = flight.depMinutes + (flight.id === this.scope.disrupted.id ? this.scope.minDelayMinutes : 0);
    return Math.max(earliest, ready);
  }

  private delayLimit(flight: Flight): number {
    const max = this.config.constraints.max_delay_minutes;
    return flight.id === this.scope.disrupted.id ? Math.max(this.scope.minDelayMinutes, max) : max;
  }

  /** Extend a state by one flight, or null when a leg rule forbids it. */
  private fly(a: AircraftInScope, state: SearchState, flight: Flight, deviation: boolean): SearchState | null {
    if (flight.origin !== state.station) return null; // the cheapest rule first: most flights fail it
    const depMinutes = this.departure(flight, state.ready);
    const delayMinutes = depMinutes - flight.depMinutes;
    const arrMinutes = depMinutes + (flight.arrMinutes - flight.depMinutes);
    const swaps = state.swaps + (flight.tail === a.aircraft.tail ? 0 : 1);
    const broken = brokenLegRule({
      schedule: this.schedule, config: this.config, aircraft: a.aircraft, flight, station: state.station,
      depMinutes, arrMinutes, delayMinutes, delayLimitMinutes: this.delayLimit(flight), swaps,
      pendingChecks: a.checks.filter((_, i) => state.checkPoints[i] === null),
    });
    if (broken !== null) return null;
    return {
      station: flight.dest,
      arrival: arrMinutes,
      ready: arrMinutes + minTurnaroundMinutes(this.config.turnaround, a.aircraft.fleet, flight.dest),
      legs: [...state.legs, { flight, depMinutes, arrMinutes, delayMinutes }],
      checkPoints: state.checkPoints,
      deviations: state.deviations + (deviation ? 1 : 0),
      swaps,
      ownIndex: flight.tail === a.aircraft.tail ? a.plannedFlights.indexOf(flight) : state.ownIndex,
    };
  }

  private eligible(check: MaintenanceCheck, state: SearchState): boolean {
    return state.station === check.station && state.arrival <= check.startMinutes;
  }

  private perform(state: SearchState, index: number, check: MaintenanceCheck): SearchState {
    const checkPoints = [...state.checkPoints];
    checkPoints[index] = state.legs.length - 1;
    return { ...state, ready: Math.max(state.ready, check.endMinutes), checkPoints };
  }

  private initialState(a: AircraftInScope): SearchState {
    return {
      station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, legs: [],
      checkPoints: a.checks.map(() => null), deviations: 0, swaps: 0, ownIndex: -1,
    };
  }

  /**
   * Close a route and evaluate it. With `autoPerform`, checks still eligible at the end are
   * performed there (nothing follows, so performing them never costs anything).
   */
  private finish(a: AircraftInScope, state: SearchState, autoPerform = true): Route | null {
    let s = state;
    if (autoPerform) a.checks.forEach((check, i) => { if (s.checkPoints[i] === null && this.eligible(check, s)) s = this.perform(s, i, check); });
    const missedChecks = a.checks.filter((_, i) => s.checkPoints[i] === null).map((check) => blameForMissedCheck(a.aircraft.tail, check, s.legs));
    const broken = brokenRouteRule({
      config: this.config, endStation: s.station, readyMinutes: s.ready, missedChecks: missedChecks.length,
      requiredEndStation: a.requiredEndStation, nextDepartureAfterWindow: this.enforceWindow ? a.nextDepartureAfterWindow : null,
    });
    if (broken !== null) return null;
    const w = this.config.cost_weights;
    const breaches = s.legs.flatMap((leg) => crewBreaches(this.schedule, leg.flight, leg.arrMinutes));
    const outOfPosition = a.nextDepartureAfterWindow === null && s.station !== a.requiredEndStation;
    const costs: RouteCosts = {
      delay: s.legs.reduce((sum, leg) => sum + leg.delayMinutes * (w.delay_per_minute + w.delay_per_passenger_minute * leg.flight.bookedPassengers), 0),
      swap: s.swaps * w.swap_per_flight,
      spill: s.legs.reduce((sum, leg) => sum + Math.max(0, leg.flight.bookedPassengers - a.aircraft.seats), 0) * w.spill_per_passenger,
      crew_duty: breaches.length * w.crew_duty_violation,
      maintenance: missedChecks.length * w.maintenance_violation,
      aircraft_position: outOfPosition ? w.aircraft_out_of_position : 0,
    };
    const cost = costs.delay + costs.swap + costs.spill + costs.crew_duty + costs.maintenance + costs.aircraft_position;
    const key = `${a.aircraft.tail}|${s.legs.map((l) => l.flight.id).join(',')}|${s.checkPoints.join(',')}`;
    return {
      tail: a.aircraft.tail, legs: s.legs, checkPoints: s.checkPoints, endStation: s.station, deviations: s.deviations,
      swaps: s.swaps, crewBreaches: breaches, missedChecks, outOfPosition, costs, cost, key,
    };
  }

  /**
   * The scheduled sequence with propagated delays; each check is performed where the schedule
   * plans it if the aircraft still arrives by its start, else it is missed. Null when a hard rule
   * forbids it (then the delay-propagation strategy has no plan).
   */
  plannedRoute(a: AircraftInScope): Route | null {
    let state = this.initialState(a);
    const performPlanned = (position: number) => {
      a.checks.forEach((check, i) => {
        if (a.plannedCheckPoints[i] === position && state.checkPoints[i] === null && this.eligible(check, state)) state = this.perform(state, i, check);
      });
    };
    performPlanned(-1);
    for (const [index, flight] of a.plannedFlights.entries()) {
      const next = this.fly(a, state, flight, false);
      if (!next) return null;
      state = next;
      performPlanned(index);
    }
    return this.finish(a, state, false);
  }

  /**
   * Candidate routes of an aircraft: `own` keeps to its own scheduled flights in order (skipping
   * loops = cancelling them), `any` may take any compatible flight in scope. Routes with fewer
   * deviations from the plan come first; generation stops at solver.max_routes_per_aircraft.
   */
  candidateRoutes(a: AircraftInScope, mode: RouteMode): { routes: Route[]; capped: boolean } {
    const { max_routes_per_aircraft: cap, max_route_deviations: maxDeviations, max_branching: branching } = this.config.solver;
    const routes: Route[] = [];
    const keys = new Set<string>();
    let capped = false;
    const lastDeparture = this.scope.flights.at(-1)?.depMinutes ?? Number.NEGATIVE_INFINITY;

    const visit = (state: SearchState, level: number): void => {
      if (routes.length >= cap) { capped = true; return; }
      if (state.deviations === level) {
        const route = this.finish(a, state);
        if (route && !keys.has(route.key)) { keys.add(route.key); routes.push(route); }
      }
      // Performing a check mid-route only matters when flights could still follow it.
      a.checks.forEach((check, i) => {
        if (state.checkPoints[i] === null && this.eligible(check, state) && check.endMinutes <= lastDeparture + this.config.constraints.max_delay_minutes) {
          visit(this.perform(state, i, check), level);
        }
      });
      const lastFlight = state.legs.at(-1)?.flight;
      const natural = lastFlight ? this.rotationNext.get(lastFlight.id) : a.plannedFlights[0];
      const options: { next: SearchState; deviation: boolean }[] = [];
      for (const flight of this.byOrigin.get(state.station) ?? []) {
        if (state.legs.some((leg) => leg.flight === flight)) continue;
        if (mode === 'own' && (flight.tail !== a.aircraft.tail || a.plannedFlights.indexOf(flight) <= state.ownIndex)) continue;
        const deviation = flight !== natural;
        if (deviation && state.deviations >= level) continue;
        const next = this.fly(a, state, flight, deviation);
        if (next) options.push({ next, deviation });
      }
      const naturalOption = options.filter((o) => !o.deviation);
      const alternatives = options.filter((o) => o.deviation)
        .sort((x, y) => x.next.legs.at(-1)!.depMinutes - y.next.legs.at(-1)!.depMinutes
          || (x.next.legs.at(-1)!.flight.id < y.next.legs.at(-1)!.flight.id ? -1 : 1))
        .slice(0, branching);
      for (const o of [...naturalOption, ...alternatives]) {
        if (routes.length >= cap) { capped = true; return; }
        visit(o.next, level);
      }
    };

    for (let level = 0; level <= maxDeviations && routes.length < cap; level++) visit(this.initialState(a), level);
    return { routes, capped };
  }
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
