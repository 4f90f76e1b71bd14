// The keeps-flights flying part of the ROADEF bound with each aircraft a route (docs/model.md 3.9, "The
// ROADEF bounds", *Routes*): per family, the Lagrangian of "every leg that must fly is flown once" over
// the aircraft's routes in a time-space network. A leg has copies, one per stretch [u, v] of departure
// minutes (the stretches cover every departure a plan may give it); a copy leaves at v, lands as if it
// left at u, and costs what flying the leg from u on costs (its operating cost and what its passengers
// pay beyond their least, roadef-bound.ts prices it). A route starts where and when its aircraft is first
// free, waits on the ground, takes copies whose stretch is not closed by its unavailability, check or
// pinned legs, may take legs without a row (those a plan may cancel, its own pinned ones), repositions
// through a "teleport" layer (a new flight from X to Y takes at least half the shortest pair out of X
// plus half the shortest into Y, and costs at least half the least out of X plus half the least into
// Y), and ends anywhere. For prices λ per leg, Σ λ + Σ over aircraft of its cheapest route at reduced
// costs is at most every plan's flying cost (weak duality); each route is exact (a backward pass over
// the copies in time order), and the prices follow the deflected subgradient. A leg the plan may
// cancel at a cost C has the row "flown once or cancelled": its term in the Lagrangian is
// λ + min(0, C − λ) beside its copies at reduced cost (at λ = 0, an arc without a row).

/** A leg of the family, with its stretches of departure minutes. */
export interface RouteLeg {
  origin: number;
  dest: number;
  blockMinutes: number;
  /** Starts of its stretches, ascending, the first its planned departure; each stretch ends where the next starts, the last at `lastDeparture`. */
  stretchStarts: readonly number[];
  lastDeparture: number;
  /**
   * Per stretch, the first departure in it that a plan may use (a copy leaves at its stretch's end and
   * lands as if it left here); after the stretch's end: none, the stretch has no copy. Without it, each
   * stretch's start.
   */
  firstUsable?: readonly number[];
  /**
   * Whether every plan flies it (a row: flown once). A leg the plan may cancel, or a pinned leg of one
   * aircraft, is an arc a route may take or not: what the plan's route does map to the network.
   */
  mustFly: boolean;
  /**
   * For a leg the plan may cancel: what cancelling it costs (≥ 0). The leg then has a row, flown once or
   * cancelled (a plan does one or the other); without it, an arc with no row.
   */
  cancelCost?: number;
  /** A pinned leg's aircraft (an index of RouteFamily.aircraft): only it may take it, whatever its blocked periods. */
  pinnedTo?: number;
}

/** A period [start, end) in which an aircraft flies nothing: no leg of it may have departure < end and arrival > start. */
export interface Blocked { start: number; end: number }

export interface RouteAircraft {
  /** Where and when it is first free (airport index, minute). */
  airport: number;
  from: number;
  /** Its least ground time between two legs. */
  turnMinutes: number;
  /** Its class (an index of copyCosts' answer). */
  cls: number;
  blocked: readonly Blocked[];
}

export interface RouteFamily {
  airportCount: number;
  /** Per airport, the least time a new flight takes out of it (half its shortest pair out; +Infinity: none) and into it. */
  outMinutes: Float64Array;
  inMinutes: Float64Array;
  /** Per class, per airport: the least cost charged for a new flight out of it and into it (their sum at most any pair's own). */
  outCost: readonly Float64Array[];
  inCost: readonly Float64Array[];
  legs: readonly RouteLeg[];
  aircraft: readonly RouteAircraft[];
  /** Per class (RouteAircraft.cls), what flying leg `leg` in its stretch `stretch` costs (non-decreasing in the stretch). */
  copyCosts(leg: number, stretch: number): readonly number[];
}

/** Subgradient iterations per family (the value at each is a bound; the best is kept). */
const ROUTE_ITERATIONS = 300;
/** Iterations without a better value after which the step's scale halves. */
const ROUTE_PATIENCE = 10;
/**
 * Polyak's step aims ROUTE_AIM × scale × |best| above the best value (A01's Airbus family, 300
 * iterations: 640,162 where aiming at each leg's dearest class reached 639,345 and 0.003 of |best|
 * 639,899); the direction keeps ROUTE_DEFLECTION of the last one (Camerini, Fratta and Maffioli).
 */
const ROUTE_AIM = 0.01;
const ROUTE_DEFLECTION = 0.7;
/**
 * Copy evaluations allowed in all per family (iterations × route passes × copies): an X-size family runs
 * fewer iterations. A04's Airbus family (9,881 copies, 15 passes) runs 300 with 6·10⁷ (202 with 3·10⁷: 119 less).
 */
const ROUTE_WORK = 6e7;
/**
 * Families with more copies get no route bound (−Infinity): on the X-size instance (60,058 copies in its
 * Boeing family, 156 aircraft) the routes took 67 s of CPU and lifted nothing; A01-A04's largest has 9,881 (4,240 with stretches twice
 * as wide).
 */
const ROUTE_MAX_COPIES = 20_000;
/** The fewest iterations worth running: below them within ROUTE_WORK, aircraft with blocked periods share their class's pass. */
const ROUTE_MIN_ITERATIONS = 50;

interface Copy { leg: number; stretch: number; u: number; v: number; origin: number; dest: number; block: number }

/**
 * The Lagrangian bound of the family's least flying cost over its aircraft's routes (file comment); 0
 * for a family without legs, −Infinity (no bound) for one with more than ROUTE_MAX_COPIES copies.
 */
export function leastFlyingOnRoutes(family: RouteFamily): number {
  const copies: Copy[] = [];
  family.legs.forEach((leg, i) => leg.stretchStarts.forEach((start, k) => {
    const v = k + 1 < leg.stretchStarts.length ? leg.stretchStarts[k + 1]! : leg.lastDeparture;
    const u = leg.firstUsable?.[k] ?? start;
    if (u <= v) copies.push({ leg: i, stretch: k, u, v, origin: leg.origin, dest: leg.dest, block: leg.blockMinutes });
  }));
  if (copies.length > ROUTE_MAX_COPIES) return Number.NEGATIVE_INFINITY;
  // Latest first: a copy's landing (u + block + turn) is after its own v, so every copy a route can take next is already valued.
  copies.sort((x, y) => y.v - x.v);
  const L = family.legs.length;
  if (L === 0) return 0;
  // Route passes: aircraft of one class and ground time without blocked periods share one pass (their starts differ only in where it is read).
  // When that makes too many passes for ROUTE_MIN_ITERATIONS within ROUTE_WORK, the blocked periods are
  // dropped (fewer constraints: still a bound) and each class and ground time has one pass.
  const groupBy = (ownPasses: boolean) => {
    const passes = new Map<string, { cls: number; turn: number; blocked: readonly Blocked[]; aircraft: RouteAircraft[] }>();
    for (const a of family.aircraft) {
      const own = ownPasses && a.blocked.length > 0;
      const key = own ? `own ${passes.size}` : `${a.cls} ${a.turnMinutes}`;
      (passes.get(key) ?? passes.set(key, { cls: a.cls, turn: a.turnMinutes, blocked: own ? a.blocked : [], aircraft: [] }).get(key)!).aircraft.push(a);
    }
    return passes;
  };
  let passes = groupBy(true);
  if (copies.length * passes.size * ROUTE_MIN_ITERATIONS > ROUTE_WORK) passes = groupBy(false);
  const classes = family.aircraft.reduce((m, a) => Math.max(m, a.cls + 1), 0);
  const costs = Array.from({ length: classes }, () => new Float64Array(copies.length));
  copies.forEach((c, i) => family.copyCosts(c.leg, c.stretch).forEach((x, cls) => { if (cls < classes) costs[cls]![i] = x; }));
  const open = [...passes.values()].map((p) => Uint8Array.from(copies, (c) => {
    const owner = family.legs[c.leg]!.pinnedTo;
    if (owner !== undefined) return p.aircraft.includes(family.aircraft[owner]!) ? 1 : 0;
    return p.blocked.some((b) => c.v < b.end && c.u + c.block > b.start) ? 0 : 1;
  }));
  // A leg no aircraft may take has no row (dropping a row only relaxes); no plan of the problem then exists, in truth.
  // A leg that may be cancelled always has its row (cancelling it is always open).
  const active = new Uint8Array(L);
  const cancelCost = new Float64Array(L).fill(Number.NaN);
  family.legs.forEach((leg, l) => { if (!leg.mustFly && leg.cancelCost !== undefined) { active[l] = 1; cancelCost[l] = leg.cancelCost; } });
  open.forEach((o) => copies.forEach((c, i) => { if (o[i] && family.legs[c.leg]!.mustFly) active[c.leg] = 1; }));

  // Prices start at each leg's cheapest copy on any class (a leg that may be cancelled: at most its
  // cancellation's cost): every route then costs at least 0, the bound their sum.
  const price = new Float64Array(L).fill(Number.POSITIVE_INFINITY);
  copies.forEach((c, i) => { for (let k = 0; k < classes; k++) price[c.leg] = Math.min(price[c.leg]!, costs[k]![i]!); });
  for (let l = 0; l < L; l++) if (!active[l]) price[l] = 0; else if (!Number.isNaN(cancelCost[l]!)) price[l] = Math.min(price[l]!, cancelCost[l]!);
  const pass = new RoutePass(family, copies);
  const used = new Float64Array(L);
  const iterations = Math.min(ROUTE_ITERATIONS, Math.floor(ROUTE_WORK / Math.max(1, copies.length * passes.size)));
  let best = Number.NEGATIVE_INFINITY;
  let scale = 1;
  let stalled = 0;
  const direction = new Float64Array(L);
  for (let iteration = 0; iteration < iterations; iteration++) {
    used.fill(0);
    let value = 0;
    for (let l = 0; l < L; l++) value += price[l]!;
    let p = 0;
    for (const group of passes.values()) {
      pass.run(costs[group.cls]!, open[p++]!, price, group.turn, group.cls);
      for (const a of group.aircraft) value += pass.route(a.airport, a.from, group.cls, used);
    }
    // Cancelling a leg that may go, where that is cheaper than its price: its row is then met.
    for (let l = 0; l < L; l++) {
      if (!Number.isNaN(cancelCost[l]!) && cancelCost[l]! < price[l]!) { value += cancelCost[l]! - price[l]!; used[l]! += 1; }
    }
    // Rounding: each term is exact to ~1e-16 of its size; give up 1e-9 of the total's.
    value -= 1e-9 * Math.abs(value);
    if (value > best + 1e-6) { best = value; stalled = 0; } else if (++stalled >= ROUTE_PATIENCE) { scale /= 2; stalled = 0; }
    let norm = 0;
    for (let l = 0; l < L; l++) if (active[l]) norm += (1 - used[l]!) ** 2;
    if (norm === 0) break; // every leg flown once: the routes are an optimum of the relaxation
    const target = best + Math.max(1e-6, ROUTE_AIM * scale * Math.abs(best));
    let squares = 0;
    for (let l = 0; l < L; l++) if (active[l]) { direction[l] = 1 - used[l]! + ROUTE_DEFLECTION * direction[l]!; squares += direction[l]! ** 2; }
    const step = (target - value) / squares;
    for (let l = 0; l < L; l++) if (active[l]) price[l] = price[l]! + step * direction[l]!;
  }
  return best;
}

/**
 * One backward pass over the copies (latest v first) for one class, ground time and set of open copies:
 * each copy's value is its reduced cost plus the best that can follow its landing (another copy at its
 * destination leaving from its ready minute, a copy elsewhere through the teleport layer, or nothing).
 * Per airport the copies valued so far are kept in order of v (descending) with running minima; the
 * teleport layer is a Fenwick tree of minima over the minute from which a copy can be reached by air.
 */
class RoutePass {
  private readonly value: Float64Array;
  private readonly next: Int32Array;
  private readonly atAirport: Int32Array[];
  private readonly count: Int32Array;
  private readonly runMin: Float64Array[];
  private readonly runArg: Int32Array[];
  private readonly tree: Float64Array;
  private readonly treeArg: Int32Array;
  private readonly low: number;
  private readonly high: number;

  constructor(private readonly family: RouteFamily, private readonly copies: readonly Copy[]) {
    this.value = new Float64Array(copies.length);
    this.next = new Int32Array(copies.length);
    const perAirport = new Int32Array(family.airportCount);
    for (const c of copies) perAirport[c.origin]!++;
    this.atAirport = Array.from(perAirport, (n) => new Int32Array(n));
    this.runMin = Array.from(perAirport, (n) => new Float64Array(n));
    this.runArg = Array.from(perAirport, (n) => new Int32Array(n));
    this.count = new Int32Array(family.airportCount);
    const finiteIn = [...family.inMinutes].filter(Number.isFinite);
    const maxTurn = family.aircraft.reduce((m, a) => Math.max(m, a.turnMinutes), 0);
    const earliest = copies.reduce((m, c) => Math.min(m, c.v), Number.POSITIVE_INFINITY);
    const latest = copies.reduce((m, c) => Math.max(m, c.v), Number.NEGATIVE_INFINITY);
    this.low = Math.floor(earliest - finiteIn.reduce((m, x) => Math.max(m, x), 0) - maxTurn) - 1;
    this.high = Math.ceil(latest) + 1;
    this.tree = new Float64Array(this.high - this.low + 2);
    this.treeArg = new Int32Array(this.high - this.low + 2);
  }

  run(cost: Float64Array, open: Uint8Array, price: Float64Array, turn: number, cls: number): void {
    const { family, copies } = this;
    this.count.fill(0);
    this.tree.fill(0);
    this.treeArg.fill(-1);
    for (let i = 0; i < copies.length; i++) {
      const c = copies[i]!;
      if (!open[i]) { this.value[i] = Number.POSITIVE_INFINITY; continue; }
      const ready = c.u + c.block + turn;
      const [after, afterArg] = this.best(c.dest, ready, cls);
      this.value[i] = cost[i]! - price[c.leg]! + after;
      this.next[i] = afterArg;
      this.insert(i, c.origin, c.v - family.inMinutes[c.origin]! - turn, family.inCost[cls]![c.origin]!);
    }
  }

  /** The cheapest way on from `airport`, ready at `ready`: [value ≤ 0, first copy or −1 for none]. */
  private best(airport: number, ready: number, cls: number): [number, number] {
    let least = 0;
    let arg = -1;
    const here = this.firstFrom(airport, ready);
    if (here > 0 && this.runMin[airport]![here - 1]! < least) { least = this.runMin[airport]![here - 1]!; arg = this.runArg[airport]![here - 1]!; }
    // By air: copies whose key (v less the flight into their airport and the turn) is at or after leaving here.
    const by = ready + this.family.outMinutes[airport]!;
    if (by <= this.high) {
      // Fenwick over reversed keys (index high − key + 1): prefix minima. Keys are rounded up and `by` down,
      // so a copy that can be reached is never missed (one that cannot only lowers the value: still a bound).
      const out = this.family.outCost[cls]![airport]!;
      for (let j = this.high - Math.max(this.low, Math.floor(by)) + 1; j > 0; j -= j & -j) {
        if (this.tree[j]! + out < least) { least = this.tree[j]! + out; arg = this.treeArg[j]!; }
      }
    }
    return [least, arg];
  }

  /** How many of the copies valued so far at `airport` leave at or after `ready` (a prefix of its list: v descending). */
  private firstFrom(airport: number, ready: number): number {
    const list = this.atAirport[airport]!;
    let lo = 0;
    let hi = this.count[airport]!;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.copies[list[mid]!]!.v >= ready) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  private insert(i: number, airport: number, key: number, inCost: number): void {
    const v = this.value[i]!;
    const n = this.count[airport]!++;
    this.atAirport[airport]![n] = i;
    const prev = n > 0 ? this.runMin[airport]![n - 1]! : Number.POSITIVE_INFINITY;
    if (v < prev) { this.runMin[airport]![n] = v; this.runArg[airport]![n] = i; } else { this.runMin[airport]![n] = prev; this.runArg[airport]![n] = this.runArg[airport]![n - 1]!; }
    const byAir = v + inCost;
    if (!Number.isFinite(key) || !(byAir < 0)) return;
    for (let j = this.high - Math.min(this.high, Math.ceil(key)) + 1; j < this.tree.length; j += j & -j) {
      if (byAir < this.tree[j]!) { this.tree[j] = byAir; this.treeArg[j] = i; }
    }
  }

  /** The cheapest route's value from `airport` at `from` (≤ 0); adds the legs it flies to `used`. */
  route(airport: number, from: number, cls: number, used: Float64Array): number {
    const [value, first] = this.best(airport, from, cls);
    for (let i = first; i >= 0; i = this.next[i]!) used[this.copies[i]!.leg]! += 1;
    return value;
  }
}
