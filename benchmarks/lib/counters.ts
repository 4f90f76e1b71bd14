// Machine-independent figures of every benchmark solve: model size, candidate routes, GLPK's work
// (simplex iterations, branch-and-bound subproblems), the objective, and the facts the scenario
// tags promise. The same scenario gives the same report on any machine: solves run on this thread
// with a time limit far above their duration, so the machine's speed cannot change an outcome.
import type { Schedule } from '../../src/domain/schedule.ts';
import { modelSize, type LinearModel } from '../../src/recovery/linear-model.ts';
import type { SolveStatus } from '../../src/recovery/result.ts';
import { prepareSimulation, rankOptions, readOptions, solveModels } from '../../src/recovery/pipeline.ts';
import type { SolverConfig, Strategy } from '../../src/recovery/solver-config.ts';
import type { Solver } from '../../src/recovery/solver-port.ts';
import { solveCounting } from './glpk-main-thread.ts';
import { simulationRequest, staticFacts, type Scenario, type ScenarioFacts, type Tag } from './scenarios.ts';

/** Time limit of the counting solves: GLPK's maximum here, far above any benchmark solve. */
export const COUNTER_TIME_LIMIT_MS = 120_000;

export interface StrategyCounters {
  status: SolveStatus;
  objective: number | null;
  rows: number;
  columns: number;
  nonzeros: number;
  integers: number;
  candidate_routes: number;
  simplex_iterations: number | null;
  bb_nodes: number | null;
}

export interface ScenarioCounters {
  schedule: string;
  disrupted_flight: string;
  min_delay_minutes: number;
  tags: Tag[];
  facts: ScenarioFacts;
  scope: { aircraft: number; flights: number; itineraries: number };
  best_strategy: Strategy | null;
  strategies: Partial<Record<Strategy, StrategyCounters>>;
}

export interface CounterReport {
  scenarios: Record<string, ScenarioCounters>;
}

/** A change applied to every model before it is solved; used to plant regressions in tests. */
export type ModelTransform = (model: LinearModel) => LinearModel;

export interface CounterOptions {
  transform?: ModelTransform;
  onScenario?: (scenario: Scenario, index: number, total: number) => void;
}

export function counterConfig(scenario: Scenario): SolverConfig {
  return { ...scenario.solverConfig, solver: { ...scenario.solverConfig.solver, time_limit_ms: COUNTER_TIME_LIMIT_MS } };
}

export async function measureScenarioCounters(schedule: Schedule, scenario: Scenario, transform?: ModelTransform): Promise<ScenarioCounters> {
  const request = simulationRequest(scenario, counterConfig(scenario));
  const prepared = prepareSimulation(schedule, request);
  const strategyOf = new Map(prepared.models.map((m) => [m.model.name, m]));
  const strategies: Partial<Record<Strategy, StrategyCounters>> = {};
  const port: Solver = {
    solve: async (task) => {
      const model = transform ? transform(task.model) : task.model;
      const { outcome, work } = await solveCounting({ ...task, model });
      const strategyModel = strategyOf.get(task.model.name);
      if (!strategyModel) throw new Error(`${scenario.key}: model ${task.model.name} is not one prepareSimulation built`);
      strategies[strategyModel.strategy] = {
        status: outcome.status,
        objective: outcome.objective,
        ...modelSize(model),
        candidate_routes: strategyModel.candidateRoutes,
        simplex_iterations: work.simplexIterations,
        bb_nodes: work.bbNodes,
      };
      return outcome;
    },
  };
  const outcomes = await solveModels(prepared, request.config, port);
  const options = rankOptions(readOptions(schedule, prepared, request.config, outcomes).options, request.config);
  const integrated = options.find((o) => o.strategy === 'integrated');
  const count = (type: 'crew_duty' | 'maintenance') => prepared.violations.filter((v) => v.type === type).length;
  const ordered: Partial<Record<Strategy, StrategyCounters>> = {};
  for (const m of prepared.models) if (strategies[m.strategy]) ordered[m.strategy] = strategies[m.strategy];
  return {
    schedule: scenario.schedule,
    disrupted_flight: scenario.disrupted_flight,
    min_delay_minutes: scenario.min_delay_minutes,
    tags: scenario.tags,
    facts: {
      ...staticFacts(schedule, scenario),
      violations: { crew_duty: count('crew_duty'), maintenance: count('maintenance') },
      integrated: integrated ? {
        delayed: integrated.delays.length,
        swapped: integrated.swaps.length,
        cancelled: integrated.cancellations.length,
      } : null,
    },
    scope: { aircraft: prepared.scope.aircraft.length, flights: prepared.scope.flights.length, itineraries: prepared.groups.misconnections.length },
    best_strategy: options[0]?.strategy ?? null,
    strategies: ordered,
  };
}

export async function measureCounters(
  schedules: ReadonlyMap<string, Schedule>, scenarios: readonly Scenario[], options: CounterOptions = {},
): Promise<CounterReport> {
  const report: CounterReport = { scenarios: {} };
  for (const [i, scenario] of scenarios.entries()) {
    options.onScenario?.(scenario, i, scenarios.length);
    const schedule = schedules.get(scenario.schedule);
    if (!schedule) throw new Error(`schedule ${scenario.schedule} of scenario ${scenario.key} is not loaded`);
    report.scenarios[scenario.key] = await measureScenarioCounters(schedule, scenario, options.transform);
  }
  return report;
}
