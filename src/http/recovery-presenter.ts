// Turns a simulation result (epoch minutes, domain records) into the JSON of POST /simulate: field
// names of contract.md, timestamps in the local time of the airport concerned, sentences for the
// violations. The response schema (recovery-schemas.ts) types what this returns, so the two cannot
// drift apart.
import type { Disruption } from '../domain/disruption.ts';
import type { Flight, Schedule } from '../domain/schedule.ts';
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import { formatUtc, formatLocal } from '../domain/time.ts';
import type { AircraftRotation, Violation } from '../domain/plan.ts';
import type { RecoveryOption, SimulationResult, SolverReport } from '../recovery/model/result.ts';
import type { RecoveryOptionView, SimulationResponse, ViolationView } from './recovery-schemas.ts';
import { solverNote } from './solver-notes.ts';

type DisruptionView = SimulationResponse['disruptions'][number];

function zoneOf(schedule: Schedule, airport: string): string {
  return schedule.airports.get(airport)?.timeZone ?? 'UTC';
}

/** An instant in the local time of `airport`, with its numeric offset. */
function localAt(schedule: Schedule, airport: string, minutes: number): string {
  return formatLocal(minutes, zoneOf(schedule, airport));
}

const optionId = (option: RecoveryOption) => `opt_${option.strategy}`;

export function presentViolation(schedule: Schedule, v: Violation): ViolationView {
  if (v.type === 'crew_duty') {
    const excess = v.arrMinutes - v.limitMinutes;
    return {
      type: 'crew_duty', flight: v.flight.id, crew_id: v.crew.crewId,
      limit: localAt(schedule, v.flight.dest, v.limitMinutes), actual: localAt(schedule, v.flight.dest, v.arrMinutes), excess_minutes: excess,
      detail: `Crew ${v.crew.crewId} (${v.crew.role}) would end its flight-duty period on ${v.flight.id} ${excess} minutes beyond its ${v.crew.maxDutyMinutes}-minute maximum.`,
    };
  }
  const { check } = v;
  const limit = localAt(schedule, check.station, check.startMinutes);
  if (v.arrivalMinutes === null) {
    return {
      type: 'maintenance', flight: v.flight?.id ?? null, tail: v.tail, limit, actual: null, excess_minutes: null,
      detail: `${v.tail} is not at ${check.station} for its ${check.type} due to start at ${limit}, and no flight of the plan takes it there afterwards${v.flight ? ` (its last flight before the check is ${v.flight.id})` : ''}.`,
    };
  }
  const excess = v.arrivalMinutes - check.startMinutes;
  return {
    type: 'maintenance', flight: v.flight!.id, tail: v.tail, limit, actual: localAt(schedule, check.station, v.arrivalMinutes), excess_minutes: excess,
    detail: `${v.tail} reaches ${check.station} on ${v.flight!.id} ${excess} minutes after its ${check.type} there was due to start (${limit}).`,
  };
}

function presentRotation(schedule: Schedule, rotation: AircraftRotation): RecoveryOptionView['rotations'][number] {
  return {
    tail: rotation.tail,
    end_station: rotation.endStation,
    required_end_station: rotation.requiredEndStation,
    legs: rotation.legs.map((leg) => ({
      flight: leg.flight.id, origin: leg.flight.origin, dest: leg.flight.dest,
      dep: localAt(schedule, leg.flight.origin, leg.depMinutes), arr: localAt(schedule, leg.flight.dest, leg.arrMinutes),
      delay_minutes: leg.delayMinutes, planned_tail: leg.flight.tail,
    })),
    maintenance: rotation.checks.map(({ check }) => ({
      type: check.type, station: check.station,
      start: localAt(schedule, check.station, check.startMinutes), end: localAt(schedule, check.station, check.endMinutes),
    })),
  };
}

function presentOption(schedule: Schedule, option: RecoveryOption): RecoveryOptionView {
  const { kpis, costs, solver } = option;
  const ids = (flights: Flight[]) => flights.map((f) => f.id);
  return {
    option_id: optionId(option),
    strategy: option.strategy,
    rank: option.rank,
    summary: {
      otp: kpis.otp,
      nps: kpis.nps,
      cost: kpis.cost,
      flights_delayed: option.delays.length,
      flights_cancelled: option.cancellations.length,
      flights_swapped: option.swaps.length,
      passengers_disrupted: kpis.passengersDisrupted,
      passengers_reaccommodated: kpis.passengersReaccommodated,
      passengers_not_reaccommodated: kpis.passengersNotReaccommodated,
      total_delay_minutes: option.delays.reduce((sum, d) => sum + d.delayMinutes, 0),
    },
    cost_breakdown: {
      delay: costs.delay, cancellation: costs.cancellation, swap: costs.swap, spill: costs.spill,
      reaccommodation: costs.reaccommodation, compensation: costs.compensation, crew_duty: costs.crewDuty,
      maintenance: costs.maintenance, aircraft_position: costs.aircraftPosition,
    },
    action_set: {
      delays: option.delays.map((d) => ({
        flight: d.flight.id, tail: d.tail, delay_minutes: d.delayMinutes,
        new_dep: localAt(schedule, d.flight.origin, d.depMinutes), new_arr: localAt(schedule, d.flight.dest, d.arrMinutes),
      })),
      swaps: option.swaps.map((s) => ({ flight: s.flight.id, from_tail: s.fromTail, to_tail: s.toTail })),
      cancellations: option.cancellations.map((c) => ({ flight: c.flight.id, passengers: c.passengers })),
      reaccommodations: option.reaccommodations.map((r) => ({
        from_flight: r.fromFlight.id, to_flights: ids(r.toFlights), passengers: r.passengers, reason: r.reason, itinerary_id: r.itineraryId,
      })),
      new_flights: [],
    },
    rotations: option.rotations.map((rotation) => presentRotation(schedule, rotation)),
    aircraft_out_of_position: option.rotations.filter((r) => r.outOfPosition).map((r) => ({ tail: r.tail, ends_at: r.endStation, required_at: r.requiredEndStation })),
    violations: option.violations.map((v) => presentViolation(schedule, v)),
    solver: {
      status: solver.status, objective: solver.objective, lower_bound: solver.lowerBound, mip_gap: solver.mipGap, solve_ms: solver.solveMs,
      rows: solver.size.rows, columns: solver.size.columns, nonzeros: solver.size.nonzeros, integers: solver.size.integers,
      candidate_routes: solver.candidateRoutes, iterations: solver.iterations,
      lower_bound_source: solver.lowerBoundSource, note: engineNote(solver),
      engine: solver.engine, engine_reasons: solver.engineReasons,
    },
  };
}

const ENGINE_REASON_WORDS: Record<SolverReport['engineReasons'][number], string> = {
  several_disruptions: 'several disruptions',
  capacity_cut: 'an airport capacity cut',
  aircraft_out_of_service: 'an aircraft out of service',
  large_scope: 'more aircraft than the neighbourhood engine proves within its budget',
};

/** The solver's note, preceded, for the network engine, by which engine answered and why. */
function engineNote(solver: SolverReport): string {
  const note = solverNote(solver.facts);
  if (solver.engine !== 'network') return note;
  const why = solver.engineReasons.map((r) => ENGINE_REASON_WORDS[r]);
  const reasons = why.length > 1 ? `${why.slice(0, -1).join(', ')} and ${why.at(-1)}` : why[0] ?? 'the request';
  const said = `Solved by the network engine (a search over whole-network operating plans beside the column generation over the whole scope) because of ${reasons}.`;
  return `${said} ${note}`;
}

/** A disruption as the response echoes it (timestamps in UTC). */
export function presentDisruption(d: Disruption): DisruptionView {
  switch (d.type) {
    case 'flight_delay': return { type: d.type, flight: d.flightId, min_delay_minutes: d.minDelayMinutes };
    case 'flight_cancellation': return { type: d.type, flight: d.flightId };
    case 'aircraft_unavailable': return { type: d.type, tail: d.tail, from: formatUtc(d.fromMinutes), to: formatUtc(d.toMinutes) };
    case 'airport_capacity': return {
      type: d.type, airport: d.airport, from: formatUtc(d.fromMinutes), to: formatUtc(d.toMinutes),
      max_departures_per_hour: d.maxDeparturesPerHour, max_arrivals_per_hour: d.maxArrivalsPerHour,
    };
  }
}

/** The POST /simulate response for `result`, computed on `schedule` (the schedule it was run on). */
export function presentSimulation(schedule: Schedule, result: SimulationResult): SimulationResponse {
  const best = result.options[0];
  return {
    scenario_id: result.scenarioId,
    disrupted_flight: result.disruptedFlightId,
    airline: result.airline,
    schedule_file: result.scheduleName,
    disruptions: result.disruptions.map(presentDisruption),
    disruption: {
      min_delay_minutes: result.disruptedFlightId === null ? null : singleDelay(result.disruptions),
      disruption_time: formatUtc(result.disruptionMinutes),
      window_end: result.windowEndMinutes === null ? null : formatUtc(result.windowEndMinutes),
    },
    scope: { aircraft: result.scope.tails, flights: result.scope.flights, itineraries: result.scope.itineraries },
    options: result.options.map((option) => presentOption(schedule, option)),
    best_option_id: best ? optionId(best) : null,
    violations: result.violations.map((v) => presentViolation(schedule, v)),
    unsolved_strategies: result.unsolved,
    timings_ms: result.timingsMs,
  };
}

function singleDelay(disruptions: readonly Disruption[]): number | null {
  const [only] = disruptions;
  return disruptions.length === 1 && only?.type === 'flight_delay' ? only.minDelayMinutes : null;
}

/** The presenter of a catalog's results: what the job runner stores as a job's result. */
export function presenterFor(schedules: ScheduleCatalog): (result: SimulationResult) => SimulationResponse {
  return (result) => presentSimulation(schedules.resolve(result.scheduleName)!.schedule, result);
}
