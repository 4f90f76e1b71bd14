// The storm of issue 23 on the default schedule, prepared as the pipeline prepares a request, and a
// plan of it read and presented as the service answers it, then judged by the independent checker
// (test/oracle/checker.ts, which shares no code with the engine): for the network engine's tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';
import type { SimulationResult } from '../../src/recovery/model/result.ts';
import { resolveSolverConfig, type SolverConfig } from '../../src/recovery/model/solver-config.ts';
import type { StrategySolve } from '../../src/recovery/neighbourhood/column-generation.ts';
import { prepareSimulation, readOptions, type PreparedSimulation, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import { ISSUE_23_STORM } from '../../benchmarks/storm.ts';
import { schedulePath } from '../../benchmarks/lib/schedules.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { ISSUE_23_STORM_REQUEST } from './storms.ts';

export const defaultSchedule = loadScheduleFile(schedulePath('default'));
const file = JSON.parse(readFileSync(fileURLToPath(new URL('../../schedules/default.json', import.meta.url)), 'utf8')) as ScheduleFile;

export function solverConfigOf(partial: unknown): SolverConfig {
  const resolved = resolveSolverConfig(partial);
  if (!resolved.valid) throw new Error('invalid configuration');
  return resolved.config;
}

export interface PreparedStorm { config: SolverConfig; request: SimulationRequest; prepared: PreparedSimulation }

/** The storm of issue 23 as a request of the default schedule, with the configuration `partial` resolves to. */
export function prepareIssueStorm(scenarioId: string, partial: unknown = {}): PreparedStorm {
  const config = solverConfigOf(partial);
  const request: SimulationRequest = { scenarioId, airline: 'NV', scheduleName: 'default', config, disruptions: ISSUE_23_STORM, disruptedFlightId: null };
  return { config, request, prepared: prepareSimulation(defaultSchedule, request) };
}

/** `plan` read back and presented alone, as the service answers an option; its cost is the plan's objective. */
export function answeredOption({ config, request, prepared }: PreparedStorm, plan: StrategySolve): RecoveryOptionView {
  const { scope, groups } = prepared;
  const { options } = readOptions(defaultSchedule, prepared, config, [plan]);
  expect(options).toHaveLength(1);
  expect(options[0]!.kpis.cost).toBeCloseTo(plan.outcome.objective!, 2);
  const result: SimulationResult = {
    scenarioId: request.scenarioId, airline: 'NV', scheduleName: 'default', disruptedFlightId: null, disruptions: scope.disruptions,
    disruptionMinutes: scope.disruptionMinutes, windowEndMinutes: scope.windowEndMinutes,
    scope: { tails: scope.aircraft.map((a) => a.aircraft.tail), flights: scope.flights.length, itineraries: groups.misconnections.length },
    options, violations: prepared.violations, unsolved: [], timingsMs: { total: 0, build: 0, solve: 0 },
  };
  return presentSimulation(defaultSchedule, result).options[0]!;
}

/**
 * The checker's problems with an answered option of the storm, judged from the schedule file and the
 * disruptions alone, but one: the search's plans (but its exact stage's) re-accommodate their passengers
 * over direct flights, so a cheaper re-accommodation over several flights may exist.
 */
export function stormProblems(option: RecoveryOptionView, partialConfig: unknown = {}): string[] {
  return checkOption({ schedule: file, disruptions: ISSUE_23_STORM_REQUEST, airline: 'NV', config: oracleConfig(partialConfig as never), option })
    .filter((p) => !/^The re-accommodation costs .* but the cheapest one for these aircraft decisions costs/.test(p));
}
