// The recovery MIP for one strategy: route-based set partitioning with passenger re-accommodation
// (docs/model.md section 2). Every route column carries its aircraft-side costs; passengers are
// integrated as flows whose availability and capacity depend on the chosen routes.
import type { Flight, Schedule } from '../domain/schedule.ts';
import { lpName, ModelBuilder, type LinearModel, type Term } from './linear-model.ts';
import { reaccommodationCost, type CancellationGroup, type MisconnectionGroup, type PassengerGroup, type PassengerGroups } from './passengers.ts';
import type { Route } from './aircraft-routes.ts';
import type { RecoveryScope } from './scope.ts';
import type { SolverConfig, Strategy } from './solver-config.ts';

export interface StrategyModel {
  strategy: Strategy;
  model: LinearModel;
  routeColumns: Map<string, Route>;
  cancelColumns: Map<string, Flight>;
  rebookColumns: Map<string, { group: PassengerGroup; target: Flight }>;
  strandedColumns: Map<string, PassengerGroup>;
  candidateRoutes: number;
}

export function strategyCancels(strategy: Strategy, config: SolverConfig): boolean {
  return (strategy === 'cancellation' || strategy === 'integrated')
    && config.constraints.allow_cancellations && config.constraints.max_cancellations !== 0;
}

const x = (route: Route, index: number) => `x__${lpName(route.tail)}__r${String(index).padStart(3, '0')}`;

/**
 * Build the model of one strategy over the given candidate routes (per tail, in scope order).
 * Flights of the scope that no route covers and that cannot be cancelled make the model infeasible,
 * which GLPK reports as such.
 */
export function buildStrategyModel(
  schedule: Schedule, scope: RecoveryScope, config: SolverConfig, strategy: Strategy,
  routesByTail: Map<string, Route[]>, groups: PassengerGroups,
): StrategyModel {
  const b = new ModelBuilder(`recovery__${lpName(scope.disrupted.id)}__${strategy}`);
  const routeColumns = new Map<string, Route>();
  const cancelColumns = new Map<string, Flight>();
  const rebookColumns = new Map<string, { group: PassengerGroup; target: Flight }>();
  const strandedColumns = new Map<string, PassengerGroup>();
  const routesWith = new Map<string, { column: string; route: Route; leg: Route['legs'][number] }[]>();

  // Aircraft: exactly one route each (possibly the empty one).
  for (const a of scope.aircraft) {
    const routes = routesByTail.get(a.aircraft.tail) ?? [];
    const columns = routes.map((route, i) => {
      const column = b.addVariable(x(route, i), 'binary', route.cost);
      routeColumns.set(column, route);
      for (const leg of route.legs) {
        const list = routesWith.get(leg.flight.id) ?? [];
        list.push({ column, route, leg });
        routesWith.set(leg.flight.id, list);
      }
      return column;
    });
    b.addConstraint(`aircraft__${lpName(a.aircraft.tail)}`, columns.map((variable) => ({ variable, coef: 1 })), '=', 1);
  }

  // Flights: flown by exactly one route, or cancelled where the strategy may cancel.
  const cancels = strategyCancels(strategy, config);
  const cancelColumnOf = new Map<string, string>();
  for (const f of scope.flights) {
    const terms: Term[] = (routesWith.get(f.id) ?? []).map((r) => ({ variable: r.column, coef: 1 }));
    if (cancels) {
      const column = b.addVariable(`cancel__${lpName(f.id)}`, 'continuous', config.cost_weights.cancellation_per_flight, 0, 1);
      cancelColumns.set(column, f);
      cancelColumnOf.set(f.id, column);
      terms.push({ variable: column, coef: 1 });
    }
    b.addConstraint(`flight__${lpName(f.id)}`, terms, '=', 1);
  }

  if (config.constraints.max_swaps < scope.flights.length) {
    const terms = [...routeColumns].filter(([, r]) => r.swaps > 0).map(([variable, r]) => ({ variable, coef: r.swaps }));
    if (terms.length) b.addConstraint('max_swaps', terms, '<=', config.constraints.max_swaps);
  }
  if (cancels && config.constraints.max_cancellations !== null) {
    b.addConstraint('max_cancellations', [...cancelColumns.keys()].map((variable) => ({ variable, coef: 1 })), '<=', config.constraints.max_cancellations);
  }

  // Seats offered by each flight to re-accommodated passengers: fixed for flights outside the
  // scope, the free seats of whichever aircraft flies it for flights inside.
  const seatTerms = new Map<string, Term[]>();
  const freeSeats = (target: Flight): { fixed: number } | { byRoute: Term[] } | null => {
    if (!scope.flightIds.has(target.id)) {
      const free = schedule.aircraft.get(target.tail)!.seats - target.bookedPassengers;
      return free > 0 ? { fixed: free } : null;
    }
    const terms = (routesWith.get(target.id) ?? [])
      .map((r) => ({ variable: r.column, coef: schedule.aircraft.get(r.route.tail)!.seats - target.bookedPassengers }))
      .filter((t) => t.coef > 0);
    return terms.length ? { byRoute: terms } : null;
  };
  const seatCapacity = new Map<string, ReturnType<typeof freeSeats>>();
  /** Adds `column` to the seats row of `target`; false when the flight can offer no seat at all. */
  const offerSeat = (target: Flight, column: string): boolean => {
    if (!seatCapacity.has(target.id)) seatCapacity.set(target.id, freeSeats(target));
    if (!seatCapacity.get(target.id)) return false;
    const list = seatTerms.get(target.id) ?? [];
    list.push({ variable: column, coef: 1 });
    seatTerms.set(target.id, list);
    return true;
  };

  const addRebookings = (group: PassengerGroup, groupName: string, reachable: (target: Flight) => Term[] | true | null): Term[] => {
    const terms: Term[] = [];
    for (const target of group.targets) {
      const reach = reachable(target);
      if (reach === null) continue;
      const name = `rebook__${groupName}__to__${lpName(target.id)}`;
      if (!offerSeat(target, name)) continue;
      const column = b.addVariable(name, 'continuous', reaccommodationCost(config, group, target), 0, group.passengers);
      rebookColumns.set(column, { group, target });
      terms.push({ variable: column, coef: 1 });
      if (reach !== true) {
        // Passengers can take this flight only if their inbound (on the chosen route) arrives in time.
        b.addConstraint(`reach__${groupName}__to__${lpName(target.id)}`,
          [{ variable: column, coef: 1 }, ...reach.map((t) => ({ variable: t.variable, coef: -group.passengers * t.coef }))], '<=', 0);
      }
    }
    const stranded = b.addVariable(`stranded__${groupName}`, 'continuous', group.compensationPerPassenger, 0, group.passengers);
    strandedColumns.set(stranded, group);
    terms.push({ variable: stranded, coef: 1 });
    return terms;
  };

  // Passengers of a cancelled flight: Σ rebooked + stranded = booked × cancelled.
  for (const group of groups.cancellations) {
    const cancel = cancelColumnOf.get(group.flight.id);
    if (!cancel) continue;
    const name = lpName(group.flight.id);
    const terms = addRebookings(group, name, () => true);
    b.addConstraint(`passengers__${name}`, [...terms, { variable: cancel, coef: -group.passengers }], '=', 0);
  }

  for (const group of groups.misconnections) addMisconnection(b, scope, group, routesWith, addRebookings);

  for (const [flightId, terms] of seatTerms) {
    const capacity = seatCapacity.get(flightId)!;
    const name = `seats__${lpName(flightId)}`;
    if ('fixed' in capacity) b.addConstraint(name, terms, '<=', capacity.fixed);
    else b.addConstraint(name, [...terms, ...capacity.byRoute.map((t) => ({ variable: t.variable, coef: -t.coef }))], '<=', 0);
  }

  return { strategy, model: b.build(), routeColumns, cancelColumns, rebookColumns, strandedColumns, candidateRoutes: routeColumns.size };
}

/**
 * A connection (f1, f2) breaks when f1's arrival plus the minimum connection time is later than
 * f2's departure. Both times come from the chosen routes, so "missed" is linearised without big-M:
 * for every departure time v that f2 can take, missed ≥ [f1 arrives too late for v] + [f2 leaves
 * by v] − 1. With f1 or f2 fixed, one side is a constant.
 */
function addMisconnection(
  b: ModelBuilder, scope: RecoveryScope, group: MisconnectionGroup,
  routesWith: Map<string, { column: string; route: Route; leg: Route['legs'][number] }[]>,
  addRebookings: (group: PassengerGroup, name: string, reachable: (target: Flight) => Term[] | true | null) => Term[],
): void {
  const { first, second, connectionMinutes: mct } = group;
  const firstIn = scope.flightIds.has(first.id);
  const secondIn = scope.flightIds.has(second.id);
  if (!firstIn && !secondIn) return;
  const arrivals = firstIn ? (routesWith.get(first.id) ?? []).map((r) => ({ variable: r.column, at: r.leg.arrMinutes })) : null;
  const departures = secondIn ? (routesWith.get(second.id) ?? []).map((r) => ({ variable: r.column, at: r.leg.depMinutes })) : null;
  const name = lpName(group.itinerary.id);
  const rows: { terms: Term[]; rhs: number }[] = [];
  if (arrivals && departures) {
    for (const v of [...new Set(departures.map((d) => d.at))].sort((p, q) => p - q)) {
      const late = arrivals.filter((a) => a.at + mct > v);
      if (!late.length) continue;
      const leaves = departures.filter((d) => d.at <= v);
      rows.push({ terms: [...late, ...leaves].map((t) => ({ variable: t.variable, coef: -1 })), rhs: -1 });
    }
  } else if (arrivals) {
    const late = arrivals.filter((a) => a.at + mct > second.depMinutes);
    if (late.length) rows.push({ terms: late.map((t) => ({ variable: t.variable, coef: -1 })), rhs: 0 });
  } else if (departures) {
    const early = departures.filter((d) => d.at < first.arrMinutes + mct);
    if (early.length) rows.push({ terms: early.map((t) => ({ variable: t.variable, coef: -1 })), rhs: 0 });
  }
  if (!rows.length) return; // no choice of routes can break this connection
  const missed = b.addVariable(`missed__${name}`, 'continuous', 0, 0, 1);
  rows.forEach((row, i) => b.addConstraint(`missed__${name}__${i}`, [{ variable: missed, coef: 1 }, ...row.terms], '>=', row.rhs));
  const terms = addRebookings(group, `missed_${name}`, (target) => {
    if (!arrivals) return first.arrMinutes + mct <= target.depMinutes ? true : null;
    const reach = arrivals.filter((a) => a.at + mct <= target.depMinutes).map((a) => ({ variable: a.variable, coef: 1 }));
    return reach.length ? reach : null;
  });
  b.addConstraint(`passengers__missed_${name}`, [...terms, { variable: missed, coef: -group.passengers }], '=', 0);
}
