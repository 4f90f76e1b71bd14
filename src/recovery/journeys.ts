// Passengers' new journeys (docs/model.md 1.6) and the two searches over the airline's network that
// the model needs for them (3.3, 3.4): the least reduced cost of any journey, by a backward dynamic
// programme over the flights, and every journey within a threshold, by a depth-first search that the
// same programme prunes. No search lists the journeys up front: with no limit on their flights,
// there are too many (benchmarks/journey-counts.ts).
import type { Flight } from '../domain/schedule.ts';
import type { SolverConfig } from './solver-config.ts';

/**
 * A new journey for re-accommodated passengers: one or more flights of the airline, each leaving from
 * where the one before lands, in the order flown (docs/model.md 1.6).
 */
export type Journey = readonly Flight[];

export const journeyEnd = (journey: Journey): Flight => journey[journey.length - 1]!;

/**
 * The airline's flights from each airport, by scheduled departure, and every airport's minimum
 * connection time: what the journey searches walk.
 */
export interface JourneyNetwork { fromAirport: Map<string, Flight[]>; connectionMinutes: (airport: string) => number }

/** Where passengers leave from, where they must go, and what no journey of theirs may use. */
export interface JourneySearch {
  origin: string;
  dest: string;
  /** The first flight leaves (scheduled) at or after this instant. */
  earliestMinutes: number;
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
  excluded: ReadonlySet<Flight>;
}

/** Cost of re-accommodating one passenger on a journey landing (scheduled) at `arrivalMinutes`. */
export function journeyCost(config: SolverConfig, originalArrivalMinutes: number, arrivalMinutes: number): number {
  const w = config.cost_weights;
  return w.reaccommodation_per_passenger + w.reaccommodation_delay_per_passenger_minute * Math.max(0, arrivalMinutes - originalArrivalMinutes);
}

/**
 * The last scheduled departure worth taking: a journey costs only by its arrival, so one landing
 * after this costs at least the compensation, and leaving the passengers unaccommodated costs no more
 * and takes no seat (an exact pruning: docs/model.md 1.6). Null when no journey is cheaper than that.
 */
function deadlineOf(config: SolverConfig, search: JourneySearch): number | null {
  const w = config.cost_weights;
  const slack = search.compensationPerPassenger - w.reaccommodation_per_passenger;
  if (slack <= 0) return null;
  return w.reaccommodation_delay_per_passenger_minute > 0
    ? search.originalArrivalMinutes + slack / w.reaccommodation_delay_per_passenger_minute
    : Number.POSITIVE_INFINITY;
}

/** May `flight` be on a journey of the search at all (whatever the prices)? */
function eligible(config: SolverConfig, search: JourneySearch, flight: Flight): boolean {
  return !search.excluded.has(flight) && journeyCost(config, search.originalArrivalMinutes, flight.arrMinutes) < search.compensationPerPassenger;
}

/** First index of `flights` (by scheduled departure) leaving at or after `minutes`. */
function firstFrom(flights: readonly Flight[], minutes: number): number {
  let lo = 0;
  let hi = flights.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (flights[mid]!.depMinutes < minutes) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** The direct flights of a search that are journeys (cheaper than the compensation), by departure. */
export function directJourneys(network: JourneyNetwork, config: SolverConfig, search: JourneySearch): Journey[] {
  const deadline = deadlineOf(config, search);
  if (deadline === null) return [];
  const from = network.fromAirport.get(search.origin) ?? [];
  const found: Journey[] = [];
  for (let i = firstFrom(from, search.earliestMinutes); i < from.length && from[i]!.depMinutes < deadline; i++) {
    const f = from[i]!;
    if (f.dest === search.dest && eligible(config, search, f)) found.push([f]);
  }
  return found;
}

/**
 * How the prices of the model see a journey's flights: `legPrice(f)` is added for each flight (the
 * negated price of its seat row), `usable(f, first)` says whether a journey may take it at all
 * (as its first flight, or a later one).
 */
export interface JourneyPricing {
  legPrice: (flight: Flight) => number;
  usable: (flight: Flight, first: boolean) => boolean;
}

/**
 * The completion bounds of a search: for each flight that may be on one of its journeys, the least
 * of (Σ legPrice over the flights from it on + the cost of the journey's arrival) over every walk
 * from it to the destination of at most `legs` flights, in `layers[legs - 1]` (with no limit on the
 * flights, one layer for any number). A walk may visit an airport twice, which a journey may not: a
 * relaxation, so every bound is a lower bound. It is exact for the least over journeys whenever no
 * legPrice is negative (the model's are not: seat rows are ≤ rows): a walk that comes back to an
 * airport lands there later than it was first, so the journey that leaves out the loop can take the
 * same flights on and costs no more.
 */
interface CompletionBounds { layers: Map<Flight, number>[]; limited: boolean }

function completionBounds(network: JourneyNetwork, config: SolverConfig, search: JourneySearch, pricing: JourneyPricing, maxLegs: number | null): CompletionBounds | null {
  const deadline = deadlineOf(config, search);
  if (deadline === null) return null;
  // Every flight a journey could take: leaving from the earliest instant to the deadline, in reverse
  // order of departure, so that each flight's successors (which leave after it lands) come first.
  const candidates: Flight[] = [];
  for (const flights of network.fromAirport.values()) {
    for (let i = firstFrom(flights, search.earliestMinutes); i < flights.length && flights[i]!.depMinutes < deadline; i++) {
      const f = flights[i]!;
      if (eligible(config, search, f) && pricing.usable(f, false)) candidates.push(f);
    }
  }
  candidates.sort((p, q) => q.depMinutes - p.depMinutes);
  const layerCount = maxLegs ?? 1;
  const layers = Array.from({ length: layerCount }, () => new Map<Flight, number>());
  // Per airport, the candidates leaving it as processed (latest first), with each layer's running
  // least: the least over the departures at or after an instant is the one at the last index leaving then.
  const processed = new Map<string, { flights: Flight[]; least: number[][] }>();
  const leastFrom = (airport: string, minutes: number, layer: number) => {
    const at = processed.get(airport);
    if (!at) return Number.POSITIVE_INFINITY;
    // Departures are in decreasing order here: find the last one leaving at or after `minutes`.
    let lo = 0;
    let hi = at.flights.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at.flights[mid]!.depMinutes >= minutes) lo = mid + 1; else hi = mid;
    }
    return lo === 0 ? Number.POSITIVE_INFINITY : at.least[layer]![lo - 1]!;
  };
  for (const f of candidates) {
    const own = pricing.legPrice(f);
    const ready = f.arrMinutes + network.connectionMinutes(f.dest);
    let at = processed.get(f.origin);
    if (!at) processed.set(f.origin, at = { flights: [], least: layers.map(() => []) });
    at.flights.push(f);
    for (let layer = 0; layer < layerCount; layer++) {
      let rest: number;
      if (f.dest === search.dest) rest = journeyCost(config, search.originalArrivalMinutes, f.arrMinutes);
      else if (maxLegs === null) rest = leastFrom(f.dest, ready, 0);
      else rest = layer === 0 ? Number.POSITIVE_INFINITY : leastFrom(f.dest, ready, layer - 1);
      const value = own + rest;
      layers[layer]!.set(f, value);
      const running = at.least[layer]!;
      running.push(Math.min(value, running.length ? running[running.length - 1]! : Number.POSITIVE_INFINITY));
    }
  }
  return { layers, limited: maxLegs !== null };
}

/** Journeys with their value (Σ legPrice + cost), and whether the search found every one it was asked for. */
export interface FoundJourneys { journeys: { journey: Journey; value: number }[]; complete: boolean }

/**
 * The depth-first search over the journeys of at most `maxLegs` flights (null: any number) whose
 * value is at most `threshold()`: it never visits an airport twice and leaves a flight out as soon as
 * its completion bound says no journey through it is within the threshold (which `visit` may lower
 * as it goes). Each journey found goes to `visit`, which returns false to stop the search.
 */
function walkJourneys(
  network: JourneyNetwork, config: SolverConfig, search: JourneySearch, pricing: JourneyPricing, bounds: CompletionBounds,
  threshold: () => number, visit: (journey: Journey, value: number) => boolean,
): void {
  const visited = new Set([search.origin]);
  const path: Flight[] = [];
  let going = true;
  // `legsLeft` indexes the layer of the flights that may come next (0 when no limit).
  const extend = (airport: string, readyMinutes: number, sofar: number, legsLeft: number): void => {
    const from = network.fromAirport.get(airport) ?? [];
    for (let i = firstFrom(from, readyMinutes); i < from.length && going; i++) {
      const f = from[i]!;
      if (visited.has(f.dest) || (path.length === 0 && !pricing.usable(f, true))) continue;
      const bound = bounds.layers[bounds.limited ? legsLeft : 0]!.get(f);
      if (bound === undefined || sofar + bound > threshold()) continue;
      path.push(f);
      const value = sofar + pricing.legPrice(f);
      if (f.dest === search.dest) going = visit([...path], value + journeyCost(config, search.originalArrivalMinutes, f.arrMinutes));
      else if (!bounds.limited || legsLeft > 0) {
        visited.add(f.dest);
        extend(f.dest, f.arrMinutes + network.connectionMinutes(f.dest), value, bounds.limited ? legsLeft - 1 : 0);
        visited.delete(f.dest);
      }
      path.pop();
    }
  };
  extend(search.origin, search.earliestMinutes, 0, bounds.layers.length - 1);
}

/**
 * Every journey of the search of at most `maxLegs` flights (null: any number) whose value is at most
 * `threshold`. `skip` journeys are not returned and do not count; the search stops after `cap`
 * others (complete false).
 */
export function journeysWithin(
  network: JourneyNetwork, config: SolverConfig, search: JourneySearch, pricing: JourneyPricing, maxLegs: number | null,
  threshold: number, cap: number, skip: (journey: Journey) => boolean = () => false,
): FoundJourneys {
  const found: { journey: Journey; value: number }[] = [];
  const bounds = completionBounds(network, config, search, pricing, maxLegs);
  if (!bounds) return { journeys: found, complete: true };
  let complete = true;
  walkJourneys(network, config, search, pricing, bounds, () => threshold, (journey, value) => {
    if (skip(journey)) return true;
    if (found.length === cap) return complete = false;
    found.push({ journey, value });
    return true;
  });
  return { journeys: found, complete };
}

/**
 * The least value of a journey of the search of at most `maxLegs` flights (null: any number) other
 * than the `skip` ones, if one is at most `threshold`; otherwise `threshold` or more (Infinity when
 * none is). A branch and bound: each journey found lowers the threshold.
 */
export function leastJourneyValue(
  network: JourneyNetwork, config: SolverConfig, search: JourneySearch, pricing: JourneyPricing, maxLegs: number | null,
  threshold: number, skip: (journey: Journey) => boolean,
): number {
  const bounds = completionBounds(network, config, search, pricing, maxLegs);
  if (!bounds) return Number.POSITIVE_INFINITY;
  let least = Number.POSITIVE_INFINITY;
  walkJourneys(network, config, search, pricing, bounds, () => Math.min(least, threshold), (journey, value) => {
    if (!skip(journey)) least = Math.min(least, value);
    return true;
  });
  return least;
}
