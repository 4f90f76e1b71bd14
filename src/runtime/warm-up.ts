// The simulations a new simulation thread runs on itself before it says it is ready. Its JavaScript
// (model building, pricing, journey searches, reading plans) starts cold: measured on the default
// schedule, the first simulation after a start took 1.7-1.9 s and its integrated solve ran out of its
// 2 s limit (`time_limit`, no proof), where the same request proves optimal in 0.4-0.7 s once warm.
// After one warm-up simulation the first request (default/breaks-maintenance) was proven optimal in
// 1.3 s, after two in 1.0 s, about its warm time (0.7-1.0 s). They are real simulations, on the
// default schedule with the default solver configuration, whose answers are dropped.
import { pushTo } from '../domain/collections.ts';
import { unpricedTrips, type Flight, type Schedule } from '../domain/schedule.ts';
import type { SimulationRequest } from '../recovery/pipeline.ts';
import { DEFAULT_SOLVER_CONFIG } from '../recovery/model/solver-config.ts';

/** Long enough to run every stage of a single delay's solves, short enough not to hold the start up. */
const WARM_UP_TIME_LIMIT_MS = 1000;

/**
 * Two single delays at the airline's busiest airport (where swaps and journeys of several flights
 * exist): its first departure of the day held 90 minutes, and the one in the middle of its day held
 * 120. None when the airline has no flights, or when the schedule cannot be simulated (its compensation
 * distances unknown, which /simulate refuses with 400).
 */
export function warmUpRequests(schedule: Schedule, scheduleName: string, airline: string): SimulationRequest[] {
  if (unpricedTrips(schedule)) return [];
  const departures = new Map<string, Flight[]>();
  for (const flight of schedule.flightsByAirline.get(airline) ?? []) pushTo(departures, flight.origin, flight);
  const busiest = [...departures.values()].sort((a, b) => b.length - a.length)[0];
  if (!busiest) return [];
  const byTime = [...busiest].sort((a, b) => a.depMinutes - b.depMinutes);
  const picks: [typeof byTime[number], number][] = [[byTime[0]!, 90], [byTime[Math.floor(byTime.length / 2)]!, 120]];
  const config = { ...DEFAULT_SOLVER_CONFIG, solver: { ...DEFAULT_SOLVER_CONFIG.solver, time_limit_ms: WARM_UP_TIME_LIMIT_MS } };
  return picks.map(([flight, minutes]) => ({
    scenarioId: `warm-up ${flight.id} +${minutes}`,
    airline,
    scheduleName,
    config,
    disruptions: [{ type: 'flight_delay', flightId: flight.id, minDelayMinutes: minutes }],
    disruptedFlightId: flight.id,
  }));
}
