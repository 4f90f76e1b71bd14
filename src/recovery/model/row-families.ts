// The row families of the recovery model (docs/model.md section 2), one named builder each, in the
// order buildStrategyModel calls them. Each declares its columns and rows on the context; rows in
// which route columns have a coefficient register leg rows (context.ts), and addRouteTerms fills in
// every route column's coefficients from them at the end. Names are deterministic and readable
// (aircraft__OE_NVA, flight__NV101_20261121T0530Z, ...).
import { pushTo } from '../../domain/collections.ts';
import type { Flight } from '../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { lpName, type Term } from '../linear-model.ts';
import { reaccommodationCost, type MisconnectionGroup, type PassengerGroup } from '../passengers.ts';
import type { Strategy, SolverConfig } from '../solver-config.ts';
import { legCoefficient, type LegRow, type ModelContext, type PendingRow, type RouteUse } from './context.ts';

/** May this strategy cancel flights under this configuration (beyond those a disruption cancels)? */
export function strategyCancels(strategy: Strategy, config: SolverConfig): boolean {
  return (strategy === 'cancellation' || strategy === 'integrated')
    && config.constraints.allow_cancellations && config.constraints.max_cancellations !== 0;
}

const routeColumnName = (route: Route, index: number) => `x__${lpName(route.tail)}__r${String(index).padStart(3, '0')}`;

function declare(ctx: ModelContext, row: PendingRow): PendingRow {
  ctx.rows.push(row);
  return row;
}

function legRow(ctx: ModelContext, flight: Flight, spec: Omit<LegRow, 'atMinutes' | 'connectionMinutes' | 'passengers' | 'airport'> & Partial<LegRow>): void {
  pushTo(ctx.legRows, flight.id, { atMinutes: 0, connectionMinutes: 0, passengers: 0, airport: '', ...spec });
}

/** `aircraft__<tail>`: each aircraft of the scope flies exactly one of its candidate routes (possibly the empty one). */
export function addAircraftRows(ctx: ModelContext, routesByTail: Map<string, Route[]>): void {
  for (const a of ctx.scope.aircraft) {
    const routes = routesByTail.get(a.aircraft.tail) ?? [];
    const columns = routes.map((route, i) => {
      const column = ctx.b.addVariable(routeColumnName(route, i), 'binary', route.cost);
      ctx.routeColumns.set(column, route);
      for (const leg of route.legs) pushTo(ctx.routesWith, leg.flight.id, { column, route, leg });
      return column;
    });
    declare(ctx, { name: `aircraft__${lpName(a.aircraft.tail)}`, terms: columns.map((variable) => ({ variable, coef: 1 })), sense: '=', rhs: 1 });
  }
}

/**
 * `flight__<id>`: each flight of the scope is flown by exactly one route, or cancelled where the
 * strategy may cancel; a flight a disruption cancels is cancelled in every strategy.
 */
export function addFlightRows(ctx: ModelContext): void {
  const cancels = strategyCancels(ctx.strategy, ctx.config);
  for (const f of ctx.scope.flights) {
    const forced = ctx.scope.cancelledFlights.has(f.id);
    const terms: Term[] = [];
    if (cancels || forced) {
      const column = ctx.b.addVariable(`cancel__${lpName(f.id)}`, 'continuous', ctx.config.cost_weights.cancellation_per_flight, forced ? 1 : 0, 1);
      ctx.cancelColumns.set(column, f);
      ctx.cancelColumnOf.set(f.id, column);
      terms.push({ variable: column, coef: 1 });
    }
    const row = declare(ctx, { name: `flight__${lpName(f.id)}`, terms, sense: '=', rhs: 1 });
    legRow(ctx, f, { row: row.name, kind: 'cover' });
  }
}

/** `max_swaps`: the plan flies at most constraints.max_swaps flights with another aircraft than planned. */
export function addMaxSwapsRow(ctx: ModelContext): void {
  if (ctx.config.constraints.max_swaps >= ctx.scope.flights.length) return; // cannot bind
  const terms = [...ctx.routeColumns].filter(([, r]) => r.swaps > 0).map(([variable, r]) => ({ variable, coef: r.swaps }));
  declare(ctx, { name: 'max_swaps', terms, sense: '<=', rhs: ctx.config.constraints.max_swaps });
}

/** `max_cancellations`: the plan cancels at most constraints.max_cancellations flights (those a disruption cancels do not count). */
export function addMaxCancellationsRow(ctx: ModelContext): void {
  const chosen = [...ctx.cancelColumns].filter(([, f]) => !ctx.scope.cancelledFlights.has(f.id)).map(([variable]) => variable);
  if (chosen.length === 0 || ctx.config.constraints.max_cancellations === null) return;
  declare(ctx, { name: 'max_cancellations', terms: chosen.map((variable) => ({ variable, coef: 1 })), sense: '<=', rhs: ctx.config.constraints.max_cancellations });
}

/**
 * The seat row of `target` for a rebooking column, or null when the flight can offer no seat: a fixed
 * number of free seats outside the scope; inside, the free seats of whichever route flies it (its
 * leg rows), declared even while no current route offers any, so that the pricing problem sees what
 * a larger aircraft on it would be worth.
 */
function seatRow(ctx: ModelContext, target: Flight): PendingRow | null {
  const known = ctx.seatRowOf.get(target.id);
  if (known) return known;
  const inScope = ctx.scope.flightIds.has(target.id);
  const free = inScope ? 0 : ctx.schedule.aircraft.get(target.tail)!.seats - target.bookedPassengers;
  if (!inScope && free <= 0) return null;
  const row: PendingRow = { name: `seats__${lpName(target.id)}`, terms: [], sense: '<=', rhs: free };
  ctx.seatRowOf.set(target.id, row);
  if (inScope) legRow(ctx, target, { row: row.name, kind: 'seats' });
  return row;
}

/**
 * The columns that take a group's passengers somewhere: one `rebook__` column per eligible target
 * with seats (and, when reaching it depends on the routes, a `reach__` row: passengers take it only if
 * a route brings them in time), and one `stranded__` column (not re-accommodated, compensated).
 * `reach(target)` is true when the passengers reach it whatever the routes, false when they never
 * do, or the leg row that says whether a route brings them in time. Returns the terms whose sum is the
 * group's disrupted passengers.
 */
function addRebookings(ctx: ModelContext, group: PassengerGroup, groupName: string, reach: (target: Flight) => true | false | { first: Flight; spec: Omit<LegRow, 'row'> }): Term[] {
  const terms: Term[] = [];
  for (const target of group.targets) {
    const reached = reach(target);
    if (reached === false) continue;
    const seats = seatRow(ctx, target);
    if (!seats) continue;
    const name = `rebook__${groupName}__to__${lpName(target.id)}`;
    const column = ctx.b.addVariable(name, 'continuous', reaccommodationCost(ctx.config, group, target), 0, group.passengers);
    ctx.rebookColumns.set(column, { group, target });
    seats.terms.push({ variable: column, coef: 1 });
    terms.push({ variable: column, coef: 1 });
    if (reached !== true) {
      const row = declare(ctx, { name: `reach__${groupName}__to__${lpName(target.id)}`, terms: [{ variable: column, coef: 1 }], sense: '<=', rhs: 0 });
      legRow(ctx, reached.first, { ...reached.spec, row: row.name });
    }
  }
  const stranded = ctx.b.addVariable(`stranded__${groupName}`, 'continuous', group.compensationPerPassenger, 0, group.passengers);
  ctx.strandedColumns.set(stranded, group);
  terms.push({ variable: stranded, coef: 1 });
  return terms;
}

/** `passengers__<flight>`: the passengers of a cancelled flight are re-accommodated or stranded (Σ = booked × cancelled). */
export function addCancelledPassengerRows(ctx: ModelContext): void {
  for (const group of ctx.groups.cancellations) {
    const cancel = ctx.cancelColumnOf.get(group.flight.id);
    if (!cancel) continue;
    const name = lpName(group.flight.id);
    const terms = addRebookings(ctx, group, name, () => true);
    declare(ctx, { name: `passengers__${name}`, terms: [...terms, { variable: cancel, coef: -group.passengers }], sense: '=', rhs: 0 });
  }
}

/**
 * `missed__<itinerary>__<i>` and `passengers__missed_<itinerary>`: a connection (f1, f2) breaks when
 * f1's arrival plus the minimum connection time is later than f2's departure. Both times come from the
 * chosen routes, so "missed" is linearised without big-M: for every departure time v that f2 takes in
 * some route, missed ≥ [f1 lands too late for v] + [f2 leaves by v] − 1. With f1 or f2 fixed, one side
 * is a constant. Rows exist only for the times the routes use (a row at a time no route uses is implied
 * by the row at the time before it); the column generation adds them as new routes bring new times.
 * Passengers of a missed connection are re-accommodated from the hub or stranded.
 */
export function addMisconnectionRows(ctx: ModelContext): void {
  // Per flight, what every connection through it asks of the routes (many connections share a flight).
  const uses = new Map<string, FlightUses>();
  const usesOf = (flight: Flight) => {
    let known = uses.get(flight.id);
    if (!known) uses.set(flight.id, (known = flightUses(ctx.routesWith.get(flight.id) ?? [])));
    return known;
  };
  for (const group of ctx.groups.misconnections) addMisconnection(ctx, group, usesOf);
}

/** The route legs of one flight: the latest-landing one, the earliest-leaving one, and the departure times, ascending. */
interface FlightUses { latestLanding: RouteUse | null; earliestLeaving: RouteUse | null; departures: number[] }

function flightUses(routes: readonly RouteUse[]): FlightUses {
  let latestLanding: RouteUse | null = null;
  let earliestLeaving: RouteUse | null = null;
  for (const r of routes) {
    if (!latestLanding || r.leg.arrMinutes > latestLanding.leg.arrMinutes) latestLanding = r;
    if (!earliestLeaving || r.leg.depMinutes < earliestLeaving.leg.depMinutes) earliestLeaving = r;
  }
  return { latestLanding, earliestLeaving, departures: [...new Set(routes.map((r) => r.leg.depMinutes))].sort((p, q) => p - q) };
}

/**
 * Does the leg `use` (a route's, or none) have a coefficient in a row like `spec`? 'late' grows with a
 * leg's arrival and 'departs_by' with its earliness, so the latest-landing (earliest-leaving) leg of a
 * flight alone tells whether any of its legs has one.
 */
function hasCoefficient(ctx: ModelContext, use: RouteUse | null, spec: LegRow): boolean {
  return use !== null && legCoefficient(spec, ctx.schedule.aircraft.get(use.route.tail)!, use.leg) !== 0;
}

function addMisconnection(ctx: ModelContext, group: MisconnectionGroup, usesOf: (flight: Flight) => FlightUses): void {
  const { first, second, connectionMinutes: mct } = group;
  const firstIn = ctx.scope.flightIds.has(first.id);
  const secondIn = ctx.scope.flightIds.has(second.id);
  if (!firstIn && !secondIn) return;
  // The rows' specs, with their row names set once the rows are declared.
  const spec = (kind: 'late' | 'departs_by', atMinutes: number): LegRow => ({ row: '', kind, atMinutes, connectionMinutes: mct, passengers: 0, airport: '' });
  const rows: { rhs: number; specs: [Flight, LegRow][] }[] = [];
  if (firstIn && secondIn) {
    const lastLanding = usesOf(first).latestLanding;
    for (const v of usesOf(second).departures) {
      const late = spec('late', v);
      if (hasCoefficient(ctx, lastLanding, late)) rows.push({ rhs: -1, specs: [[first, late], [second, spec('departs_by', v)]] });
    }
  } else if (firstIn) {
    const late = spec('late', second.depMinutes);
    if (hasCoefficient(ctx, usesOf(first).latestLanding, late)) rows.push({ rhs: 0, specs: [[first, late]] });
  } else {
    const early = spec('departs_by', first.arrMinutes + mct - 1);
    if (hasCoefficient(ctx, usesOf(second).earliestLeaving, early)) rows.push({ rhs: 0, specs: [[second, early]] });
  }
  if (!rows.length) return; // no route breaks this connection (yet)
  const name = lpName(group.itinerary.id);
  const missed = ctx.b.addVariable(`missed__${name}`, 'continuous', 0, 0, 1);
  for (const [i, r] of rows.entries()) {
    const row = declare(ctx, { name: `missed__${name}__${i}`, terms: [{ variable: missed, coef: 1 }], sense: '>=', rhs: r.rhs });
    for (const [flight, legSpec] of r.specs) {
      legSpec.row = row.name;
      pushTo(ctx.legRows, flight.id, legSpec);
    }
  }
  const terms = addRebookings(ctx, group, `missed_${name}`, (target) => {
    if (!firstIn) return first.arrMinutes + mct <= target.depMinutes;
    return { first, spec: { kind: 'reaches', atMinutes: target.depMinutes, connectionMinutes: mct, passengers: group.passengers, airport: '' } };
  });
  declare(ctx, { name: `passengers__missed_${name}`, terms: [...terms, { variable: missed, coef: -group.passengers }], sense: '=', rhs: 0 });
}

/** `seats__<flight>`: re-accommodated passengers fit the free seats of the flight that takes them (of the aircraft that flies it, inside the scope). */
export function addSeatRows(ctx: ModelContext): void {
  for (const row of ctx.seatRowOf.values()) declare(ctx, row);
}

/**
 * `departures__<airport>__<hour>` and `arrivals__<airport>__<hour>` (airport_capacity): the scope's
 * flights leaving / landing at the airport in that clock hour, plus the flights outside the scope
 * that do (fixed), are at most the hour's capacity.
 */
export function addCapacityRows(ctx: ModelContext): void {
  for (const [i, limit] of ctx.scope.capacities.entries()) {
    // Two capacities of one airport may share a clock hour (periods that meet inside it): two limits, two rows.
    const hour = new Date(limit.hourStartMinutes * 60_000).toISOString().slice(0, 13).replace(/[-T]/g, '');
    const row = declare(ctx, { name: `${limit.kind}__${limit.airport}__${hour}__c${i}`, terms: [], sense: '<=', rhs: limit.max - limit.fixed });
    const kind = limit.kind === 'departures' ? 'departure_in' : 'arrival_in';
    for (const f of ctx.scope.flights) {
      if ((limit.kind === 'departures' ? f.origin : f.dest) === limit.airport) legRow(ctx, f, { row: row.name, kind, atMinutes: limit.hourStartMinutes, airport: limit.airport });
    }
  }
}

/** Every route column's coefficients in the leg rows (the sum over its legs), then every row into the model, in declaration order. */
export function addRouteTerms(ctx: ModelContext): void {
  const byName = new Map(ctx.rows.map((row) => [row.name, row]));
  // Per flight, its leg rows with the rows they name, looked up once (routes share flights).
  const rowsOf = new Map<string, { spec: LegRow; row: PendingRow }[]>();
  for (const [flight, specs] of ctx.legRows) rowsOf.set(flight, specs.map((spec) => ({ spec, row: byName.get(spec.row)! })));
  for (const [column, route] of ctx.routeColumns) {
    const aircraft = ctx.schedule.aircraft.get(route.tail)!;
    for (const leg of route.legs) {
      for (const { spec, row } of rowsOf.get(leg.flight.id) ?? []) {
        const coef = legCoefficient(spec, aircraft, leg);
        if (coef !== 0) row.terms.push({ variable: column, coef });
      }
    }
  }
  for (const row of ctx.rows) ctx.b.addConstraint(row.name, row.terms, row.sense, row.rhs);
}
