// A lower bound of every plan of every strategy that needs no column generation (docs/model.md 3.6):
// the aircraft are relaxed away. Each flight of the scope is flown at a departure of its own choosing
// between its earliest one and its delay limit, or cancelled, and the airport capacities still hold.
// On a network-wide scope far from convergence (a hub storm) the Lagrangian bound of the column
// generation is far below zero, while this one counts what the capacities and the disruptions force.
import type { Flight } from '../../domain/schedule.ts';
import type { RouteEvaluator } from '../neighbourhood/aircraft-routes.ts';
import { lpName, ModelBuilder, type LinearModel, type Term } from '../model/linear-model.ts';
import { leastCancelledPassengerCost, type PassengerGroups } from '../passengers/passengers.ts';
import { capacityRowName } from '../neighbourhood/rows/row-families.ts';

/**
 * The departures worth considering for `flight`: its earliest, and every instant from which its
 * departure or its arrival falls in another clock hour of a capacity at its airports, up to its delay
 * limit. The rows a departure counts in change only there and its cost only grows with it, so the
 * earliest departure of each stretch between them is the cheapest way to be in it.
 */
function departures(ev: RouteEvaluator, flight: Flight): number[] {
  const earliest = ev.earliestDeparture(flight);
  const latest = flight.depMinutes + ev.delayLimit(flight);
  const block = flight.arrMinutes - flight.depMinutes;
  const times = new Set([earliest]);
  for (const c of ev.scope.capacities) {
    const shift = c.kind === 'departures' ? (c.airport === flight.origin ? 0 : null) : (c.airport === flight.dest ? block : null);
    if (shift === null) continue;
    for (const t of [c.hourStartMinutes - shift, c.hourStartMinutes + 60 - shift]) if (t > earliest && t <= latest) times.add(t);
  }
  return [...times].sort((p, q) => p - q);
}

/**
 * The relaxation as an LP: per flight of the scope, `dep__<flight>__<minute>` (flown leaving then, at
 * its delay cost) or `cancel__<flight>` (its cancellation cost, plus its passengers' least cost:
 * leastCancelledPassengerCost), Σ = 1 (`flight__<flight>`); the
 * cancellation rules of the configuration; `departures__` / `arrivals__` rows per capacity and hour.
 * Every plan of every strategy is a solution of it at no more than its own cost (every other cost is
 * at least 0), so its optimum bounds them all.
 */
export function flightBoundModel(ev: RouteEvaluator, groups: PassengerGroups): LinearModel {
  const { scope, config } = ev;
  const w = config.cost_weights;
  const b = new ModelBuilder(`flight_bound__${lpName(scope.label)}`);
  const passengerCost = leastCancelledPassengerCost(groups, scope.flightIds, config);
  const capacityTerms = scope.capacities.map((): Term[] => []);
  const cancellations: Term[] = [];
  for (const f of scope.flights) {
    const name = lpName(f.id);
    const forced = scope.cancelledFlights.has(f.id);
    const mayCancel = forced || config.constraints.allow_cancellations;
    const terms: Term[] = [];
    if (mayCancel) {
      const cancel = b.addVariable(`cancel__${name}`, 'continuous', w.cancellation_per_flight + (passengerCost.get(f.id) ?? 0), forced ? 1 : 0, 1);
      terms.push({ variable: cancel, coef: 1 });
      if (!forced) cancellations.push({ variable: cancel, coef: 1 });
    }
    if (!forced) {
      const perMinute = w.delay_per_minute + w.delay_per_passenger_minute * f.bookedPassengers;
      const block = f.arrMinutes - f.depMinutes;
      for (const t of departures(ev, f)) {
        const dep = b.addVariable(`dep__${name}__${t}`, 'continuous', (t - f.depMinutes) * perMinute, 0, 1);
        terms.push({ variable: dep, coef: 1 });
        for (const [i, c] of scope.capacities.entries()) {
          const at = c.kind === 'departures' ? (c.airport === f.origin ? t : null) : (c.airport === f.dest ? t + block : null);
          if (at !== null && at >= c.hourStartMinutes && at < c.hourStartMinutes + 60) capacityTerms[i]!.push({ variable: dep, coef: 1 });
        }
      }
    }
    b.addConstraint(`flight__${name}`, terms, '=', 1);
  }
  const limit = config.constraints.max_cancellations;
  if (limit !== null && cancellations.length > 0) b.addConstraint('max_cancellations', cancellations, '<=', limit);
  for (const [i, c] of scope.capacities.entries()) b.addConstraint(capacityRowName(c, i), capacityTerms[i]!, '<=', c.max - c.fixed);
  return b.build();
}

/**
 * The flight bound's LP optimum in closed form where no capacity is cut (a single delay or
 * cancellation): the flights are then independent but for `max_cancellations`, so each flies at its
 * earliest departure or is cancelled, whichever costs less, and where the limit binds the flights with
 * the largest saving are cancelled (a fractional knapsack with unit weights: the LP's optimum). No
 * solve: above 0 from the start whenever a delay or a cancellation is forced.
 */
export function flightBoundWithoutCapacities(ev: RouteEvaluator, groups: PassengerGroups): number {
  const { scope, config } = ev;
  const w = config.cost_weights;
  const passengerCost = leastCancelledPassengerCost(groups, scope.flightIds, config);
  let total = 0;
  const savings: number[] = [];
  for (const f of scope.flights) {
    const cancel = w.cancellation_per_flight + (passengerCost.get(f.id) ?? 0);
    if (scope.cancelledFlights.has(f.id)) { total += cancel; continue; }
    const fly = ev.delayLimit(f) >= ev.earliestDeparture(f) - f.depMinutes
      ? (ev.earliestDeparture(f) - f.depMinutes) * (w.delay_per_minute + w.delay_per_passenger_minute * f.bookedPassengers)
      : Number.POSITIVE_INFINITY;
    if (!config.constraints.allow_cancellations) { total += fly; continue; }
    total += fly;
    if (cancel < fly) savings.push(fly - cancel);
  }
  const limit = config.constraints.max_cancellations ?? savings.length;
  savings.sort((p, q) => q - p);
  for (const saving of savings.slice(0, limit)) total -= saving;
  return total;
}
