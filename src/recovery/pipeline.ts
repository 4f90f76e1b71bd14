// The use case: a disruption in, ranked recovery options out. Protocol-agnostic: the HTTP layer
// validates input and serialises the result; the solver is a port (the worker pool in production).
import type { Schedule } from '../domain/schedule.ts';
import { formatUtc } from '../domain/time.ts';
import { modelSize } from './linear-model.ts';
import { buildStrategyModel, type StrategyModel } from './model.ts';
import { passengerGroups, type PassengerGroups } from './passengers.ts';
import { evaluatePlan, routeViolations, type PassengerFlow, type Plan } from './plan.ts';
import type { RecoveryOption, SimulationResult, SolverReport, UnsolvedStrategy } from './result.ts';
import { RouteFactory, type Route } from './aircraft-routes.ts';
import { selectScope, type RecoveryScope } from './scope.ts';
import type { SolverConfig, Strategy } from './solver-config.ts';
import type { SolveOutcome, SolverPort } from './solver-port.ts';

export type { SolverPort } from './solver-port.ts';

export interface SimulationRequest {
  scenarioId: string;
  disruptedFlightId: string;
  minDelayMinutes: number;
  airline: string;
  scheduleName: string;
  config: SolverConfig;
}

/** The disrupted flight is not in the schedule or not of the airline: a 404 for the caller. */
export class FlightNotFoundError extends Error {
  constructor(readonly flightId: string, readonly airline: string) {
    super(`Flight '${flightId}' not found for airline '${airline}'`);
  }
}

export interface PreparedSimulation {
  scope: RecoveryScope;
  groups: PassengerGroups;
  models: StrategyModel[];
  /** Delay-propagation routes under soft rules: the violations the disruption causes. */
  softPlannedRoutes: Route[];
  capped: boolean;
  buildMs: number;
}

/**
 * Build every strategy's model for a disruption (no solving). Separate from simulate() so that
 * benchmarks can time building and solving apart and write the models out.
 */
export function prepareSimulation(schedule: Schedule, request: SimulationRequest): PreparedSimulation {
  const started = performance.now();
  const disrupted = schedule.flightsById.get(request.disruptedFlightId);
  if (!disrupted || disrupted.airline !== request.airline) throw new FlightNotFoundError(request.disruptedFlightId, request.airline);
  const { config } = request;
  const scope = selectScope(schedule, disrupted, request.minDelayMinutes, config);
  const factory = new RouteFactory(schedule, scope, config);
  const planned = new Map<string, Route | null>();
  const own = new Map<string, Route[]>();
  const any = new Map<string, Route[]>();
  let capped = false;
  const needs = new Set(config.strategies.evaluate);
  for (const a of scope.aircraft) {
    const tail = a.aircraft.tail;
    planned.set(tail, factory.plannedRoute(a));
    if (needs.has('cancellation') || needs.has('integrated')) {
      const generated = factory.candidateRoutes(a, 'own');
      own.set(tail, generated.routes);
      capped ||= generated.capped;
    }
    if (needs.has('aircraft_swap') || needs.has('integrated')) {
      const generated = factory.candidateRoutes(a, 'any');
      any.set(tail, generated.routes);
      capped ||= generated.capped;
    }
  }
  const union = (...lists: (Route | null | undefined)[][]): Route[] => {
    const seen = new Set<string>();
    const out: Route[] = [];
    for (const list of lists) for (const r of list) if (r && !seen.has(r.key)) { seen.add(r.key); out.push(r); }
    return out;
  };
  const routesFor = (strategy: Strategy) => new Map(scope.aircraft.map((a) => {
    const tail = a.aircraft.tail;
    const p = [planned.get(tail)];
    if (strategy === 'delay_propagation') return [tail, union(p)];
    if (strategy === 'cancellation') return [tail, union(p, own.get(tail) ?? [])];
    if (strategy === 'aircraft_swap') return [tail, union(p, any.get(tail) ?? [])];
    // The integrated route set contains every other strategy's, so its optimum is never worse.
    return [tail, union(p, own.get(tail) ?? [], any.get(tail) ?? [])];
  }));
  const groups = passengerGroups(schedule, scope, config);
  const models = config.strategies.evaluate.map((strategy) => buildStrategyModel(schedule, scope, config, strategy, routesFor(strategy), groups));
  const softConfig: SolverConfig = { ...config, constraints: { ...config.constraints, crew_duty: 'soft', maintenance: 'soft', max_delay_minutes: 2880, max_swaps: 1000 } };
  const softFactory = new RouteFactory(schedule, scope, softConfig, false);
  const softPlannedRoutes = scope.aircraft.map((a) => softFactory.plannedRoute(a)).filter((r): r is Route => r !== null);
  return { scope, groups, models, softPlannedRoutes, capped, buildMs: performance.now() - started };
}

/** Read a solver's variable values back into a plan. */
export function readPlan(model: StrategyModel, values: Record<string, number>): Plan {
  const routes: Route[] = [];
  for (const [column, route] of model.routeColumns) if ((values[column] ?? 0) > 0.5) routes.push(route);
  const flows: PassengerFlow[] = [];
  for (const [column, { group, target }] of model.rebookColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, target, passengers });
  }
  for (const [column, group] of model.strandedColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, target: null, passengers });
  }
  return { routes, flows };
}

function solverReport(model: StrategyModel, outcome: SolveOutcome, note: string | null): SolverReport {
  const size = modelSize(model.model);
  let gap: number | null = null;
  if (outcome.status === 'optimal') gap = 0;
  else if (outcome.objective !== null && outcome.lowerBound !== null) {
    gap = Math.max(0, (outcome.objective - outcome.lowerBound) / Math.max(1, Math.abs(outcome.objective)));
  }
  return {
    status: outcome.status, objective: outcome.objective, mip_gap: gap, solve_ms: Math.round(outcome.solveMs * 10) / 10,
    rows: size.rows, columns: size.columns, nonzeros: size.nonzeros, integers: size.integers,
    candidate_routes: model.candidateRoutes, note,
  };
}

/**
 * Run a simulation: every configured strategy solved in parallel on the solver port, options
 * ranked by cost (ties: the order of strategies.evaluate). Throws FlightNotFoundError for an
 * unknown flight; solver outcomes (infeasible, time limit) are values in the result.
 */
export async function simulate(schedule: Schedule, request: SimulationRequest, solver: SolverPort): Promise<SimulationResult> {
  const started = performance.now();
  const prepared = prepareSimulation(schedule, request);
  const { scope, models } = prepared;
  const { config } = request;
  const solveStarted = performance.now();
  const outcomes = await Promise.all(models.map((m) => solver.solve({
    model: m.model, timeLimitMs: config.solver.time_limit_ms, mipGap: config.solver.mip_gap,
  })));
  const solveMs = performance.now() - solveStarted;

  const options: RecoveryOption[] = [];
  const unsolved: UnsolvedStrategy[] = [];
  models.forEach((model, i) => {
    const outcome = outcomes[i]!;
    if (outcome.objective === null) {
      unsolved.push({ strategy: model.strategy, status: outcome.status, detail: outcome.detail ?? 'No plan was found.' });
      return;
    }
    const plan = readPlan(model, outcome.values);
    options.push(evaluatePlan(schedule, scope, config, model.strategy, plan, solverReport(model, outcome, null)));
  });

  // Every restricted strategy's plan is also a plan of the integrated strategy. If the integrated
  // solve stopped early with something worse (or nothing), the best restricted plan stands in.
  const integratedIndex = models.findIndex((m) => m.strategy === 'integrated');
  if (integratedIndex >= 0) {
    const integrated = options.find((o) => o.strategy === 'integrated');
    const best = options.filter((o) => o.strategy !== 'integrated').sort((p, q) => p.summary.cost - q.summary.cost)[0];
    if (best && (!integrated || best.summary.cost < integrated.summary.cost - 1e-6)) {
      const model = models[integratedIndex]!;
      const outcome = outcomes[integratedIndex]!;
      const replacement: RecoveryOption = {
        ...structuredClone(best), option_id: 'opt_integrated', strategy: 'integrated',
        solver: solverReport(model, outcome, `The integrated solve ended with status ${outcome.status}; the ${best.strategy} plan, also feasible for all actions, is better and is used.`),
      };
      if (integrated) options.splice(options.indexOf(integrated), 1, replacement);
      else {
        options.push(replacement);
        unsolved.splice(unsolved.findIndex((u) => u.strategy === 'integrated'), 1);
      }
    }
  }

  const order = config.strategies.evaluate;
  options.sort((p, q) => p.summary.cost - q.summary.cost || order.indexOf(p.strategy) - order.indexOf(q.strategy));
  options.forEach((o, i) => { o.rank = i + 1; });

  return {
    scenario_id: request.scenarioId,
    disrupted_flight: scope.disrupted.id,
    airline: scope.airline,
    schedule_file: request.scheduleName,
    disruption: {
      min_delay_minutes: request.minDelayMinutes,
      disruption_time: formatUtc(scope.disruptionMinutes),
      window_end: scope.windowEndMinutes === null ? null : formatUtc(scope.windowEndMinutes),
    },
    scope: {
      aircraft: scope.aircraft.map((a) => a.aircraft.tail),
      flights: scope.flights.length,
      itineraries: prepared.groups.misconnections.length,
    },
    options,
    best_option_id: options[0]?.option_id ?? null,
    violations: routeViolations(schedule, prepared.softPlannedRoutes),
    unsolved_strategies: unsolved,
    timings_ms: {
      total: Math.round(performance.now() - started),
      build: Math.round(prepared.buildMs),
      solve: Math.round(solveMs),
    },
  };
}
