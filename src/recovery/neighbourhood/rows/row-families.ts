// The row families of the recovery model (docs/model.md section 2), one named builder each, in the
// order buildStrategyModel calls them. Each declares its columns and rows on the context; rows in
// which route columns have a coefficient register leg rows (context.ts), and addRouteTerms fills in
// every route column's coefficients from them at the end. Names are deterministic and readable
// (aircraft__OE_NVA, flight__NV101_20261121T0530Z, ...).
import { pushTo } from '../../../domain/collections.ts';
import type { Flight } from '../../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { serviceCostModel } from '../../model/cost-model.ts';
import { lpName, type Term } from '../../model/linear-model.ts';
import type { Journey, JourneySearch } from '../../passengers/journeys.ts';
import { reaccommodationCost, type Connection, type ItineraryHub, type MisconnectionGroup, type PassengerGroup } from '../../passengers/passengers.ts';
import type { CapacityLimit } from '../../model/scope.ts';
import type { Strategy, SolverConfig } from '../../model/solver-config.ts';
import { legCoefficient, type LegRow, type ModelContext, type PendingRow, type RouteUse } from './context.ts';

/** May this strategy cancel flights under this configuration (beyond those a disruption cancels)? */
export function strategyCancels(strategy: Strategy, config: SolverConfig): boolean {
  return (strategy === 'cancellation' || strategy === 'integrated')
    && config.constraints.allow_cancellations && config.constraints.max_cancellations !== 0;
}

/**
 * A route's column name at its place in its aircraft's list, kept per route: every pricing round
 * rebuilds the model, and the same string each time (its hash already computed) makes the model
 * builder's lookup of every one of the route's non-zeros about four times cheaper than a new string
 * (measured: a single delay's master of 5,600 non-zeros built in 2.2 ms, 0.3 ms of it with known names).
 */
export function routeColumnName(route: Route, index: number): string {
  const known = ROUTE_COLUMN_NAMES.get(route);
  if (known?.index === index) return known.name;
  const name = `x__${lpName(route.tail)}__r${String(index).padStart(3, '0')}`;
  ROUTE_COLUMN_NAMES.set(route, { index, name });
  return name;
}
const ROUTE_COLUMN_NAMES = new WeakMap<Route, { index: number; name: string }>();

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
      const column = ctx.b.addVariable(`cancel__${lpName(f.id)}`, 'continuous', serviceCostModel(ctx.config).cancellationPerLeg(), forced ? 1 : 0, 1);
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

// Read for every flight of every journey search (column-generation.ts): named once per flight.
const seatRowNames = new WeakMap<Flight, string>();
export function seatRowName(flight: Flight): string {
  let name = seatRowNames.get(flight);
  if (name === undefined) seatRowNames.set(flight, name = `seats__${lpName(flight.id)}`);
  return name;
}

/** The free seats of a flight on its own (planned) aircraft. */
const ownFreeSeats = (ctx: ModelContext, flight: Flight) => ctx.schedule.aircraft.get(flight.tail)!.seats - flight.bookedPassengers;

/** Can the flight take re-accommodated passengers: inside the scope whichever aircraft flies it may have room, outside only its own. */
const canOfferSeats = (ctx: ModelContext, flight: Flight) => ctx.scope.flightIds.has(flight.id) || ownFreeSeats(ctx, flight) > 0;

/**
 * The seat row of `target` for a rebooking column, or null when the flight can offer no seat: a fixed
 * number of free seats outside the scope; inside, the free seats of whichever route flies it (its
 * leg rows), declared even while no current route offers any, so that the pricing problem sees what
 * a larger aircraft on it would be worth.
 */
function seatRow(ctx: ModelContext, target: Flight): PendingRow | null {
  const known = ctx.seatRowOf.get(target.id);
  if (known) return known;
  if (!canOfferSeats(ctx, target)) return null;
  const inScope = ctx.scope.flightIds.has(target.id);
  const free = inScope ? 0 : ownFreeSeats(ctx, target);
  const row: PendingRow = { name: seatRowName(target), terms: [], sense: '<=', rhs: free };
  ctx.seatRowOf.set(target.id, row);
  if (inScope) legRow(ctx, target, { row: row.name, kind: 'seats' });
  return row;
}

// Every whole build offers every journey again (each pricing round): named once per journey and
// group, so that a column keeps one string from model to model (no joining, no hashing it anew).
interface JourneyNames { suffix: string; rebook: string; seats: string; reach: string[]; column?: JourneyColumn }

/**
 * What a journey's column is in a model of `scope` under `config` (addRebookings), whatever the
 * routes: none (`null`: its passengers never reach its first flight, or a flight of it can offer no
 * seat), else its cost and kind, the seats it may take, and its `reach__` rows' leg rows. Kept with
 * the journey's names: every whole build offers every journey again (a simulation's strategies share
 * one scope and configuration).
 */
interface JourneyColumn {
  scope: ModelContext['scope'];
  config: ModelContext['config'];
  value: { cost: number; kind: 'integer' | 'continuous'; offered: number; reach: [Flight, LegRow][] } | null;
}
const JOURNEY_NAMES = new WeakMap<Journey, Map<string, JourneyNames>>();
function journeyNames(groupName: string, journey: Journey): JourneyNames {
  let byGroup = JOURNEY_NAMES.get(journey);
  if (!byGroup) JOURNEY_NAMES.set(journey, (byGroup = new Map()));
  let names = byGroup.get(groupName);
  if (!names) {
    const suffix = `${groupName}__to__${journey.map((leg) => lpName(leg.id)).join('__then__')}`;
    byGroup.set(groupName, (names = { suffix, rebook: `rebook__${suffix}`, seats: `journey_seats__${suffix}`, reach: [] }));
  }
  return names;
}

/**
 * The columns that take a group's passengers somewhere: one `rebook__` column per direct flight of
 * `targets` and per journey of several flights given one (ctx.journeys), with a seat on each of its
 * flights. `reach(first)` says whether the passengers reach the journey's
 * first flight: true whatever the routes, false never, or the leg row that says whether a route brings
 * them in time. Each further flight must be reached from the one before: a flight outside the scope
 * lands as scheduled (the journey was built for that), one inside gets its leg row. Every such leg row
 * is a `reach__` row (column ≤ passengers × [a route brings them in time]). A journey of several
 * flights is an integer column: journeys that share flights with other groups' journeys could
 * otherwise split passengers at an optimal vertex; so is every journey of passengers who may leave
 * from several hubs.
 *
 * `disrupted` are the columns whose sum is 1 when the group's passengers need a new journey, 0 when
 * not (a cancelled flight's cancel column; an itinerary's missed columns). Where a journey's flights
 * can never offer as many seats as the group has passengers, a `journey_seats__` row says so in
 * proportion: column ≤ min(passengers, fewest seats a flight of it can offer) × Σ disrupted. It cuts
 * off no plan (the sum is 0 or 1 in every plan worth taking) but the LP relaxation's cheap mixtures
 * of a cancelled and a flown flight, where a small share of cancellation fills every seat
 * (docs/model.md 2.4).
 *
 * The other journeys of several flights are searched for by the column generation: this records
 * their source (ctx.journeySources), with the rows their columns would have +1 in that price them
 * besides their flights' seat rows: `groupRows` (the group's passengers row, a hub's `from` row).
 * Returns the rebooking terms.
 */
function addRebookings(
  ctx: ModelContext, group: PassengerGroup, groupName: string, targets: readonly Journey[], search: JourneySearch, from: ItineraryHub | null,
  reach: (first: Flight) => true | false | { first: Flight; spec: Omit<LegRow, 'row'> }, disrupted: readonly string[], groupRows: readonly string[],
): Term[] {
  if (ctx.config.constraints.max_reaccommodation_legs !== 1) {
    ctx.journeySources.push({
      key: groupName, group, search, rows: [...groupRows],
      usable: (flight, first) => canOfferSeats(ctx, flight) && (!first || reach(flight) !== false),
    });
  }
  const terms: Term[] = [];
  // Passengers who may leave from several hubs: each column also sits in its hub's `from` row, which
  // makes the passenger part no transportation problem (docs/model.md 2.5). The origin does not
  // count: its share is the first leg's cancellation, and every other hub needs that leg flown.
  const severalHubs = group.kind === 'misconnection' && group.connections.length > 1;
  // Inside the scope a flight offers the free seats of whichever aircraft flies it, outside those of its own.
  const seatsAtMost = (leg: Flight) => Math.max(0, ctx.scope.flightIds.has(leg.id) ? mostSeatsOf(ctx.scope) - leg.bookedPassengers : ownFreeSeats(ctx, leg));
  const columnOf = (journey: Journey, names: JourneyNames): JourneyColumn['value'] => {
    const reached = reach(journey[0]!);
    if (reached === false || !journey.every((leg) => canOfferSeats(ctx, leg))) return null;
    const conditions = reached === true ? [] : [reached];
    for (const [i, leg] of journey.slice(0, -1).entries()) {
      if (!ctx.scope.flightIds.has(leg.id)) continue;
      const connectionMinutes = ctx.schedule.airports.get(leg.dest)!.minConnectionMinutes;
      conditions.push({ first: leg, spec: { kind: 'reaches', atMinutes: journey[i + 1]!.depMinutes, connectionMinutes, passengers: group.passengers, airport: '' } });
    }
    return {
      cost: reaccommodationCost(ctx.config, group, journey),
      kind: journey.length > 1 || severalHubs ? 'integer' : 'continuous',
      offered: Math.min(group.passengers, ...journey.map(seatsAtMost)),
      reach: conditions.map((condition, k): [Flight, LegRow] => [condition.first, {
        ...condition.spec, row: names.reach[k] ??= `reach__${names.suffix}${k === 0 ? '' : `__${k}`}`,
      }]),
    };
  };
  const offer = (journey: Journey) => {
    const names = journeyNames(groupName, journey);
    let known = names.column;
    if (known?.scope !== ctx.scope || known.config !== ctx.config) names.column = known = { scope: ctx.scope, config: ctx.config, value: columnOf(journey, names) };
    const value = known.value;
    if (value === null) return;
    const column = ctx.b.addVariable(names.rebook, value.kind, value.cost, 0, group.passengers);
    ctx.rebookColumns.set(column, { group, journey, from });
    for (const leg of journey) seatRow(ctx, leg)!.terms.push({ variable: column, coef: 1 });
    terms.push({ variable: column, coef: 1 });
    const offered = value.offered;
    if (offered < group.passengers) {
      declare(ctx, {
        name: names.seats,
        terms: [{ variable: column, coef: 1 }, ...disrupted.map((variable) => ({ variable, coef: -offered }))], sense: '<=', rhs: 0,
      });
    }
    for (const [first, spec] of value.reach) {
      declare(ctx, { name: spec.row, terms: [{ variable: column, coef: 1 }], sense: '<=', rhs: 0 });
      pushTo(ctx.legRows, first.id, spec);
    }
  };
  for (const journey of targets) offer(journey);
  for (const journey of ctx.journeys.get(groupName) ?? []) offer(journey);
  return terms;
}

/** The most seats an aircraft of the scope has (a flight of the scope offers at most that less its bookings). */
function mostSeatsOf(scope: ModelContext['scope']): number {
  let most = MOST_SEATS.get(scope);
  if (most === undefined) MOST_SEATS.set(scope, most = Math.max(0, ...scope.aircraft.map((a) => a.aircraft.seats)));
  return most;
}
const MOST_SEATS = new WeakMap<ModelContext['scope'], number>();

/**
 * The names of a group's rows and columns that do not depend on its journeys: every whole build
 * declares them again, and the same strings each time (their hashes computed once) keep the model
 * builder's lookups cheap (as routeColumnName). Per connection hub (`hubs`, the origin's last when
 * it is one) the source key of its rebookings, its `missed__` column and `from__` row, and its
 * `missed__` rows (by number, named when first needed).
 */
interface GroupNames {
  name: string; stranded: string; passengers: string; once: string;
  hubs: { groupName: string; column: string; from: string; rows: string[]; cancelled: string }[];
}
const GROUP_NAMES = new WeakMap<PassengerGroup, GroupNames>();
function groupNames(group: PassengerGroup): GroupNames {
  let names = GROUP_NAMES.get(group);
  if (names) return names;
  if (group.kind === 'cancellation') {
    const name = lpName(group.flight.id);
    names = { name, stranded: `stranded__${name}`, passengers: `passengers__${name}`, once: '', hubs: [] };
  } else {
    const name = lpName(group.itinerary.id);
    const several = group.connections.length > 1;
    const hub = (key: string) => ({ groupName: `missed_${key}`, column: `missed__${key}`, from: `from__missed_${key}`, rows: [], cancelled: `missed__${key}__cancelled` });
    names = {
      name, stranded: `stranded__missed_${name}`, passengers: `passengers__missed_${name}`, once: `once__missed_${name}`,
      hubs: [...group.connections.map((c) => hub(several ? `${name}__c${c.index + 1}` : name)), hub(`${name}__c0`)],
    };
  }
  GROUP_NAMES.set(group, names);
  return names;
}

/** The `stranded__` column of a group (passengers not re-accommodated, compensated), as a term. */
function addStranded(ctx: ModelContext, group: PassengerGroup): Term {
  const stranded = ctx.b.addVariable(groupNames(group).stranded, 'continuous', group.compensationPerPassenger, 0, group.passengers);
  ctx.strandedColumns.set(stranded, group);
  return { variable: stranded, coef: 1 };
}

/** `passengers__<flight>`: the passengers of a cancelled flight are re-accommodated or stranded (Σ = booked × cancelled). */
export function addCancelledPassengerRows(ctx: ModelContext): void {
  for (const group of ctx.groups.cancellations) {
    const cancel = ctx.cancelColumnOf.get(group.flight.id);
    if (!cancel) continue;
    const { name, passengers } = groupNames(group);
    const terms = [...addRebookings(ctx, group, name, group.targets, group.search, null, () => true, [cancel], [passengers]), addStranded(ctx, group)];
    declare(ctx, { name: passengers, terms: [...terms, { variable: cancel, coef: -group.passengers }], sense: '=', rhs: 0 });
  }
}

/**
 * Itineraries (docs/model.md 1.6 and 2.4): disrupted at the first leg their passengers cannot take, a
 * connection that breaks (f1's arrival plus the minimum connection time later than f2's departure) or
 * a leg cancelled. With `missed_c` the share of its passengers re-accommodated from the hub of
 * connection c, and the first leg's cancel column as the share that leaves from the origin (only a
 * cancelled first leg leaves them there), "disrupted" is linearised without big-M:
 * - for every connection i and every departure time v that its second flight takes in some route,
 *   Σ_{shares up to hub i} ≥ [f1 lands too late for v] + [f2 leaves by v] − 1
 *   (`missed__<itinerary>[__c<i>]__<k>`); a leg outside the scope is a constant (it flies at its
 *   scheduled times) and drops out. Rows exist only for the times the routes use (a row at a time no
 *   route uses is implied by the row at the time before it); the column generation adds them as new
 *   routes bring new times;
 * - for every leg k after the first that may be cancelled, Σ_{shares up to the hub before it} ≥
 *   cancel_k (`missed__<itinerary>[__c<k>]__cancelled`).
 * Neither asks the other legs to fly: a break earlier already gives its passengers their share, and
 * what happens to legs after the break is no longer theirs. Σ of the shares ≤ 1
 * (`once__missed_<itinerary>`), so once the itinerary breaks, no passenger leaves from a later hub;
 * they may leave from an earlier one, where they also are. `passengers__missed_<itinerary>`: the
 * disrupted passengers are re-accommodated from some hub, each hub at most its share
 * (`from__missed_<itinerary>__c<i>`), or stranded.
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

/** The rows of one connection: for each, the leg rows of the connection's own flights in it. */
type ConnectionRow = [Flight, LegRow][];

const legSpec = (kind: LegRow['kind'], atMinutes: number, connectionMinutes: number): LegRow =>
  ({ row: '', kind, atMinutes, connectionMinutes, passengers: 0, airport: '' });

function connectionRows(ctx: ModelContext, c: Connection, usesOf: (flight: Flight) => FlightUses): ConnectionRow[] {
  const { arriving: first, missed: second, connectionMinutes: mct } = c;
  const firstIn = ctx.scope.flightIds.has(first.id);
  const secondIn = ctx.scope.flightIds.has(second.id);
  const rows: ConnectionRow[] = [];
  if (firstIn && secondIn) {
    const lastLanding = usesOf(first).latestLanding;
    for (const v of usesOf(second).departures) {
      const late = legSpec('late', v, mct);
      if (hasCoefficient(ctx, lastLanding, late)) rows.push([[first, late], [second, legSpec('departs_by', v, mct)]]);
    }
  } else if (firstIn) {
    const late = legSpec('late', second.depMinutes, mct);
    if (hasCoefficient(ctx, usesOf(first).latestLanding, late)) rows.push([[first, late]]);
  } else if (secondIn) {
    const early = legSpec('departs_by', first.arrMinutes + mct - 1, mct);
    if (hasCoefficient(ctx, usesOf(second).earliestLeaving, early)) rows.push([[second, early]]);
  } else if (first.arrMinutes + mct > second.depMinutes) {
    rows.push([]); // broken in the schedule itself: only the other legs decide
  }
  return rows;
}

function addMisconnection(ctx: ModelContext, group: MisconnectionGroup, usesOf: (flight: Flight) => FlightUses): void {
  const inScope = group.legs.map((f) => ctx.scope.flightIds.has(f.id));
  if (!inScope.includes(true)) return;
  // The legs a plan of this strategy may cancel (or a disruption cancels), by their cancel column.
  const cancelOf = group.legs.map((f) => ctx.cancelColumnOf.get(f.id) ?? null);
  const rowsOf = group.connections.map((c) => connectionRows(ctx, c, usesOf));
  // A cancellable leg breaks it once a master cancels it (ctx.cancelledItineraries); a model without
  // its rows is a relaxation (its passengers cost nothing there), valid for every bound.
  const known = ctx.cancelledItineraries;
  const cancelBreaks = cancelOf.some((column, j) => column !== null
    && (known === null || known.has(group.itinerary.id) || ctx.scope.cancelledFlights.has(group.legs[j]!.id)));
  if (!rowsOf.some((rows) => rows.length > 0) && !cancelBreaks) return; // nothing breaks this itinerary (yet)
  ctx.itineraryRows.add(group.itinerary.id);
  const names = groupNames(group);
  const start = group.start && cancelOf[0] ? { hub: group.start, share: cancelOf[0] } : null;
  const hubs = group.connections.length + (start ? 1 : 0);
  const several = group.connections.length > 1;
  // Every hub gets its columns, also those after the last connection a route can break yet: the
  // passengers row has a price, and a column missing from it could make the Lagrangian bound too high.
  const missed = group.connections.map((c, i) => ctx.b.addVariable(names.hubs[i]!.column, 'continuous', 0, 0, 1));
  // The shares of the hubs up to connection i's (the origin's first).
  const sharesUpTo = (i: number): Term[] => [...(start ? [start.share] : []), ...missed.slice(0, i + 1)].map((variable) => ({ variable, coef: 1 }));
  for (const [i, rows] of rowsOf.entries()) {
    // The first connection's rows leave the origin's share out: their first leg flies late in them, so
    // the passengers are not at the origin, and a plan that cancels it half and flies it late half
    // must not pay the one half with the other (a relaxation otherwise far below the mixture's cost).
    const terms = i === 0 ? missed.slice(0, 1).map((variable) => ({ variable, coef: 1 })) : sharesUpTo(i);
    const hub = names.hubs[i]!;
    for (const [k, own] of rows.entries()) {
      const row = declare(ctx, { name: hub.rows[k] ??= `${hub.column}__${k}`, terms: terms.map((t) => ({ ...t })), sense: '>=', rhs: 1 - own.length });
      for (const [flight, spec] of own) {
        spec.row = row.name;
        pushTo(ctx.legRows, flight.id, spec);
      }
    }
  }
  for (const [k, cancel] of cancelOf.entries()) {
    if (k === 0 || cancel === null) continue;
    declare(ctx, {
      name: names.hubs[k - 1]!.cancelled, terms: [...sharesUpTo(k - 1), { variable: cancel, coef: -1 }], sense: '>=', rhs: 0,
    });
  }
  const shares = sharesUpTo(group.connections.length - 1).map((t) => t.variable);
  // With several connection hubs, `once` and a `from` row per place keep the shares apart. With one
  // connection and the origin, the hub's columns need the first leg flown in time (their `reach`
  // rows), which its cancellation (the origin's share) excludes: the origin's `from` row is all it
  // takes (and Σ shares ≤ 1 only caps what the costs already keep down).
  if (several) declare(ctx, { name: names.once, terms: shares.map((variable) => ({ variable, coef: 1 })), sense: '<=', rhs: 1 });
  const passengersRow = names.passengers;
  const terms: Term[] = [];
  const rebookFrom = (hub: ItineraryHub, hubNames: GroupNames['hubs'][number], share: string, ownRow: boolean, reach: Parameters<typeof addRebookings>[6]) => {
    const fromRow = hubNames.from;
    const fromHub = addRebookings(ctx, group, hubNames.groupName, hub.targets, hub.search, hub, reach, shares, [passengersRow, ...(ownRow ? [fromRow] : [])]);
    if (ownRow && fromHub.length) declare(ctx, { name: fromRow, terms: [...fromHub, { variable: share, coef: -group.passengers }], sense: '<=', rhs: 0 });
    terms.push(...fromHub);
  };
  if (start) rebookFrom(start.hub, names.hubs[group.connections.length]!, start.share, hubs > 1, () => true);
  for (const [i, c] of group.connections.entries()) {
    rebookFrom(c, names.hubs[i]!, missed[i]!, several, (first) => {
      if (!inScope[c.index]) return c.arriving.arrMinutes + c.connectionMinutes <= first.depMinutes;
      return { first: c.arriving, spec: { kind: 'reaches', atMinutes: first.depMinutes, connectionMinutes: c.connectionMinutes, passengers: group.passengers, airport: '' } };
    });
  }
  terms.push(addStranded(ctx, group));
  declare(ctx, { name: passengersRow, terms: [...terms, ...shares.map((variable) => ({ variable, coef: -group.passengers }))], sense: '=', rhs: 0 });
}

/** `seats__<flight>`: re-accommodated passengers fit the free seats of the flight that takes them (of the aircraft that flies it, inside the scope). */
export function addSeatRows(ctx: ModelContext): void {
  for (const row of ctx.seatRowOf.values()) declare(ctx, row);
}

/**
 * The row of the scope's `index`th capacity limit: `<kind>__<airport>__<yyyymmddhh>__c<index>`. Two
 * capacities of one airport may share a clock hour (periods that meet inside it): two limits, two rows.
 */
export function capacityRowName(limit: CapacityLimit, index: number): string {
  const hour = new Date(limit.hourStartMinutes * 60_000).toISOString().slice(0, 13).replace(/[-T]/g, '');
  return `${limit.kind}__${limit.airport}__${hour}__c${index}`;
}

/**
 * `departures__<airport>__<hour>` and `arrivals__<airport>__<hour>` (airport_capacity): the scope's
 * flights leaving / landing at the airport in that clock hour, plus the flights outside the scope
 * that do (fixed), are at most the hour's capacity.
 */
export function addCapacityRows(ctx: ModelContext): void {
  for (const [i, limit] of ctx.scope.capacities.entries()) {
    const row = declare(ctx, { name: capacityRowName(limit, i), terms: [], sense: '<=', rhs: limit.max - limit.fixed });
    const kind = limit.kind === 'departures' ? 'departure_in' : 'arrival_in';
    for (const f of ctx.scope.flights) {
      if ((limit.kind === 'departures' ? f.origin : f.dest) === limit.airport) legRow(ctx, f, { row: row.name, kind, atMinutes: limit.hourStartMinutes, airport: limit.airport });
    }
  }
}

/**
 * Every route column's coefficients in the leg rows (the sum over its legs: one term per column and
 * row, as the model builder would merge them), then every row into the model, in declaration order.
 * The route terms come last in their rows, declared columns each once and non-zero: the builder
 * does not look them up (ModelBuilder.addConstraint's `checked`).
 */
export function addRouteTerms(ctx: ModelContext): void {
  const byName = new Map(ctx.rows.map((row) => [row.name, row]));
  const own = ctx.rows.map((row) => row.terms.length);
  // Per flight, its leg rows with the rows they name, looked up once (routes share flights).
  const rowsOf = new Map<string, { spec: LegRow; row: PendingRow }[]>();
  for (const [flight, specs] of ctx.legRows) rowsOf.set(flight, specs.map((spec) => ({ spec, row: byName.get(spec.row)! })));
  for (const [column, route] of ctx.routeColumns) {
    const aircraft = ctx.schedule.aircraft.get(route.tail)!;
    for (const leg of route.legs) {
      for (const { spec, row } of rowsOf.get(leg.flight.id) ?? []) {
        const coef = legCoefficient(spec, aircraft, leg);
        if (coef === 0) continue;
        // Two legs of the route in one row (a capacity hour): one term, their sum (none when it is 0).
        const last = row.terms[row.terms.length - 1];
        if (last?.variable !== column) row.terms.push({ variable: column, coef });
        else if ((last.coef += coef) === 0) row.terms.pop();
      }
    }
  }
  for (const [r, row] of ctx.rows.entries()) ctx.b.addConstraint(row.name, row.terms, row.sense, row.rhs, own[r]);
}
