// The recovery MIP of one strategy: route-based set partitioning with passenger re-accommodation
// (docs/model.md section 2). Every route column carries its aircraft-side costs; passengers are
// integrated as flows whose availability and capacity depend on the chosen routes. The rows come
// from the named families of row-families.ts, in a fixed order (names and order make the model file
// the same for the same disruption).
import { pushTo } from '../../../domain/collections.ts';
import type { Flight, Schedule } from '../../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { lpName, ModelBuilder, type Constraint, type LinearModel, type Term, type Variable } from '../../model/linear-model.ts';
import type { Connection, PassengerGroup, PassengerGroups } from '../../passengers/passengers.ts';
import type { RecoveryScope } from '../../model/scope.ts';
import type { SolverConfig, Strategy } from '../../model/solver-config.ts';
import type { Journey } from '../../passengers/journeys.ts';
import { legCoefficient, type JourneyBlock, type JourneyColumnSpec, type JourneySource, type LegRow, type ModelContext, type RebookColumn } from './context.ts';
import {
  addAircraftRows, addCancelledPassengerRows, addCapacityRows, addFlightRows, addMaxCancellationsRow, addMaxSwapsRow, addMisconnectionRows,
  addRouteTerms, addSeatRows, newSeatRow, routeColumnName, seatRowName,
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
    cancelledItineraries, itineraryRows: new Set(), journeyBlocks: new Map(),
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
  const built: StrategyModel = {
    strategy, model: ctx.b.build(), routeColumns: ctx.routeColumns, cancelColumns: ctx.cancelColumns,
    rebookColumns: ctx.rebookColumns, strandedColumns: ctx.strandedColumns, candidateRoutes: ctx.routeColumns.size, legRows: ctx.legRows,
    journeySources: ctx.journeySources, itineraryRows: ctx.itineraryRows,
  };
  JOURNEY_BLOCKS.set(built, { blocks: ctx.journeyBlocks, seatRows: ctx.seatRowOf.size });
  return built;
}

/**
 * What adding journeys to a model needs to know of it (addJourneyColumns): its journey sources'
 * blocks (JourneyBlock) and how many seat rows it has (the last rows). Handed on to the models
 * extended from it.
 */
interface JourneyNotes { blocks: ReadonlyMap<string, JourneyBlock>; seatRows: number }
const JOURNEY_BLOCKS = new WeakMap<StrategyModel, JourneyNotes>();

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
  handOn(previous, extended);
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
  handOn(extended, ordered);
  return ordered;
}

/** `to` (a model with the same rows and passenger columns as `from`, extended or reordered from it) keeps what adding journeys needs. */
function handOn(from: StrategyModel, to: StrategyModel): void {
  const notes = JOURNEY_BLOCKS.get(from);
  if (notes) JOURNEY_BLOCKS.set(to, notes);
}

/** A journey's column to add, with its source's block and the rows its columns have +1 in besides seat rows. */
interface NewJourney { block: JourneyBlock; rows: readonly string[]; journey: Journey; spec: JourneyColumnSpec }

/**
 * The model `previous` (its columns in a whole build's order: buildStrategyModel, inWholeBuildColumnOrder)
 * with columns for the journeys `added` (by source key, each source's in the order they were found)
 * (docs/model.md 3.1, the incremental master): exactly the model buildStrategyModel gives over the
 * same routes with those journeys after each source's earlier ones, its rows, columns, terms and
 * leg rows in the same order. A whole build offers a source's journeys one after the other, so each
 * new column goes right after its source's last column, its rows (`journey_seats__`, `reach__`)
 * right after the source's rows, its terms into its group's rows and its flights' seat rows in
 * declaration order, and a flight's seat row, declared last in first-use order, among the others by
 * its first column. The leg rows of a flight are in declaration order too (the pricing sums their
 * prices in it). Null when a whole build is needed: a model not built by buildStrategyModel or
 * extended from one, or a source's first column (which brings its `from__` row).
 */
export function addJourneyColumns(
  schedule: Schedule, scope: RecoveryScope, previous: StrategyModel, added: ReadonlyMap<string, readonly Journey[]>,
): StrategyModel | null {
  const notes = JOURNEY_BLOCKS.get(previous);
  if (!notes) return null;
  const fresh: NewJourney[] = [];
  let sources = 0;
  for (const source of previous.journeySources) {
    const journeys = added.get(source.key);
    if (!journeys) continue;
    sources++;
    const block = notes.blocks.get(source.key)!;
    for (const journey of journeys) {
      const spec = block.columnOf(journey);
      if (!spec) continue;
      if (block.lastColumn === null) return null;
      fresh.push({ block, rows: source.rows, journey, spec });
    }
  }
  if (sources !== added.size) return null;
  if (fresh.length === 0) return previous;
  const old = previous.model;
  // The columns: each source's new ones right after its last.
  const byLast = new Map<string, NewJourney[]>();
  for (const j of fresh) pushTo(byLast, j.block.lastColumn!, j);
  const variables: Variable[] = [];
  for (const v of old.variables) {
    variables.push(v);
    for (const { spec, block } of byLast.get(v.name) ?? []) variables.push({ name: spec.column, kind: spec.kind, lb: 0, ub: block.group.passengers, cost: spec.cost });
  }
  const place = new Map<string, number>();
  for (const [j, v] of variables.entries()) place.set(v.name, j);
  if (place.size !== variables.length) throw new Error(`a journey column of ${old.name} is in the model already`);
  const rowAt = GROWTH.get(previous)?.rowAt ?? new Map(old.constraints.map((c, r) => [c.name, r]));
  const firstSeat = old.constraints.length - notes.seatRows;
  // The rows that get terms, each copied once (`previous` stays as it was: a solve may hold it).
  const grown = new Map<number, Term[]>();
  const termsOf = (row: number) => {
    let terms = grown.get(row);
    if (!terms) grown.set(row, (terms = [...old.constraints[row]!.terms]));
    return terms;
  };
  // Each route column by the flights it flies, in the model's (a whole build's) order.
  let routesOn: Map<string, { column: string; route: Route; leg: Route['legs'][number] }[]> | null = null;
  const routeTerms = (flight: Flight, spec: LegRow): Term[] => {
    if (!routesOn) {
      routesOn = new Map();
      for (const [column, route] of previous.routeColumns) for (const leg of route.legs) pushTo(routesOn, leg.flight.id, { column, route, leg });
    }
    // One term per column, the sum over its legs (none when it is 0), as addRouteTerms makes them.
    const terms: Term[] = [];
    for (const { column, route, leg } of routesOn.get(flight.id) ?? []) {
      const coef = legCoefficient(spec, schedule.aircraft.get(route.tail)!, leg);
      if (coef === 0) continue;
      const last = terms[terms.length - 1];
      if (last?.variable !== column) terms.push({ variable: column, coef });
      else if ((last.coef += coef) === 0) terms.pop();
    }
    return terms;
  };
  // The new rows, by the row of the old model they come before (their source's end); the seat rows
  // a new column uses first (new ones, or old ones whose first column came later).
  const inserted = new Map<number, { column: string; rows: Constraint[] }[]>();
  const rowsAdded = new Map<JourneyBlock, number>();
  const firstSeats = new Map<string, { flight: Flight; creator: string; terms: Term[] }>();
  const newCreators = new Map<string, { flight: Flight; creator: string }>();
  for (const { block, journey, spec } of fresh) {
    const column = spec.column;
    const at = place.get(column)!;
    for (const flight of journey) {
      const row = rowAt.get(seatRowName(flight));
      if (row === undefined) {
        let first = firstSeats.get(flight.id);
        if (!first) firstSeats.set(flight.id, (first = { flight, creator: column, terms: [] }));
        first.terms.push({ variable: column, coef: 1 });
        continue;
      }
      // Its own terms (the columns that take seats) in declaration order, the routes' after them.
      const terms = termsOf(row);
      let k = 0;
      while (k < terms.length && !previous.routeColumns.has(terms[k]!.variable) && place.get(terms[k]!.variable)! < at) k++;
      terms.splice(k, 0, { variable: column, coef: 1 });
      if (k === 0 && !newCreators.has(flight.id)) newCreators.set(flight.id, { flight, creator: column });
    }
    const rows: Constraint[] = [];
    if (spec.journeySeats) {
      const { row, offered } = spec.journeySeats;
      // (As the model builder keeps a row: no zero coefficient.)
      const terms = [{ variable: column, coef: 1 }, ...block.disrupted.map((variable) => ({ variable, coef: -offered }))].filter((t) => t.coef !== 0);
      rows.push({ name: row, terms, sense: '<=', rhs: 0 });
    }
    for (const [first, legSpec] of spec.reach) rows.push({ name: legSpec.row, terms: [{ variable: column, coef: 1 }, ...routeTerms(first, legSpec)], sense: '<=', rhs: 0 });
    pushTo(inserted, block.rowsEnd, { column, rows });
    rowsAdded.set(block, (rowsAdded.get(block) ?? 0) + rows.length);
  }
  // The group's passengers row and the hub's `from` row: right after the source's last column.
  for (const [last, journeys] of byLast) {
    for (const name of journeys[0]!.rows) {
      const terms = termsOf(rowAt.get(name)!);
      terms.splice(terms.findIndex((t) => t.variable === last) + 1, 0, ...journeys.map(({ spec }) => ({ variable: spec.column, coef: 1 })));
    }
  }
  const constraints: Constraint[] = [];
  const rowOf = (r: number): Constraint => (grown.has(r) ? { ...old.constraints[r]!, terms: grown.get(r)! } : old.constraints[r]!);
  /** Per new column, how many rows (not seat rows) come before its own: those declared before it. */
  const rowsBefore = new Map<string, number>();
  for (let r = 0; r <= firstSeat; r++) {
    for (const { column, rows } of inserted.get(r) ?? []) {
      rowsBefore.set(column, constraints.length);
      constraints.push(...rows);
    }
    if (r < firstSeat) constraints.push(rowOf(r));
  }
  // The seat rows in first-use order: by their first column's place.
  const seats: Constraint[] = [];
  for (let r = firstSeat; r < old.constraints.length; r++) seats.push(rowOf(r));
  const seatLegRows: { flight: Flight; spec: LegRow; creator: string }[] = [];
  for (const { flight, creator, terms } of firstSeats.values()) {
    const { rhs, legRow } = newSeatRow({ schedule, scope }, flight);
    seats.push({ name: seatRowName(flight), terms: legRow ? [...terms, ...routeTerms(flight, legRow)] : terms, sense: '<=', rhs });
    if (legRow) seatLegRows.push({ flight, spec: legRow, creator });
  }
  for (const { flight, creator } of newCreators.values()) {
    const spec = previous.legRows.get(flight.id)?.find((s) => s.kind === 'seats');
    if (spec) seatLegRows.push({ flight, spec, creator });
  }
  const known = new Map(fresh.map(({ block, journey, spec }) => [spec.column, { group: block.group, journey, from: block.from }]));
  const rebookColumns = new Map<string, RebookColumn>();
  for (const v of variables) {
    const column = previous.rebookColumns.get(v.name) ?? known.get(v.name);
    if (column) rebookColumns.set(v.name, column);
  }
  // A column first to use several flights declares their seat rows in the order of its journey.
  const firstUse = (c: Constraint) => place.get(c.terms[0]!.variable)!;
  const legOf = (c: Constraint) => rebookColumns.get(c.terms[0]!.variable)!.journey.findIndex((flight) => seatRowName(flight) === c.name);
  seats.sort((p, q) => firstUse(p) - firstUse(q) || legOf(p) - legOf(q));
  constraints.push(...seats);
  const rowAtNow = new Map<string, number>();
  for (const [r, c] of constraints.entries()) rowAtNow.set(c.name, r);
  // Each flight's leg rows in declaration order: a row's right after it is declared, a seat row's
  // when its first column is (before that column's own rows).
  const legRows = new Map(previous.legRows);
  const copied = new Set<string>();
  const listOf = (flight: Flight) => {
    if (!copied.has(flight.id)) {
      copied.add(flight.id);
      legRows.set(flight.id, [...legRows.get(flight.id) ?? []]);
    }
    return legRows.get(flight.id)!;
  };
  for (const { flight, spec, creator } of seatLegRows) {
    const list = listOf(flight);
    const was = list.indexOf(spec);
    if (was >= 0) list.splice(was, 1);
    const before = rowsBefore.get(creator)!;
    let k = 0;
    while (k < list.length && rowAtNow.get(list[k]!.row)! < before) k++;
    list.splice(k, 0, spec);
  }
  const creatorOf = (spec: LegRow) => firstUse(constraints[rowAtNow.get(spec.row)!]!);
  for (const { spec } of fresh) {
    const at = place.get(spec.column)!;
    for (const [first, legSpec] of spec.reach) {
      const list = listOf(first);
      const row = rowAtNow.get(legSpec.row)!;
      let k = 0;
      while (k < list.length && (list[k]!.kind === 'seats' ? creatorOf(list[k]!) <= at : rowAtNow.get(list[k]!.row)! < row)) k++;
      list.splice(k, 0, legSpec);
    }
  }
  // Each source's end moves by the rows added up to it; its last column is its last new one.
  const blocks = new Map<string, JourneyBlock>();
  const lastOf = new Map(fresh.map(({ block, spec }) => [block, spec.column]));
  let shift = 0;
  for (const source of previous.journeySources) {
    const block = notes.blocks.get(source.key)!;
    shift += rowsAdded.get(block) ?? 0;
    blocks.set(source.key, shift === 0 && !lastOf.has(block) ? block : { ...block, rowsEnd: block.rowsEnd + shift, lastColumn: lastOf.get(block) ?? block.lastColumn });
  }
  const extended: StrategyModel = { ...previous, model: { name: old.name, variables, constraints }, rebookColumns, legRows };
  JOURNEY_BLOCKS.set(extended, { blocks, seatRows: notes.seatRows + firstSeats.size });
  const growth = GROWTH.get(previous);
  if (growth) GROWTH.set(extended, { ...growth, rowAt: rowAtNow });
  return extended;
}
