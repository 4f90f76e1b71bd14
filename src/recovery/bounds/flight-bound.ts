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
  const { scope, config, cost } = ev;
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
      const cancel = b.addVariable(`cancel__${name}`, 'continuous', cost.cancellationPerLeg() + (passengerCost.get(f.id) ?? 0), forced ? 1 : 0, 1);
      terms.push({ variable: cancel, coef: 1 });
      if (!forced) cancellations.push({ variable: cancel, coef: 1 });
    }
    if (!forced) {
      const perMinute = cost.legDelayPerMinute(f.bookedPassengers);
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
  const { scope, config, cost } = ev;
  const passengerCost = leastCancelledPassengerCost(groups, scope.flightIds, config);
  let total = 0;
  const savings: number[] = [];
  for (const f of scope.flights) {
    const cancel = cost.cancellationPerLeg() + (passengerCost.get(f.id) ?? 0);
    if (scope.cancelledFlights.has(f.id)) { total += cancel; continue; }
    const fly = ev.delayLimit(f) >= ev.earliestDeparture(f) - f.depMinutes
      ? (ev.earliestDeparture(f) - f.depMinutes) * cost.legDelayPerMinute(f.bookedPassengers)
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

/**
 * The flight bound in closed form with the capacities and the aircraft out of service counted too
 * (docs/model.md 3.9): the largest of flightBoundWithoutCapacities, what the capacities force and
 * what the time out of service forces, both without `max_cancellations`. Out of service: a flight
 * whose planned aircraft is out at its earliest departure is flown by it once back, by another
 * aircraft (a swap), or cancelled, whichever costs least. Capacities: each flight
 * costs at least its cheaper way to fly or not (at its earliest departure, or cancelled); a flight
 * whose earliest departure (or arrival) falls in a capped hour either stays in it, at least that
 * departure's cost, or leaves it, at least the cheaper of its cancellation and a departure whose
 * movement is past the hour's end. Of the flights whose earliest movement falls in an hour, all but
 * the hour's free slots leave it (flights arriving from earlier hours only take more slots). A flight
 * is charged in the first capped hour it falls in only (in another it may leave for nothing), so the
 * rows add up. No solve: above 0 from the start where a capacity cut or an aircraft out of service
 * is all there is.
 */
export function flightBoundInClosedForm(ev: RouteEvaluator, groups: PassengerGroups): number {
  const { scope, config, cost } = ev;
  // An itinerary's passengers charged a share per leg, as in the LP (docs/model.md 3.3): charged in
  // full on every leg, two cancelled legs of one itinerary would count them twice.
  const passengerCost = leastCancelledPassengerCost(groups, scope.flightIds, config);
  let total = 0;
  /** Per capacity row, for the flights charged there: what staying in its hour and leaving it add to their least cost. */
  const rows = scope.capacities.map(() => ({ stay: [] as number[], leave: [] as number[] }));
  /** The same flights' least costs with their planned aircraft's time out of service counted (and neither the capacities nor the limit). */
  let outOfService = 0;
  const periods = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a.unavailable]));
  for (const f of scope.flights) {
    const cancel = cost.cancellationPerLeg() + (passengerCost.get(f.id) ?? 0);
    if (scope.cancelledFlights.has(f.id)) { total += cancel; outOfService += cancel; continue; }
    const mayCancel = config.constraints.allow_cancellations ? cancel : Number.POSITIVE_INFINITY;
    const earliest = ev.earliestDeparture(f);
    const latest = f.depMinutes + ev.delayLimit(f);
    const perMinute = cost.legDelayPerMinute(f.bookedPassengers);
    const fly = latest >= earliest ? (earliest - f.depMinutes) * perMinute : Number.POSITIVE_INFINITY;
    const least = Math.min(fly, mayCancel);
    total += least;
    const block = f.arrMinutes - f.depMinutes;
    // Its planned aircraft flies it once back in service (its first departure from the earliest on
    // that overlaps none of its periods), another aircraft at least at the swap's cost.
    const planned = plannedAircraftDeparture(earliest, block, periods.get(f.tail) ?? []);
    outOfService += Math.min(planned <= latest ? (planned - f.depMinutes) * perMinute : Number.POSITIVE_INFINITY, fly + cost.swapPerLeg(), mayCancel);
    // A flight that cannot fly takes no slot.
    if (!Number.isFinite(fly)) continue;
    let charged = false;
    for (const [i, c] of scope.capacities.entries()) {
      const shift = c.kind === 'departures' ? (c.airport === f.origin ? 0 : null) : (c.airport === f.dest ? block : null);
      if (shift === null || earliest + shift < c.hourStartMinutes || earliest + shift >= c.hourStartMinutes + 60) continue;
      if (charged) continue;
      charged = true;
      const row = rows[i]!;
      const out = c.hourStartMinutes + 60 - shift;
      row.stay.push(fly - least);
      row.leave.push(Math.min(mayCancel, out <= latest ? (out - f.depMinutes) * perMinute : Number.POSITIVE_INFINITY) - least);
    }
  }
  for (const [i, c] of scope.capacities.entries()) {
    const { stay, leave } = rows[i]!;
    // The flights charged elsewhere may be the ones that leave: those charged here leave the rest.
    const mustLeave = Math.min(stay.length, Math.max(0, stay.length - Math.max(0, c.max - c.fixed)));
    // Each stays at `stay` or leaves at `leave`: all leave whose leaving costs less, and the cheapest
    // others until `mustLeave` have (where fewer can leave, no plan keeps the hour: the rest is not counted).
    const change = stay.map((s, j) => leave[j]! - s).sort((p, q) => p - q);
    let extra = stay.reduce((sum, s) => sum + s, 0);
    change.forEach((d, j) => { if (Number.isFinite(d) && (d < 0 || j < mustLeave)) extra += d; });
    total += extra;
  }
  return Math.max(total, outOfService, flightBoundWithoutCapacities(ev, groups));
}

/** The first departure from `earliest` on at which a flight of `block` minutes overlaps none of `periods` ([from, to)). */
function plannedAircraftDeparture(earliest: number, block: number, periods: readonly { fromMinutes: number; toMinutes: number }[]): number {
  let t = earliest;
  for (let moved = true; moved;) {
    moved = false;
    for (const p of periods) if (t < p.toMinutes && t + block > p.fromMinutes) { t = p.toMinutes; moved = true; }
  }
  return t;
}
