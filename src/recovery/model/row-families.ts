// The row families of the recovery model (docs/model.md section 2), one named builder each, in the
// order buildStrategyModel calls them. Each declares its columns and rows on the context's builder;
// names are deterministic and readable (aircraft__OE_NVA, flight__NV101_20261121T0530Z, ...).
import { pushTo } from '../../domain/collections.ts';
import type { Flight } from '../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { lpName, type Term } from '../linear-model.ts';
import { reaccommodationCost, type MisconnectionGroup, type PassengerGroup } from '../passengers.ts';
import type { Strategy, SolverConfig } from '../solver-config.ts';
import type { ModelContext, SeatOffer } from './context.ts';

/** May this strategy cancel flights under this configuration? */
export function strategyCancels(strategy: Strategy, config: SolverConfig): boolean {
  return (strategy === 'cancellation' || strategy === 'integrated')
    && config.constraints.allow_cancellations && config.constraints.max_cancellations !== 0;
}

const routeColumnName = (route: Route, index: number) => `x__${lpName(route.tail)}__r${String(index).padStart(3, '0')}`;

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
    ctx.b.addConstraint(`aircraft__${lpName(a.aircraft.tail)}`, columns.map((variable) => ({ variable, coef: 1 })), '=', 1);
  }
}

/** `flight__<id>`: each flight of the scope is flown by exactly one route, or cancelled where the strategy may cancel. */
export function addFlightRows(ctx: ModelContext): void {
  const cancels = strategyCancels(ctx.strategy, ctx.config);
  for (const f of ctx.scope.flights) {
    const terms: Term[] = (ctx.routesWith.get(f.id) ?? []).map((r) => ({ variable: r.column, coef: 1 }));
    if (cancels) {
      const column = ctx.b.addVariable(`cancel__${lpName(f.id)}`, 'continuous', ctx.config.cost_weights.cancellation_per_flight, 0, 1);
      ctx.cancelColumns.set(column, f);
      ctx.cancelColumnOf.set(f.id, column);
      terms.push({ variable: column, coef: 1 });
    }
    ctx.b.addConstraint(`flight__${lpName(f.id)}`, terms, '=', 1);
  }
}

/** `max_swaps`: the plan flies at most constraints.max_swaps flights with another aircraft than planned. */
export function addMaxSwapsRow(ctx: ModelContext): void {
  if (ctx.config.constraints.max_swaps >= ctx.scope.flights.length) return; // cannot bind
  const terms = [...ctx.routeColumns].filter(([, r]) => r.swaps > 0).map(([variable, r]) => ({ variable, coef: r.swaps }));
  if (terms.length) ctx.b.addConstraint('max_swaps', terms, '<=', ctx.config.constraints.max_swaps);
}

/** `max_cancellations`: the plan cancels at most constraints.max_cancellations flights. */
export function addMaxCancellationsRow(ctx: ModelContext): void {
  if (ctx.cancelColumns.size === 0 || ctx.config.constraints.max_cancellations === null) return;
  ctx.b.addConstraint('max_cancellations', [...ctx.cancelColumns.keys()].map((variable) => ({ variable, coef: 1 })), '<=', ctx.config.constraints.max_cancellations);
}

/** Seats `target` offers to re-accommodated passengers: fixed outside the scope, the free seats of whichever aircraft flies it inside. */
function seatOffer(ctx: ModelContext, target: Flight): SeatOffer | null {
  if (!ctx.scope.flightIds.has(target.id)) {
    const free = ctx.schedule.aircraft.get(target.tail)!.seats - target.bookedPassengers;
    return free > 0 ? { fixed: free } : null;
  }
  const terms = (ctx.routesWith.get(target.id) ?? [])
    .map((r) => ({ variable: r.column, coef: ctx.schedule.aircraft.get(r.route.tail)!.seats - target.bookedPassengers }))
    .filter((t) => t.coef > 0);
  return terms.length ? { byRoute: terms } : null;
}

/** Adds `column` to the seats row of `target`; false when the flight can offer no seat at all. */
function useSeat(ctx: ModelContext, target: Flight, column: string): boolean {
  if (!ctx.seatOffers.has(target.id)) ctx.seatOffers.set(target.id, seatOffer(ctx, target));
  if (!ctx.seatOffers.get(target.id)) return false;
  pushTo(ctx.seatUses, target.id, { variable: column, coef: 1 });
  return true;
}

/**
 * The columns that take a group's passengers somewhere: one `rebook__` column per eligible target
 * with seats (and, when reaching it depends on the chosen routes, a `reach__` row: passengers take
 * it only if their inbound arrives in time), and one `stranded__` column (not re-accommodated,
 * compensated). Returns the terms whose sum is the group's disrupted passengers.
 */
function addRebookings(ctx: ModelContext, group: PassengerGroup, groupName: string, reachable: (target: Flight) => Term[] | true | null): Term[] {
  const terms: Term[] = [];
  for (const target of group.targets) {
    const reach = reachable(target);
    if (reach === null) continue;
    const name = `rebook__${groupName}__to__${lpName(target.id)}`;
    if (!useSeat(ctx, target, name)) continue;
    const column = ctx.b.addVariable(name, 'continuous', reaccommodationCost(ctx.config, group, target), 0, group.passengers);
    ctx.rebookColumns.set(column, { group, target });
    terms.push({ variable: column, coef: 1 });
    if (reach !== true) {
      ctx.b.addConstraint(`reach__${groupName}__to__${lpName(target.id)}`,
        [{ variable: column, coef: 1 }, ...reach.map((t) => ({ variable: t.variable, coef: -group.passengers * t.coef }))], '<=', 0);
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
    ctx.b.addConstraint(`passengers__${name}`, [...terms, { variable: cancel, coef: -group.passengers }], '=', 0);
  }
}

/**
 * `missed__<itinerary>__<i>` and `passengers__missed_<itinerary>`: a connection (f1, f2) breaks when
 * f1's arrival plus the minimum connection time is later than f2's departure. Both times come from the
 * chosen routes, so "missed" is linearised without big-M: for every departure time v that f2 can take,
 * missed ≥ [f1 arrives too late for v] + [f2 leaves by v] − 1. With f1 or f2 fixed, one side is a
 * constant. Passengers of a missed connection are re-accommodated from the hub or stranded.
 */
export function addMisconnectionRows(ctx: ModelContext): void {
  for (const group of ctx.groups.misconnections) addMisconnection(ctx, group);
}

function addMisconnection(ctx: ModelContext, group: MisconnectionGroup): void {
  const { first, second, connectionMinutes: mct } = group;
  const firstIn = ctx.scope.flightIds.has(first.id);
  const secondIn = ctx.scope.flightIds.has(second.id);
  if (!firstIn && !secondIn) return;
  const arrivals = firstIn ? (ctx.routesWith.get(first.id) ?? []).map((r) => ({ variable: r.column, at: r.leg.arrMinutes })) : null;
  const departures = secondIn ? (ctx.routesWith.get(second.id) ?? []).map((r) => ({ variable: r.column, at: r.leg.depMinutes })) : null;
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
  const missed = ctx.b.addVariable(`missed__${name}`, 'continuous', 0, 0, 1);
  rows.forEach((row, i) => ctx.b.addConstraint(`missed__${name}__${i}`, [{ variable: missed, coef: 1 }, ...row.terms], '>=', row.rhs));
  const terms = addRebookings(ctx, group, `missed_${name}`, (target) => {
    if (!arrivals) return first.arrMinutes + mct <= target.depMinutes ? true : null;
    const reach = arrivals.filter((a) => a.at + mct <= target.depMinutes).map((a) => ({ variable: a.variable, coef: 1 }));
    return reach.length ? reach : null;
  });
  ctx.b.addConstraint(`passengers__missed_${name}`, [...terms, { variable: missed, coef: -group.passengers }], '=', 0);
}

/** `seats__<flight>`: re-accommodated passengers fit the free seats of the flight (of the aircraft that flies it, inside the scope). */
export function addSeatRows(ctx: ModelContext): void {
  for (const [flightId, uses] of ctx.seatUses) {
    const offer = ctx.seatOffers.get(flightId)!;
    const name = `seats__${lpName(flightId)}`;
    if ('fixed' in offer) ctx.b.addConstraint(name, uses, '<=', offer.fixed);
    else ctx.b.addConstraint(name, [...uses, ...offer.byRoute.map((t) => ({ variable: t.variable, coef: -t.coef }))], '<=', 0);
  }
}
