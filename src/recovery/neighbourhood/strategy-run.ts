// What one strategy's solve holds while its steps run (column-generation.ts): its route pool and the
// passengers' journey columns, the model built over them, the solver calls, the incumbent and its
// progress reports. The steps (master rounds, Lagrangian bound, integer phase, proof) share it.
import { pushTo } from '../../domain/collections.ts';
import type { Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from './aircraft-routes.ts';
import type { Budget } from '../model/budget.ts';
import { RecoveryError } from '../model/failure.ts';
import type { LinearModel } from '../model/linear-model.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SimulationBound } from '../model/solve-facts.ts';
import type { SolverConfig, Strategy } from '../model/solver-config.ts';
import type { SolveOutcome } from '../model/solver-port.ts';
import { JourneyFinder, type Journey, type LegPrices } from '../passengers/journeys.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { FINDERS, legPricesAt, rowsPrice, type BoundWitness, type JourneyColumns, type JourneyFinders } from './lagrangian-bound.ts';
import type { PricingCache, PricingMode } from './pricing.ts';
import type { JourneySource } from './rows/context.ts';
import { buildStrategyModel, extendStrategyModel, inWholeBuildColumnOrder, type NewRoute, type StrategyModel } from './rows/strategy-model.ts';
import type { SharedColumns, StrategyPhase, StrategyProgress, StrategySolve, SolveStrategyArgs } from './column-generation.ts';

/** Plan and bound closer than this (relative) prove optimality. */
const OPTIMALITY_TOLERANCE = 1e-7;

export const PRICING_MODES: Record<Strategy, PricingMode> = {
  delay_propagation: 'planned', cancellation: 'own', aircraft_swap: 'any', integrated: 'any',
};

/**
 * The pricing caches (pricing.ts) of a simulation, by its scope and configuration: an aircraft's
 * flight copies depend on nothing else, so the strategies that price in the same mode (the integrated
 * and the swap strategy's, and every strategy's proof) build each network once.
 */
const PRICING_CACHES = new WeakMap<RecoveryScope, WeakMap<SolverConfig, PricingCache>>();

/** A node of StrategyRun's journey tree. */
interface JourneyNode { column: boolean; next: Map<string, JourneyNode> }

export class StrategyRun {
  readonly schedule: Schedule;
  readonly scope: RecoveryScope;
  readonly config: SolverConfig;
  readonly strategy: Strategy;
  readonly groups: PassengerGroups;
  readonly budget: Budget;
  readonly started = performance.now();
  readonly ev: RouteEvaluator;
  /** Delay propagation: one route per aircraft, its planned sequence with propagated delays; only the passengers are decided. */
  readonly fixedRoutes: boolean;
  readonly mode: PricingMode;
  /** Each aircraft's routes so far (by tail), and every route's key. */
  readonly pool = new Map<string, Route[]>();
  readonly keys = new Set<string>();
  /** The flight copies of each aircraft's network, kept between pricing rounds and shared by the simulation's strategies (PRICING_CACHES). */
  readonly pricingCache: PricingCache;
  /** The integrated strategy's columns, when this solve starts from them (the swap strategy's). */
  readonly inherit: SharedColumns | undefined;
  /**
   * The model over the pool as it stood at the last `rebuild` (made when first read after it: a
   * round's two calls, one for the routes another solve offered, make one model).
   */
  get model(): StrategyModel {
    if (this.stale) this.refresh(false);
    return this.current!;
  }
  private current: StrategyModel | null = null;
  private stale = false;
  /** Whether `current` was extended from an earlier model rather than built whole (buildStrategyModel's order). */
  private extended = false;
  /** Routes added since `current` was made, and whether journey columns or itinerary rows were. */
  private routesSince: NewRoute[] = [];
  private rowsSince = false;
  /** The best integer plan so far, as a solve the pipeline can read (progress). */
  incumbent: StrategySolve | null = null;
  private readonly args: SolveStrategyArgs;
  /** The passengers' journeys of several flights that have a column, by source; the others are searched for (3.3). */
  private readonly journeys = new Map<string, Journey[]>();
  /**
   * The same journeys, by source key then flight id after flight id (a journey with a column ends at
   * a node marked `column`): the searches ask about every journey they find, and a walk down this
   * makes no string of the journey's flights.
   */
  private readonly journeyTree = new Map<string, JourneyNode>();
  private readonly finderOf: Map<string, JourneyFinder>;
  /**
   * The slowest build so far per route, to tell whether a model of many more routes can still be
   * built and solved in time: building one is synchronous on this thread, which also runs the solver
   * pool's hard-stop timers.
   */
  private buildMsPerRoute = 0;
  /**
   * The masters of this generation form one sequence: each is the last with routes (and rows) added,
   * and the solver may start each from the last one's basis (SolveTask.warmStart).
   */
  private readonly masters = {};

  constructor(args: SolveStrategyArgs) {
    this.args = args;
    ({ schedule: this.schedule, scope: this.scope, config: this.config, strategy: this.strategy, groups: this.groups, budget: this.budget, inherit: this.inherit } = args);
    this.ev = new RouteEvaluator(this.schedule, this.scope, this.config);
    this.fixedRoutes = this.strategy === 'delay_propagation';
    this.mode = PRICING_MODES[this.strategy];
    let finderOf = FINDERS.get(this.groups);
    if (!finderOf) FINDERS.set(this.groups, finderOf = new Map());
    this.finderOf = finderOf;
    let byConfig = PRICING_CACHES.get(this.scope);
    if (!byConfig) PRICING_CACHES.set(this.scope, byConfig = new WeakMap());
    let pricingCache = byConfig.get(this.config);
    if (!pricingCache) byConfig.set(this.config, pricingCache = new Map());
    this.pricingCache = pricingCache;
  }

  /** The JourneyFinder of a source, built when first needed (shared by the simulation's strategies: FINDERS). */
  readonly finders: JourneyFinders = (source) => {
    let finder = this.finderOf.get(source.key);
    if (!finder) this.finderOf.set(source.key, finder = new JourneyFinder(this.groups.network, this.config, source.search, source.usable, this.config.constraints.max_reaccommodation_legs));
    return finder;
  };

  readonly hasColumn = (source: JourneySource, journey: Journey): boolean => {
    let node = this.journeyTree.get(source.key);
    for (let i = 0; node && i < journey.length; i++) node = node.next.get(journey[i]!.id);
    return node?.column === true;
  };

  private addColumnOf(source: JourneySource, journey: Journey): void {
    let node: JourneyNode | undefined = this.journeyTree.get(source.key);
    if (!node) this.journeyTree.set(source.key, node = { column: false, next: new Map() });
    for (const flight of journey) {
      let next: JourneyNode | undefined = node.next.get(flight.id);
      if (!next) node.next.set(flight.id, next = { column: false, next: new Map() });
      node = next;
    }
    node.column = true;
  }

  /** This solve's journeys with a column, for its journey searches (the bound's and the columns'): the finders keep their last answers per this object (JourneyFinder.leastFor, bestFor). */
  readonly journeyColumns: JourneyColumns = { has: this.hasColumn, count: (source) => this.journeys.get(source.key)?.length ?? 0 };

  /** Adds a route to the pool (and to the solves it is shared with); false when it was there already. */
  add(route: Route): boolean {
    if (this.keys.has(route.key)) return false;
    this.keys.add(route.key);
    let list = this.pool.get(route.tail);
    if (!list) this.pool.set(route.tail, (list = []));
    this.routesSince.push({ route, index: list.push(route) - 1 });
    this.args.publish?.routes.push(route);
    this.args.offer?.push(route);
    return true;
  }

  /** Routes another solve appended since the last call (SolveStrategyArgs.takeUp), added; how many were new. */
  takeUpOffered(): number {
    let offered = 0;
    const takeUp = this.args.takeUp ?? [];
    for (; this.takenUp < takeUp.length; this.takenUp++) if (this.add(takeUp[this.takenUp]!)) offered++;
    return offered;
  }
  private takenUp = 0;

  /** The strategy's model over the pool and the journey columns as they stand becomes the current one (`model`). */
  rebuild(): void {
    this.stale = true;
  }

  /**
   * Makes the current model: the last one with the routes added since (extendStrategyModel: the
   * generation's masters, one each round) where that gives the same rows and columns, else a build
   * of the whole model. `whole` asks for the whole build's order, which the integer solves keep (a
   * MIP's branching follows the order of its columns): an extended model's columns are then put in
   * that order (inWholeBuildColumnOrder), which gives the whole build over the same routes.
   */
  private refresh(whole: boolean): void {
    if (this.stale) {
      const extended = !whole && this.current !== null && !this.rowsSince
        ? extendStrategyModel(this.schedule, this.scope, this.groups, this.current, this.routesSince) : null;
      if (extended) {
        this.current = extended;
        this.extended = true;
      } else this.buildWhole();
      this.stale = false;
      this.routesSince = [];
      this.rowsSince = false;
    } else if (whole && this.extended) {
      // The extended model with its columns in the whole build's order is that build (the same routes,
      // journeys and itineraries: an extension adds none of the last two), without building it again.
      this.current = inWholeBuildColumnOrder(this.current!);
      this.extended = false;
    }
  }

  private buildWhole(): void {
    const at = performance.now();
    this.current = buildStrategyModel(this.schedule, this.scope, this.config, this.strategy, this.pool, this.groups, this.journeys, this.cancelledItineraries);
    this.buildMsPerRoute = Math.max(this.buildMsPerRoute, (performance.now() - at) / Math.max(1, this.current.candidateRoutes));
    this.extended = false;
  }

  /**
   * Itineraries with a leg some master (LP or integer) of this solve cancelled: their rows join every
   * later model (buildStrategyModel). Until then a model leaves out the rows of itineraries no route
   * breaks, which only a cancelled leg could break: a relaxation, whose bounds stay valid.
   */
  private readonly cancelledItineraries = new Set<string>();
  private itinerariesThrough: Map<string, string[]> | null = null;

  /**
   * Notes the itineraries a solution of the current model cancels a leg of (any share of it) that the
   * model holds no rows for; true when there was one: that solution's cost leaves their passengers
   * out, so it neither ends the generation nor is a plan, and the next model holds their rows.
   */
  noteCancelledItineraries(values: Record<string, number>): boolean {
    if (!this.itinerariesThrough) {
      this.itinerariesThrough = new Map();
      for (const g of this.groups.misconnections) for (const leg of g.legs) pushTo(this.itinerariesThrough, leg.id, g.itinerary.id);
    }
    let noted = false;
    for (const [column, flight] of this.model.cancelColumns) {
      if ((values[column] ?? 0) <= 1e-9) continue;
      for (const id of this.itinerariesThrough.get(flight.id) ?? []) {
        if (this.model.itineraryRows.has(id) || this.cancelledItineraries.has(id)) continue;
        this.cancelledItineraries.add(id);
        this.rowsSince = true;
        noted = true;
      }
    }
    return noted;
  }

  /**
   * An integer solve of the current model whose plan, if any, is a plan of the stated problem: while
   * its plan cancels a leg of an itinerary the model holds no rows for, the model is rebuilt with them
   * and solved again (each time with more itineraries, so this ends). The model solved last, its
   * outcome, and whether it was rebuilt for that.
   */
  async solvePlan(): Promise<{ model: StrategyModel; outcome: SolveOutcome; rebuilt: boolean }> {
    for (let rebuilt = false; ; rebuilt = true) {
      this.refresh(true);
      const model = this.model;
      const outcome = await this.solve(model.model, false);
      if (outcome.objective === null || !this.noteCancelledItineraries(outcome.values)) return { model, outcome, rebuilt };
      this.rebuild();
    }
  }

  /** What building and solving a model of every route in the pool may take, from the builds so far and an integer solve's `integerMs`. */
  expectedRebuildAndSolveMs(integerMs: number): number {
    return 2 * this.buildMsPerRoute * this.keys.size + integerMs;
  }

  /** One solve within the budget; a relaxation is a master of this generation's warm-started sequence. */
  solve(model: LinearModel, relaxation: boolean): Promise<SolveOutcome> {
    return this.args.solver.solve(
      { model, timeLimitMs: Math.max(1, this.budget.remainingMs()), mipGap: this.config.solver.mip_gap, relaxation, ...(relaxation ? { warmStart: this.masters } : {}) },
      { signal: this.budget.signal, deadline: this.budget.deadline, background: this.budget.background },
    );
  }

  /**
   * A cancellation arrives as a message on this thread's event loop: between aircraft of a pricing
   * round or of the proof, the loop gets a turn to deliver it (a round over a network-wide scope
   * takes seconds), and the solve stops there.
   */
  async stopIfCancelled(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.budget.signal.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
  }

  tolerance(value: number): number {
    return OPTIMALITY_TOLERANCE * Math.max(1, Math.abs(value));
  }

  report(phase: StrategyPhase, iterations: number, lowerBound: number | null): void {
    this.args.onProgress?.({ strategy: this.strategy, phase, iterations, lowerBound, incumbent: this.incumbent } satisfies StrategyProgress);
  }

  /** An integer solve's plan, kept as the incumbent when it is the first or a cheaper one. */
  found(model: StrategyModel, outcome: SolveOutcome, iterations: number, lowerBound: number | null): void {
    if (outcome.objective === null || (this.incumbent && this.incumbent.outcome.objective! <= outcome.objective)) return;
    this.incumbent = {
      model, iterations, facts: { kind: 'running' }, boundSource: null,
      outcome: { ...outcome, status: outcome.status === 'optimal' ? 'feasible' : outcome.status, lowerBound, solveMs: performance.now() - this.started },
    };
  }

  /**
   * Gives a column to journeys of several flights of the current model's sources whose reduced cost
   * at `prices` is at most `most(source)`: every one, up to `cap` per source ('all'), or the `cap` of
   * least reduced cost per source ('best'). How many, whether every search found all there were
   * (`complete`), and whether they all went to their end before the instant `until` (`timely`);
   * 'all' stops at the first source that falls short of either, since its proof is then lost.
   */
  giveColumns(prices: Record<string, number>, most: (source: JourneySource) => number, cap: number, which: 'all' | 'best', until: number) {
    let given = 0;
    let complete = true;
    let timely = true;
    let legPrices: LegPrices | null = null;
    for (const source of this.model.journeySources) {
      if (performance.now() >= until) {
        timely = false;
        break;
      }
      const finder = this.finders(source);
      const threshold = most(source) + rowsPrice(source, prices);
      if (finder.cheapestOfSeveral > threshold) continue;
      legPrices ??= legPricesAt(this.groups.network, prices);
      // Direct flights always have their column.
      const skip = (journey: Journey) => journey.length === 1 || this.hasColumn(source, journey);
      const found = which === 'best' ? { journeys: finder.bestFor(this.journeyColumns, this.journeyColumns.count(source), legPrices, threshold, cap, skip), complete: true, timely: true }
        : finder.within(legPrices, threshold, cap, skip, until);
      complete &&= found.complete;
      timely &&= found.timely;
      // A proof that needs more journeys than allowed for one source is lost: no need to search the rest.
      if (!complete || !timely) break;
      for (const { journey } of found.journeys) {
        this.addColumnOf(source, journey);
        pushTo(this.journeys, source.key, journey);
        this.rowsSince = true;
        given++;
      }
    }
    return { given, complete, timely };
  }

  /** The flight or network bound (SolveStrategyArgs.floor), null when there is none. */
  get floor(): Promise<SimulationBound | null> | undefined {
    return this.args.floor;
  }

  /** Whether this solve publishes its columns and bounds (the integrated strategy's, for the swap strategy's). */
  get publishes(): boolean {
    return this.args.publish !== undefined;
  }

  publishBest(best: BoundWitness): void {
    if (this.args.publish) this.args.publish.best = best;
  }

  publishFinal(lowerBound: number | null): void {
    if (this.args.publish) this.args.publish.lowerBound = lowerBound;
  }

  /** Whether any passengers of the current model have a journey of several flights at all. */
  severalFlightJourneys(): boolean {
    return this.model.journeySources.some((source) => Number.isFinite(this.finders(source).cheapestOfSeveral));
  }
}
