// What both composition roots (main.ts: the API; worker.ts: a job worker) do the same way at start:
// read the configuration and the schedules, start the simulation thread. A problem ends the process
// with one sentence on stderr and exit code 1.
import { ConfigError, loadConfig, type Config, type LoadedConfig } from './config.ts';
import { CatalogError, loadScheduleCatalog, type ScheduleCatalog } from './formats/schedule-json/schedule-catalog.ts';
import type { Logger } from './http/logging.ts';
import { startSimulationThread, type SimulationThread } from './runtime/simulation-thread.ts';
import { warmUpRequests } from './runtime/warm-up.ts';

export function fail(message: string): never {
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

export function loadConfigOrFail(): LoadedConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

export function loadSchedulesOrFail(config: Config): ScheduleCatalog {
  let schedules;
  try {
    schedules = loadScheduleCatalog(config.schedulesDir, config.defaultSchedule);
  } catch (error) {
    if (error instanceof CatalogError) fail(error.message);
    throw error;
  }
  if (!schedules.resolve(schedules.defaultName)!.schedule.flightsByAirline.get(config.defaultAirline)?.length) {
    fail(`DEFAULT_AIRLINE '${config.defaultAirline}' has no flights in the default schedule '${schedules.defaultName}'.`);
  }
  return schedules;
}

/**
 * Simulations are built and solved off the main thread; every solver worker loads and warms GLPK,
 * and the thread runs two simulations of the default schedule (warm-up.ts), before the first
 * simulation can reach it.
 */
/**
 * `servesSimulate`: whether the thread answers POST /simulate (the API's), whose single delays get the
 * restricted thread when SIMULATION_RESTRICTED_THREAD is on; a job worker's runs only jobs, which never
 * use it (runtime/simulation-thread-restricted.ts).
 */
export async function startSimulationThreadOrFail(config: Config, schedules: ScheduleCatalog, logger: Logger, servesSimulate: boolean): Promise<SimulationThread> {
  try {
    return await startSimulationThread({
      schedules, restrictedThread: servesSimulate && config.restrictedThread,
      warmUp: warmUpRequests(schedules.resolve(schedules.defaultName)!.schedule, schedules.defaultName, config.defaultAirline),
      pool: {
        ...(config.solverThreads !== undefined ? { threads: config.solverThreads } : {}),
        ...(config.solverQueue !== undefined ? { maxQueue: config.solverQueue } : {}),
        queueTimeoutMs: config.solverQueueTimeoutMs,
        hardStopGraceMs: config.solverHardStopGraceMs,
      },
      onError: (error) => logger.error({ err: error }, 'simulation thread'),
      // The longest legitimate simulation: the queue wait, then at most four strategies one after the
      // other at its time limit plus the hard-stop grace; 10 s more for model building. A job's time
      // limit may be minutes (JOB_MAX_TIME_LIMIT_MS), /simulate's seconds.
      deadlineMs: (request) => config.solverQueueTimeoutMs + 4 * (request.config.solver.time_limit_ms + config.solverHardStopGraceMs) + 10_000,
    });
  } catch (error) {
    fail(`the simulation thread did not start: ${(error as Error).message}`);
  }
}
