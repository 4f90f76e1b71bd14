// The proof's branch and price (docs/model.md 3.4): when the LP bound is too weak for the proof's
// enumeration (more routes or journeys within the gap than allowed), the plans are split, and each
// part gets its own column generation, whose bound is stronger.
//
// The branches, in this order: whether a flight is cancelled (its cancel column fixed to 0 or 1), then
// whether an aircraft flies a flight (a row over its routes through it: = 0, or >= 1). On the single
// delays whose gap the enumeration could not close (default/seeded-24-18, large/spoke-morning-long)
// the LP optimum cancels a fraction of two round trips (0.4 and 0.6, 0.32 and 0.68) and mixes two
// routes of each aircraft that flies them: one or two cancellations decide it. In every plan both are
// 0 or 1 (a flight's cancel column is 1 less the binary routes that fly it), so either branch splits
// the plans in two; and the pricing respects both: a fixed cancel column only moves its flight row's
// dual, which the pricing prices already, and an aircraft-flight row's dual is one more term of that
// aircraft's legs on that flight (withArcDuals).
//
// Each node's Lagrangian bound (lagrangian-bound.ts) is valid for the plans of the node (its master
// keeps the fixed bounds and the branch rows; the relaxation keeps every column's bounds). A node whose
// bound reaches the plan in hand holds no better plan. A node whose LP has no fractional branch is a
// leaf: the enumeration of section 3.4 at the node's prices, within the node's (smaller) gap, gives
// every route and journey a better plan of the node could use. Once every node is one or the other,
// every plan better than the one in hand uses only routes and journeys of the pool, and the integer
// model over the pool (no branch rows: its plans are plans of the problem) finds the optimum.
import type { Flight } from '../../domain/schedule.ts';
import { lpName, type Constraint, type LinearModel, type Variable } from '../model/linear-model.ts';
import type { AircraftInScope } from '../model/scope.ts';
import type { Route } from './aircraft-routes.ts';
import { breakpointMemo, journeysTerm, lagrangianBound, pricingDuals, type BoundWitness } from './lagrangian-bound.ts';
import { ARTIFICIAL_GROWTH, ARTIFICIAL_MAX_FACTOR, artificialFlightCost, artificialUsed, withArtificials } from './master.ts';
import { enumerateRoutes, priceRoutes, type PricingDuals } from './pricing.ts';
import type { StrategyModel } from './rows/strategy-model.ts';
import type { StrategyRun } from './strategy-run.ts';

/** How a generation round adds columns (column-generation.ts: the same in every node). */
export interface RoundSettings {
  /** A column enters below this reduced cost. */
  negative: number;
  routesPerRound: number;
  journeysPerRound: number;
}

/**
 * A node's branch: a cancel column fixed to 0 (the flight is flown) or 1 (cancelled); or whether an
 * aircraft flies a flight (its routes through it sum to 0, or to 1), a row of the node's master.
 */
type Fixing = { kind: 'cancel'; column: string; value: 0 | 1 } | { kind: 'arc'; tail: string; flight: Flight; value: 0 | 1 };

interface TreeNode {
  fixings: Fixing[];
  /** A lower bound of the node's plans: its parent's (a node's plans are some of its parent's). */
  bound: number;
}

export interface BranchAndPriceResult {
  /** Every node closed (by its bound, or its leaf enumeration complete): the proof holds. */
  closed: boolean;
  /** Why not, when not. */
  stop: 'time' | 'routes_capped' | 'journeys_capped' | null;
  /** Routes and journeys the nodes added to the pool. */
  added: number;
  nodes: number;
  /**
   * The leaves' prices and gaps: after the pool's model is built again, the passengers' sources it
   * first has (itineraries that the routes added break) are searched at each of them.
   */
  leaves: Leaf[];
}

/** A leaf of the tree: its best prices, and its gap below the plan in hand. */
export interface Leaf { witness: BoundWitness; slack: number }

/** A column's value further than this from 0 and 1 is fractional. */
const FRACTIONAL = 1e-6;

/**
 * The routes of each aircraft whose reduced cost at `witness` is within `slack` (plus `tolerance`) of
 * its least there: every route a plan cheaper than bound + slack may fly (docs/model.md 3.4), added to
 * the pool; how many were new, and whether every aircraft's enumeration was complete. When one is not
 * (the cap, the time), `whenCapped` says whether the routes found are added all the same (they may
 * still give a cheaper plan: the restricted strategies') or none is (a branch and price follows, and
 * they would only slow its masters down).
 */
export async function addRoutesWithin(run: StrategyRun, witness: BoundWitness, slack: number, tolerance: number, whenCapped: 'add' | 'drop'): Promise<{ added: number; complete: boolean }> {
  const { config, budget } = run;
  const found: Route[] = [];
  let complete = true;
  for (const a of run.fixedRoutes ? [] : run.scope.aircraft) {
    await run.stopIfCancelled();
    const room = config.solver.max_routes_per_aircraft - (run.pool.get(a.aircraft.tail)?.length ?? 0);
    const threshold = witness.least.get(a.aircraft.tail)! + slack + tolerance;
    const enumerated = enumerateRoutes(run.ev, a, run.mode, witness.duals, { stepMinutes: config.solver.time_step_minutes, threshold, maxRoutes: Math.max(0, room), cache: run.pricingCache, deadline: budget.deadline });
    complete &&= enumerated.complete;
    if (!complete && whenCapped === 'drop') return { added: 0, complete };
    for (const { route } of enumerated.routes) found.push(route);
    if (budget.expired) {
      complete = false;
      break;
    }
  }
  let added = 0;
  for (const route of found) if (run.add(route)) added++;
  return { added, complete };
}

/**
 * The journeys of several flights within `slack` (plus `tolerance`) of their passengers' least at
 * `witness`, given a column (docs/model.md 3.4); how many, and whether every search was complete and
 * timely. A source whose rows joined the model after the witness has no price there: at 0 its journeys
 * cost at least 0, its least.
 */
export function addJourneysWithin(run: StrategyRun, witness: BoundWitness, slack: number, tolerance: number): { added: number; stop: 'time' | 'journeys_capped' | null } {
  const given = run.giveColumns(witness.prices, (source) => (witness.journeyLeast.get(source.rows[0]!) ?? 0) + slack + tolerance, run.config.solver.max_routes_per_aircraft, 'all', run.budget.deadline);
  return { added: given.given, stop: !given.timely ? 'time' : !given.complete ? 'journeys_capped' : null };
}

/** A node's generation: its best prices and bound, its last LP's values, and the columns it added. */
export interface NodeSolution { witness: BoundWitness; values: Record<string, number>; added: number }

/**
 * Branch and price below the plan of cost `incumbent`, until the instant `until()`: depth first,
 * each node's column generation at its LP's own prices. `root` is the root's solution: the converged
 * generation's best prices and its last LP's values (the LP over every route).
 */
export async function branchAndPrice(run: StrategyRun, root: NodeSolution, incumbent: number, settings: RoundSettings, until: () => number): Promise<BranchAndPriceResult> {
  const tolerance = run.tolerance(incumbent);
  const open: TreeNode[] = [{ fixings: [], bound: root.witness.bound }];
  let added = 0;
  let nodes = 0;
  const leaves: Leaf[] = [];
  while (open.length > 0) {
    const node = open.pop()!;
    if (node.bound >= incumbent - tolerance) continue;
    if (performance.now() >= until()) return { closed: false, stop: 'time', added, nodes, leaves };
    nodes++;
    const solved = node.fixings.length === 0 ? root : await generateAtNode(run, node.fixings, incumbent - tolerance, settings, until);
    if (!solved) return { closed: false, stop: 'time', added, nodes, leaves };
    added += solved.added;
    const { witness, values } = solved;
    if (witness.bound >= incumbent - tolerance) continue;
    const branch = branchOn(run, node.fixings, values);
    if (branch) {
      // The side the LP leans to last, so that it is searched first (depth first).
      const leansTo: 0 | 1 = branch.share >= 0.5 ? 1 : 0;
      for (const value of [1 - leansTo, leansTo] as (0 | 1)[]) {
        const fixing: Fixing = branch.kind === 'cancel' ? { kind: 'cancel', column: branch.column, value } : { kind: 'arc', tail: branch.tail, flight: branch.flight, value };
        open.push({ fixings: [...node.fixings, fixing], bound: witness.bound });
      }
      continue;
    }
    // A leaf: every plan of it cheaper than the incumbent uses routes and journeys within its gap.
    const slack = incumbent - witness.bound;
    leaves.push({ witness, slack });
    const routes = await addRoutesWithin(run, witness, slack, tolerance, 'drop');
    if (!routes.complete) return { closed: false, stop: run.budget.expired ? 'time' : 'routes_capped', added, nodes, leaves };
    added += routes.added;
    if (routes.added > 0) run.rebuild();
    const journeys = addJourneysWithin(run, witness, slack, tolerance);
    added += journeys.added;
    if (journeys.stop) return { closed: false, stop: journeys.stop, added, nodes, leaves };
    if (journeys.added > 0) run.rebuild();
  }
  return { closed: true, stop: null, added, nodes, leaves };
}

/**
 * The node's branch: a flight its LP cancels by a fraction, the one closest to a half; else an aircraft
 * that flies a flight by a fraction (its routes through it), likewise; null when there is neither.
 */
function branchOn(run: StrategyRun, fixings: readonly Fixing[], values: Record<string, number>): { kind: 'cancel'; column: string; share: number } | { kind: 'arc'; tail: string; flight: Flight; share: number } | null {
  const fixed = new Set(fixings.map(fixingKey));
  const closest = <T extends { share: number }>(candidates: Iterable<T>): T | null => {
    let best: T | null = null;
    for (const c of candidates) {
      if (c.share < FRACTIONAL || c.share > 1 - FRACTIONAL) continue;
      if (!best || Math.abs(c.share - 0.5) < Math.abs(best.share - 0.5)) best = c;
    }
    return best;
  };
  const cancel = closest([...run.model.cancelColumns.keys()]
    .filter((column) => !fixed.has(`cancel ${column}`))
    .map((column) => ({ kind: 'cancel' as const, column, share: values[column] ?? 0 })));
  if (cancel) return cancel;
  const flown = new Map<string, { kind: 'arc'; tail: string; flight: Flight; share: number }>();
  for (const [column, route] of run.model.routeColumns) {
    const value = values[column] ?? 0;
    if (value < FRACTIONAL) continue;
    for (const { flight } of route.legs) {
      const key = `arc ${route.tail} ${flight.id}`;
      if (fixed.has(key)) continue;
      const arc = flown.get(key) ?? flown.set(key, { kind: 'arc', tail: route.tail, flight, share: 0 }).get(key)!;
      arc.share += value;
    }
  }
  return closest(flown.values());
}

function fixingKey(fixing: Fixing | NonNullable<ReturnType<typeof branchOn>>): string {
  return fixing.kind === 'cancel' ? `cancel ${fixing.column}` : `arc ${fixing.tail} ${fixing.flight.id}`;
}

function arcRowName(tail: string, flight: Flight): string {
  return `branch__${lpName(tail)}__${lpName(flight.id)}`;
}

/**
 * The node's master: its cancel columns fixed, and a row per aircraft-flight branch over the routes of
 * the aircraft through the flight (coefficient: how often the route flies it). A row that asks for the
 * flight gets an artificial column (the pool may hold no such route yet), at the cost a flight row's
 * has (master.ts, artificialFlightCost).
 */
function withFixings(master: LinearModel, model: StrategyModel, run: StrategyRun, fixings: readonly Fixing[], artificialScale: number): LinearModel {
  if (fixings.length === 0) return master;
  const at = new Map<string, 0 | 1>();
  for (const f of fixings) if (f.kind === 'cancel') at.set(f.column, f.value);
  const variables: Variable[] = master.variables.map((v) => (at.has(v.name) ? { ...v, lb: at.get(v.name)!, ub: at.get(v.name)! } : v));
  const constraints: Constraint[] = [...master.constraints];
  for (const f of fixings) {
    if (f.kind !== 'arc') continue;
    const name = arcRowName(f.tail, f.flight);
    const terms = [];
    for (const [column, route] of model.routeColumns) {
      if (route.tail !== f.tail) continue;
      const times = route.legs.filter((leg) => leg.flight.id === f.flight.id).length;
      if (times > 0) terms.push({ variable: column, coef: times });
    }
    if (f.value === 1) {
      const artificial = `artificial__${name}`;
      variables.push({ name: artificial, kind: 'continuous', lb: 0, ub: 1, cost: artificialScale * artificialFlightCost(run.config, f.flight) });
      terms.push({ variable: artificial, coef: 1 });
    }
    constraints.push({ name, terms, sense: f.value === 1 ? '>=' : '<=', rhs: f.value });
  }
  return { ...master, variables, constraints };
}

/** The pricing's duals with the node's aircraft-flight rows: a leg of the aircraft on the flight has coefficient 1 in its row. */
function withArcDuals(duals: PricingDuals, fixings: readonly Fixing[], prices: Record<string, number>): PricingDuals {
  const arcs = fixings.flatMap((f) => (f.kind === 'arc' && prices[arcRowName(f.tail, f.flight)] ? [{ tail: f.tail, flight: f.flight.id, price: prices[arcRowName(f.tail, f.flight)]! }] : []));
  if (arcs.length === 0) return duals;
  return {
    ...duals,
    leg(a, flight, depMinutes) {
      let sum = duals.leg(a, flight, depMinutes);
      for (const arc of arcs) if (arc.tail === a.aircraft.tail && arc.flight === flight.id) sum += arc.price;
      return sum;
    },
  };
}

/**
 * A node's column generation: master rounds at the LP's own prices (every aircraft priced over its
 * whole route space, journeys given columns) until none prices negative, or its Lagrangian bound
 * reaches `enough` (the node is closed then). The best witness and the last LP's values, and the
 * columns added; null when the time ran out first.
 */
async function generateAtNode(
  run: StrategyRun, fixings: readonly Fixing[], enough: number, settings: RoundSettings, until: () => number,
): Promise<NodeSolution | null> {
  const breakpoints = breakpointMemo();
  let artificialScale = 1;
  let best: BoundWitness | null = null;
  let addedInAll = 0;
  const stepMinutes = run.config.solver.time_step_minutes;
  while (performance.now() < until()) {
    const { model } = run;
    const master = withFixings(withArtificials(model.model, run.scope, run.config, artificialScale), model, run, fixings, artificialScale);
    const lp = await run.solve(master, true);
    if (lp.status !== 'optimal' || !lp.duals) return null;
    const cancelsUnseen = run.noteCancelledItineraries(lp.values);
    const duals = withArcDuals(pricingDuals(model, lp.duals, breakpoints), fixings, lp.duals);
    let leastSum = 0;
    const least = new Map<string, number>();
    let added = 0;
    for (const a of run.scope.aircraft) {
      if (performance.now() >= until()) return null;
      await run.stopIfCancelled();
      const priced = pricedLeast(run, a, duals, settings, stepMinutes);
      least.set(a.aircraft.tail, priced.least);
      leastSum += priced.least;
      for (const route of priced.routes) if (run.add(route)) added++;
    }
    // The journeys without a column are those of this model: searched before any is given one. (A
    // master that still needs an artificial bounds too: the artificials only widen the problem.)
    const journeyTerm = journeysTerm(model, run.groups.network, run.finders, lp.duals, run.journeyColumns, until());
    const journeysGiven = run.giveColumns(lp.duals, () => settings.negative, settings.journeysPerRound, 'best', until());
    if (!journeysGiven.timely) return null;
    added += journeysGiven.given;
    addedInAll += added;
    if (journeyTerm) {
      const bound = lagrangianBound(master, model.routeColumns, lp.duals, leastSum + journeyTerm.sum);
      if (!best || bound > best.bound) best = { duals, prices: lp.duals, bound, least, journeyLeast: journeyTerm.least };
      if (best.bound >= enough) return { witness: best, values: lp.values, added: addedInAll };
    }
    if (added === 0 && !cancelsUnseen) {
      if (artificialUsed(lp.values) && artificialScale < ARTIFICIAL_MAX_FACTOR) {
        artificialScale *= ARTIFICIAL_GROWTH;
        continue;
      }
      // Converged (with an artificial still used at the largest cost, the node's LP value is its cost
      // included: the node holds no plan, and its bound says so).
      if (!best) return null;
      return { witness: best, values: lp.values, added: addedInAll };
    }
    run.rebuild();
  }
  return null;
}

/** One aircraft priced at `duals`: its routes of negative reduced cost and its least, min(0, ·) (exact when negative: 3.3). */
function pricedLeast(run: StrategyRun, a: AircraftInScope, duals: BoundWitness['duals'], settings: RoundSettings, stepMinutes: number): { routes: Route[]; least: number } {
  const priced = priceRoutes(run.ev, a, run.mode, duals, { stepMinutes, threshold: settings.negative, maxRoutes: settings.routesPerRound, cache: run.pricingCache });
  return { routes: priced.routes.map((p) => p.route), least: Math.min(0, priced.leastReducedCost) };
}
