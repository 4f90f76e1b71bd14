// Admission: a simulation is taken only when the solver can take its solves (one per strategy, and
// the flight bound's LP that a network-wide scope's bound starts from: networkBoundWanted) right now, so that a refusal costs
// nothing when the service is busiest: no model is built for it.
import { RecoveryError } from '../recovery/model/failure.ts';
import { networkBoundWanted, type SimulationRequest } from '../recovery/pipeline.ts';
import type { Solver } from '../recovery/model/solver-port.ts';

/**
 * Throws RecoveryError 'busy' when the solver's queue cannot take the simulation's solves. The solver
 * still refuses solves that find the queue full later (it filled while the models were built).
 */
export function admitSimulation(solver: Solver, request: SimulationRequest): void {
  const stats = solver.stats?.();
  if (!stats) return;
  const solves = request.config.strategies.evaluate.length + (networkBoundWanted(request.disruptions) ? 1 : 0);
  const mustWait = Math.max(0, solves - Math.max(0, stats.workersReady - stats.running));
  if (stats.queued + mustWait > stats.maxQueue) throw new RecoveryError({ kind: 'busy', message: 'All solver workers are busy and the queue is full.' });
}
