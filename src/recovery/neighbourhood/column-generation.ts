// One strategy's model solved over the FULL route space of its scope (docs/model.md section 3), in
// named steps (solveStrategy reads as their sequence):
//   - startingRoutes: the first plan's routes (and the grounded ones), the integrated solve's;
//   - impossibleAtOnce: capacities already exceeded outside the scope, broken planned routes;
//   - planAtInheritedBound: the swap strategy's plan over the integrated routes, when it costs that bound;
//   - generateColumns: master rounds (master.ts), each priced per aircraft over its whole time-space
//     network (pricing.ts) at smoothed prices (smoothing.ts), each giving a Lagrangian bound
//     (lagrangian-bound.ts) valid at every round, until no route has a negative reduced cost;
//   - integerPhase: the integer plan over the generated routes (GLPK branch and bound);
//   - prove: a plan costs at least the bound plus the reduced costs of its routes, so an optimal plan
//     uses only routes whose reduced cost is at most (plan − bound); those are enumerated, added, and
//     the integer model solved again. When that enumeration is complete and GLPK proves the last solve
//     optimal, the plan is optimal for the stated problem. When it needs more routes or journeys than
//     allowed, a branch and price (branch-and-price.ts) raises the bound node by node instead;
//   - exactPassengers: a plan whose proof did not end, its passengers re-accommodated again over its
//     own routes with every journey worth taking (the generation priced only some);
//   - conclude: the status, the lower bound and which proof it comes from, and the facts (numbers and
//     reason codes: model/solve-facts.ts) that the presenter words.
// Whatever stops the proof (the time limit, the cap on routes per aircraft) leaves a plan with a
// proven gap, and the status and the facts say which.
import type { Schedule } from '../../domain/schedule.ts';
import type { Route } from './aircraft-routes.ts';
import { firstPlan } from './first-plan.ts';
import type { Budget } from '../model/budget.ts';
import type { LinearModel } from '../model/linear-model.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SolverConfig, Strategy } from '../model/solver-config.ts';
import type { SolveOutcome, Solver } from '../model/solver-port.ts';
import type { GenerationStop, LowerBoundSource, ProofOutcome, SimulationBound, StrategyFacts } from '../model/solve-facts.ts';
import { RecoveryError } from '../model/failure.ts';
import type { Journey } from '../passengers/journeys.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { breakpointMemo, journeysTerm, lagrangianBound, pricingDuals, reducedCost, type BoundWitness, type BreakpointMemo } from './lagrangian-bound.ts';
import { ARTIFICIAL_GROWTH, ARTIFICIAL_MAX_FACTOR, artificialUsed, withArtificials } from './master.ts';
import { addJourneysWithin, addRoutesWithin, branchAndPrice, type Leaf, type RoundSettings } from './branch-and-price.ts';
import { priceRoutes } from './pricing.ts';
import { strategyCancels } from './rows/row-families.ts';
import { buildStrategyModel, chosenRoutes, type StrategyModel } from './rows/strategy-model.ts';
import { SMOOTHING, smoothed } from './smoothing.ts';
import { StrategyRun } from './strategy-run.ts';

export { PRICING_MODES } from './strategy-run.ts';

/** A route enters the master when its reduced cost is below this. */
const NEGATIVE = -1e-6;
/** Routes added per aircraft and pricing round. */
const ROUTES_PER_ROUND = 8;
/**
 * Journeys of several flights given a column per passenger source and round. Where many journeys
 * price negative at a master's duals whose LP they do not lower (a degenerate master), 8 a round
 * made the generation of large/breaks-maintenance 71 rounds long, its LP at the optimum from round 2
 * (docs/model.md 3.6); with 64 it takes 4.
 */
const JOURNEYS_PER_ROUND = 64;
/** The same, for the proof's branch and price. */
const ROUNDS: RoundSettings = { negative: NEGATIVE, routesPerRound: ROUTES_PER_ROUND, journeysPerRound: JOURNEYS_PER_ROUND };
/**
 * Every cost weight is at least 0 (solver-config.ts), so no plan costs less than 0: the Lagrangian
 * bound at zero prices. A generation far from convergence (a network-wide scope) can have nothing
 * better, and a negative bound would only say less.
 */
const NO_PLAN_COSTS_LESS = 0;
/** Share of a strategy's time budget the column generation may use; the integer plan and the proof get the rest. */
const GENERATION_SHARE = 0.6;
/**
 * The generation stops when the Lagrangian bound is this close (relative) to the master's LP value:
 * the proof (section 3.4) then enumerates the few routes within the remaining gap, which is cheaper
 * than the last rounds of a generation that tails off.
 */
const CLOSE_ENOUGH = 5e-3;

/** The result of one strategy's solve: the final model, GLPK's last outcome on it, and what was proven. */
export interface StrategySolve {
  model: StrategyModel;
  /** The plan (values of the final model) with the status proven for the stated problem and the proven lower bound. */
  outcome: SolveOutcome;
  iterations: number;
  /** Which proof `outcome.lowerBound` comes from; null when there is none. */
  boundSource: LowerBoundSource | null;
  /** What the solve found out, as numbers and codes (the presenter words them). */
  facts: StrategyFacts;
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

export interface SolveStrategyArgs {
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
  /** A lower bound of every plan of every strategy known without a generation (the flight or network bound), null when there is none. */
  floor?: Promise<SimulationBound | null>;
}

/**
 * Solve one strategy within `budget` (its deadline may be brought forward while it runs: the
 * pipeline cuts a restricted strategy short once the integrated one is proven); solver failures
 * (busy, crashed, aborted by the budget's signal) reject as RecoveryError.
 */
export async function solveStrategy(args: SolveStrategyArgs): Promise<StrategySolve> {
  const run = new StrategyRun(args);
  startingRoutes(run);
  run.rebuild();
  const impossible = impossibleAtOnce(run);
  if (impossible) return impossible;
  const inherited = await planAtInheritedBound(run);
  if (inherited) return inherited;
  const generation = await generateColumns(run);
  if (generation.stop === 'converged' && artificialUsed(generation.lpValues)) return noPlanExists(run, generation);
  // The integrated solve went on meanwhile.
  takeUpInherited(run, generation);
  const integer = await integerPhase(run, generation);
  const proved = await exactPassengers(run, await prove(run, generation, integer));
  return conclude(run, generation, proved);
}

/**
 * First routes, all on the departure grid (a propagated time off the grid is not a plan of these
 * strategies): the first plan's (the planned sequence, held where airport capacities need it:
 * first-plan.ts), and where the strategy may cancel the empty one (the aircraft stays on the ground,
 * its flights cancelled), which keep the first masters feasible; then the integrated solve's routes.
 */
function startingRoutes(run: StrategyRun): void {
  const { ev, scope, config } = run;
  const cancels = strategyCancels(run.strategy, config);
  const first = run.fixedRoutes ? null : firstPlan(ev, config.solver.time_step_minutes);
  for (const a of scope.aircraft) {
    run.pool.set(a.aircraft.tail, []);
    const slotted = first ? first.get(a.aircraft.tail) : ev.plannedRoute(a);
    if (slotted) run.add(slotted);
    const grounded = cancels ? ev.finish(a, [], a.checks.map(() => null)) : null;
    if (grounded) run.add(grounded);
  }
  for (const route of run.inherit?.routes ?? []) run.add(route);
}

/** No plan of this strategy exists, as `facts` prove (the presenter words why: no sentence here). */
function infeasible(run: StrategyRun, facts: StrategyFacts, iterations = 0): StrategySolve {
  return {
    model: run.model, iterations, facts, boundSource: null,
    outcome: { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - run.started, detail: null },
  };
}

/**
 * Flights the scope cannot change that already exceed a capacity leave no plan (the master could only
 * show that as an infeasible LP, which proves nothing by itself); delay propagation has no plan when
 * an aircraft's planned route with propagated delays breaks a rule or a disruption.
 */
function impossibleAtOnce(run: StrategyRun): StrategySolve | null {
  const exceeded = run.scope.capacities.find((c) => c.fixed > c.max);
  if (exceeded) {
    return infeasible(run, { kind: 'capacity_exceeded', airport: exceeded.airport, movement: exceeded.kind, hourStartMinutes: exceeded.hourStartMinutes, fixed: exceeded.fixed, max: exceeded.max });
  }
  if (run.fixedRoutes && run.scope.aircraft.some((a) => run.pool.get(a.aircraft.tail)!.length === 0)) return infeasible(run, { kind: 'planned_routes_break_rules' });
  return null;
}

/**
 * When the integrated solve has ended: a plan of this strategy at its bound is optimal here too, and
 * its optimum often flies every flight. Its routes are in the pool: try them before generating. Null
 * when a generation is still needed (the plan found, if any, is the incumbent).
 */
async function planAtInheritedBound(run: StrategyRun): Promise<StrategySolve | null> {
  const inheritedBound = run.inherit?.lowerBound ?? null;
  if (inheritedBound === null) return null;
  const { model, outcome } = await run.solvePlan();
  const routes = run.keys.size;
  if (outcome.objective !== null && outcome.objective - inheritedBound <= run.tolerance(outcome.objective)) {
    return {
      model, iterations: 0, boundSource: 'integrated_strategy', facts: { kind: 'at_integrated_bound', routes, bound: inheritedBound },
      outcome: { ...outcome, status: 'optimal', lowerBound: outcome.objective, solveMs: performance.now() - run.started },
    };
  }
  if (run.budget.expired) {
    // Nothing left for a generation: this solve's answer is what that one found.
    return {
      model, iterations: 0, boundSource: 'integrated_strategy', facts: { kind: 'no_time_for_generation', routes, bound: inheritedBound, noPlanAmongThem: outcome.status === 'infeasible' },
      // Without a plan, GLPK's answer over the inherited routes proves nothing about the others.
      outcome: {
        ...outcome, status: 'time_limit', lowerBound: inheritedBound, solveMs: performance.now() - run.started,
        detail: outcome.status === 'infeasible' ? null : outcome.detail,
      },
    };
  }
  run.found(model, outcome, 0, inheritedBound);
  return null;
}

/** Where the column generation stands (and, once it has stopped, where it ended). */
interface Generation {
  iterations: number;
  /** The best lower bound so far, and which proof it comes from. */
  bound: number | null;
  boundFrom: 'generation' | 'integrated' | 'zero';
  stop: GenerationStop;
  /**
   * The prices of the best Lagrangian bound so far, that bound, and each aircraft's least reduced
   * cost there (min(0, ·), as summed in the bound): what the proof needs (section 3.4 of docs/model.md).
   */
  best: BoundWitness | null;
  lpValues: Record<string, number>;
}

/** Raises the generation's bound to `value` when that is higher, with where it comes from. */
function raiseBound(generation: Generation, value: number, from: Generation['boundFrom']): void {
  if (generation.bound === null || value > generation.bound) {
    generation.bound = value;
    generation.boundFrom = from;
  }
}

/**
 * The integrated solve's best bound and prices, and its final bound once it has one (SharedColumns),
 * where they are better than this solve's: at the start, and again before the proof.
 */
function takeUpInherited(run: StrategyRun, generation: Generation): void {
  if (!run.inherit) return;
  const { best, lowerBound: final } = run.inherit;
  if (best && (!generation.best || best.bound > generation.best.bound)) generation.best = best;
  const known: [number, Generation['boundFrom']][] = [];
  if (generation.bound !== null) known.push([generation.bound, generation.boundFrom]);
  if (generation.best) known.push([generation.best.bound, generation.best === best ? 'integrated' : 'generation']);
  if (final !== null) known.push([final, 'integrated']);
  if (known.length === 0) return;
  generation.bound = null;
  for (const [value, from] of known) raiseBound(generation, value, from);
  raiseBound(generation, NO_PLAN_COSTS_LESS, 'zero');
}

/**
 * The column generation: master rounds until no route prices negative (or the bound is close enough
 * to the LP, or its share of the budget is used). It leaves the integer phase the rest of the
 * budget, so that a time limit still ends with a plan and its proven gap.
 */
async function generateColumns(run: StrategyRun): Promise<Generation> {
  const generation: Generation = { iterations: 0, bound: null, boundFrom: 'generation', stop: 'time', best: null, lpValues: {} };
  takeUpInherited(run, generation);
  const breakpoints = breakpointMemo();
  let artificialScale = 1;
  // (A function: the budget's deadline may be brought forward meanwhile.)
  const until = () => run.started + GENERATION_SHARE * (run.budget.deadline - run.started);
  // The stability center of the smoothing: the row prices of the best Lagrangian bound so far, at the
  // current artificial costs (a dearer artificial changes every bound, so the center starts again).
  let center: Record<string, number> | null = null;
  while (performance.now() < until()) {
    if (run.takeUpOffered() > 0) run.rebuild();
    const { model } = run;
    const master = withArtificials(model.model, run.scope, run.config, artificialScale);
    const lp = await run.solve(master, true);
    if (lp.status !== 'optimal' || !lp.duals) break;
    generation.iterations++;
    generation.lpValues = lp.values;
    // An LP that cancels a leg of an itinerary the master holds no rows for is not the LP over every
    // route yet: the next master holds them (StrategyRun.noteCancelledItineraries).
    const cancelsUnseen = run.noteCancelledItineraries(lp.values);
    const round = await priceRound(run, generation, master, lp.values, lp.duals, center, breakpoints, until);
    center = round.center;
    let { added, complete } = round;
    // The journeys whose columns would enter the master's basis at its own prices get a column.
    const journeysGiven = run.giveColumns(lp.duals, () => NEGATIVE, JOURNEYS_PER_ROUND, 'best', until());
    added += journeysGiven.given;
    // A search cut short by the budget has not shown convergence.
    if (!journeysGiven.timely) complete = false;
    if (generation.best) {
      raiseBound(generation, generation.best.bound, generation.best === run.inherit?.best ? 'integrated' : 'generation');
      raiseBound(generation, NO_PLAN_COSTS_LESS, 'zero');
    }
    run.report('generating_columns', generation.iterations, generation.bound);
    if (complete && added === 0 && !cancelsUnseen) {
      if (artificialUsed(lp.values) && artificialScale < ARTIFICIAL_MAX_FACTOR) {
        // Covering some flight (or giving some aircraft a route) costs more than its artificial: price with a dearer one.
        artificialScale *= ARTIFICIAL_GROWTH;
        center = null;
        continue;
      }
      generation.stop = 'converged';
      break;
    }
    // The proof needs no converged LP: with the bound this close, it enumerates few routes. Not so
    // where passengers have journeys of several flights: a journey's reduced cost is per passenger,
    // so a gap of 0.5 % of a plan lets nearly every journey into the proof (docs/model.md 3.4).
    if (!cancelsUnseen && !run.severalFlightJourneys() && generation.best && generation.bound !== null && !artificialUsed(lp.values)
      && lp.objective! - generation.bound <= CLOSE_ENOUGH * Math.max(1, Math.abs(lp.objective!))) {
      generation.stop = 'close';
      break;
    }
    run.rebuild();
    await run.stopIfCancelled();
  }
  return generation;
}

/**
 * One pricing round of the master's LP solution: every aircraft priced over its whole route space
 * at the smoothed prices (when none of their routes is negative at the master's own duals, a
 * mispricing, again at the master's own, which alone can show convergence); the Lagrangian bound at
 * the prices priced, which becomes the generation's best (and the smoothing's center) when higher.
 * The routes added, and whether every aircraft was priced (a round cut short by the budget still adds
 * its routes, but proves no bound).
 */
async function priceRound(
  run: StrategyRun, generation: Generation, master: LinearModel, lpValues: Record<string, number>, lpDuals: Record<string, number>,
  center: Record<string, number> | null, breakpoints: BreakpointMemo, until: () => number,
): Promise<{ added: number; complete: boolean; center: Record<string, number> | null }> {
  const { model, scope } = run;
  const own = pricingDuals(model, lpDuals, breakpoints);
  const pricing = { stepMinutes: run.config.solver.time_step_minutes, threshold: NEGATIVE, maxRoutes: ROUTES_PER_ROUND, cache: run.pricingCache };
  let added = 0;
  let complete = false;
  for (let alpha: number = center ? SMOOTHING : 0; ; alpha = 0) {
    const prices: Record<string, number> = alpha > 0 ? smoothed(master, center!, lpDuals, alpha) : lpDuals;
    const duals = alpha > 0 ? pricingDuals(model, prices, breakpoints) : own;
    let leastSum = 0;
    let improving = 0;
    const least = new Map<string, number>();
    for (const a of scope.aircraft) {
      if (performance.now() >= until()) break;
      await run.stopIfCancelled();
      if (run.fixedRoutes) {
        // The aircraft's one route is all it may fly: its reduced cost is the least.
        const value = Math.min(0, ...(run.pool.get(a.aircraft.tail) ?? []).map((route) => reducedCost(route, a, duals)));
        least.set(a.aircraft.tail, value);
        leastSum += value;
        continue;
      }
      const priced = priceRoutes(run.ev, a, run.mode, duals, pricing);
      // The pricing's least is exact only when negative; 0 is then a lower bound (docs/model.md 3.3).
      least.set(a.aircraft.tail, Math.min(0, priced.leastReducedCost));
      leastSum += Math.min(0, priced.leastReducedCost);
      for (const { route, reducedCost: value } of priced.routes) {
        if (!run.add(route)) continue;
        added++;
        if ((alpha > 0 ? reducedCost(route, a, own) : value) < NEGATIVE) improving++;
      }
    }
    complete = least.size === scope.aircraft.length;
    // The Lagrangian bound at these prices (each aircraft flies one route, each priced journey takes
    // as many passengers as its reduced cost prefers), valid at every round; at convergence it is
    // the LP value. Rounds whose master still needs an artificial prove nothing here.
    const journeyTerm = complete && !artificialUsed(lpValues) ? journeysTerm(model, run.groups.network, run.finders, prices, run.journeyColumns, until()) : null;
    if (journeyTerm) {
      const bound = lagrangianBound(master, model.routeColumns, prices, leastSum + journeyTerm.sum);
      if (!generation.best || bound > generation.best.bound) {
        generation.best = { duals, prices, bound, least, journeyLeast: journeyTerm.least };
        if (run.publishes) run.publishBest(generation.best);
        center = prices;
      }
    }
    if (improving > 0 || alpha === 0 || !complete) break;
  }
  return { added, complete, center };
}

/** The generation over every route proved that no plan of this strategy exists (its converged LP still needs an artificial). */
function noPlanExists(run: StrategyRun, generation: Generation): StrategySolve {
  const facts: StrategyFacts = run.fixedRoutes ? { kind: 'planned_routes_break_rules' } : { kind: 'no_plan_exists', rounds: generation.iterations };
  return infeasible(run, facts, generation.iterations);
}

interface IntegerPlan { model: StrategyModel; outcome: SolveOutcome; integerMs: number }

/** The integer plan over the generated routes. */
async function integerPhase(run: StrategyRun, generation: Generation): Promise<IntegerPlan> {
  run.report('integer_plan', generation.iterations, generation.bound);
  const integerStarted = performance.now();
  const { model, outcome } = await run.solvePlan();
  const integerMs = performance.now() - integerStarted;
  run.found(model, outcome, generation.iterations, generation.bound);
  return { model, outcome, integerMs };
}

type ProofState = 'proven' | 'routes_capped' | 'journeys_capped' | 'time' | 'no_bound';

/** The proof's enumeration needed more routes or journeys than allowed. */
const capped = (proof: ProofState): boolean => proof === 'routes_capped' || proof === 'journeys_capped';

/**
 * The proof: a plan costs at least bound + Σ_a (reduced cost of its route − least_a), so a plan
 * better than this one uses only routes within (plan − bound) of their aircraft's least. Every such
 * route joins the model; the model's optimum is then the optimum. The plan kept (the cheapest found)
 * and how the proof ended.
 */
async function prove(run: StrategyRun, generation: Generation, first: IntegerPlan): Promise<{ plan: IntegerPlan; proof: ProofState }> {
  run.report('proving', generation.iterations, generation.bound);
  const { best } = generation;
  let { model: planModel, outcome } = first;
  let proof: ProofState = best ? 'proven' : 'no_bound';
  const gapOf = (value: number) => (generation.bound === null ? Number.POSITIVE_INFINITY : value - generation.bound);
  if (best && outcome.objective !== null && !(outcome.status === 'optimal' && gapOf(outcome.objective) <= run.tolerance(outcome.objective))) {
    const { budget } = run;
    const objective = outcome.objective;
    const slack = objective - best.bound;
    const tolerance = run.tolerance(objective);
    // The integrated strategy's proof goes on with a branch and price where the enumeration is capped
    // (below), once its generation converged: a generation the time stopped (a network-wide scope's)
    // has an LP far from its optimum, whose tree would only take the thread and the workers that the
    // network search needs in the time left.
    const branches = run.strategy === 'integrated' && generation.stop === 'converged';
    const routes = await addRoutesWithin(run, best, slack, tolerance, branches ? 'drop' : 'add');
    if (!routes.complete) proof = budget.expired ? 'time' : 'routes_capped';
    let added = routes.added;
    // Likewise a journey: its column is integer, so a plan that uses it pays its reduced cost at least
    // once above its group's least (docs/model.md 3.4). Only for a proof that can still succeed: one
    // whose routes were capped proves nothing, and these columns would only make its larger model slower.
    // Searched at the best prices, or once a branch and price has closed its tree, at each leaf's.
    let within: Leaf[] = [{ witness: best, slack }];
    const giveJourneys = (): number => {
      let given = 0;
      for (const { witness, slack: gap } of within) {
        if (proof !== 'proven') break;
        const found = addJourneysWithin(run, witness, gap, tolerance);
        if (found.stop) proof = found.stop;
        given += found.added;
      }
      return given;
    };
    added += giveJourneys();
    if (capped(proof) && branches) {
      // The bound is too weak for the enumeration: a stronger one, node by node (branch-and-price.ts),
      // until the larger model's build and solve are all the time left. For the integrated strategy
      // only, whose option is the recommendation: the restricted ones share its thread (pricing) and
      // are cut short once it is proven (docs/model.md 3.5), so their trees would take its time and
      // hold the answer until that cut.
      if (added > 0) run.rebuild();
      // The converged generation's last LP is the root's: the LP over every route, at the best prices.
      const tree = await branchAndPrice(run, { witness: best, values: generation.lpValues, added: 0 }, objective, ROUNDS, () => budget.deadline - run.expectedRebuildAndSolveMs(first.integerMs));
      proof = tree.closed ? 'proven' : tree.stop!;
      within = tree.leaves;
      if (tree.closed && tree.leaves.length === 0) {
        // Every node's bound reached this plan: no plan is cheaper, whatever GLPK's last solve proved.
        outcome = { ...outcome, status: 'optimal' };
        added = 0;
      } else added += tree.added;
    }
    // The larger model is built and solved only when there is time for that: twice its expected build
    // time and as long again as the first integer solve took (a larger model solves no faster).
    if (added > 0 && performance.now() + run.expectedRebuildAndSolveMs(first.integerMs) >= budget.deadline) proof = 'time';
    else if (added > 0) {
      run.rebuild();
      // Itineraries the added routes break, and those whose rows its plans first needed, bring sources
      // the search above did not see (it searched the model before them).
      while (giveJourneys() > 0) run.rebuild();
      let solved = await run.solvePlan();
      while (solved.rebuilt && giveJourneys() > 0) {
        run.rebuild();
        solved = await run.solvePlan();
      }
      const { model: larger, outcome: again } = solved;
      run.found(larger, again, generation.iterations, generation.bound);
      // A larger model whose solve ran out of time keeps the plan already found.
      if (again.objective !== null && again.objective <= objective + 1e-9) {
        planModel = larger;
        outcome = again;
      }
      if (again.status !== 'optimal') proof = 'time';
    }
  }
  const kept = run.incumbent;
  if (kept && kept.outcome.objective! < (outcome.objective ?? Number.POSITIVE_INFINITY) - run.tolerance(kept.outcome.objective!)) {
    // This solve's last integer solve was stopped with nothing better than an earlier one: that one's
    // plan (its bound and time are this solve's, set in conclude).
    planModel = kept.model;
    outcome = { ...kept.outcome, status: 'time_limit' };
    proof = 'time';
  }
  return { plan: { model: planModel, outcome, integerMs: first.integerMs }, proof };
}

/**
 * A plan whose proof did not end (the time limit, a cap, no bound) re-accommodates its passengers over
 * the journeys priced so far only: a cheaper re-accommodation for its own routes may exist. While the
 * budget lasts, the model over its routes alone (every itinerary's rows, and a column for every
 * journey worth taking: JourneyFinder.worthTaking) is solved again, as the network engine's search
 * does for its plan; its plan, when cheaper, replaces this one: the same routes, its passengers
 * re-accommodated exactly when that solve is proven (a solve the limit stops gives a cheaper one, not
 * a proven one: docs/model.md 1.6, 3.4). A stop or failure of that solve keeps the plan.
 */
async function exactPassengers(run: StrategyRun, proved: { plan: IntegerPlan; proof: ProofState }): Promise<{ plan: IntegerPlan; proof: ProofState }> {
  const { plan: { model, outcome }, proof } = proved;
  const objective = outcome.objective;
  if (objective === null || (proof === 'proven' && outcome.status === 'optimal') || run.budget.expired) return proved;
  const routes = new Map([...chosenRoutes(model, outcome.values)].map(([tail, route]) => [tail, [route]]));
  const build = (journeys: ReadonlyMap<string, readonly Journey[]>) => buildStrategyModel(run.schedule, run.scope, run.config, run.strategy, routes, run.groups, journeys, null);
  const journeys = new Map<string, Journey[]>();
  for (const source of build(new Map()).journeySources) {
    if (run.budget.expired) return proved;
    const worth = run.finders(source).worthTaking(run.budget.deadline);
    // The search ran into the deadline (it did, up to 737 ms past it under load, before it was given one).
    if (worth === null) return proved;
    if (worth.length > 0) journeys.set(source.key, worth);
  }
  const exact = build(journeys);
  let again: SolveOutcome;
  try {
    again = await run.solve(exact.model, false);
  } catch (error) {
    if (error instanceof RecoveryError && !run.budget.signal.aborted) return proved;
    throw error;
  }
  if (again.objective === null || again.objective >= objective - run.tolerance(objective)) return proved;
  return { plan: { ...proved.plan, model: exact, outcome: { ...again, status: outcome.status } }, proof };
}

/**
 * The status proven, the lower bound (the flight bound where the generation's is weaker: a plan at
 * it is optimal whatever stopped the proof) and its source, and the facts.
 */
async function conclude(run: StrategyRun, generation: Generation, proved: { plan: IntegerPlan; proof: ProofState }): Promise<StrategySolve> {
  const { plan: { model, outcome }, proof } = proved;
  const plan = outcome.objective;
  let status = outcome.status;
  let detail = outcome.detail;
  const given = (await run.floor) ?? null;
  const floor = given?.value ?? null;
  const floored = floor !== null && (generation.bound === null || floor > generation.bound);
  let lowerBound = floored ? floor : generation.bound;
  const provenBySearch = proof === 'proven' && outcome.status === 'optimal';
  if (plan !== null) {
    const proven = provenBySearch || (floor !== null && plan - floor <= run.tolerance(plan));
    status = proven ? 'optimal' : proof === 'routes_capped' || proof === 'journeys_capped' ? 'feasible' : 'time_limit';
    if (proven) lowerBound = plan;
  } else if (status === 'infeasible' && !run.fixedRoutes) {
    // No integer plan over the priced routes, although the LP over every route has one (or the
    // generation stopped first): that no plan exists is not proven. (With fixed routes it is: the
    // passengers can always go unaccommodated, so only the routes can make the model infeasible.)
    status = 'time_limit';
    detail = null;
  }
  run.publishFinal(lowerBound);
  const ownSource: LowerBoundSource | null = generation.bound === null ? null
    : { zero: 'no_negative_cost', integrated: 'integrated_strategy', generation: generation.stop === 'converged' ? 'converged_lp' : 'lagrangian' }[generation.boundFrom] as LowerBoundSource;
  const byFloor = status === 'optimal' && !provenBySearch;
  const boundSource: LowerBoundSource | null = (floored || byFloor) && given ? given.source : ownSource;
  const outcomeOf: ProofOutcome = byFloor ? 'proven_by_bound' : {
    proven: status === 'optimal' ? 'proven' : 'glpk_stopped',
    routes_capped: 'routes_capped',
    journeys_capped: 'journeys_capped',
    time: run.budget.cut ? 'cut_short' : 'time_limit',
    no_bound: 'no_bound',
  }[proof] as ProofOutcome;
  const facts: StrategyFacts = {
    kind: 'generated', fixedRoutes: run.fixedRoutes, rounds: generation.iterations, routes: run.keys.size,
    inheritedRoutes: run.inherit ? run.inherit.routes.length : null, stop: generation.stop, closeWithin: CLOSE_ENOUGH,
    generationBound: generation.bound,
    negativeLagrangian: generation.best && generation.best.bound < NO_PLAN_COSTS_LESS && generation.bound === NO_PLAN_COSTS_LESS ? generation.best.bound : null,
    floorBound: floored ? given : null, proof: outcomeOf, maxRoutesPerAircraft: run.config.solver.max_routes_per_aircraft,
    noPlanAmongPriced: plan === null && outcome.status === 'infeasible' && !run.fixedRoutes,
  };
  return {
    model, iterations: generation.iterations, boundSource, facts,
    outcome: { ...outcome, status, detail, lowerBound, solveMs: performance.now() - run.started },
  };
}
