// Movement messages: the actual times of a flight (off-block, airborne, landed, on-block) as an
// airline's movement messages give them. Each message is checked against the day as the earlier
// messages of the same batch left it; the first bad one refuses the whole batch (a value naming the
// message and the rule, worded by the HTTP layer).
import { byPlannedDeparture, flightsOf, type ActualTimes, type DayFlight, type DayState } from './day.ts';

export interface MovementMessage {
  flightId: string;
  /** The aircraft the message reports: it must be the one the day plans for the flight. */
  tail: string;
  /** The times the message gives, epoch minutes; the others stay as they were. */
  times: Partial<ActualTimes>;
}

/** The four actual times in the order they happen. */
export const MOVEMENT_FIELDS = ['offBlock', 'airborne', 'landed', 'onBlock'] as const;
export type MovementField = (typeof MOVEMENT_FIELDS)[number];

export type MovementProblem =
  | { kind: 'unknown_flight'; index: number; flightId: string }
  | { kind: 'wrong_tail'; index: number; flightId: string; tail: string; plannedTail: string }
  | { kind: 'cancelled'; index: number; flightId: string }
  /** `later` is given before `earlier` (off-block ≤ airborne ≤ landed ≤ on-block). */
  | { kind: 'order'; index: number; flightId: string; earlier: MovementField; later: MovementField }
  /** A time after now. */
  | { kind: 'future'; index: number; flightId: string; field: MovementField; minutes: number; nowMinutes: number }
  /** The aircraft's previous flight has not left yet, so this one cannot have. */
  | { kind: 'previous_not_departed'; index: number; flightId: string; previousFlightId: string }
  /** Off-block before the aircraft's previous flight arrived (or left). */
  | { kind: 'before_previous'; index: number; flightId: string; previousFlightId: string; previousMinutes: number };

export type MovementOutcome = { ok: true; state: DayState } | { ok: false; problem: MovementProblem };

/** The flight before `flight` in its aircraft's rotation (flown flights, plan order), if any. */
function previousOf(state: DayState, flight: DayFlight): DayFlight | undefined {
  const rotation = state.flights.filter((f) => !f.cancelled && f.tail === flight.tail).sort(byPlannedDeparture);
  return rotation[rotation.findIndex((f) => f.id === flight.id) - 1];
}

/** `state` with the messages' actual times recorded, in order, at `nowMinutes`; or the first problem. */
export function recordMovements(state: DayState, messages: readonly MovementMessage[], nowMinutes: number): MovementOutcome {
  let current = state;
  for (const [index, message] of messages.entries()) {
    const flights = flightsOf(current);
    const flight = flights.get(message.flightId);
    const { flightId } = message;
    if (!flight) return { ok: false, problem: { kind: 'unknown_flight', index, flightId } };
    if (flight.cancelled) return { ok: false, problem: { kind: 'cancelled', index, flightId } };
    if (flight.tail !== message.tail) return { ok: false, problem: { kind: 'wrong_tail', index, flightId, tail: message.tail, plannedTail: flight.tail } };
    for (const field of MOVEMENT_FIELDS) {
      const minutes = message.times[field];
      if (minutes !== undefined && minutes !== null && minutes > nowMinutes) return { ok: false, problem: { kind: 'future', index, flightId, field, minutes, nowMinutes } };
    }
    const actual: ActualTimes = { ...flight.actual };
    for (const field of MOVEMENT_FIELDS) if (message.times[field] !== undefined) actual[field] = message.times[field]!;
    let earlier: MovementField | null = null;
    for (const field of MOVEMENT_FIELDS) {
      if (actual[field] === null) continue;
      if (earlier !== null && actual[field]! < actual[earlier]!) return { ok: false, problem: { kind: 'order', index, flightId, earlier, later: field } };
      earlier = field;
    }
    if (actual.offBlock !== null) {
      const previous = previousOf(current, flight);
      if (previous && previous.actual.offBlock === null) return { ok: false, problem: { kind: 'previous_not_departed', index, flightId, previousFlightId: previous.id } };
      const previousMinutes = previous ? previous.actual.onBlock ?? previous.actual.landed ?? previous.actual.offBlock : null;
      if (previous && previousMinutes !== null && actual.offBlock < previousMinutes) {
        return { ok: false, problem: { kind: 'before_previous', index, flightId, previousFlightId: previous.id, previousMinutes } };
      }
    }
    current = { ...current, flights: current.flights.map((f) => (f.id === flightId ? { ...f, actual } : f)) };
  }
  return { ok: true, state: current };
}
