// Tiny hand-written schedules for the engine's scenario tests. Times are "HH:MM" UTC on 2026-11-21.
import GLPK from 'glpk.js/node';
import type { Disruption } from '../../src/domain/disruption.ts';
import { type Schedule } from '../../src/domain/schedule.ts';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { resolveSolverConfig, type SolverConfig } from '../../src/recovery/model/solver-config.ts';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { flightBoundModel } from '../../src/recovery/bounds/flight-bound.ts';
import { prepareSimulation, simulate, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { solveWithGlpk, type Glpk } from '../../solver-wasm/glpk-solve.ts';
import { loadGlpkFunctions, RelaxationSessions } from '../../solver-wasm/glpk-session.ts';

export const at = (hhmm: string) => `2026-11-21T${hhmm}:00Z`;
export const id = (flightNumber: string, hhmm: string) => `${flightNumber}_${at(hhmm)}`;

interface FlightSpec { no: string; tail: string; from: string; to: string; dep: string; arr: string; booked?: number }

export function fixture(spec: {
  flights: FlightSpec[];
  aircraft?: { tail: string; fleet?: string; base?: string }[];
  maintenance?: ScheduleFile['maintenance'];
  crew?: { id: string; start: string; maxMinutes: number; flights: string[] }[];
  itineraries?: { id: string; passengers: number; flights: [string, string] }[];
}): Schedule {
  const tails: { tail: string; fleet?: string; base?: string }[] = spec.aircraft ?? [...new Set(spec.flights.map((f) => f.tail))].map((tail) => ({ tail }));
  const file: ScheduleFile = {
    format_version: 1, name: 'fixture', description: 'test fixture', operating_date: '2026-11-21',
    generator: { seed: 0, version: 'hand' },
    airlines: [{ code: 'NV', name: 'Northvale Airways' }],
    airports: [
      { code: 'VIE', name: 'Vienna', time_zone: 'Europe/Vienna', lat: 48.11, lon: 16.57, hub: true, maintenance_station: true, min_connection_minutes: 30 },
      { code: 'PRG', name: 'Prague', time_zone: 'Europe/Prague', lat: 50.1, lon: 14.26, hub: false, maintenance_station: false, min_connection_minutes: 45 },
      { code: 'BUD', name: 'Budapest', time_zone: 'Europe/Budapest', lat: 47.44, lon: 19.26, hub: false, maintenance_station: false, min_connection_minutes: 45 },
    ],
    fleets: [
      { code: 'A320', family: 'A320', seats: 180, cruise_speed_kmh: 800 },
      { code: 'A319', family: 'A320', seats: 144, cruise_speed_kmh: 800 },
    ],
    aircraft: tails.map((a) => {
      const fleet = a.fleet ?? 'A320';
      return { tail: a.tail, airline: 'NV', fleet, seats: fleet === 'A320' ? 180 : 144, base: a.base ?? 'VIE' };
    }),
    flights: spec.flights.map((f) => ({
      flight_number: f.no, airline: 'NV', tail: f.tail, origin: f.from, dest: f.to, dep: at(f.dep), arr: at(f.arr),
      distance_km: 250, booked_passengers: f.booked ?? 100,
    })),
    maintenance: spec.maintenance ?? [],
    crew: (spec.crew ?? []).map((c) => ({
      crew_id: c.id, airline: 'NV', role: 'cockpit' as const, base: 'VIE', duty_start: at(c.start), duty_end: at(c.start),
      max_duty_minutes: c.maxMinutes, flights: c.flights,
    })),
    itineraries: (spec.itineraries ?? []).map((i) => ({ itinerary_id: i.id, passengers: i.passengers, flights: i.flights })),
  };
  return buildSchedule(file);
}

export function config(partial: unknown = {}): SolverConfig {
  const resolved = resolveSolverConfig(partial);
  if (!resolved.valid) throw new Error(JSON.stringify(resolved.errors));
  return resolved.config;
}

export function request(disrupted: string, minDelayMinutes: number, solverConfig: SolverConfig = config()): SimulationRequest {
  return { scenarioId: 'test', disruptedFlightId: disrupted, disruptions: [{ type: 'flight_delay', flightId: disrupted, minDelayMinutes }], airline: 'NV', scheduleName: 'fixture', config: solverConfig };
}

let glpk: { glpk: Glpk; sessions: RelaxationSessions } | undefined;
/** Solves on the test's own thread, warm-started relaxations as the workers do: fine for tests, never for the service (solve() blocks). */
export const inProcessSolver: Solver = {
  async solve(task) {
    glpk ??= { glpk: await (GLPK as unknown as () => Promise<Glpk>)(), sessions: new RelaxationSessions(await loadGlpkFunctions()) };
    return solveWithGlpk(glpk.glpk, task, glpk.sessions);
  },
};

/** A disruption as a request body writes it (times ISO 8601 with a zone). */
export type DisruptionBody = SimulationResponse['disruptions'][number];

/** Several disruptions as POST /simulate takes them, with the configuration to solve them under. */
export interface DisruptionsRequest { disruptions: DisruptionBody[]; config: SolverConfig; airline?: string; scenarioId?: string }

/** A request body's disruption in the domain's terms (epoch minutes). */
function disruptionOf(d: DisruptionBody): Disruption {
  const minutes = (iso: string) => Date.parse(iso) / 60_000;
  switch (d.type) {
    case 'flight_delay': return { type: d.type, flightId: d.flight, minDelayMinutes: d.min_delay_minutes };
    case 'flight_cancellation': return { type: d.type, flightId: d.flight };
    case 'aircraft_unavailable': return { type: d.type, tail: d.tail, fromMinutes: minutes(d.from), toMinutes: minutes(d.to) };
    case 'airport_capacity': return {
      type: d.type, airport: d.airport, fromMinutes: minutes(d.from), toMinutes: minutes(d.to),
      maxDeparturesPerHour: d.max_departures_per_hour, maxArrivalsPerHour: d.max_arrivals_per_hour,
    };
  }
}

/**
 * Simulate on the test's thread and present the result as POST /simulate would answer it: for a
 * SimulationRequest (e.g. `request(...)`, one delay), or for a list of disruptions in the request
 * body's form (airline NV unless given).
 */
export async function simulateAsResponse(schedule: Schedule, simulation: SimulationRequest | DisruptionsRequest): Promise<SimulationResponse> {
  return presentSimulation(schedule, await simulate(schedule, fullRequest(simulation), inProcessSolver));
}

/** A SimulationRequest as is, or a list of disruptions as the pipeline takes it (airline NV unless given). */
export function fullRequest(simulation: SimulationRequest | DisruptionsRequest): SimulationRequest {
  return 'scheduleName' in simulation ? simulation : {
    scenarioId: simulation.scenarioId ?? 'test', airline: simulation.airline ?? 'NV', scheduleName: 'fixture', config: simulation.config,
    disruptions: simulation.disruptions.map(disruptionOf), disruptedFlightId: null,
  };
}

/** The flight bound (src/recovery/bounds/flight-bound.ts) of a simulation, solved on the test's thread; null when its LP has no optimum. */
export async function flightBoundOf(schedule: Schedule, simulation: SimulationRequest | DisruptionsRequest): Promise<number | null> {
  const full = fullRequest(simulation);
  const prepared = prepareSimulation(schedule, full);
  const model = flightBoundModel(new RouteEvaluator(schedule, prepared.scope, full.config), prepared.groups);
  const outcome = await inProcessSolver.solve({ model, timeLimitMs: 10_000, mipGap: 0, relaxation: true });
  return outcome.status === 'optimal' ? outcome.objective : null;
}
