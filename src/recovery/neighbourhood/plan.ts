// A plan (one route per aircraft in scope, plus passenger re-accommodation) turned into a recovery
// option: action set, costs, KPIs and the violations that remain (docs/model.md 1.4-1.7).
import type { Flight, Schedule } from '../../domain/schedule.ts';
import { journeyEnd, type Journey } from '../passengers/journeys.ts';
import { reaccommodationCost, type ItineraryHub, type MisconnectionGroup, type PassengerGroup } from '../passengers/passengers.ts';
import type { Route } from './aircraft-routes.ts';
import type { AircraftRotation, Delay, Reaccommodation, Swap, Violation } from '../../domain/plan.ts';
import type { CostBreakdown, RecoveryOption, SolverReport } from '../model/result.ts';
import { serviceCostModel, serviceTrip } from '../model/cost-model.ts';
import type { RecoveryScope } from '../model/scope.ts';
import type { SolverConfig, Strategy } from '../model/solver-config.ts';

/** Passengers of a group onto `journey` (null: not re-accommodated), for an itinerary's from where they leave it (`from`). */
export interface PassengerFlow { group: PassengerGroup; journey: Journey | null; from: ItineraryHub | null; passengers: number }

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
    for (const missed of route.missedChecks) violations.push({ type: 'maintenance', ...missed });
    for (const breach of route.crewBreaches) {
      violations.push({
        type: 'crew_duty', flight: breach.flight, crew: schedule.crewById.get(breach.crewId)!,
        limitMinutes: breach.limitMinutes, arrMinutes: breach.arrMinutes,
      });
    }
  }
  const who = (v: Violation) => (v.type === 'crew_duty' ? v.crew.crewId : v.tail);
  return violations.sort((p, q) => byText(p.flight?.id ?? '', q.flight?.id ?? '') || byText(p.type, q.type) || byText(who(p), who(q)));
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

/** The timed rotation of every aircraft of the scope in a plan (an aircraft without a route stays on the ground). */
function rotationsOf(scope: RecoveryScope, routes: Route[]): AircraftRotation[] {
  const byTail = new Map(routes.map((route) => [route.tail, route]));
  return scope.aircraft.map((a) => {
    const route = byTail.get(a.aircraft.tail);
    return {
      tail: a.aircraft.tail,
      legs: route?.legs ?? [],
      checks: route ? a.checks.flatMap((check, i) => (route.checkPoints[i] === null ? [] : [{ check, afterLeg: route.checkPoints[i]! }])) : [],
      endStation: route?.endStation ?? a.station,
      requiredEndStation: a.requiredEndStation,
      outOfPosition: route?.outOfPosition ?? false,
    };
  });
}

type FlownLegs = Map<string, { route: Route; leg: Route['legs'][number] }>;

/**
 * Where a disrupted itinerary breaks in a plan: the first of its legs its passengers cannot take (a
 * cancelled leg, or the second flight of a connection too short: flights outside the scope fly at
 * their scheduled times), and why.
 */
function firstBreak(group: MisconnectionGroup, scope: RecoveryScope, flown: FlownLegs): { leg: Flight; reason: 'cancellation' | 'misconnection' } {
  const cancelled = (f: Flight) => scope.flightIds.has(f.id) && !flown.has(f.id);
  if (cancelled(group.legs[0]!)) return { leg: group.legs[0]!, reason: 'cancellation' };
  for (const c of group.connections) {
    if (cancelled(c.missed)) return { leg: c.missed, reason: 'cancellation' };
    if ((flown.get(c.arriving.id)?.leg.arrMinutes ?? c.arriving.arrMinutes) + c.connectionMinutes > (flown.get(c.missed.id)?.leg.depMinutes ?? c.missed.depMinutes)) {
      return { leg: c.missed, reason: 'misconnection' };
    }
  }
  // Not broken: the model never moves such passengers at a cost (docs/model.md 2.4); named at the first connection.
  return { leg: group.connections[0]!.missed, reason: 'misconnection' };
}

/** A re-accommodation's journey as text for ordering; not re-accommodated ('~') last. */
const journeyText = (r: Reaccommodation) => (r.toFlights.length ? r.toFlights.map((f) => f.id).join(' ') : '~');

/** Evaluate a plan into an option (rank is set by the caller's ranking). */
export function evaluatePlan(
  schedule: Schedule, scope: RecoveryScope, config: SolverConfig, strategy: Strategy, plan: Plan, solver: SolverReport,
): RecoveryOption {
  const model = serviceCostModel(config);
  const flown: FlownLegs = new Map();
  for (const route of plan.routes) for (const leg of route.legs) flown.set(leg.flight.id, { route, leg });
  const cancelled = scope.flights.filter((f) => !flown.has(f.id));

  const delays: Delay[] = [];
  const swaps: Swap[] = [];
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
      delays.push({ flight: f, tail: route.tail, delayMinutes: leg.delayMinutes, depMinutes: leg.depMinutes, arrMinutes: leg.arrMinutes });
      disutility += Math.min(f.bookedPassengers, seats) * Math.min(1, leg.delayMinutes / DELAY_DISUTILITY_FULL_MINUTES);
    }
    if (leg.delayMinutes > ON_TIME_MINUTES) onTimeLost++;
    if (route.tail !== f.tail) swaps.push({ flight: f, fromTail: f.tail, toTail: route.tail });
  }
  disutility += spilled;

  const reaccommodations: Reaccommodation[] = [];
  let reaccommodationCostUnits = 0;
  let compensationCostUnits = 0;
  let reaccommodated = 0;
  let notReaccommodated = 0;
  let disruptedInGroups = 0;
  for (const flow of plan.flows) {
    if (flow.passengers <= 0) continue;
    const g = flow.group;
    disruptedInGroups += flow.passengers;
    if (flow.journey) {
      reaccommodated += flow.passengers;
      reaccommodationCostUnits += flow.passengers * reaccommodationCost(config, g, flow.journey);
      // Satisfaction follows the journey's actual arrival (its last flight's delay included); cost uses the scheduled one.
      const last = journeyEnd(flow.journey);
      const newArrival = flown.get(last.id)?.leg.arrMinutes ?? last.arrMinutes;
      const extra = Math.max(0, newArrival - g.originalArrivalMinutes);
      disutility += flow.passengers * (0.5 + 0.5 * Math.min(1, extra / REACCOMMODATION_DISUTILITY_FULL_MINUTES));
    } else {
      notReaccommodated += flow.passengers;
      compensationCostUnits += flow.passengers * model.tripCancellation(serviceTrip(flow.passengers, g.compensationPerPassenger));
      disutility += flow.passengers;
    }
    // An itinerary's passengers are named at the flight they do not take from where they leave it, or
    // when not re-accommodated the first one they cannot take; the reason is what breaks the itinerary.
    const broken = g.kind === 'misconnection' ? firstBreak(g, scope, flown) : null;
    reaccommodations.push({
      fromFlight: g.kind === 'cancellation' ? g.flight : (flow.from?.missed ?? broken!.leg), toFlights: flow.journey ? [...flow.journey] : [], passengers: flow.passengers,
      reason: broken?.reason ?? 'cancellation', itineraryId: g.kind === 'misconnection' ? g.itinerary.id : null,
    });
  }
  reaccommodations.sort((p, q) => byText(p.fromFlight.id, q.fromFlight.id) || byText(p.reason, q.reason)
    || byText(p.itineraryId ?? '', q.itineraryId ?? '') || byText(journeyText(p), journeyText(q)));

  const sum = (key: keyof Route['costs']) => plan.routes.reduce((s, r) => s + r.costs[key], 0);
  const costs: CostBreakdown = {
    delay: round(sum('delay')),
    cancellation: round(cancelled.length * model.cancellationPerLeg()),
    swap: round(sum('swap')),
    spill: round(sum('spill')),
    reaccommodation: round(reaccommodationCostUnits),
    compensation: round(compensationCostUnits),
    crewDuty: round(sum('crew_duty')),
    maintenance: round(sum('maintenance')),
    aircraftPosition: round(sum('aircraft_position')),
  };
  const cost = round(Object.values(costs).reduce((s, v) => s + v, 0));
  const totals = airlineTotals(schedule, scope.airline);
  const onTime = totals.flights - cancelled.length - onTimeLost;

  return {
    strategy,
    rank: 0,
    kpis: {
      otp: round(totals.flights ? onTime / totals.flights : 1),
      nps: round(Math.min(1, Math.max(0, 1 - disutility / Math.max(1, totals.passengers)))),
      cost,
      passengersDisrupted: disruptedInGroups + spilled,
      passengersReaccommodated: reaccommodated,
      passengersNotReaccommodated: notReaccommodated,
    },
    costs,
    rotations: rotationsOf(scope, plan.routes),
    delays,
    swaps,
    cancellations: cancelled.map((f) => ({ flight: f, passengers: f.bookedPassengers })),
    reaccommodations,
    violations: routeViolations(schedule, plan.routes),
    solver,
  };
}
