// The engine's walk (operating-plan.ts) on a service scope: the scope stated as the engine's problem
// (its aircraft where they stand, their planned flights but those a disruption cancels, the scope's
// capacity rows with the movements outside the scope), and the service's rules handed to the walk
// (ServiceWalkRules: the departure grid, the leg rules of model/rules.ts, the turnaround table, the
// checks the schedule plans), as the ROADEF adapter hands it ROADEF's (model/roadef-rules.ts). What the
// walk flies becomes one route per aircraft (neighbourhood/aircraft-routes.ts), priced as every column
// of the shared recovery model is (docs/model.md 4.2, 4.6).
import type { Flight } from '../../domain/schedule.ts';
import { tripDistanceKm } from '../../domain/passenger-rights.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { performPlannedChecks, type RouteEvaluator, type Route, type SequenceState } from '../neighbourhood/aircraft-routes.ts';
import { brokenLegRule } from '../model/rules.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { RulesAircraft, RulesFlight, WalkRules } from '../model/walk-rules.ts';
import { solveReferencePlan } from './operating-plan.ts';
import type { NetworkAircraft, NetworkFlight, NetworkProblem, PlanLeg } from './problem.ts';

/** The walks of one scope: its problem and what the service's rules say of its flights, stated once. */
export class ScopeWalks {
  private readonly problem: NetworkProblem;
  private readonly flights = new Map<string, Flight>();
  private readonly byTail: ReadonlyMap<string, AircraftInScope>;
  /** Every planned flight of the scope (but those a disruption cancels), per tail. */
  readonly planned: ReadonlyMap<string, Flight[]>;
  /** The aircraft each of those flights is planned for. */
  private readonly owner = new Map<string, string>();
  /** Earliest departures later than scheduled (a disruption's minimum delay): the walk's holds. */
  private readonly notBefore = new Map<string, number>();

  constructor(scope: RecoveryScope, private readonly ev: RouteEvaluator, private readonly stepMinutes: number) {
    this.byTail = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a]));
    this.planned = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a.plannedFlights.filter((f) => !scope.cancelledFlights.has(f.id))]));
    const flights: NetworkFlight[] = [];
    for (const [tail, list] of this.planned) {
      for (const f of list) {
        this.flights.set(f.id, f);
        this.owner.set(f.id, tail);
        if (ev.earliestDeparture(f) > f.depMinutes) this.notBefore.set(f.id, ev.earliestDeparture(f));
        // The service's times carry their day; no flight continues another (its ground time is the turnaround table's).
        flights.push({ id: f.id, flightNumber: f.flightNumber, continues: null, day: Math.floor(f.depMinutes / 1440), tail, origin: f.origin, dest: f.dest, depMinutes: f.depMinutes, arrMinutes: f.arrMinutes });
      }
    }
    const aircraft = new Map<string, NetworkAircraft>(scope.aircraft.map((a) => [a.aircraft.tail, {
      tail: a.aircraft.tail, fleet: a.aircraft.fleet, family: a.aircraft.family, seats: { F: 0, B: 0, E: a.aircraft.seats }, configuration: `0/0/${a.aircraft.seats}`,
      // Range, ground times and checks are the ServiceWalkRules' (the leg rules, the turnaround table, the scope's checks).
      // (The turnaround at its station only guides the exchanges of the search; the walk asks the table.)
      rangeMinutes: Number.POSITIVE_INFINITY, costPerBlockHour: 0, turnaroundMinutes: ev.turnaround(a, a.station), transitMinutes: 0, base: a.station, check: null, shuttle: false,
    }]));
    this.problem = {
      name: `scope of ${scope.airline}`,
      window: { startMinutes: Number.NEGATIVE_INFINITY, endMinutes: Number.POSITIVE_INFINITY },
      aircraft, flights, flightsById: new Map(flights.map((f) => [f.id, f])),
      airportCapacity: new Map(), airportPairs: new Map(), bookings: [], requiredPositions: [],
      hourlyLimits: scope.capacities.map((c) => ({ airport: c.airport, kind: c.kind, hourStartMinutes: c.hourStartMinutes, max: c.max, outside: c.fixed })),
      disruptions: scope.aircraft.flatMap((a) => a.unavailable.map((p) => ({ type: 'aircraft_unavailable' as const, tail: a.aircraft.tail, fromMinutes: p.fromMinutes, toMinutes: p.toMinutes }))),
    };
  }

  /**
   * The distance a cancelled flight's passengers are compensated for: its own, or on a schedule without
   * coordinates (an imported ROADEF one) its haul class's band (domain/passenger-rights.ts).
   */
  compensationKm(f: Flight): number {
    return f.distanceKm ?? tripDistanceKm(this.ev.schedule.airports, [f]);
  }

  /** The engine's problem of the scope (its flights, aircraft and capacities). */
  get networkProblem(): NetworkProblem {
    return this.problem;
  }

  /** `routes` (one per aircraft) as the legs of an engine's plan: every planned flight, flown by its route's aircraft or cancelled. */
  planLegs(routes: ReadonlyMap<string, Route>): PlanLeg[] {
    const flown = new Map<string, { tail: string; leg: TimedLeg }>();
    for (const [tail, route] of routes) for (const leg of route.legs) flown.set(leg.flight.id, { tail, leg });
    return this.problem.flights.map((f) => {
      const placed = flown.get(f.id);
      return {
        flightId: f.id, flightNumber: f.flightNumber, day: f.day, origin: f.origin, dest: f.dest, isNew: false,
        depMinutes: placed?.leg.depMinutes ?? f.depMinutes, arrMinutes: placed?.leg.arrMinutes ?? f.arrMinutes, tail: placed?.tail ?? null,
      };
    });
  }

  /** The flights each aircraft flies when `assigned` (flight id -> aircraft) gives the flights of `flown` and those it moves. */
  sequencesOf(flown: ReadonlyMap<string, readonly Flight[]>, assigned: ReadonlyMap<string, string>, before: ReadonlyMap<string, string>): Map<string, Flight[]> {
    const sequences = new Map<string, Flight[]>([...this.planned.keys()].map((tail) => [tail, []]));
    const kept = new Set([...flown.values()].flatMap((list) => list.map((f) => f.id)));
    for (const [id, tail] of assigned) if (before.get(id) !== tail) kept.add(id);
    for (const [id, f] of this.flights) if (kept.has(id)) sequences.get(assigned.get(id) ?? this.owner.get(id)!)!.push(f);
    for (const list of sequences.values()) list.sort((p, q) => p.depMinutes - q.depMinutes);
    return sequences;
  }

  /**
   * Walk `aircraft` (all the scope's when absent) through their `sequences` (flights of the scope in
   * order, another aircraft's too; an aircraft's planned flights in no sequence are cancelled; the
   * planned sequence where none is given) in time order, each flight at the first grid
   * minute its aircraft, disruption, unavailability and the capacities left (after `booked`) allow,
   * capacity first come, first served. A flight that breaks a leg rule there, or leaves
   * `thresholdMinutes` or more after its earliest departure, is cancelled with the flights that bring
   * the aircraft back where it stands. Routes per tail, null where a route rule forbids the result.
   */
  walk({ sequences, thresholdMinutes, aircraft, booked }: {
    sequences?: ReadonlyMap<string, readonly Flight[]>; thresholdMinutes: number; aircraft?: readonly AircraftInScope[]; booked?: readonly TimedLeg[];
  }): Map<string, Route | null> {
    const walked = aircraft ?? [...this.byTail.values()];
    const states = new Map<string, WalkedRoute>();
    for (const a of walked) {
      const s = { a, station: a.station, arrival: a.arrivalMinutes, ready: a.readyMinutes, legs: [] as TimedLeg[], points: a.checks.map(() => null) };
      // Checks where the schedule performs them, when the aircraft is there in time (as the first plan does).
      performPlannedChecks(s, -1);
      states.set(a.aircraft.tail, s);
    }
    const cancel = new Set<string>();
    const aircraftOf = new Map<string, string>();
    const kept = new Set<string>();
    for (const [tail, sequence] of sequences ?? []) {
      if (!states.has(tail)) continue;
      for (const f of sequence) {
        kept.add(f.id);
        if (this.owner.get(f.id) !== tail) aircraftOf.set(f.id, tail);
      }
    }
    for (const [tail] of sequences ?? []) if (states.has(tail)) for (const f of this.planned.get(tail)!) if (!kept.has(f.id)) cancel.add(f.id);
    const rules = new ServiceWalkRules(this.ev, this.flights, states, this.stepMinutes, thresholdMinutes);
    solveReferencePlan(this.problem, { cancel, notBefore: this.notBefore, aircraft: aircraftOf }, rules, {
      aircraft: aircraft ? new Set(walked.map((a) => a.aircraft.tail)) : undefined,
      booked: booked?.map((l) => ({ origin: l.flight.origin, depMinutes: l.depMinutes, dest: l.flight.dest, arrMinutes: l.arrMinutes })),
    });
    return new Map([...states.values()].map((s) => [s.a.aircraft.tail, this.ev.finish(s.a, s.legs, s.points, false)]));
  }
}

/** An aircraft's route as the walk flies it: where it stands, when it may leave, its legs and checks. */
type WalkedRoute = SequenceState & { legs: TimedLeg[] };

/**
 * The service's rules as the walk asks them (model/walk-rules.ts; docs/model.md 4.2): departures on
 * the grid of time_step_minutes, the leg rules of model/rules.ts judged at each departure, ground
 * times from the turnaround table per fleet and station, the checks the schedule plans (performed
 * where the aircraft lands after the flight they follow), and a delay past which a leg is cancelled
 * (the portfolio's threshold). It follows each walked aircraft's route (`routes`) as the walk flies it.
 */
class ServiceWalkRules implements WalkRules {
  constructor(
    private readonly ev: RouteEvaluator,
    private readonly flights: ReadonlyMap<string, Flight>,
    private readonly routes: ReadonlyMap<string, WalkedRoute>,
    readonly gridMinutes: number,
    readonly cancelFromDelayMinutes: number,
  ) {}

  /** Its last landing's ground time from the turnaround table and the checks performed there (the route's `ready`). */
  earliestDeparture(aircraft: RulesAircraft): number {
    return this.routes.get(aircraft.tail)!.ready;
  }

  /** No range: what an aircraft may not fly, the leg rules say. */
  withinRange(): boolean {
    return true;
  }

  allows(aircraft: RulesAircraft, leg: RulesFlight, station: string, depMinutes: number): boolean {
    const tail = aircraft.tail;
    const s = this.routes.get(tail)!;
    const flight = this.flights.get(leg.id)!;
    const pending = s.a.checks.filter((_, i) => s.points[i] === null);
    const swaps = s.legs.filter((l) => l.flight.tail !== tail).length + (flight.tail === tail ? 0 : 1);
    return brokenLegRule(this.ev.legContext(s.a, station, flight, depMinutes, swaps, pending)) === null;
  }

  landed(aircraft: RulesAircraft, leg: RulesFlight, depMinutes: number, arrMinutes: number): void {
    const s = this.routes.get(aircraft.tail)!;
    const flight = this.flights.get(leg.id)!;
    s.legs.push({ flight, depMinutes, arrMinutes, delayMinutes: depMinutes - flight.depMinutes });
    s.station = flight.dest;
    s.arrival = arrMinutes;
    s.ready = arrMinutes + this.ev.turnaround(s.a, flight.dest);
    // A check is performed where the schedule plans it: after one of the aircraft's own flights.
    const position = s.a.plannedFlights.indexOf(flight);
    if (position >= 0) performPlannedChecks(s, position);
  }

  /** The service's times carry their day: nothing is read without it. */
  readsAfterPeriods(): boolean {
    return true;
  }
}
