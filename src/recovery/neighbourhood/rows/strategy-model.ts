// The recovery MIP of one strategy: route-based set partitioning with passenger re-accommodation
// (docs/model.md section 2). Every route column carries its aircraft-side costs; passengers are
// integrated as flows whose availability and capacity depend on the chosen routes. The rows come
// from the named families of row-families.ts, in a fixed order (names and order make the model file
// the same for the same disruption).
import { pushTo } from '../../../domain/collections.ts';
import type { Flight, Schedule } from '../../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { lpName, ModelBuilder, type LinearModel, type Term, type Variable } from '../../model/linear-model.ts';
import type { Connection, PassengerGroup, PassengerGroups } from '../../passengers/passengers.ts';
import type { RecoveryScope } from '../../model/scope.ts';
import type { SolverConfig, Strategy } from '../../model/solver-config.ts';
import type { Journey } from '../../passengers/journeys.ts';
import { legCoefficient, type JourneySource, type LegRow, type ModelContext, type RebookColumn } from './context.ts';
import {
  addAircraftRows, addCancelledPassengerRows, addCapacityRows, addFlightRows, addMaxCancellationsRow, addMaxSwapsRow, addMisconnectionRows,
  addRouteTerms, addSeatRows, routeColumnName,
} from './row-families.ts';

export interface StrategyModel {
  strategy: Strategy;
  model: LinearModel;
  routeColumns: Map<string, Route>;
  cancelColumns: Map<string, Flight>;
  rebookColumns: Map<string, RebookColumn>;
  strandedColumns: Map<string, PassengerGroup>;
  candidateRoutes: number;
  /** Flight id -> the rows its legs have a coefficient in (the pricing problem prices legs with them). */
  legRows: Map<string, LegRow[]>;
  /** Where the journeys of several flights come from, which the column generation searches (docs/model.md 3.3). */
  journeySources: JourneySource[];
  /** Itinerary ids whose rows the model holds. */
  itineraryRows: ReadonlySet<string>;
}

/** The route each aircraft flies in a solution `values` of `model` (its route columns at 1). */
export function chosenRoutes(model: StrategyModel, values: Record<string, number>): Map<string, Route> {
  const chosen = new Map<string, Route>();
  for (const [column, route] of model.routeColumns) if ((values[column] ?? 0) > 0.5) chosen.set(route.tail, route);
  return chosen;
}

/**
 * Build the model of one strategy over the given candidate routes (per tail, in scope order), the
 * passengers' direct flights, and the journeys of several flights in `journeys` (by their source's
 * key: JourneySource). Flights of the scope that no route covers and that cannot be cancelled make the model
 * infeasible, which GLPK reports as such.
 */
export function buildStrategyModel(
  schedule: Schedule, scope: RecoveryScope, config: SolverConfig, strategy: Strategy,
  routesByTail: Map<string, Route[]>, groups: PassengerGroups, journeys: ReadonlyMap<string, readonly Journey[]> = new Map(),
  cancelledItineraries: ReadonlySet<string> | null = null,
): StrategyModel {
  const ctx: ModelContext = {
    b: new ModelBuilder(`recovery__${lpName(scope.label)}__${strategy}`),
    schedule, scope, config, strategy, groups,
    routeColumns: new Map(), routesWith: new Map(), cancelColumns: new Map(), cancelColumnOf: new Map(),
    rebookColumns: new Map(), strandedColumns: new Map(), journeys, journeySources: [], seatRowOf: new Map(), rows: [], legRows: new Map(),
    cancelledItineraries, itineraryRows: new Set(),
  };
  addAircraftRows(ctx, routesByTail);
  addFlightRows(ctx);
  addMaxSwapsRow(ctx);
  addMaxCancellationsRow(ctx);
  addCancelledPassengerRows(ctx);
  addMisconnectionRows(ctx);
  addCapacityRows(ctx);
  addSeatRows(ctx);
  addRouteTerms(ctx);
  return {
    strategy, model: ctx.b.build(), routeColumns: ctx.routeColumns, cancelColumns: ctx.cancelColumns,
    rebookColumns: ctx.rebookColumns, strandedColumns: ctx.strandedColumns, candidateRoutes: ctx.routeColumns.size, legRows: ctx.legRows,
    journeySources: ctx.journeySources, itineraryRows: ctx.itineraryRows,
  };
}

/** A route new to a model, at its place in its aircraft's list of routes (which names its column). */
export interface NewRoute { route: Route; index: number }

/** Per flight, what its route legs in a model have: every departure, the latest arrival, the earliest departure. */
interface FlightUses { departures: Set<number>; latestArrival: number; earliestDeparture: number }

/**
 * What extending a model needs to know of it, derived once and handed on to the models extended
 * from it (an extension adds no rows; the uses of its routes' connection flights grow).
 */
interface Growth {
  rowAt: Map<string, number>;
  /** Per route column, its place in a whole build's order (its aircraft's place in the scope, then its own in the aircraft's list). */
  routeOrder: Map<string, number>;
  /** Each aircraft's place in the scope, by tail. */
  aircraftPlace: Map<string, number>;
  /** The passengers' connections through each flight: its route legs decide which of their `missed__` rows exist. */
  connectionsOf: Map<string, Connection[]>;
  uses: Map<string, FlightUses>;
}
const GROWTH = new WeakMap<StrategyModel, Growth>();

/** A route column's place in a whole build's order: aircraft by aircraft (addAircraftRows), each aircraft's routes in the order of its list. */
const routePlace = (aircraftPlace: number, index: number) => aircraftPlace * 1_000_000 + index;

function growthOf(model: StrategyModel, scope: RecoveryScope, groups: PassengerGroups): Growth {
  const rowAt = new Map(model.model.constraints.map((c, r) => [c.name, r]));
  // A whole build lists each aircraft's routes in the order of its list, the aircraft in the scope's order.
  const aircraftPlace = new Map(scope.aircraft.map((a, i) => [a.aircraft.tail, i]));
  const routeOrder = new Map<string, number>();
  const listed = new Map<string, number>();
  for (const [column, route] of model.routeColumns) {
    const index = listed.get(route.tail) ?? 0;
    listed.set(route.tail, index + 1);
    routeOrder.set(column, routePlace(aircraftPlace.get(route.tail)!, index));
  }
  const connectionsOf = new Map<string, Connection[]>();
  for (const g of groups.misconnections) {
    for (const c of g.connections) {
      pushTo(connectionsOf, c.arriving.id, c);
      if (c.missed.id !== c.arriving.id) pushTo(connectionsOf, c.missed.id, c);
    }
  }
  const uses = new Map<string, FlightUses>();
  for (const route of model.routeColumns.values()) useLegs(uses, route, connectionsOf);
  return { rowAt, routeOrder, aircraftPlace, connectionsOf, uses };
}

/** Adds a route's legs of connection flights to `uses` (entries replaced, not changed: a model extended before keeps its own). */
function useLegs(uses: Map<string, FlightUses>, route: Route, connectionsOf: ReadonlyMap<string, readonly Connection[]>): void {
  for (const leg of route.legs) {
    if (!connectionsOf.has(leg.flight.id)) continue;
    const known = uses.get(leg.flight.id);
    uses.set(leg.flight.id, known
      ? { departures: new Set(known.departures).add(leg.depMinutes), latestArrival: Math.max(known.latestArrival, leg.arrMinutes), earliestDeparture: Math.min(known.earliestDeparture, leg.depMinutes) }
      : { departures: new Set([leg.depMinutes]), latestArrival: leg.arrMinutes, earliestDeparture: leg.depMinutes });
  }
}

/**
 * A row's terms as a whole build lists them: its own terms (no route's) first, then the route
 * columns' in routeOrder. `terms` are the row's terms so far, in that order (the first `before`),
 * then the new routes', in routeOrder among themselves: the two lists of route terms are merged.
 */
function inWholeBuildOrder(terms: readonly Term[], before: number, routeOrder: ReadonlyMap<string, number>): Term[] {
  let firstRoute = before;
  while (firstRoute > 0 && routeOrder.has(terms[firstRoute - 1]!.variable)) firstRoute--;
  const merged = terms.slice(0, firstRoute);
  let old = firstRoute;
  let added = before;
  while (old < before || added < terms.length) {
    const takeOld = added >= terms.length || (old < before && routeOrder.get(terms[old]!.variable)! < routeOrder.get(terms[added]!.variable)!);
    merged.push(terms[takeOld ? old++ : added++]!);
  }
  return merged;
}

/**
 * Which `missed__` rows a connection has under `uses`, as a key (row-families.ts, connectionRows):
 * both flights in the scope, a row per departure of the second flight that the latest landing of
 * the first misses; one flight in it, a row when its latest landing (earliest departure) breaks
 * the connection.
 */
function connectionRowsKey(scope: RecoveryScope, c: Connection, uses: ReadonlyMap<string, FlightUses>): string {
  const firstIn = scope.flightIds.has(c.arriving.id);
  const secondIn = scope.flightIds.has(c.missed.id);
  const landing = uses.get(c.arriving.id)?.latestArrival;
  if (firstIn && secondIn) {
    if (landing === undefined) return '';
    return [...uses.get(c.missed.id)?.departures ?? []].filter((v) => landing + c.connectionMinutes > v).sort((p, q) => p - q).join(',');
  }
  if (firstIn) return landing !== undefined && landing + c.connectionMinutes > c.missed.depMinutes ? 'late' : '';
  const leaving = uses.get(c.missed.id)?.earliestDeparture;
  return secondIn && leaving !== undefined && leaving <= c.arriving.arrMinutes + c.connectionMinutes - 1 ? 'early' : '';
}

/**
 * The model `previous` with the route columns of `routes` added (docs/model.md 3.1, the incremental
 * master): each in its aircraft row, the swaps row and the leg rows of its legs, with the
 * coefficients a build over all its routes gives them; the new model shares every row the routes
 * leave alone. The same rows and columns as buildStrategyModel over the larger pool, not in its
 * order (the new columns come last, and the new terms last in their rows). Null when the routes
 * change which rows the model has: a leg of a passengers' connection flight at a new departure, or
 * landing later (leaving earlier) than the model's, that brings or renumbers a `missed__` row
 * (row-families.ts, connectionRows); such a model is built whole.
 */
export function extendStrategyModel(
  schedule: Schedule, scope: RecoveryScope, groups: PassengerGroups, previous: StrategyModel, routes: readonly NewRoute[],
): StrategyModel | null {
  let growth = GROWTH.get(previous);
  if (!growth) GROWTH.set(previous, (growth = growthOf(previous, scope, groups)));
  const uses = new Map(growth.uses);
  for (const { route } of routes) useLegs(uses, route, growth.connectionsOf);
  const changed = new Set<Connection>();
  for (const [flight, use] of uses) if (use !== growth.uses.get(flight)) for (const c of growth.connectionsOf.get(flight)!) changed.add(c);
  for (const c of changed) if (connectionRowsKey(scope, c, uses) !== connectionRowsKey(scope, c, growth.uses)) return null;
  const variables: Variable[] = [...previous.model.variables];
  const constraints = [...previous.model.constraints];
  const routeColumns = new Map(previous.routeColumns);
  // The rows that get terms, each copied once: `previous` stays as it was (a solve may hold it).
  const grown = new Map<number, Term[]>();
  const termsOf = (row: number) => {
    let terms = grown.get(row);
    if (!terms) grown.set(row, (terms = [...constraints[row]!.terms]));
    return terms;
  };
  // The new routes in a whole build's order, so that GLPK gets the same problem as from a whole
  // build: the same columns in the same order (a warm-started sequence numbers new columns in the
  // order they come: glpk-session.ts), and every row's terms in the same order (merged below).
  const { routeOrder, aircraftPlace } = growth;
  const ordered = routes.map(({ route, index }) => {
    const column = routeColumnName(route, index);
    routeOrder.set(column, routePlace(aircraftPlace.get(route.tail)!, index));
    return { route, column };
  }).sort((p, q) => routeOrder.get(p.column)! - routeOrder.get(q.column)!);
  const swapsRow = growth.rowAt.get('max_swaps');
  // Per route, its coefficient in each leg row (its legs may share one, as in a capacity hour).
  const coefficients = new Map<number, number>();
  for (const { route, column } of ordered) {
    if (routeColumns.has(column)) throw new Error(`route column ${column} is in the model already`);
    variables.push({ name: column, kind: 'binary', lb: 0, ub: 1, cost: route.cost });
    routeColumns.set(column, route);
    termsOf(growth.rowAt.get(`aircraft__${lpName(route.tail)}`)!).push({ variable: column, coef: 1 });
    if (swapsRow !== undefined && route.swaps > 0) termsOf(swapsRow).push({ variable: column, coef: route.swaps });
    const aircraft = schedule.aircraft.get(route.tail)!;
    coefficients.clear();
    for (const leg of route.legs) {
      for (const spec of previous.legRows.get(leg.flight.id) ?? []) {
        const coef = legCoefficient(spec, aircraft, leg);
        if (coef === 0) continue;
        const row = growth.rowAt.get(spec.row)!;
        coefficients.set(row, (coefficients.get(row) ?? 0) + coef);
      }
    }
    for (const [row, coef] of coefficients) if (coef !== 0) termsOf(row).push({ variable: column, coef });
  }
  for (const [row, terms] of grown) constraints[row] = { ...constraints[row]!, terms: inWholeBuildOrder(terms, constraints[row]!.terms.length, routeOrder) };
  const extended: StrategyModel = {
    ...previous, model: { name: previous.model.name, variables, constraints }, routeColumns, candidateRoutes: routeColumns.size,
  };
  GROWTH.set(extended, { ...growth, uses });
  return extended;
}

/**
 * An extended model (extendStrategyModel) in a whole build's order, for the integer solves (a MIP's
 * branching follows the order of its columns): the route columns first, aircraft by aircraft and each
 * aircraft's in the order of its list (addAircraftRows declares them before any other), then the
 * other columns as they stand. Its rows are a whole build's already, in its order, each row's terms
 * too (inWholeBuildOrder), so this is the model buildStrategyModel makes over the same routes,
 * journeys and itineraries, without building it again. Throws for a model not extended.
 */
export function inWholeBuildColumnOrder(extended: StrategyModel): StrategyModel {
  const growth = GROWTH.get(extended);
  if (!growth) throw new Error(`model ${extended.model.name} was not extended`);
  const { routeOrder } = growth;
  const order = (column: string) => routeOrder.get(column)!;
  const routes = [...extended.routeColumns.keys()].sort((p, q) => order(p) - order(q));
  const byName = new Map(extended.model.variables.map((v) => [v.name, v]));
  const variables = [...routes.map((column) => byName.get(column)!), ...extended.model.variables.filter((v) => !extended.routeColumns.has(v.name))];
  const routeColumns = new Map(routes.map((column) => [column, extended.routeColumns.get(column)!]));
  const ordered: StrategyModel = { ...extended, model: { ...extended.model, variables }, routeColumns };
  GROWTH.set(ordered, growth);
  return ordered;
}
