// Passengers' new journeys (docs/model.md 1.6) and the searches over a network of flights that the
// engines need for them: every journey within a threshold, the least value of a journey, and the
// cheapest few (the column generation's, 3.3, 3.4, and the network engine's paths per booking, 4.3),
// by a depth-first search pruned by a backward dynamic programme over the flights. No search lists the
// journeys up front: with no limit on their flights there are too many (benchmarks/journey-counts.ts,
// docs/model.md 2.3).
//
// Generic over the flight (the service's scheduled `Flight`, the network engine's flown legs) and the
// price of a journey by its arrival (`JourneyPrice`: a trip's arrival cost under a `CostModel`, the
// service's or ROADEF's, which depends on the trip's cabin and class).
import { keptRecently } from '../../domain/collections.ts';
import type { Flight } from '../../domain/schedule.ts';
import { serviceCostModel, serviceTrip } from '../model/cost-model.ts';
import type { SolverConfig } from '../model/solver-config.ts';

/** What a journey search reads of a flight: where and when (minutes) it leaves and lands. */
export interface JourneyFlight {
  readonly id: string;
  readonly origin: string;
  readonly dest: string;
  readonly depMinutes: number;
  readonly arrMinutes: number;
}

/**
 * A new journey for re-accommodated passengers: one or more flights, each leaving from where the one
 * before lands, in the order flown (docs/model.md 1.6).
 */
export type Journey<F extends JourneyFlight = Flight> = readonly F[];

export const journeyEnd = <F extends JourneyFlight>(journey: Journey<F>): F => journey[journey.length - 1]!;

/**
 * The flights by departure (a flight's place there is its network index), those from each airport,
 * and every airport's minimum connection time: what the journey searches walk (the service's: the
 * airline's scheduled flights; the network engine's: the legs a plan flies).
 */
export interface JourneyNetwork<F extends JourneyFlight = Flight> {
  flights: readonly F[];
  fromAirport: ReadonlyMap<string, readonly F[]>;
  connectionMinutes: (airport: string) => number;
  /**
   * Whether the finders keep what they derive per search on this network for the next finder of the
   * same search (SEARCHES). Default true: the service's networks live as long as their schedule. The
   * network engine's lives for one passenger plan, whose alike bookings share one search anyway: kept,
   * its 2,000 searches' layouts (some kilobytes each) would be held for nothing until the plan is priced.
   */
  keepsSearches?: boolean;
}

/** Where passengers leave from, where they must go, and what no journey of theirs may use. */
export interface JourneyQuery<F extends JourneyFlight = Flight> {
  origin: string;
  dest: string;
  /** The first flight leaves at or after this instant. */
  earliestMinutes: number;
  excluded: ReadonlySet<F>;
  /**
   * Whether a journey may end where it began, when that is the destination (a ROADEF booking of a
   * return trip, re-routed from its start). The service's searches never do: passengers at their
   * destination are not re-accommodated (default false).
   */
  returnsToOrigin?: boolean;
}

/** The service's query: with what its journeys are priced by (`servicePrice`). */
export interface JourneySearch extends JourneyQuery {
  originalArrivalMinutes: number;
  compensationPerPassenger: number;
}

/**
 * What a journey costs per passenger, by when its last flight lands: the cost never falls as the
 * arrival gets later (what makes the last departure below and the searches' pruning exact).
 */
export interface JourneyPrice {
  /** Per passenger, a journey landing at `arrivalMinutes`. */
  cost(arrivalMinutes: number): number;
  /** Whether a flight landing at `arrivalMinutes` may be on a journey at all (false from some instant on). */
  worth(arrivalMinutes: number): boolean;
  /** No flight leaving after this is worth taking (it lands later still); null when none is. */
  lastDepartureMinutes: number | null;
  /** The values `cost` and `worth` read, as a string: searches with the same key share what the finders derive. */
  key: string;
}

/**
 * The service's price of a search's journeys: its cost model's price of a rebooked passenger
 * (ServiceCostModel.arrival), from the scheduled arrival. A journey costing the compensation or
 * more is not worth taking: leaving the passengers unaccommodated costs no more and takes no seat (an
 * exact pruning: docs/model.md 1.6); so no departure after the instant a journey would cost that is.
 */
export function servicePrice(config: SolverConfig, search: JourneySearch): JourneyPrice {
  const model = serviceCostModel(config);
  const trip = serviceTrip(1, search.compensationPerPassenger);
  const onTime = model.arrival(trip, 0, true);
  const perMinute = model.rebookedPerMinute(trip);
  const slack = search.compensationPerPassenger - onTime;
  const lastDepartureMinutes = slack <= 0 ? null
    : perMinute > 0 ? search.originalArrivalMinutes + slack / perMinute
      : Number.POSITIVE_INFINITY;
  const cost = (arrivalMinutes: number) => model.arrival(trip, arrivalMinutes - search.originalArrivalMinutes, true);
  return {
    cost, worth: (arrivalMinutes) => cost(arrivalMinutes) < search.compensationPerPassenger, lastDepartureMinutes,
    key: [search.originalArrivalMinutes, search.compensationPerPassenger, onTime, perMinute].join('|'),
  };
}

/** May `flight` be on a journey of the search at all (whatever the prices)? */
function eligible<F extends JourneyFlight>(price: JourneyPrice, search: JourneyQuery<F>, flight: F): boolean {
  return !search.excluded.has(flight) && price.worth(flight.arrMinutes);
}

/** First index of `flights` (by departure) leaving at or after `minutes`. */
function firstFrom(flights: readonly JourneyFlight[], minutes: number): number {
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
  const price = servicePrice(config, search);
  if (price.lastDepartureMinutes === null) return [];
  const from = network.fromAirport.get(search.origin) ?? [];
  const found: Journey[] = [];
  for (let i = firstFrom(from, search.earliestMinutes); i < from.length && from[i]!.depMinutes <= price.lastDepartureMinutes; i++) {
    const f = from[i]!;
    if (f.dest === search.dest && eligible(price, search, f)) found.push([f]);
  }
  return found;
}

/** How many of the `count` departures from `start` of `depMinutes` (latest first) leave at or after `minutes`: a prefix. */
function leavingFrom(depMinutes: Float64Array, start: number, count: number, minutes: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (depMinutes[start + mid]! >= minutes) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * A network's airports by number, and per flight (by network index) the numbers of its origin and
 * destination, its departure and the instant a passenger landing on it may leave again (NaN where no
 * flight leaves from its destination: no search ever goes on from there). Made once per network
 * (AIRPORTS), so the finders' layouts index arrays instead of maps by airport name and flight objects.
 */
interface NetworkAirports { number: ReadonlyMap<string, number>; count: number; origin: Int32Array; dest: Int32Array; depMinutes: Float64Array; readyMinutes: Float64Array }
const AIRPORTS = new WeakMap<JourneyNetwork<JourneyFlight>, NetworkAirports>();

function networkAirports(network: JourneyNetwork<JourneyFlight>): NetworkAirports {
  let known = AIRPORTS.get(network);
  if (known) return known;
  const number = new Map<string, number>();
  const numberOf = (airport: string) => {
    let a = number.get(airport);
    if (a === undefined) number.set(airport, a = number.size);
    return a;
  };
  const { flights } = network;
  const origin = Int32Array.from(flights, (f) => numberOf(f.origin));
  const departures = number.size;
  const dest = Int32Array.from(flights, (f) => numberOf(f.dest));
  // Only an airport with departures is ever connected at (the others are numbered after them).
  const connection = Array.from(number.keys(), (airport, a) => (a < departures ? network.connectionMinutes(airport) : Number.NaN));
  const readyMinutes = Float64Array.from(flights, (f, k) => f.arrMinutes + connection[dest[k]!]!);
  const depMinutes = Float64Array.from(flights, (f) => f.depMinutes);
  AIRPORTS.set(network, known = { number, count: number.size, origin, dest, depMinutes, readyMinutes });
  return known;
}

/** Which flights a journey may take, as its first flight or a later one (the model's seat and reach rules). */
export type UsableFlight<F extends JourneyFlight = Flight> = (flight: F, first: boolean) => boolean;

/**
 * What each flight of the network adds to a journey's value, by its network index (the negated price
 * of its seat row). Never changed once given to a finder: it keeps the bounds it computed for it.
 */
export type LegPrices = Float64Array;

/**
 * A JourneyFinder's arrays (its fields of the same names). They are a function of its network, its
 * candidates (network indices, latest departure first) and which of them may be a journey's first
 * flight, the search's origin and destination, its price (`JourneyPrice.key`) and the leg limit:
 * nothing else is read to make them (cheapestOfSeveral: the least at zero prices, found when first
 * needed).
 */
interface FinderLayout<F extends JourneyFlight> {
  flights: readonly F[]; networkIndex: Int32Array; blockStart: Int32Array; nextBlock: Int32Array; nextCount: Int32Array;
  arrivalCost: Float64Array; order: Int32Array; origin: { start: number; count: number }; cheapestOfSeveral: number | null;
  destAirport: Int32Array; originAirport: number; airports: number;
}

/**
 * What the finders made so far know of their searches, per network (passengers.ts keeps one per
 * schedule, airline and departed flights, so the requests on a schedule share it: 70 % of the
 * sources of the 39 default single delays have a search another has too, docs/model.md 3.6). Keyed by the search's
 * and the config's values that a finder reads. The eligible flights depend on nothing else; the
 * candidates and first flights depend on the scope too (a flight of the scope may offer seats its
 * own aircraft has not), so a layout is reused only where they are the same, compared in full (the
 * last LAYOUTS_PER_SEARCH of a search are kept: half of those of the 39 default single delays differ
 * from the last one's). The least recently used searches go first beyond SEARCHES_PER_NETWORK (a
 * layout is a few kilobytes).
 */
const SEARCHES = new WeakMap<JourneyNetwork<JourneyFlight>, Map<string, KnownSearch<JourneyFlight>>>();
const SEARCHES_PER_NETWORK = 2_048;

/**
 * A search's eligible flights on a network, the layouts of the finders made for it, the last first,
 * and its least journey at zero prices over every eligible flight once found (leastJourneyCost).
 */
interface KnownSearch<F extends JourneyFlight> { eligible: Int32Array; layouts: { candidates: Int32Array; firsts: Int32Array; layout: FinderLayout<F> }[]; least?: number }
const LAYOUTS_PER_SEARCH = 4;

function searchKey(price: JourneyPrice, search: JourneyQuery<JourneyFlight>, maxLegs: number | null): string {
  return [search.origin, search.dest, search.earliestMinutes, price.key, maxLegs, ...[...search.excluded].map((f) => f.id).sort()].join('|');
}

function sameInts(p: Int32Array, q: Int32Array): boolean {
  if (p.length !== q.length) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return false;
  return true;
}

/**
 * What is known of a search on a network (made now if nothing is): its eligible flights (leaving
 * between its earliest instant and the last one worth taking, not excluded, cheaper than the
 * compensation), by network index, latest departure first.
 */
function knownSearch<F extends JourneyFlight>(network: JourneyNetwork<F>, price: JourneyPrice, search: JourneyQuery<F>, maxLegs: number | null): KnownSearch<F> {
  const make = (): KnownSearch<F> => {
    const eligibleFlights: number[] = [];
    const last = price.lastDepartureMinutes;
    if (last !== null) {
      const all = network.flights;
      const { depMinutes } = networkAirports(network);
      // The first departure after the last one worth taking (the flights are by departure).
      let end = 0;
      for (let hi = all.length; end < hi;) {
        const mid = (end + hi) >> 1;
        if (depMinutes[mid]! <= last) end = mid + 1; else hi = mid;
      }
      for (let k = end - 1; k >= 0 && depMinutes[k]! >= search.earliestMinutes; k--) if (eligible(price, search, all[k]!)) eligibleFlights.push(k);
    }
    return { eligible: Int32Array.from(eligibleFlights), layouts: [] };
  };
  if (network.keepsSearches === false) return make();
  let known = SEARCHES.get(network);
  if (!known) SEARCHES.set(network, known = new Map());
  // A network's flights are of one type, and so are the layouts kept for it.
  return keptRecently(known, searchKey(price, search, maxLegs), SEARCHES_PER_NETWORK, make) as KnownSearch<F>;
}

/**
 * The least cost per passenger of a journey of `search` over every eligible flight (none left out
 * for seats: `usable` always true) at zero leg prices, if it is at most the compensation, else
 * Infinity: what `new JourneyFinder(network, config, search, () => true, maxLegs).least(zero prices,
 * compensation, () => false)` answers, kept per network and search (the network bound asks it for
 * every disrupted group of a storm: docs/model.md 3.9, "Iteration cost"). Without a leg limit it needs
 * no finder: at zero prices a journey costs what its last flight's arrival does, so the least is over
 * the flights landing at the destination that some journey can end with: those onWalks keeps.
 */
export function leastJourneyCost(network: JourneyNetwork, config: SolverConfig, search: JourneySearch, maxLegs: number | null): number {
  const price = servicePrice(config, search);
  const known = knownSearch(network, price, search, maxLegs);
  if (known.least !== undefined) return known.least;
  if (maxLegs !== null || search.returnsToOrigin) {
    return known.least = new JourneyFinder(network, config, search, () => true, maxLegs).least(new Float64Array(network.flights.length), search.compensationPerPassenger, () => false);
  }
  const airports = networkAirports(network);
  let least = Number.POSITIVE_INFINITY;
  // Passengers at their destination take no journey (the finder's search never lands at its origin).
  if (search.origin !== search.dest) {
    for (const k of onWalks(airports, search, known.eligible)) {
      if (network.flights[k]!.dest === search.dest) least = Math.min(least, price.cost(network.flights[k]!.arrMinutes));
    }
  }
  return known.least = least <= search.compensationPerPassenger ? least : Number.POSITIVE_INFINITY;
}

/**
 * Of `candidates` (network indices, latest departure first), those on some **walk** from the search's
 * origin to its destination (in the same order): a chain of connecting candidates from the origin,
 * not going on from the destination nor back to the origin. Every flight of every journey is one (a
 * journey is such a walk), so a search that walks only these finds every journey it finds over all
 * the candidates, in the same order (it steps over the others: their completion bounds are
 * Infinity). And a flight landing at the destination that a walk reaches ends some journey: where a
 * walk comes back to an airport, the flight it leaves on the second time departs after the walk was
 * first ready there (every flight lands after it leaves), so the walk without the loop connects, and
 * from the origin its first departure is no earlier than the search's earliest instant. Two passes:
 * by departure, per airport the earliest instant a reached flight is ready there decides whether a
 * later departure is reached; then latest first, a reached flight stays if it lands at the
 * destination or is ready there by the latest departure that stays from where it lands.
 */
function onWalks(airports: NetworkAirports, search: JourneyQuery<JourneyFlight>, candidates: Int32Array): Int32Array {
  const origin = airports.number.get(search.origin);
  if (origin === undefined) return new Int32Array(0);
  const dest = airports.number.get(search.dest) ?? -1;
  const readyAt = new Float64Array(airports.count).fill(Number.POSITIVE_INFINITY);
  const reached = new Uint8Array(candidates.length);
  let count = 0;
  // Walked from the earliest departure.
  for (let e = candidates.length - 1; e >= 0; e--) {
    const k = candidates[e]!;
    const from = airports.origin[k]!;
    if (from !== origin && !(readyAt[from]! <= airports.depMinutes[k]!)) continue;
    reached[e] = 1;
    count++;
    const to = airports.dest[k]!;
    // Nothing goes on from an airport no flight leaves (its ready instant NaN).
    if (to !== dest && to !== origin && airports.readyMinutes[k]! < readyAt[to]!) readyAt[to] = airports.readyMinutes[k]!;
  }
  // A flight that stays is reached; one reached only through a flight that does not stay would make
  // that one stay (it connects to it): so leaving those out reaches no fewer.
  const latestFrom = new Float64Array(airports.count).fill(Number.NEGATIVE_INFINITY);
  for (let e = 0; e < candidates.length; e++) {
    if (!reached[e]) continue;
    const k = candidates[e]!;
    const to = airports.dest[k]!;
    if (to === dest || (to !== origin && airports.readyMinutes[k]! <= latestFrom[to]!)) {
      const from = airports.origin[k]!;
      if (airports.depMinutes[k]! > latestFrom[from]!) latestFrom[from] = airports.depMinutes[k]!;
    } else {
      reached[e] = 0;
      count--;
    }
  }
  if (count === candidates.length) return candidates;
  const kept = new Int32Array(count);
  for (let e = 0, c = 0; e < candidates.length; e++) if (reached[e]) kept[c++] = candidates[e]!;
  return kept;
}

/**
 * Journeys with their value (Σ leg prices + cost); whether the search found every one it was asked
 * for (`complete`), and went to its end before its deadline (`timely`).
 */
export interface FoundJourneys<F extends JourneyFlight = Flight> { journeys: { journey: Journey<F>; value: number }[]; complete: boolean; timely: boolean }

/** Completion bounds kept per search: a round searches at two prices (JourneyFinder.completionBounds). */
const KEPT_BOUNDS = 2;

/**
 * The journeys of one search (a group's passengers from one place) at any prices. The value of a
 * journey is Σ leg prices over its flights + its cost; the model's reduced cost of its column is
 * that less the prices of the group's rows (column-generation.ts).
 *
 * Built once: the flights a journey could take (eligible, usable, leaving between the earliest
 * instant and the last one worth taking, on some walk from the origin to the destination: onWalks),
 * in one block per airport, latest departure first, and for
 * each flight the departures it connects to where it lands (a prefix of that airport's block). At
 * given prices, `completionBounds` is one backward pass: for each flight the least value of the rest
 * of a **walk** from it to the destination (with a leg limit, one value per number of flights left),
 * read from a running least over the connecting prefix. A walk may visit an airport twice, which a
 * journey may not: a relaxation, so each value is a lower bound. It is exact for the least over
 * journeys whenever no leg price is negative (the model's are not: seat rows are ≤ rows): a walk
 * that comes back to an airport lands there later than it was first, so the journey that leaves out
 * the loop takes the same flights on and costs no more. The depth-first searches then walk the
 * journeys themselves and leave out every flight whose bound is too high.
 */
export class JourneyFinder<F extends JourneyFlight = Flight> {
  /** The flights a journey could take: one block per airport, each latest departure first. */
  private readonly flights: readonly F[];
  /** Per flight: its network index. */
  private readonly networkIndex: Int32Array;
  /** Per flight: where its airport's block starts. */
  private readonly blockStart: Int32Array;
  /** Per flight: the block of the departures where it lands and how many of them it connects to (0: none, or it lands at the destination). */
  private readonly nextBlock: Int32Array;
  private readonly nextCount: Int32Array;
  /** Per flight: the journey's cost when it lands at the destination, else NaN. */
  private readonly arrivalCost: Float64Array;
  /** Every flight, latest departure first. */
  private readonly order: Int32Array;
  /** The origin's block: [start, start + count). */
  private readonly origin: { start: number; count: number };
  /**
   * Per flight: the number of the block (airport) it lands at, -1 where no candidate leaves from
   * there (a journey never goes on from such an airport, so never comes back to it); the origin's
   * number; how many blocks. What the searches mark as visited.
   */
  private readonly destAirport: Int32Array;
  private readonly originAirport: number;
  private readonly airports: number;
  private readonly layerCount: number;
  private readonly layout: FinderLayout<F>;
  private readonly price: JourneyPrice;

  /**
   * The finder of one search on `network`, its journeys of at most `maxLegs` flights (null: any
   * number) over the flights `usable` allows. The service's callers hand in their config and a
   * JourneySearch (priced by `servicePrice`), the network engine a trip's JourneyPrice.
   */
  constructor(network: JourneyNetwork, config: SolverConfig, search: JourneySearch, usable: UsableFlight, maxLegs: number | null);
  constructor(network: JourneyNetwork<F>, price: JourneyPrice, search: JourneyQuery<F>, usable: UsableFlight<F>, maxLegs: number | null);
  constructor(
    private readonly network: JourneyNetwork<F>, pricing: SolverConfig | JourneyPrice, private readonly search: JourneyQuery<F>,
    private readonly usable: UsableFlight<F>, private readonly maxLegs: number | null,
  ) {
    this.layerCount = maxLegs ?? 1;
    const price = this.price = 'cost_weights' in pricing ? servicePrice(pricing, search as unknown as JourneySearch) : pricing;
    const known = knownSearch(network, price, search, maxLegs);
    // The candidates (by network index, latest departure first): the eligible flights the source may
    // use; and which of the origin's departures may be a journey's first flight (cheapestOfSeveral depends on it).
    const found: number[] = [];
    const first: number[] = [];
    for (const k of known.eligible) {
      const f = network.flights[k]!;
      if (!usable(f, false)) continue;
      found.push(k);
      if (f.origin === search.origin && usable(f, true)) first.push(k);
    }
    const candidates = Int32Array.from(found);
    const firsts = Int32Array.from(first);
    const at = known.layouts.findIndex((l) => sameInts(l.candidates, candidates) && sameInts(l.firsts, firsts));
    const made = at >= 0 ? known.layouts.splice(at, 1)[0]! : { candidates, firsts, layout: this.layOut(candidates) };
    known.layouts.unshift(made);
    if (known.layouts.length > LAYOUTS_PER_SEARCH) known.layouts.pop();
    const { layout } = made;
    this.layout = layout;
    ({ flights: this.flights, networkIndex: this.networkIndex, blockStart: this.blockStart, nextBlock: this.nextBlock, nextCount: this.nextCount } = layout);
    ({ arrivalCost: this.arrivalCost, order: this.order, origin: this.origin } = layout);
    ({ destAirport: this.destAirport, originAirport: this.originAirport, airports: this.airports } = layout);
  }

  /**
   * The least value of a journey of several flights at zero leg prices (Infinity: there is none):
   * no such journey is worth less at leg prices that are not negative (the model's). Found when first
   * asked (the network engine never asks), then kept with the layout.
   */
  get cheapestOfSeveral(): number {
    return this.layout.cheapestOfSeveral
      ??= this.least(new Float64Array(this.network.flights.length), Number.POSITIVE_INFINITY, (journey) => journey.length === 1);
  }

  /**
   * The finder's arrays from its candidates (network indices, latest departure first) on some walk
   * from the origin to the destination (onWalks: no search finds a journey through the others, so
   * leaving them out changes no answer, and each completion bound's pass is over fewer; on the
   * storms' network bound 83 flights a search instead of 169, of which 88 % reach no destination):
   * one block per airport, each in that same order, and each flight's cost at the destination or the
   * departures it connects to (those of its candidates' that stay, in the same order).
   */
  private layOut(all: Int32Array): FinderLayout<F> {
    const { network, search, price } = this;
    const airports = networkAirports(network);
    const candidates = onWalks(airports, search, all);
    // Blocks are numbered as their airports first appear among the candidates (latest departure first).
    const blockOf = new Int32Array(airports.count).fill(-1);
    const counts: number[] = [];
    for (const k of candidates) {
      const a = airports.origin[k]!;
      if (blockOf[a]! < 0) {
        blockOf[a] = counts.length;
        counts.push(0);
      }
      counts[blockOf[a]!]!++;
    }
    const blocks = counts.length;
    const starts = new Int32Array(blocks);
    for (let b = 1; b < blocks; b++) starts[b] = starts[b - 1]! + counts[b - 1]!;
    const n = candidates.length;
    const flights = new Array<F>(n);
    const networkIndex = new Int32Array(n);
    const blockStart = new Int32Array(n);
    const order = new Int32Array(n);
    const depMinutes = new Float64Array(n);
    const filled = new Int32Array(blocks);
    for (let position = 0; position < n; position++) {
      const k = candidates[position]!;
      const b = blockOf[airports.origin[k]!]!;
      const i = starts[b]! + filled[b]!++;
      flights[i] = network.flights[k]!;
      depMinutes[i] = airports.depMinutes[k]!;
      networkIndex[i] = k;
      blockStart[i] = starts[b]!;
      order[position] = i;
    }
    const nextBlock = new Int32Array(n);
    const nextCount = new Int32Array(n);
    const arrivalCost = new Float64Array(n).fill(Number.NaN);
    const destAirport = new Int32Array(n);
    const destination = airports.number.get(search.dest) ?? -1;
    for (let i = 0; i < n; i++) {
      const k = networkIndex[i]!;
      const next = blockOf[airports.dest[k]!]!;
      destAirport[i] = next;
      if (airports.dest[k] === destination) {
        arrivalCost[i] = price.cost(flights[i]!.arrMinutes);
      } else if (next >= 0) {
        nextBlock[i] = starts[next]!;
        nextCount[i] = leavingFrom(depMinutes, starts[next]!, counts[next]!, airports.readyMinutes[k]!);
      }
    }
    const originNumber = airports.number.get(search.origin);
    const originBlock = originNumber === undefined ? -1 : blockOf[originNumber]!;
    return {
      flights, networkIndex, blockStart, nextBlock, nextCount, arrivalCost, order, cheapestOfSeveral: null, destAirport, airports: blocks,
      origin: originBlock >= 0 ? { start: starts[originBlock]!, count: counts[originBlock]! } : { start: 0, count: 0 }, originAirport: originBlock,
    };
  }

  /**
   * Each flight's completion bound, `layerCount` values per flight (`[i × layerCount + legs − 1]`:
   * the rest of a walk of at most `legs` flights from flight i on; one value for any number when
   * there is no limit). Flights are processed latest departure first, so the departures a flight
   * connects to (which leave after it lands) all have their running least when it is reached; within
   * a block, the running least at an entry is over the entries before it (later departures) and itself.
   */
  private completionBounds(legPrices: LegPrices): Float64Array {
    // The same leg prices again (the bound's search and the columns' at one round's prices), or other
    // prices that are the same on this search's flights (most seat rows price 0 round after round):
    // the same bounds. A round searches at two prices (the bound's smoothed ones and the master's own),
    // so the last two are kept.
    const n = this.flights.length;
    for (let k = 0; k < this.lastBounds.length; k++) {
      const kept = this.lastBounds[k]!;
      if (kept.legPrices !== legPrices && !this.samePrices(legPrices, kept.prices)) continue;
      kept.legPrices = legPrices;
      if (k > 0) this.lastBounds.unshift(...this.lastBounds.splice(k, 1));
      return kept.bound;
    }
    const L = this.layerCount;
    const limited = this.maxLegs !== null;
    const bound = new Float64Array(n * L);
    const least = new Float64Array(n * L);
    // The fields in locals: this loop runs at every new prices of every search.
    const { order, networkIndex, arrivalCost, nextCount, nextBlock, blockStart } = this;
    for (let position = 0; position < n; position++) {
      const i = order[position]!;
      const own = legPrices[networkIndex[i]!]!;
      const cost = arrivalCost[i]!;
      const count = nextCount[i]!;
      const arrives = !Number.isNaN(cost);
      // Where the running least of the departures it connects to is (their last), and its own block's before it.
      const next = (nextBlock[i]! + count - 1) * L + (limited ? -1 : 0);
      const before = i > blockStart[i]! ? (i - 1) * L : -1;
      for (let layer = 0; layer < L; layer++) {
        let rest: number;
        if (arrives) rest = cost;
        else if (count === 0 || (limited && layer === 0)) rest = Number.POSITIVE_INFINITY;
        else rest = least[next + (limited ? layer : 0)]!;
        const value = own + rest;
        bound[i * L + layer] = value;
        least[i * L + layer] = before >= 0 ? Math.min(value, least[before + layer]!) : value;
      }
    }
    // The older of the two kept makes room (its prices array is reused).
    const prices = this.lastBounds.length === KEPT_BOUNDS ? this.lastBounds.pop()!.prices : new Float64Array(n);
    for (let i = 0; i < n; i++) prices[i] = legPrices[this.networkIndex[i]!]!;
    this.lastBounds.unshift({ legPrices, prices, bound });
    return bound;
  }

  /** Whether `legPrices` are `prices` (a kept copy of some leg prices on this search's flights) on every flight of this search. */
  private samePrices(legPrices: LegPrices, prices: Float64Array): boolean {
    for (let i = 0; i < prices.length; i++) if (legPrices[this.networkIndex[i]!] !== prices[i]) return false;
    return true;
  }

  /** The completion bounds last computed, most recent first, each with the leg prices it was last asked for and those prices on this search's flights (read-only arrays). */
  private readonly lastBounds: { legPrices: LegPrices; prices: Float64Array; bound: Float64Array }[] = [];

  /**
   * The depth-first search over the journeys whose value is at most `threshold()`: it never visits an
   * airport twice and leaves a flight out as soon as its completion bound says no journey through it
   * is within the threshold (which `visit` may lower as it goes). Each journey found goes to `visit`,
   * which returns false to stop the search; the journey is the search's own array, changed as the
   * search goes on (a copy is kept: most found are not). At the performance.now() instant `until` the search stops
   * too: false then, true when it went to its end (or `visit` stopped it).
   */
  private walk(legPrices: LegPrices, threshold: () => number, visit: (journey: Journey<F>, value: number) => boolean, until = Number.POSITIVE_INFINITY): boolean {
    if (this.origin.count === 0) return true;
    const bound = this.completionBounds(legPrices);
    const L = this.layerCount;
    const limited = this.maxLegs !== null;
    // The airports the journey so far has been at, by block number (the origin's block exists: its count is not 0).
    const visited = new Uint8Array(this.airports);
    // A flight landing at the destination ends the journey: left unmarked, the origin is only ever its end.
    if (!(this.search.returnsToOrigin && this.search.origin === this.search.dest)) visited[this.originAirport] = 1;
    const path: F[] = [];
    let going = true;
    let timely = true;
    let steps = 0;
    // The first `count` entries of the block from `start`, earliest departure first; `legsLeft`: how
    // many flights the journey may still take, less one (0 when there is no limit).
    const extend = (start: number, count: number, sofar: number, legsLeft: number): void => {
      for (let i = start + count - 1; i >= start && going; i--) {
        // The clock is read now and then: a search with a loose threshold can walk for long.
        if (++steps % 4096 === 0 && performance.now() >= until) going = timely = false;
        const f = this.flights[i]!;
        const dest = this.destAirport[i]!;
        if ((dest >= 0 && visited[dest] === 1) || (path.length === 0 && !this.usable(f, true))) continue;
        if (sofar + bound[i * L + legsLeft]! > threshold()) continue;
        path.push(f);
        const value = sofar + legPrices[this.networkIndex[i]!]!;
        if (f.dest === this.search.dest) going = visit(path, value + this.arrivalCost[i]!);
        else if ((!limited || legsLeft > 0) && this.nextCount[i]! > 0) {
          visited[dest] = 1;
          extend(this.nextBlock[i]!, this.nextCount[i]!, value, limited ? legsLeft - 1 : 0);
          visited[dest] = 0;
        }
        path.pop();
      }
    };
    extend(this.origin.start, this.origin.count, 0, L - 1);
    return timely;
  }

  /**
   * Every journey whose value is at most `threshold`; `skip` journeys are passed over and do not
   * count (`skip` reads the journey while the search walks it: it must not keep it, here nor in
   * `best` and `least`); at most `cap` (complete false if there were more), found before the instant `until`
   * (timely false if the search had to stop there).
   */
  within(
    legPrices: LegPrices, threshold: number, cap: number, skip: (journey: Journey<F>) => boolean = () => false, until = Number.POSITIVE_INFINITY,
  ): FoundJourneys<F> {
    const journeys: { journey: Journey<F>; value: number }[] = [];
    let complete = true;
    const timely = this.walk(legPrices, () => threshold, (journey, value) => {
      if (skip(journey)) return true;
      if (journeys.length === cap) return complete = false;
      journeys.push({ journey: [...journey], value });
      return true;
    }, until);
    return { journeys, complete, timely };
  }

  /**
   * The journeys of several flights that cost less than compensating the passengers (more never pays),
   * at most `cap` (default: far more than a storm's sources have): with a column for each, an integer model decides its passengers exactly for its
   * routes (docs/model.md 1.6). None when no journey of several flights exists. Given `until` (a
   * performance.now() instant), null when the search had to stop there: the list would be short.
   */
  worthTaking(): Journey<F>[];
  worthTaking(until: number, cap?: number): Journey<F>[] | null;
  worthTaking(until = Number.POSITIVE_INFINITY, cap = 2_000): Journey<F>[] | null {
    if (!Number.isFinite(this.cheapestOfSeveral)) return [];
    const zero = new Float64Array(this.network.flights.length);
    // Every flight of the finder is worth taking (JourneyPrice.worth), so every journey is: the
    // threshold lets through any finite value and leaves out the flights that reach no destination.
    const found = this.within(zero, Number.MAX_VALUE, cap, (journey) => journey.length === 1, until);
    return found.timely ? found.journeys.map((j) => j.journey) : null;
  }

  /**
   * The `count` journeys of least value at most `threshold` (fewer if there are not as many), other
   * than the `skip` ones, least first. A branch and bound: once `count` are found, the search looks no
   * further than the dearest of them.
   */
  best(legPrices: LegPrices, threshold: number, count: number, skip: (journey: Journey<F>) => boolean): { journey: Journey<F>; value: number }[] {
    const kept: { journey: Journey<F>; value: number }[] = [];
    if (count <= 0) return kept;
    this.walk(legPrices, () => (kept.length === count ? Math.min(threshold, kept[count - 1]!.value) : threshold), (journey, value) => {
      if (skip(journey) || (kept.length === count && value >= kept[count - 1]!.value)) return true;
      // Few are kept: an insertion keeps them in order.
      let at = kept.length;
      while (at > 0 && kept[at - 1]!.value > value) at--;
      kept.splice(at, 0, { journey: [...journey], value });
      if (kept.length > count) kept.pop();
      return true;
    });
    return kept;
  }

  /**
   * The least value of a journey other than the `skip` ones, if one is at most `threshold`; otherwise
   * more than `threshold` (Infinity). A branch and bound: each journey found lowers the threshold.
   */
  least(legPrices: LegPrices, threshold: number, skip: (journey: Journey<F>) => boolean): number {
    let least = Number.POSITIVE_INFINITY;
    this.walk(legPrices, () => Math.min(least, threshold), (journey, value) => {
      if (!skip(journey)) least = Math.min(least, value);
      return true;
    });
    return least;
  }

  /**
   * `least` for one `asker` whose `skip` answers change only with its `version` (a number that grows
   * when they do): the last answer again when the prices are the same on this search's flights (the
   * same completion bounds), the threshold and the version too. The search would take the same steps.
   */
  leastFor(asker: object, version: number, legPrices: LegPrices, threshold: number, skip: (journey: Journey<F>) => boolean): number {
    const bound = this.completionBounds(legPrices);
    const last = this.lastLeast.get(asker);
    if (last && last.bound === bound && last.threshold === threshold && last.version === version) return last.value;
    const value = this.least(legPrices, threshold, skip);
    this.lastLeast.set(asker, { bound, threshold, version, value });
    return value;
  }

  /** Per asker of `leastFor`, its last answer and what it was for (the completion bounds stand for the prices on this search's flights). */
  private readonly lastLeast = new WeakMap<object, { bound: Float64Array; threshold: number; version: number; value: number }>();

  /**
   * `best` for one `asker`, as `leastFor`: the last answer again when it found none (an answer with
   * journeys gives them columns, which moves the version) and the prices on this search's flights,
   * the threshold, the count and the version are the same.
   */
  bestFor(asker: object, version: number, legPrices: LegPrices, threshold: number, count: number, skip: (journey: Journey<F>) => boolean): { journey: Journey<F>; value: number }[] {
    const bound = this.completionBounds(legPrices);
    const last = this.lastNone.get(asker);
    if (last && last.bound === bound && last.threshold === threshold && last.count === count && last.version === version) return [];
    const found = this.best(legPrices, threshold, count, skip);
    if (found.length === 0) this.lastNone.set(asker, { bound, threshold, count, version });
    else this.lastNone.delete(asker);
    return found;
  }

  /** Per asker of `bestFor`, what its last answer that found none was for. */
  private readonly lastNone = new WeakMap<object, { bound: Float64Array; threshold: number; count: number; version: number }>();
}
