// The Lagrangian bound of the column generation (docs/model.md 3.3): at any row prices of the right
// signs, Σ rhs·π plus each aircraft's least reduced cost over ALL its routes (the pricing) plus each
// passenger group's least reduced cost of a journey without a column. Every plan is a feasible point
// of that relaxation, so none costs less: valid at every round, not only at convergence, and what
// the optimality proof (proof.ts) starts from.
import type { Flight } from '../../domain/schedule.ts';
import type { Route } from './aircraft-routes.ts';
import { lpName, termColumns, type LinearModel } from '../model/linear-model.ts';
import type { JourneyFinder, Journey, JourneyNetwork, LegPrices } from '../passengers/journeys.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { legCoefficient, type JourneySource, type LegRow } from './rows/context.ts';
import { seatRowName } from './rows/row-families.ts';
import type { StrategyModel } from './rows/strategy-model.ts';
import type { PricingDuals } from './pricing.ts';
import type { AircraftInScope } from '../model/scope.ts';

/**
 * Row prices (as the pricing problem reads them, and by row name), their Lagrangian bound, each
 * aircraft's least reduced cost there and each passenger group's least reduced cost of a journey
 * (by its passengers row), min(0, ·) both, as summed in the bound.
 */
export interface BoundWitness { duals: PricingDuals; prices: Record<string, number>; bound: number; least: Map<string, number>; journeyLeast: Map<string, number> }

/**
 * Each flight's leg price at row prices `prices`: its seat row's price, negated (a journey's column has
 * +1 there). Kept per prices object (each belongs to one solve, over one network): a round searches
 * at the master's own prices both for the bound and for new columns, and a JourneyFinder keeps its
 * completion bounds for the same leg prices (journeys.ts).
 */
export function legPricesAt(network: JourneyNetwork, prices: Record<string, number>): LegPrices {
  let legPrices = LEG_PRICES.get(prices);
  if (!legPrices) {
    let names = SEAT_ROWS.get(network);
    if (!names) SEAT_ROWS.set(network, names = network.flights.map(seatRowName));
    legPrices = new Float64Array(names.length);
    for (let k = 0; k < names.length; k++) legPrices[k] = -(prices[names[k]!] ?? 0);
    LEG_PRICES.set(prices, legPrices);
  }
  return legPrices;
}
const LEG_PRICES = new WeakMap<Record<string, number>, LegPrices>();
/** Each network flight's seat row name, by network index (a network's flights never change). */
const SEAT_ROWS = new WeakMap<JourneyNetwork, readonly string[]>();

/** The prices of a source's rows other than its flights' seat rows: a journey's reduced cost is its value (journeys.ts) less this. */
export function rowsPrice(source: JourneySource, prices: Record<string, number>): number {
  let sum = 0;
  for (const row of source.rows) sum += prices[row] ?? 0;
  return sum;
}

/**
 * The journeys of several flights that have a column in one solve: `has`, and how many per source
 * (`count`, which grows whenever `has` says yes to one more of the source's journeys).
 */
export interface JourneyColumns {
  has(source: JourneySource, journey: Journey): boolean;
  count(source: JourneySource): number;
}

/** The JourneyFinder of a source, built when first needed. */
export type JourneyFinders = (source: JourneySource) => JourneyFinder;

/**
 * The finders of a simulation's sources (by the simulation's passenger groups, then the source's
 * key), shared by its strategies: a source's search and which flights it may take (seats at all, the
 * first flight reachable at all) depend on the scope only, not on the strategy or its routes.
 */
export const FINDERS = new WeakMap<PassengerGroups, Map<string, JourneyFinder>>();

/**
 * What the passengers' journeys without a column add to a Lagrangian bound at `prices`, with each
 * group's least reduced cost of such a journey (min(0, ·), by the group's passengers row). The
 * relaxation keeps, for each group, Σ over those journeys ≤ its passengers (its passengers row implies
 * it), so they add the passengers × that least (docs/model.md 3.3). `columns` tells the journeys of
 * several flights with a column (direct flights all have one); a source's search is not repeated
 * where nothing it reads has changed since the solve's last (JourneyFinder.leastFor).
 */
export function journeysTerm(
  model: StrategyModel, network: JourneyNetwork, finders: JourneyFinders, prices: Record<string, number>, columns: JourneyColumns, until: number,
): { sum: number; least: Map<string, number> } | null {
  const least = new Map<string, number>();
  const passengers = new Map<string, number>();
  let legPrices: LegPrices | null = null;
  for (const source of model.journeySources) {
    // Every group's least is needed for a bound: one cut short by the budget is none.
    if (performance.now() >= until) return null;
    const finder = finders(source);
    const own = rowsPrice(source, prices);
    // No journey of several flights can price negative here (leg prices are not negative).
    if (finder.cheapestOfSeveral >= own) continue;
    legPrices ??= legPricesAt(network, prices);
    // Only a negative reduced cost counts: the search looks no further than 0.
    const value = finder.leastFor(columns, columns.count(source), legPrices, own, (journey) => journey.length === 1 || columns.has(source, journey)) - own;
    const key = source.rows[0]!;
    least.set(key, Math.min(least.get(key) ?? 0, value));
    passengers.set(key, source.group.passengers);
  }
  let sum = 0;
  for (const [key, value] of least) sum += passengers.get(key)! * value;
  return { sum, least };
}

/**
 * The Lagrangian bound at row prices `duals` (any prices of the right signs, not only the master's
 * own): Σ rhs·π, plus each column other than routes at whichever of its bounds its reduced cost
 * prefers, plus each aircraft's least reduced cost over all its routes (`leastSum`, the π of its row
 * included). Every plan is a feasible point of that relaxation, so none costs less.
 */
export function lagrangianBound(master: LinearModel, routeColumns: ReadonlyMap<string, unknown>, duals: Record<string, number>, leastSum: number): number {
  let bound = leastSum;
  const { variables, constraints } = master;
  // Per column place: whether it is a route's, and the reduced cost so far of the others.
  const route = new Uint8Array(variables.length);
  const reduced = new Float64Array(variables.length);
  for (let j = 0; j < variables.length; j++) {
    if (routeColumns.has(variables[j]!.name)) route[j] = 1;
    else reduced[j] = variables[j]!.cost;
  }
  const { rowStarts, columns } = termColumns(master);
  for (let r = 0; r < constraints.length; r++) {
    const c = constraints[r]!;
    const pi = duals[c.name] ?? 0;
    if (pi === 0) continue;
    bound += c.rhs * pi;
    const { terms } = c;
    const start = rowStarts[r]!;
    for (let k = 0; k < terms.length; k++) {
      const j = columns[start + k]!;
      if (route[j] === 0) reduced[j] = reduced[j]! - pi * terms[k]!.coef;
    }
  }
  for (let j = 0; j < variables.length; j++) {
    if (route[j] === 1) continue;
    const rc = reduced[j]!;
    bound += Math.min(rc * variables[j]!.lb, rc * variables[j]!.ub);
  }
  return bound;
}

/** A route's reduced cost at `duals`: its cost less the prices of its aircraft row, its swaps and its legs' rows. */
export function reducedCost(route: Route, a: AircraftInScope, duals: PricingDuals): number {
  let value = route.cost - duals.aircraft(a) - route.swaps * duals.perSwap;
  for (const leg of route.legs) value -= duals.leg(a, leg.flight, leg.depMinutes);
  return value;
}

export function pricingDuals(model: StrategyModel, duals: Record<string, number>, breakpoints: BreakpointMemo): PricingDuals {
  // Per flight, its leg rows with a price here and those prices, in the model's order (the sum below
  // adds them in it): found once, not by row name for every copy of the flight the pricing values.
  const priced = new Map<string, { specs: LegRow[]; prices: number[] }>();
  const pricedRows = (flight: Flight) => {
    let rows = priced.get(flight.id);
    if (!rows) {
      rows = { specs: [], prices: [] };
      for (const spec of model.legRows.get(flight.id) ?? []) {
        const dual = duals[spec.row];
        if (!dual) continue;
        rows.specs.push(spec);
        rows.prices.push(dual);
      }
      priced.set(flight.id, rows);
    }
    return rows;
  };
  return {
    leg(a, flight, depMinutes) {
      const { specs, prices } = pricedRows(flight);
      if (specs.length === 0) return 0;
      const leg = { flight, depMinutes, arrMinutes: depMinutes + (flight.arrMinutes - flight.depMinutes), delayMinutes: depMinutes - flight.depMinutes };
      let sum = 0;
      for (let k = 0; k < specs.length; k++) sum += prices[k]! * legCoefficient(specs[k]!, a.aircraft, leg);
      return sum;
    },
    aircraft: (a) => duals[`aircraft__${lpName(a.aircraft.tail)}`] ?? 0,
    perSwap: duals.max_swaps ?? 0,
    breakpoints: (flight) => breakpoints(model, flight),
  };
}

/** A flight's breakpoints under a model (legRowBreakpoints), computed once per model and flight. */
export type BreakpointMemo = (model: StrategyModel, flight: Flight) => readonly number[];

/**
 * One per solve. While a flight's rows give the same points as under the previous model, the same
 * array is returned: the pricing keeps the regions it derived from it (pricing.ts, regionBounds).
 */
export function breakpointMemo(): BreakpointMemo {
  let forModel: StrategyModel | null = null;
  let known = new Map<string, readonly number[]>();
  const latest = new Map<string, readonly number[]>();
  return (model, flight) => {
    if (model !== forModel) {
      forModel = model;
      known = new Map();
    }
    let points = known.get(flight.id);
    if (points) return points;
    const fresh = legRowBreakpoints(flight, model.legRows.get(flight.id) ?? []);
    const previous = latest.get(flight.id);
    points = previous && previous.length === fresh.length && previous.every((p, i) => p === fresh[i]) ? previous : fresh;
    latest.set(flight.id, points);
    known.set(flight.id, points);
    return points;
  };
}

/** Departure minutes of `flight` at which its coefficient in one of `rows` may change (see legCoefficient). */
function legRowBreakpoints(flight: Flight, rows: readonly LegRow[]): number[] {
  const block = flight.arrMinutes - flight.depMinutes;
  const points: number[] = [];
  for (const spec of rows) {
    switch (spec.kind) {
      case 'late': points.push(spec.atMinutes - spec.connectionMinutes - block + 1); break;
      case 'departs_by': points.push(spec.atMinutes + 1); break;
      case 'reaches': points.push(spec.atMinutes - spec.connectionMinutes - block + 1); break;
      case 'departure_in': points.push(spec.atMinutes, spec.atMinutes + 60); break;
      case 'arrival_in': points.push(spec.atMinutes - block, spec.atMinutes + 60 - block); break;
      case 'cover': case 'seats': break;
    }
  }
  return points;
}
