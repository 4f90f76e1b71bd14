// Where a simulation runs: the port the HTTP layer (and later the job runner) talks to. Two
// implementations of one contract:
//   - in process (createInProcessRunner): admission, then the use case on a solver; what tests use,
//     and what the simulation thread runs inside itself;
//   - on the simulation thread (simulation-thread.ts): the same on a thread of its own, so that model
//     building and the cloning of models to the solver workers never hold up the HTTP event loop.
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { Budget } from '../recovery/model/budget.ts';
import { simulate, type SimulationProgress, type SimulationRequest, type SolveElsewhere } from '../recovery/pipeline.ts';
import type { SimulationResult } from '../recovery/model/result.ts';
import type { Solver, SolverStats } from '../recovery/model/solver-port.ts';
import { admitSimulation } from './admission.ts';
import { createScheduleSource } from './schedule-source.ts';

export interface SimulationRunner {
  /**
   * Runs `request` (its scheduleName a canonical name of the catalog; with a revision, on that
   * revision of an operational day: schedule-source.ts; its references checked where it entered:
   * recovery/pipeline.ts, checkReferences). Rejects only with RecoveryError: busy, crashed, aborted
   * (by the budget's signal) or deadline.
   * `budget` is the simulation's one time budget and cancellation signal, started by the caller when
   * the request arrived (its time limit is the request's solver.time_limit_ms). `onProgress` hears the
   * simulation's progress (SimulationProgress) as it goes.
   */
  run(request: SimulationRequest, budget: Budget, onProgress?: (progress: SimulationProgress) => void): Promise<SimulationResult>;
  /** The solver's levels and counters, when it has them. */
  stats?(): SolverStats | Promise<SolverStats>;
}

/** `elsewhere`: where a single delay's restricted strategies may be solved meanwhile (the restricted thread). */
export function createInProcessRunner(schedules: ScheduleCatalog, solver: Solver, elsewhere?: SolveElsewhere): SimulationRunner {
  const source = createScheduleSource(schedules);
  return {
    async run(request, budget, onProgress) {
      const schedule = source.scheduleFor(request);
      admitSimulation(solver, request);
      return simulate(schedule, request, solver, budget, onProgress, elsewhere);
    },
    ...(solver.stats ? { stats: () => solver.stats!() } : {}),
  };
}
