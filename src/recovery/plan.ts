// A plan (one route per aircraft in scope, plus passenger re-accommodation) turned into a recovery
// option: action set, costs, KPIs and the violations that remain (docs/model.md 1.4-1.7).
import type { Flight, Schedule } from '../domain/schedule.ts';
import { formatLocal } from '../domain/time.ts';
import { reaccommodationCost, type PassengerGroup } from './passengers.ts';
import type { CostBreakdown, ReaccommodationAction, RecoveryOption, SolverReport, Violation } from './result.ts';
import type { Route } from './aircraft-routes.ts';
import type { RecoveryScope } from './scope.ts';
import type { SolverConfig, Strategy } from './solver-config.ts';

export interface PassengerFlow { group: PassengerGroup; target: Flight | null; passengers: number }

export interface Plan { routes: Route[]; flows: PassengerFlow[] }

const ON_TIME_MINUTES = 15;

/** Code-point order: unlike localeCompare, the same on every machine and locale. */
const byText = (p: string, q: string) => (p < q ? -1 : p > q ? 1 : 0);
const DELAY_DISUTILITY_FULL_MINUTES = 180;
const REACCOMMODATION_DISUTILITY_FULL_MINUTES = 360;

function round(value: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Maintenance and crew-duty violations of a set of routes, in a stable order. */
export function routeViolations(schedule: Schedule, routes: Route[]): Violation[] {
  const violations: Violation[] = [];
  for (const route of routes) {
    for (const missed of route.missedChecks) {
      const station = schedule.airports.get(missed.check.station)!;
      const limit = formatLocal(missed.check.startMinutes, station.timeZone);
      const excess = missed.arrivalAtStation === null ? null : missed.arrivalAtStation - missed.check.startMinutes;
      violations.push({
        type: 'maintenance', flight: missed.lastFlightBefore?.id ?? null, tail: route.tail, limit,
        actual: missed.arrivalAtStation === null ? null : formatLocal(missed.arrivalAtStation, station.timeZone),
        excess_minutes: excess !== null && excess > 0 ? excess : null,
        detail: missed.arrivalAtStation !== null && missed.arrivalAtStation > missed.check.startMinutes
          ? `${route.tail} reaches ${station.code} ${excess} minutes after its ${missed.check.type} there was due to start (${limit}).`
          : `${route.tail} is not at ${station.code} for its ${missed.check.type} due to start at ${limit}.`,
      });
    }
    for (const breach of route.crewBreaches) {
      const tz = schedule.airports.get(breach.flight.dest)!.timeZone;
      const duty = schedule.crewById.get(breach.crewId)!;
      const excess = breach.arrMinutes - breach.limitMinutes;
      violations.push({
        type: 'crew_duty', flight: breach.flight.id, crew_id: breach.crewId,
        limit: formatLocal(breach.limitMinutes, tz), actual: formatLocal(breach.arrMinutes, tz), excess_minutes: excess,
        detail: `Crew ${breach.crewId} (${duty.role}) would end its flight-duty period on ${breach.flight.id} ${excess} minutes beyond its ${duty.maxDutyMinutes}-minute maximum.`,
      });
    }
  }
  return violations.sort((p, q) => byText(p.flight ?? '', q.flight ?? '') || byText(p.type, q.type)
    || byText(p.crew_id ?? p.tail ?? '', q.crew_id ?? q.tail ?? ''));
}

interface AirlineTotals { flights: number; passengers: number }
const totalsCache = new WeakMap<Schedule, Map<string, AirlineTotals>>();

function airlineTotals(schedule: Schedule, airline: string): AirlineTotals {
  let byAirline = totalsCache.get(schedule);
  if (!byAirline) totalsCache.set(schedule, (byAirline = new Map()));
  let totals = byAirline.get(airline);
  if (!totals) {
    const flights = schedule.flightsByAirline.get(airline) ?? [];
    totals = { flights: flights.length, passengers: flights.reduce((sum, f) => sum + f.bookedPassengers, 0) };
    byAirline.set(airline, totals);
  }
  return totals;
}

/** Evaluate a plan into an option (rank and option_id are set by the caller's ranking). */
export function evaluatePlan(
  schedule: Schedule, scope: RecoveryScope, config: SolverConfig, strategy: Strategy, plan: Plan, solver: SolverReport,
): RecoveryOption {
  const w = config.cost_weights;
  const flown = new Map<string, { route: Route; leg: Route['legs'][number] }>();
  for (const route of plan.routes) for (const leg of route.legs) flown.set(leg.flight.id, { route, leg });
  const cancelled = scope.flights.filter((f) => !flown.has(f.id));

  const delays = [];
  const swaps = [];
  let onTimeLost = 0;
  let disutility = 0;
  let spilled = 0;
  for (const f of scope.flights) {
    const entry = flown.get(f.id);
    if (!entry) continue;
    const { route, leg } = entry;
    const seats = schedule.aircraft.get(route.tail)!.seats;
    spilled += Math.max(0, f.bookedPassengers - seats);
    if (leg.delayMinutes > 0) {
      delays.push({
        flight: f.id, tail: route.tail, delay_minutes: leg.delayMinutes,
        new_dep: formatLocal(leg.depMinutes, schedule.airports.get(f.origin)!.timeZone),
        new_arr: formatLocal(leg.arrMinutes, schedule.airports.get(f.dest)!.timeZone),
      });
      disutility += Math.min(f.bookedPassengers, seats) * Math.min(1, leg.delayMinutes / DELAY_DISUTILITY_FULL_MINUTES);
    }
    if (leg.delayMinutes > ON_TIME_MINUTES) onTimeLost++;
    if (route.tail !== f.tail) swaps.push({ flight: f.id, from_tail: f.tail, to_tail: route.tail });
  }
  disutility += spilled;

  const reaccommodations: ReaccommodationAction[] = [];
  let reaccommodationCostUnits = 0;
  let compensationCostUnits = 0;
  let reaccommodated = 0;
  let notReaccommodated = 0;
  let disruptedInGroups = 0;
  for (const flow of plan.flows) {
    if (flow.passengers <= 0) continue;
    const g = flow.group;
    disruptedInGroups += flow.passengers;
    const from = g.kind === 'cancellation' ? g.flight.id : g.second.id;
    if (flow.target) {
      reaccommodated += flow.passengers;
      reaccommodationCostUnits += flow.passengers * reaccommodationCost(config, g, flow.target);
      // Satisfaction follows the new flight's actual arrival (its own delay included); cost uses the scheduled one.
      const newArrival = flown.get(flow.target.id)?.leg.arrMinutes ?? flow.target.arrMinutes;
      const extra = Math.max(0, newArrival - g.originalArrivalMinutes);
      disutility += flow.passengers * (0.5 + 0.5 * Math.min(1, extra / REACCOMMODATION_DISUTILITY_FULL_MINUTES));
    } else {
      notReaccommodated += flow.passengers;
      compensationCostUnits += flow.passengers * g.compensationPerPassenger;
      disutility += flow.passengers;
    }
    reaccommodations.push({
      from_flight: from, to_flights: flow.target ? [flow.target.id] : [], passengers: flow.passengers,
      reason: g.kind, itinerary_id: g.kind === 'misconnection' ? g.itinerary.id : null,
    });
  }
  reaccommodations.sort((p, q) => byText(p.from_flight, q.from_flight) || byText(p.reason, q.reason)
    || byText(p.itinerary_id ?? '', q.itinerary_id ?? '') || byText(p.to_flights[0] ?? '~', q.to_flights[0] ?? '~'));

  const sum = (key: keyof Route['costs']) => plan.routes.reduce((s, r) => s + r.costs[key], 0);
  const cost_breakdown: CostBreakdown = {
    delay: round(sum('delay')),
    cancellation: round(cancelled.length * w.cancellation_per_flight),
    swap: round(sum('swap')),
    spill: round(sum('spill')),
    reaccommodation: round(reaccommodationCostUnits),
    compensation: round(compensationCostUnits),
    crew_duty: round(sum('crew_duty')),
    maintenance: round(sum('maintenance')),
    aircraft_position: round(sum('aircraft_position')),
  };
  const cost = round(Object.values(cost_breakdown).reduce((s, v) => s + v, 0));
  const totals = airlineTotals(schedule, scope.airline);
  const onTime = totals.flights - cancelled.length - onTimeLost;

  return {
    option_id: `opt_${strategy}`,
    strategy,
    rank: 0,
    summary: {
      otp: round(totals.flights ? onTime / totals.flights : 1),
      nps: round(Math.min(1, Math.max(0, 1 - disutility / Math.max(1, totals.passengers)))),
      cost,
      flights_delayed: delays.length,
      flights_cancelled: cancelled.length,
      flights_swapped: swaps.length,
      passengers_disrupted: disruptedInGroups + spilled,
      passengers_reaccommodated: reaccommodated,
      passengers_not_reaccommodated: notReaccommodated,
      total_delay_minutes: delays.reduce((s, d) => s + d.delay_minutes, 0),
    },
    cost_breakdown,
    action_set: {
      delays,
      swaps,
      cancellations: cancelled.map((f) => ({ flight: f.id, passengers: f.bookedPassengers })),
      reaccommodations,
    },
    violations: routeViolations(schedule, plan.routes),
    solver,
  };
}
