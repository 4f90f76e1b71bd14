// One strategy's model solved over the FULL route space of its scope (docs/model.md section 3):
//   1. column generation: the LP relaxation of the route master, its duals priced per aircraft over
//      the aircraft's whole time-space network (pricing.ts) until no route has a negative reduced
//      cost; the LP value is then a lower bound of every plan (and at every round, the Lagrangian bound
//      at the prices priced, which are smoothed towards those of the best bound so far);
//   2. the integer plan over the generated routes (GLPK branch and bound);
//   3. the proof: a plan costs at least the LP bound plus the reduced costs of its routes, so an
//      optimal plan uses only routes whose reduced cost is at most (plan − bound); those are
//      enumerated, added, and the integer model solved again. When that enumeration is complete and
//      GLPK proves the last solve optimal, the plan is optimal for the stated problem.
// Whatever stops the proof (the time limit, the cap on routes per aircraft) leaves a plan with a
// proven gap, and the status says which.
import { pushTo } from '../../domain/collections.ts';
import type { Flight, Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from './aircraft-routes.ts';
import { firstPlan } from './first-plan.ts';
import { RecoveryError } from '../model/failure.ts';
import { lpName, type LinearModel } from '../model/linear-model.ts';
import { JourneyFinder, type Journey, type JourneyNetwork, type LegPrices } from '../passengers/journeys.ts';
import { legCoefficient, type JourneySource, type LegRow } from './rows/context.ts';
import { seatRowName, strategyCancels } from './rows/row-families.ts';
import { buildStrategyModel, type StrategyModel } from './rows/strategy-model.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { enumerateRoutes, priceRoutes, type PricingCache, type PricingDuals, type PricingMode } from './pricing.ts';
import type { SolveStatus } from '../model/result.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig, Strategy } from '../model/solver-config.ts';
import type { Budget } from '../model/budget.ts';
import type { SolveOutcome, Solver } from '../model/solver-port.ts';

/**
 * Artificial columns (a flight nobody flies or cancels, an aircraft without a route) keep the master
 * LP feasible while few routes are known. Their cost starts at about what cancelling the flight would
 * cost (the aircraft rows at a day's worth of such), so that the duals stay of the size of real costs
 * (huge duals make the pricing return routes of huge negative reduced cost and a useless bound), and
 * is multiplied while the converged LP still uses one. Any cost gives a valid lower bound: the
 * artificials only widen the problem.
 */
const ARTIFICIAL_GROWTH = 10;
const ARTIFICIAL_MAX_FACTOR = 1e6;
/** A route enters the master when its reduced cost is below this. */
const NEGATIVE = -1e-6;
/** Routes added per aircraft and pricing round. */
const ROUTES_PER_ROUND = 8;
/**
 * Every cost weight is at least 0 (solver-config.ts), so no plan costs less than 0: the Lagrangian
 * bound at zero prices. A generation far from convergence (a network-wide scope) can have nothing
 * better, and a negative bound would only say less.
 */
const NO_PLAN_COSTS_LESS = 0;
/** Plan and bound closer than this (relative) prove optimality. */
const OPTIMALITY_TOLERANCE = 1e-7;
/** Share of a strategy's time budget the column generation may use; the integer plan and the proof get the rest. */
const GENERATION_SHARE = 0.6;
/**
 * Dual smoothing (Wentges): each round prices at SMOOTHING × the duals of the best Lagrangian bound so
 * far plus the rest × the master's own duals. The master's duals jump between the many optimal duals
 * of a degenerate set-partitioning LP, and routes priced at them rarely stay useful; measured on the
 * default schedule's single delays, 0.7 cut the rounds to convergence by about half.
 */
const SMOOTHING = 0.7;
/**
 * The generation stops when the Lagrangian bound is this close (relative) to the master's LP value:
 * the proof (section 3.4) then enumerates the few routes within the remaining gap, which is cheaper
 * than the last rounds of a generation that tails off.
 */
const CLOSE_ENOUGH = 5e-3;

export const PRICING_MODES: Record<Strategy, PricingMode> = {
  delay_propagation: 'planned', cancellation: 'own', aircraft_swap: 'any', integrated: 'any',
};

/** The result of one strategy's solve: the final model, GLPK's last outcome on it, and what was proven. */
export interface StrategySolve {
  model: StrategyModel;
  /** The plan (values of the final model) with the status proven for the stated problem and the proven lower bound. */
  outcome: SolveOutcome;
  iterations: number;
  note: string | null;
}

/**
 * Row prices (as the pricing problem reads them, and by row name), their Lagrangian bound, each
 * aircraft's least reduced cost there and each passenger group's least reduced cost of a journey
 * (by its passengers row), min(0, ·) both, as summed in the bound.
 */
interface BoundWitness { duals: PricingDuals; prices: Record<string, number>; bound: number; least: Map<string, number>; journeyLeast: Map<string, number> }

/**
 * Each flight's leg price at row prices `prices`: its seat row's price, negated (a journey's column has
 * +1 there). Kept per prices object (each belongs to one solve, over one network): a round searches
 * at the master's own prices both for the bound and for new columns, and a JourneyFinder keeps its
 * completion bounds for the same leg prices (journeys.ts).
 */
function legPricesAt(network: JourneyNetwork, prices: Record<string, number>): LegPrices {
  let legPrices = LEG_PRICES.get(prices);
  if (!legPrices) LEG_PRICES.set(prices, legPrices = Float64Array.from(network.flights, (flight) => -(prices[seatRowName(flight)] ?? 0)));
  return legPrices;
}
const LEG_PRICES = new WeakMap<Record<string, number>, LegPrices>();

/** The prices of a source's rows other than its flights' seat rows: a journey's reduced cost is its value (journeys.ts) less this. */
function rowsPrice(source: JourneySource, prices: Record<string, number>): number {
  let sum = 0;
  for (const row of source.rows) sum += prices[row] ?? 0;
  return sum;
}

/** The JourneyFinder of a source, built when first needed. */
type JourneyFinders = (source: JourneySource) => JourneyFinder;

/**
 * The finders of a simulation's sources (by the simulation's passenger groups, then the source's
 * key), shared by its strategies: a source's search and which flights it may take (seats at all, the
 * first flight reachable at all) depend on the scope only, not on the strategy or its routes.
 */
const FINDERS = new WeakMap<PassengerGroups, Map<string, JourneyFinder>>();

/**
 * What the passengers' journeys without a column add to a Lagrangian bound at `prices`, with each
 * group's least reduced cost of such a journey (min(0, ·), by the group's passengers row). The
 * relaxation keeps, for each group, Σ over those journeys ≤ its passengers (its passengers row implies
 * it), so they add the passengers × that least (docs/model.md 3.3). `hasColumn` tells the journeys of
 * several flights with a column; direct flights all have one.
 */
function journeysTerm(
  model: StrategyModel, network: JourneyNetwork, finders: JourneyFinders, prices: Record<string, number>, hasColumn: (source: JourneySource, journey: Journey) => boolean,
  until: number,
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
    const value = finder.least(legPrices, own, (journey) => journey.length === 1 || hasColumn(source, journey)) - own;
    const key = source.rows[0]!;
    least.set(key, Math.min(least.get(key) ?? 0, value));
    passengers.set(key, source.group.passengers);
  }
  let sum = 0;
  for (const [key, value] of least) sum += passengers.get(key)! * value;
  return { sum, least };
}

/**
 * What the integrated strategy's solve hands to the aircraft-swap strategy's. Both price the same
 * routes (mode 'any'), so the integrated's routes are good first columns for the swap master; and
 * every swap plan is an integrated plan (no cancellation), so the integrated's bound, with its prices,
 * bounds every swap plan and serves its proof (docs/model.md 3.5).
 */
export interface SharedColumns {
  routes: Route[];
  best: BoundWitness | null;
  /** The publishing solve's final lower bound (its plan's cost when proven optimal), null before it ends. */
  lowerBound: number | null;
}

interface Progress {
  iterations: number;
  bound: number | null;
  /** Why the generation stopped: no negative route left, the bound close to the LP, or the budget. */
  stop: 'converged' | 'close' | 'time';
}

/** Where one strategy's solve stands; 'done' is reported by the caller with the final solve. */
export type StrategyPhase = 'generating_columns' | 'integer_plan' | 'proving' | 'done';

/**
 * What one strategy's solve has reached, reported after each pricing round and each integer solve
 * (protocol-free: the job runner turns it into progress events).
 */
export interface StrategyProgress {
  strategy: Strategy;
  phase: StrategyPhase;
  /** Pricing rounds so far. */
  iterations: number;
  /** The best lower bound proven so far for this strategy, null before the first complete round. */
  lowerBound: number | null;
  /**
   * The best plan so far, as a solve the pipeline can read like a finished one (status 'feasible' or
   * 'time_limit', the bound so far); null until the first integer solve finds one.
   */
  incumbent: StrategySolve | null;
}

/** The model with an artificial column in every aircraft and flight row, at `scale` × its starting cost. */
function withArtificials(model: LinearModel, scope: RecoveryScope, config: SolverConfig, scale: number): LinearModel {
  const w = config.cost_weights;
  const flightCost = new Map(scope.flights.map((f) => [`flight__${lpName(f.id)}`, w.cancellation_per_flight + f.bookedPassengers * 600 * Math.max(1, w.compensation_multiplier)]));
  const aircraftCost = [...flightCost.values()].reduce((sum, c) => sum + c, 0) / Math.max(1, scope.aircraft.length) + w.aircraft_out_of_position + w.maintenance_violation;
  const variables = [...model.variables];
  const constraints = model.constraints.map((c) => {
    const base = c.name.startsWith('aircraft__') ? aircraftCost : flightCost.get(c.name);
    if (base === undefined) return c;
    const name = `artificial__${c.name}`;
    variables.push({ name, kind: 'continuous', lb: 0, ub: 1, cost: base * scale });
    return { ...c, terms: [...c.terms, { variable: name, coef: 1 }] };
  });
  return { ...model, variables, constraints };
}

/** α × `center` + (1 − α) × `duals`, over the rows of `master` (a row the center's master lacked has price 0 there). */
function smoothed(master: LinearModel, center: Record<string, number>, duals: Record<string, number>, alpha: number): Record<string, number> {
  const mixed: Record<string, number> = {};
  for (const c of master.constraints) mixed[c.name] = alpha * (center[c.name] ?? 0) + (1 - alpha) * (duals[c.name] ?? 0);
  return mixed;
}

/**
 * The Lagrangian bound at row prices `duals` (any prices of the right signs, not only the master's
 * own): Σ rhs·π, plus each column other than routes at whichever of its bounds its reduced cost
 * prefers, plus each aircraft's least reduced cost over all its routes (`leastSum`, the π of its row
 * included). Every plan is a feasible point of that relaxation, so none costs less.
 */
function lagrangianBound(master: LinearModel, routeColumns: ReadonlyMap<string, unknown>, duals: Record<string, number>, leastSum: number): number {
  let bound = leastSum;
  const reduced = new Map<string, number>();
  for (const v of master.variables) if (!routeColumns.has(v.name)) reduced.set(v.name, v.cost);
  for (const c of master.constraints) {
    const pi = duals[c.name] ?? 0;
    if (pi === 0) continue;
    bound += c.rhs * pi;
    for (const t of c.terms) {
      const rc = reduced.get(t.variable);
      if (rc !== undefined) reduced.set(t.variable, rc - pi * t.coef);
    }
  }
  for (const v of master.variables) {
    const rc = reduced.get(v.name);
    if (rc !== undefined) bound += Math.min(rc * v.lb, rc * v.ub);
  }
  return bound;
}

/** A route's reduced cost at `duals`: its cost less the prices of its aircraft row, its swaps and its legs' rows. */
function reducedCost(route: Route, a: AircraftInScope, duals: PricingDuals): number {
  let value = route.cost - duals.aircraft(a) - route.swaps * duals.perSwap;
  for (const leg of route.legs) value -= duals.leg(a, leg.flight, leg.depMinutes);
  return value;
}

function pricingDuals(model: StrategyModel, duals: Record<string, number>, breakpoints: BreakpointMemo): PricingDuals {
  return {
    leg(a, flight, depMinutes) {
      const leg = { flight, depMinutes, arrMinutes: depMinutes + (flight.arrMinutes - flight.depMinutes), delayMinutes: depMinutes - flight.depMinutes };
      let sum = 0;
      for (const spec of model.legRows.get(flight.id) ?? []) {
        const dual = duals[spec.row];
        if (dual) sum += dual * legCoefficient(spec, a.aircraft, leg);
      }
      return sum;
    },
    aircraft: (a) => duals[`aircraft__${lpName(a.aircraft.tail)}`] ?? 0,
    perSwap: duals.max_swaps ?? 0,
    breakpoints: (flight) => breakpoints(model, flight),
  };
}

/** A flight's breakpoints under a model (legRowBreakpoints), computed once per model and flight. */
type BreakpointMemo = (model: StrategyModel, flight: Flight) => readonly number[];

/**
 * One per solve. While a flight's rows give the same points as under the previous model, the same
 * array is returned: the pricing keeps the regions it derived from it (pricing.ts, regionBounds).
 */
function breakpointMemo(): BreakpointMemo {
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
      case 'cover': case 'flown': case 'seats': break;
    }
  }
  return points;
}

/**
 * Solve one strategy within `budget` (its deadline may be brought forward while it runs: the
 * pipeline cuts a restricted strategy short once the integrated one is proven); solver failures
 * (busy, crashed, aborted by the budget's signal) reject as RecoveryError.
 */
export async function solveStrategy(args: {
  schedule: Schedule; scope: RecoveryScope; config: SolverConfig; strategy: Strategy; groups: PassengerGroups;
  solver: Solver; budget: Budget;
  /** Told after each pricing round and each integer solve; never told 'done' (the caller has the result). */
  onProgress?: (progress: StrategyProgress) => void;
  /** Where this solve publishes its routes and best bound as it goes (the integrated strategy's, for the swap strategy's). */
  publish?: SharedColumns;
  /** Routes and a bound another solve publishes: the routes taken at the start, the bound also before the proof (see SharedColumns). */
  inherit?: SharedColumns;
  /** Where this solve appends every route it adds (the cancellation strategy's, for the integrated strategy's). */
  offer?: Route[];
  /**
   * Routes another solve appends as it goes, each also a route of this strategy (a cancellation
   * route is an integrated route): taken up at the start of every round. Routes only: that solve's
   * bounds say nothing about this one's plans.
   */
  takeUp?: readonly Route[];
  /** A lower bound of every plan of every strategy known without a generation (model/flight-bound.ts), null when there is none. */
  floor?: Promise<number | null>;
}): Promise<StrategySolve> {
  const { schedule, scope, config, strategy, groups, solver, budget, onProgress } = args;
  const { signal } = budget;
  const started = performance.now();
  let incumbent: StrategySolve | null = null;
  const report = (phase: StrategyPhase, iterations: number, lowerBound: number | null) => onProgress?.({ strategy, phase, iterations, lowerBound, incumbent });
  /** An integer solve's plan, kept as the incumbent when it is the first or a cheaper one. */
  const found = (model: StrategyModel, outcome: SolveOutcome, iterations: number, lowerBound: number | null) => {
    if (outcome.objective === null || (incumbent && incumbent.outcome.objective! <= outcome.objective)) return;
    incumbent = {
      model, iterations, note: 'The best plan so far: the solve of this strategy is still running.',
      outcome: { ...outcome, status: outcome.status === 'optimal' ? 'feasible' : outcome.status, lowerBound, solveMs: performance.now() - started },
    };
  };
  const ev = new RouteEvaluator(schedule, scope, config);
  const remaining = () => Math.max(1, budget.remainingMs());
  // The slowest build so far per route, to tell whether a model of many more routes can still be
  // built and solved in time: building one is synchronous on this thread, which also runs the solver
  // pool's hard-stop timers.
  let buildMsPerRoute = 0;
  // The passengers' journeys of several flights that have a column, by source; the others are searched for (3.3).
  const journeys = new Map<string, Journey[]>();
  const journeyKeys = new Set<string>();
  const journeyKey = (source: JourneySource, journey: Journey) => `${source.key}>${journey.map((f) => f.id).join('>')}`;
  const hasColumn = (source: JourneySource, journey: Journey) => journeyKeys.has(journeyKey(source, journey));
  let finderOf = FINDERS.get(groups);
  if (!finderOf) FINDERS.set(groups, finderOf = new Map());
  const finders: JourneyFinders = (source) => {
    let finder = finderOf.get(source.key);
    if (!finder) finderOf.set(source.key, finder = new JourneyFinder(groups.network, config, source.search, source.usable, config.constraints.max_reaccommodation_legs));
    return finder;
  };
  /**
   * Gives a column to journeys of several flights of `model`'s sources whose reduced cost at `prices`
   * is at most `most(source)`: every one, up to `cap` per source ('all'), or the `cap` of least
   * reduced cost per source ('best'). How many, whether every search found all there were
   * (`complete`), and whether they all went to their end before the instant `until` (`timely`);
   * 'all' stops at the first source that falls short of either, since its proof is then lost.
   */
  const giveColumns = (model: StrategyModel, prices: Record<string, number>, most: (source: JourneySource) => number, cap: number, which: 'all' | 'best', until: number) => {
    let given = 0;
    let complete = true;
    let timely = true;
    let legPrices: LegPrices | null = null;
    for (const source of model.journeySources) {
      if (performance.now() >= until) {
        timely = false;
        break;
      }
      const finder = finders(source);
      const threshold = most(source) + rowsPrice(source, prices);
      if (finder.cheapestOfSeveral > threshold) continue;
      legPrices ??= legPricesAt(groups.network, prices);
      // Direct flights always have their column.
      const skip = (journey: Journey) => journey.length === 1 || hasColumn(source, journey);
      const found = which === 'best' ? { journeys: finder.best(legPrices, threshold, cap, skip), complete: true, timely: true }
        : finder.within(legPrices, threshold, cap, skip, until);
      complete &&= found.complete;
      timely &&= found.timely;
      // A proof that needs more journeys than allowed for one source is lost: no need to search the rest.
      if (!complete || !timely) break;
      for (const { journey } of found.journeys) {
        journeyKeys.add(journeyKey(source, journey));
        pushTo(journeys, source.key, journey);
        given++;
      }
    }
    return { given, complete, timely };
  };
  /** Whether any passengers of `model` have a journey of several flights at all. */
  const severalFlightJourneys = (model: StrategyModel) => model.journeySources.some((source) => Number.isFinite(finders(source).cheapestOfSeveral));
  const build = (pool: Map<string, Route[]>) => {
    const at = performance.now();
    const built = buildStrategyModel(schedule, scope, config, strategy, pool, groups, journeys);
    buildMsPerRoute = Math.max(buildMsPerRoute, (performance.now() - at) / Math.max(1, built.candidateRoutes));
    return built;
  };
  // A cancellation arrives as a message on this thread's event loop: between aircraft of a pricing
  // round or of the proof, the loop gets a turn to deliver it (a round over a network-wide scope
  // takes seconds), and the solve stops there.
  const stopIfCancelled = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
  };
  // The masters of this generation form one sequence: each is the last with routes (and rows) added,
  // and the solver may start each from the last one's basis (SolveTask.warmStart).
  const masters = {};
  const solve = (model: LinearModel, relaxation: boolean) =>
    solver.solve({ model, timeLimitMs: remaining(), mipGap: config.solver.mip_gap, relaxation, ...(relaxation ? { warmStart: masters } : {}) }, { signal, deadline: budget.deadline });

  // Delay propagation: one route per aircraft, its planned sequence with propagated delays, so only
  // the passengers are decided; the generation then searches their journeys alone.
  const fixedRoutes = strategy === 'delay_propagation';
  const mode = PRICING_MODES[strategy];
  const pool = new Map<string, Route[]>();
  const keys = new Set<string>();
  const add = (route: Route) => {
    if (keys.has(route.key)) return false;
    keys.add(route.key);
    const list = pool.get(route.tail);
    if (list) list.push(route); else pool.set(route.tail, [route]);
    args.publish?.routes.push(route);
    args.offer?.push(route);
    return true;
  };
  // First routes, all on the departure grid (a propagated time off the grid is not a plan of these
  // strategies): the first plan's (the planned sequence, held where airport capacities need it:
  // first-plan.ts), and where the strategy may cancel the empty one (the aircraft stays on the ground,
  // its flights cancelled), which keep the first masters feasible.
  const cancels = strategyCancels(strategy, config);
  const first = fixedRoutes ? null : firstPlan(ev, config.solver.time_step_minutes);
  for (const a of scope.aircraft) {
    pool.set(a.aircraft.tail, []);
    const slotted = first ? first.get(a.aircraft.tail) : ev.plannedRoute(a);
    if (slotted) add(slotted);
    const grounded = cancels ? ev.finish(a, [], a.checks.map(() => null)) : null;
    if (grounded) add(grounded);
  }
  for (const route of args.inherit?.routes ?? []) add(route);
  const tolerance = (value: number) => OPTIMALITY_TOLERANCE * Math.max(1, Math.abs(value));
  const start = args.inherit ? `, starting from the integrated strategy's ${args.inherit.routes.length} routes and its bound (every plan of this strategy is one of its plans)` : '';
  let model = build(pool);
  // Flights the scope cannot change that already exceed a capacity leave no plan: the master could
  // only show that as an infeasible LP, which proves nothing by itself.
  const exceeded = scope.capacities.find((c) => c.fixed > c.max);
  if (exceeded) {
    const hour = new Date(exceeded.hourStartMinutes * 60_000).toISOString().slice(0, 16);
    const detail = `No plan of this strategy satisfies the rules and the disruptions: ${exceeded.fixed} ${exceeded.kind === 'arrivals' ? 'arrival' : 'departure'}${exceeded.fixed === 1 ? '' : 's'} of flights outside the scope at ${exceeded.airport} in the hour from ${hour}Z already exceed its capacity of ${exceeded.max}.`;
    return {
      model, iterations: 0, note: detail,
      outcome: { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started, detail },
    };
  }
  if (fixedRoutes && scope.aircraft.some((a) => pool.get(a.aircraft.tail)!.length === 0)) {
    const detail = 'The planned routes with propagated delays break a rule or a disruption: no plan of this strategy exists.';
    return { model, iterations: 0, note: detail, outcome: { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started, detail } };
  }
  const inheritedBound = args.inherit?.lowerBound ?? null;
  if (inheritedBound !== null) {
    // The integrated solve has ended: a plan of this strategy at its bound is optimal here too, and
    // its optimum often flies every flight. Its routes are in the pool: try them before generating.
    const outcome = await solve(model.model, false);
    if (outcome.objective !== null && outcome.objective - inheritedBound <= tolerance(outcome.objective)) {
      return {
        model, iterations: 0,
        note: `Column generation: none needed; ${keys.size} routes${start}: a plan over them costs the integrated strategy's lower bound ${round2(inheritedBound)}; proven optimal.`,
        outcome: { ...outcome, status: 'optimal', lowerBound: outcome.objective, solveMs: performance.now() - started },
      };
    }
    if (budget.expired) {
      // Nothing left for a generation: this solve's answer is what that one found.
      return {
        model, iterations: 0,
        note: `Column generation: none, the time limit came first; ${keys.size} routes${start}; lower bound ${round2(inheritedBound)} (the integrated strategy's).`,
        // Without a plan, GLPK's answer over the inherited routes proves nothing about the others.
        outcome: {
          ...outcome, status: 'time_limit', lowerBound: inheritedBound, solveMs: performance.now() - started,
          detail: outcome.status === 'infeasible' ? 'No plan was found among the integrated strategy\'s routes before the time limit.' : outcome.detail,
        },
      };
    }
    found(model, outcome, 0, inheritedBound);
  }

  const progress: Progress = { iterations: 0, bound: null, stop: 'time' };
  const cache: PricingCache = new Map();
  const breakpoints = breakpointMemo();
  const pricing = { stepMinutes: config.solver.time_step_minutes, threshold: NEGATIVE, maxRoutes: ROUTES_PER_ROUND, cache };
  // The prices of the best Lagrangian bound so far, that bound, and each aircraft's least reduced
  // cost there (min(0, ·), as summed in the bound): what the proof needs (section 3.4 of docs/model.md).
  let last: BoundWitness | null = null;
  // The integrated solve's best bound and prices, and its final bound once it has one (SharedColumns),
  // where they are better than this solve's: at the start, and again before the proof.
  const takeUpInherited = () => {
    if (!args.inherit) return;
    const { best, lowerBound: final } = args.inherit;
    if (best && (!last || best.bound > last.bound)) last = best;
    const known = [progress.bound, last?.bound ?? null, final].filter((b): b is number => b !== null);
    if (known.length) progress.bound = Math.max(...known, NO_PLAN_COSTS_LESS);
  };
  takeUpInherited();
  let lpValues: Record<string, number> = {};
  let artificialScale = 1;
  // The column generation leaves the integer phase a share of the budget, so that a time limit
  // still ends with a plan and its proven gap.
  // (A function: the budget's deadline may be brought forward meanwhile.)
  const generationDeadline = () => started + GENERATION_SHARE * (budget.deadline - started);
  // The stability center of the smoothing: the row prices of the best Lagrangian bound so far, at the
  // current artificial costs (a dearer artificial changes every bound, so the center starts again).
  let center: Record<string, number> | null = null;
  let takenUp = 0;
  while (performance.now() < generationDeadline()) {
    let offered = 0;
    for (; takenUp < (args.takeUp?.length ?? 0); takenUp++) if (add(args.takeUp![takenUp]!)) offered++;
    if (offered > 0) model = build(pool);
    const master = withArtificials(model.model, scope, config, artificialScale);
    const lp = await solve(master, true);
    if (lp.status !== 'optimal' || !lp.duals) break;
    progress.iterations++;
    lpValues = lp.values;
    const own = pricingDuals(model, lp.duals, breakpoints);
    let added = 0;
    let complete = false;
    // Price at the smoothed prices; when none of their routes is negative at the master's own duals
    // (a mispricing), price again at the master's own, which alone can show convergence.
    for (let alpha: number = center ? SMOOTHING : 0; ; alpha = 0) {
      const prices: Record<string, number> = alpha > 0 ? smoothed(master, center!, lp.duals, alpha) : lp.duals;
      const duals = alpha > 0 ? pricingDuals(model, prices, breakpoints) : own;
      let leastSum = 0;
      let improving = 0;
      const least = new Map<string, number>();
      for (const a of scope.aircraft) {
        // A round cut short by the budget still adds its routes, but proves no bound.
        if (performance.now() >= generationDeadline()) break;
        await stopIfCancelled();
        if (fixedRoutes) {
          // The aircraft's one route is all it may fly: its reduced cost is the least.
          const own = Math.min(0, ...(pool.get(a.aircraft.tail) ?? []).map((route) => reducedCost(route, a, duals)));
          least.set(a.aircraft.tail, own);
          leastSum += own;
          continue;
        }
        const priced = priceRoutes(ev, a, mode, duals, pricing);
        // The pricing's least is exact only when negative; 0 is then a lower bound (docs/model.md 3.3).
        least.set(a.aircraft.tail, Math.min(0, priced.leastReducedCost));
        leastSum += Math.min(0, priced.leastReducedCost);
        for (const { route, reducedCost: value } of priced.routes) {
          if (!add(route)) continue;
          added++;
          if ((alpha > 0 ? reducedCost(route, a, own) : value) < NEGATIVE) improving++;
        }
      }
      complete = least.size === scope.aircraft.length;
      // The Lagrangian bound at these prices (each aircraft flies one route, each priced journey takes
      // as many passengers as its reduced cost prefers), valid at every round; at convergence it is
      // the LP value. Rounds whose master still needs an artificial prove nothing here.
      const journeyTerm = complete && !artificialUsed(lp.values) ? journeysTerm(model, groups.network, finders, prices, hasColumn, generationDeadline()) : null;
      if (journeyTerm) {
        const bound = lagrangianBound(master, model.routeColumns, prices, leastSum + journeyTerm.sum);
        if (!last || bound > last.bound) {
          last = { duals, prices, bound, least, journeyLeast: journeyTerm.least };
          if (args.publish) args.publish.best = last;
          center = prices;
        }
      }
      if (improving > 0 || alpha === 0 || !complete) break;
    }
    // The journeys whose columns would enter the master's basis at its own prices get a column.
    const journeysGiven = giveColumns(model, lp.duals, () => NEGATIVE, ROUTES_PER_ROUND, 'best', generationDeadline());
    added += journeysGiven.given;
    // A search cut short by the budget has not shown convergence.
    if (!journeysGiven.timely) complete = false;
    if (last) progress.bound = Math.max(progress.bound ?? Number.NEGATIVE_INFINITY, last.bound, NO_PLAN_COSTS_LESS);
    report('generating_columns', progress.iterations, progress.bound);
    if (complete && added === 0) {
      if (artificialUsed(lp.values) && artificialScale < ARTIFICIAL_MAX_FACTOR) {
        // Covering some flight (or giving some aircraft a route) costs more than its artificial: price with a dearer one.
        artificialScale *= ARTIFICIAL_GROWTH;
        center = null;
        continue;
      }
      progress.stop = 'converged';
      break;
    }
    // The proof needs no converged LP: with the bound this close, it enumerates few routes. Not so
    // where passengers have journeys of several flights: a journey's reduced cost is per passenger,
    // so a gap of 0.5 % of a plan lets nearly every journey into the proof (docs/model.md 3.4).
    if (!severalFlightJourneys(model) && last && progress.bound !== null && !artificialUsed(lp.values) && lp.objective! - progress.bound <= CLOSE_ENOUGH * Math.max(1, Math.abs(lp.objective!))) {
      progress.stop = 'close';
      break;
    }
    model = build(pool);
    await stopIfCancelled();
  }
  if (progress.stop === 'converged' && artificialUsed(lpValues)) {
    return {
      model, iterations: progress.iterations,
      note: fixedRoutes ? 'The planned routes with propagated delays break a rule or a disruption: no plan of this strategy exists.'
        : `Column generation over the full route space (${progress.iterations} rounds) proves that no plan of this strategy exists.`,
      outcome: { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started, detail: 'No plan of this strategy satisfies the rules and the disruptions: proven by column generation over every route of the scope.' },
    };
  }

  // The integrated solve went on meanwhile.
  takeUpInherited();
  let planModel = model;
  report('integer_plan', progress.iterations, progress.bound);
  const integerStarted = performance.now();
  let outcome = await solve(model.model, false);
  const integerMs = performance.now() - integerStarted;
  found(model, outcome, progress.iterations, progress.bound);
  report('proving', progress.iterations, progress.bound);
  let proof: 'proven' | 'routes_capped' | 'journeys_capped' | 'time' | 'no_bound' = last ? 'proven' : 'no_bound';
  const gapOf = (value: number) => (progress.bound === null ? Number.POSITIVE_INFINITY : value - progress.bound);
  if (last && outcome.objective !== null && !(outcome.status === 'optimal' && gapOf(outcome.objective) <= tolerance(outcome.objective))) {
    // The proof: a plan costs at least bound + Σ_a (reduced cost of its route − least_a), so a plan
    // better than this one uses only routes within (plan − bound) of their aircraft's least. Every such
    // route joins the model; the model's optimum is then the optimum.
    const slack = outcome.objective - last.bound;
    let added = 0;
    for (const a of fixedRoutes ? [] : scope.aircraft) {
      await stopIfCancelled();
      const room = config.solver.max_routes_per_aircraft - (pool.get(a.aircraft.tail)?.length ?? 0);
      const threshold = last.least.get(a.aircraft.tail)! + slack + tolerance(outcome.objective);
      const enumerated = enumerateRoutes(ev, a, mode, last.duals, { stepMinutes: config.solver.time_step_minutes, threshold, maxRoutes: Math.max(0, room), cache, deadline: budget.deadline });
      if (!enumerated.complete) proof = budget.expired ? 'time' : 'routes_capped';
      for (const { route } of enumerated.routes) if (add(route)) added++;
      if (budget.expired) { proof = 'time'; break; }
    }
    // Likewise a journey: its column is integer, so a plan that uses it pays its reduced cost at least
    // once above its group's least (docs/model.md 3.4). Only for a proof that can still succeed: one
    // whose routes were capped proves nothing, and these columns would only make its larger model slower.
    if (proof === 'proven') {
      const witness: BoundWitness = last;
      const threshold = (source: JourneySource) => (witness.journeyLeast.get(source.rows[0]!) ?? 0) + slack + tolerance(outcome.objective!);
      const given = giveColumns(model, witness.prices, threshold, config.solver.max_routes_per_aircraft, 'all', budget.deadline);
      added += given.given;
      if (!given.timely) proof = 'time';
      else if (!given.complete) proof = 'journeys_capped';
    }
    // The larger model is built and solved only when there is time for that: twice its expected build
    // time and as long again as the first integer solve took (a larger model solves no faster).
    const needed = 2 * buildMsPerRoute * keys.size + integerMs;
    if (added > 0 && performance.now() + needed >= budget.deadline) proof = 'time';
    else if (added > 0) {
      const larger = build(pool);
      const again = await solve(larger.model, false);
      found(larger, again, progress.iterations, progress.bound);
      // A larger model whose solve ran out of time keeps the plan already found.
      if (again.objective !== null && again.objective <= outcome.objective + 1e-9) {
        planModel = larger;
        outcome = again;
      }
      if (again.status !== 'optimal') proof = 'time';
    }
  }
  // (Assigned in `found`, which control-flow analysis does not follow.)
  const kept = incumbent as StrategySolve | null;
  if (kept && kept.outcome.objective! < (outcome.objective ?? Number.POSITIVE_INFINITY) - tolerance(kept.outcome.objective!)) {
    // This solve's last integer solve was stopped with nothing better than an earlier one: that one's
    // plan (its bound and time are this solve's, set below).
    planModel = kept.model;
    outcome = { ...kept.outcome, status: 'time_limit' };
    proof = 'time';
  }
  const plan = outcome.objective;
  let status: SolveStatus = outcome.status;
  let detail = outcome.detail;
  // The flight bound (model/flight-bound.ts) counts where the generation's bound is weaker; a plan at
  // it is optimal whatever stopped the proof.
  const floor = (await args.floor) ?? null;
  const floored = floor !== null && (progress.bound === null || floor > progress.bound);
  let lowerBound = floored ? floor : progress.bound;
  if (plan !== null) {
    const proven = (proof === 'proven' && outcome.status === 'optimal') || (floor !== null && plan - floor <= tolerance(plan));
    status = proven ? 'optimal' : proof === 'routes_capped' || proof === 'journeys_capped' ? 'feasible' : 'time_limit';
    if (proven) lowerBound = plan;
  } else if (status === 'infeasible' && !fixedRoutes) {
    // No integer plan over the priced routes, although the LP over every route has one (or the
    // generation stopped first): that no plan exists is not proven. (With fixed routes it is: the
    // passengers can always go unaccommodated, so only the routes can make the model infeasible.)
    status = 'time_limit';
    detail = 'No plan was found among the routes priced; that none exists is not proven.';
  }
  if (args.publish) args.publish.lowerBound = lowerBound;
  const boundText = floored ? `lower bound ${round2(floor)} (the flight bound: aircraft relaxed, each flight flown at its own cheapest departure under the capacities or cancelled; ${progress.bound === null ? 'no bound from the generation yet' : `the generation's, ${round2(progress.bound)}, is below it`})`
    : progress.bound === null ? 'no lower bound is known'
    : last && last.bound < NO_PLAN_COSTS_LESS && progress.bound === NO_PLAN_COSTS_LESS ? `lower bound 0 (no cost is negative; the best Lagrangian bound so far, ${round2(last.bound)}, is below it)`
      : `lower bound ${round2(progress.bound)} over every ${fixedRoutes ? 'journey of the passengers' : 'route of the scope'}${{ converged: ' (the converged LP)', close: ` (Lagrangian, within ${CLOSE_ENOUGH * 100} % of the LP)`, time: ' (Lagrangian, the time limit stopped the generation)' }[progress.stop]}`;
  const why = status === 'optimal' && !(proof === 'proven' && outcome.status === 'optimal') ? 'proven optimal: the plan costs the flight bound' : {
    proven: status === 'optimal' ? 'proven optimal' : 'GLPK stopped before proving the plan optimal over the priced routes',
    routes_capped: `the optimality proof needs more than solver.max_routes_per_aircraft (${config.solver.max_routes_per_aircraft}) routes for an aircraft`,
    journeys_capped: `the optimality proof needs more than solver.max_routes_per_aircraft (${config.solver.max_routes_per_aircraft}) journeys for a group's passengers from one place`,
    time: 'the time limit came during the optimality proof',
    no_bound: 'the time limit came before a first bound',
  }[proof];
  const generated = fixedRoutes ? `the planned routes with propagated delays, their passengers' journeys generated in ${progress.iterations} rounds`
    : `${progress.iterations} rounds, ${keys.size} routes${start}`;
  const note = `Column generation: ${generated}; ${boundText}; ${why}.`;
  return {
    model: planModel, iterations: progress.iterations, note,
    outcome: { ...outcome, status, detail, lowerBound, solveMs: performance.now() - started },
  };
}

function artificialUsed(values: Record<string, number>): boolean {
  return Object.entries(values).some(([name, value]) => name.startsWith('artificial__') && value > 1e-6);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
