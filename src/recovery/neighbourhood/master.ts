// The restricted master of the column generation (docs/model.md 3.2): the strategy's model over the
// routes priced so far, with artificial columns that keep its LP feasible while few routes are known.
import type { Flight } from '../../domain/schedule.ts';
import { lpName, type LinearModel } from '../model/linear-model.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';

/**
 * Artificial columns (a flight nobody flies or cancels, an aircraft without a route) keep the master
 * LP feasible while few routes are known. Their cost starts at about what cancelling the flight would
 * cost (the aircraft rows at a day's worth of such), so that the duals stay of the size of real costs
 * (huge duals make the pricing return routes of huge negative reduced cost and a useless bound), and
 * is multiplied while the converged LP still uses one. Any cost gives a valid lower bound: the
 * artificials only widen the problem.
 */
export const ARTIFICIAL_GROWTH = 10;
export const ARTIFICIAL_MAX_FACTOR = 1e6;

/**
 * The starting cost of an artificial column that stands in for `flight` (its row, or a branch's arc
 * row): its cancellation with EU261's largest amount per booked passenger, at least once. A scale for
 * the duals read from the weights, not a price of the cost model.
 */
export function artificialFlightCost(config: SolverConfig, flight: Flight): number {
  const w = config.cost_weights;
  return w.cancellation_per_flight + flight.bookedPassengers * 600 * Math.max(1, w.compensation_multiplier);
}

/** The model with an artificial column in every aircraft and flight row, at `scale` × its starting cost. */
export function withArtificials(model: LinearModel, scope: RecoveryScope, config: SolverConfig, scale: number): LinearModel {
  const w = config.cost_weights;
  const flightCost = new Map(scope.flights.map((f) => [`flight__${lpName(f.id)}`, artificialFlightCost(config, f)]));
  const aircraftCost = [...flightCost.values()].reduce((sum, c) => sum + c, 0) / Math.max(1, scope.aircraft.length) + w.aircraft_out_of_position + w.maintenance_violation;
  const variables = [...model.variables];
  const constraints = model.constraints.map((c) => {
    const base = c.name.startsWith('aircraft__') ? aircraftCost : flightCost.get(c.name);
    if (base === undefined) return c;
    const name = `artificial__${c.name}`;
    variables.push({ name, kind: 'continuous', lb: 0, ub: 1, cost: base * scale });
    return { ...c, terms: [...c.terms, { variable: name, coef: 1 }] };
  });
  return { ...model, variables, constraints };
}

/** Whether the master's LP solution `values` still uses an artificial column (it then proves nothing). */
export function artificialUsed(values: Record<string, number>): boolean {
  return Object.entries(values).some(([name, value]) => name.startsWith('artificial__') && value > 1e-6);
}
