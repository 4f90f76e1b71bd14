// The engine's walk (operating-plan.ts) on a service scope: the scope stated as the engine's problem
// (its aircraft where they stand, their planned flights but those a disruption cancels, the scope's
// capacity rows with the movements outside the scope), and the service's rules handed to the walk as
// WalkRules (the departure grid, the leg rules of model/rules.ts, the turnaround table, the checks the
// schedule plans). What the walk flies becomes one route per aircraft (neighbourhood/aircraft-routes.ts),
// priced as every column of the shared recovery model is (docs/model.md 4.6).
import type { Flight } from '../../domain/schedule.ts';
import type { TimedLeg } from '../../domain/plan.ts';
import { performPlannedChecks, type RouteEvaluator, type Route, type SequenceState } from '../neighbourhood/aircraft-routes.ts';
import { brokenLegRule } from '../model/rules.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import { solveReferencePlan, type WalkRules } from './operating-plan.ts';
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
      // Range, ground times and checks are the WalkRules' (the leg rules, the turnaround table, the scope's checks).
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
    const states = new Map<string, SequenceState & { legs: TimedLeg[] }>();
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
    const ev = this.ev;
    const rules: WalkRules = {
      gridMinutes: this.stepMinutes,
      cancelFromDelayMinutes: thresholdMinutes,
      aircraft: aircraft ? new Set(walked.map((a) => a.aircraft.tail)) : undefined,
      booked: booked?.map((l) => ({ origin: l.flight.origin, depMinutes: l.depMinutes, dest: l.flight.dest, arrMinutes: l.arrMinutes })),
      firstDeparture: (tail) => states.get(tail)!.ready,
      allows: (tail, flightId, station, dep) => {
        const s = states.get(tail)!;
        const flight = this.flights.get(flightId)!;
        const pending = s.a.checks.filter((_, i) => s.points[i] === null);
        const swaps = s.legs.filter((l) => l.flight.tail !== tail).length + (flight.tail === tail ? 0 : 1);
        return brokenLegRule(ev.legContext(s.a, station, flight, dep, swaps, pending)) === null;
      },
      landed: (tail, flightId, dep, arr) => {
        const s = states.get(tail)!;
        const flight = this.flights.get(flightId)!;
        s.legs.push({ flight, depMinutes: dep, arrMinutes: arr, delayMinutes: dep - flight.depMinutes });
        s.station = flight.dest;
        s.arrival = arr;
        s.ready = arr + ev.turnaround(s.a, flight.dest);
        // A check is performed where the schedule plans it: after one of the aircraft's own flights.
        const position = s.a.plannedFlights.indexOf(flight);
        if (position >= 0) performPlannedChecks(s, position);
        return s.ready;
      },
    };
    solveReferencePlan(this.problem, { cancel, notBefore: this.notBefore, aircraft: aircraftOf }, rules);
    return new Map([...states.values()].map((s) => [s.a.aircraft.tail, ev.finish(s.a, s.legs, s.points, false)]));
  }
}
