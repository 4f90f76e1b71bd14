// The ROADEF bounds (bounds/roadef-bound.ts) for an instance and its solutions, as `npm run roadef --
// solve` and the benchmark part report them: the instance imported into the engine's problem
// (RoadefTranslation), priced by its own objective (RoadefCostModel), and for each solution the
// bound of the problem it belongs to.
import type { RoadefInstance } from '../formats/roadef-2009/instance.ts';
import type { RoadefSolution } from '../formats/roadef-2009/solution.ts';
import { roadefLowerBounds, type RoadefBounds } from './bounds/roadef-bound.ts';
import { keepsFlights } from './network/forced-cancellations.ts';
import { RoadefCostModel } from './model/cost-model.ts';
import { RoadefTranslation } from './roadef-adapter.ts';

export interface InstanceBounds {
  bounds: RoadefBounds;
  /** CPU milliseconds the bounds took (process.cpuUsage: single-threaded code). */
  cpuMs: number;
  /**
   * The bound that holds for `solution`: the keeps-flights one when it cancels no planned leg outside
   * the disruptions' cancellations and `mayCancel`, else the official one (which holds for every plan).
   */
  boundOf(solution: RoadefSolution): { bound: number; problem: 'keeps-flights' | 'official' };
}

export function roadefInstanceBounds(instance: RoadefInstance): InstanceBounds {
  const started = process.cpuUsage();
  const translation = new RoadefTranslation(instance);
  const bounds = roadefLowerBounds(translation.problem, new RoadefCostModel(instance.config));
  const used = process.cpuUsage(started);
  return {
    bounds,
    cpuMs: (used.user + used.system) / 1000,
    boundOf(solution) {
      const keeps = keepsFlights(translation.problem, translation.toPlan(solution), bounds.mayCancel);
      return keeps ? { bound: bounds.keepsFlights, problem: 'keeps-flights' } : { bound: bounds.official, problem: 'official' };
    },
  };
}

/** The gap of a cost to a bound, as the tables print it: (cost − bound) / max(1, |cost|). */
export function boundGap(cost: number, bound: number): number {
  return (cost - bound) / Math.max(1, Math.abs(cost));
}
