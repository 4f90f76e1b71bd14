// An operational day: a schedule as it is being flown. It starts as the schedule (every flight planned
// on its tail at its scheduled times, every passenger on the journey they booked) and changes by
// revisions: an applied recovery option (retimings, swaps, cancellations, rebookings), the actual
// times of movement messages, a revert. A revision's state is plain data (`DayState`), so it can be
// stored, compared, cloned to the simulation thread and sent to a job worker as it is.
//
// Three kinds of time per flight: scheduled (the schedule's, never changed), planned (what the
// current plan decided: the schedule's, or an applied option's retiming) and estimated (derived: the
// plan pushed later where an actual time or the aircraft's previous flight makes it late). Instants
// are epoch minutes (time.ts).
import { compareFlights, type CrewDuty, type Flight, type Itinerary, type Schedule } from '../schedule.ts';
import { pushTo } from '../collections.ts';
import { DEFAULT_TURNAROUND, minTurnaroundMinutes, type TurnaroundRule } from '../turnaround.ts';

/** Actual times of a flight from movement messages (null until reported), epoch minutes. */
export interface ActualTimes { offBlock: number | null; airborne: number | null; landed: number | null; onBlock: number | null }

export interface DayFlight {
  id: string;
  /** The aircraft that flies it in the current plan. */
  tail: string;
  /** Planned departure and arrival in the current plan. */
  depMinutes: number;
  arrMinutes: number;
  cancelled: boolean;
  actual: ActualTimes;
}

/**
 * Passengers travelling together on one journey. At the start a day has one booking per itinerary of
 * the schedule (its id) and one per flight for the passengers who fly only that flight
 * (`<flight id>/local`); a rebooking moves some or all of a booking's passengers to a new booking.
 */
export interface Booking {
  id: string;
  passengers: number;
  /** Where they start and where they are going (their original journey's ends). */
  origin: string;
  dest: string;
  /** Their journey in order; empty for stranded passengers. */
  flightIds: string[];
  /**
   * Not re-accommodated: their journey broke and the applied option did not rebook them, so they are
   * owed compensation and no longer counted on any flight.
   */
  stranded: boolean;
}

export interface DayState {
  /** Every flight of the day, in the schedule's order. */
  flights: DayFlight[];
  bookings: Booking[];
}

/** The window of the schedule a day covers: flights departing in [fromMinutes, toMinutes). */
export interface DayWindow { fromMinutes: number; toMinutes: number }

const NO_ACTUALS: ActualTimes = { offBlock: null, airborne: null, landed: null, onBlock: null };

/** The whole schedule's window: its first departure to one minute after its last. */
export function wholeScheduleWindow(schedule: Schedule): DayWindow {
  const first = schedule.flights[0];
  const last = schedule.flights.at(-1);
  return { fromMinutes: first?.depMinutes ?? 0, toMinutes: last ? last.depMinutes + 1 : 1 };
}

/**
 * The day as the schedule plans it: the flights departing in the window, and their passengers (an
 * itinerary with a flight outside the window is left out; the rest of a flight's booked passengers
 * are its local booking).
 */
export function openDay(schedule: Schedule, window: DayWindow): DayState {
  const inWindow = (f: Flight) => f.depMinutes >= window.fromMinutes && f.depMinutes < window.toMinutes;
  const flights = schedule.flights.filter(inWindow);
  const ids = new Set(flights.map((f) => f.id));
  const bookings: Booking[] = [];
  const connecting = new Map<string, number>();
  for (const it of schedule.itineraries) {
    if (!it.flightIds.every((id) => ids.has(id))) continue;
    const legs = it.flightIds.map((id) => schedule.flightsById.get(id)!);
    bookings.push({ id: it.id, passengers: it.passengers, origin: legs[0]!.origin, dest: legs.at(-1)!.dest, flightIds: [...it.flightIds], stranded: false });
    for (const id of it.flightIds) connecting.set(id, (connecting.get(id) ?? 0) + it.passengers);
  }
  for (const f of flights) {
    const local = f.bookedPassengers - (connecting.get(f.id) ?? 0);
    if (local > 0) bookings.push({ id: `${f.id}/local`, passengers: local, origin: f.origin, dest: f.dest, flightIds: [f.id], stranded: false });
  }
  bookings.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    flights: flights.map((f) => ({ id: f.id, tail: f.tail, depMinutes: f.depMinutes, arrMinutes: f.arrMinutes, cancelled: false, actual: { ...NO_ACTUALS } })),
    bookings,
  };
}

/** A flight has departed once its off-block time is known. */
export function hasDeparted(flight: DayFlight): boolean {
  return flight.actual.offBlock !== null;
}

export interface Estimate { depMinutes: number; arrMinutes: number }

/**
 * Estimated times of every flown flight: the actual off-block (else the plan, pushed later until the
 * aircraft's previous flight has arrived and turned round); the actual on-block (else departure plus
 * the planned block time, never before an actual landing). Cancelled flights have none.
 * `turnaround` is the service's rule: the schedule's own ground times where it states them (an
 * imported ROADEF schedule), else the default, unless a caller knows better.
 */
export function estimatedTimes(schedule: Schedule, state: DayState, turnaround: TurnaroundRule = schedule.ownTurnaround ?? DEFAULT_TURNAROUND): Map<string, Estimate> {
  const byTail = new Map<string, DayFlight[]>();
  for (const f of state.flights) if (!f.cancelled) pushTo(byTail, f.tail, f);
  const estimates = new Map<string, Estimate>();
  for (const [tail, rotation] of byTail) {
    const fleet = schedule.aircraft.get(tail)?.fleet ?? '';
    rotation.sort(byPlannedDeparture);
    let ready = Number.NEGATIVE_INFINITY;
    for (const f of rotation) {
      const { actual } = f;
      const depMinutes = actual.offBlock ?? Math.max(f.depMinutes, ready);
      const arrMinutes = actual.onBlock ?? Math.max(depMinutes + (f.arrMinutes - f.depMinutes), actual.landed ?? Number.NEGATIVE_INFINITY);
      estimates.set(f.id, { depMinutes, arrMinutes });
      ready = arrMinutes + minTurnaroundMinutes(turnaround, fleet, schedule.flightsById.get(f.id)!.dest);
    }
  }
  return estimates;
}

/**
 * The order an aircraft flies its rotation in: the flights that have left first, by off-block, then the
 * others by planned departure (ties: the flight id). A flight that left after its successor's planned
 * departure still comes before it: ordered by off-block against the successor's plan, the successor
 * came first and kept its planned time, so the delay reached neither its estimate nor the alerts.
 */
export function byPlannedDeparture(a: DayFlight, b: DayFlight): number {
  const aLeft = a.actual.offBlock !== null;
  const bLeft = b.actual.offBlock !== null;
  if (aLeft !== bLeft) return aLeft ? -1 : 1;
  return (a.actual.offBlock ?? a.depMinutes) - (b.actual.offBlock ?? b.depMinutes) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The day's flights by id. */
export function flightsOf(state: DayState): Map<string, DayFlight> {
  return new Map(state.flights.map((f) => [f.id, f]));
}

/** Passengers booked on each flight. */
export function loadsOf(state: DayState): Map<string, number> {
  const loads = new Map<string, number>();
  for (const b of state.bookings) for (const id of b.flightIds) loads.set(id, (loads.get(id) ?? 0) + b.passengers);
  return loads;
}

/** What a recovery on the day must leave as it is, besides what the schedule says. */
export interface DayFacts {
  /** Flights that have left (actual off-block): the engine never moves them. */
  departedFlightIds: string[];
}

/**
 * The schedule the recovery engine reads for a revision at `nowMinutes`: the day's flown flights at
 * their estimated times (a flight that has not left is estimated no earlier than now) on their
 * current tails, with the passengers booked on them; cancelled flights are gone (a recovery never
 * reinstates them); itineraries are the bookings of several flights; crew duties keep their
 * remaining flights. Flight records are new objects (ids kept); everything else is the schedule's.
 */
export function scheduleOfDay(schedule: Schedule, state: DayState, nowMinutes: number, turnaround: TurnaroundRule = schedule.ownTurnaround ?? DEFAULT_TURNAROUND): { schedule: Schedule; facts: DayFacts } {
  const estimates = estimatedTimes(schedule, state, turnaround);
  const loads = loadsOf(state);
  const departedFlightIds: string[] = [];
  const flights: Flight[] = [];
  // Times are pushed past now down each rotation, so that a late aircraft's later flights stay after it.
  const byTail = new Map<string, DayFlight[]>();
  for (const f of state.flights) if (!f.cancelled) pushTo(byTail, f.tail, f);
  for (const [tail, rotation] of byTail) {
    rotation.sort(byPlannedDeparture);
    const fleet = schedule.aircraft.get(tail)?.fleet ?? '';
    let ready = Number.NEGATIVE_INFINITY;
    for (const f of rotation) {
      const base = schedule.flightsById.get(f.id)!;
      const estimate = estimates.get(f.id)!;
      const departed = hasDeparted(f);
      if (departed) departedFlightIds.push(f.id);
      const depMinutes = departed ? estimate.depMinutes : Math.max(estimate.depMinutes, nowMinutes, ready);
      const arrMinutes = depMinutes + (estimate.arrMinutes - estimate.depMinutes);
      ready = arrMinutes + minTurnaroundMinutes(turnaround, fleet, base.dest);
      flights.push({ ...base, tail, depMinutes, arrMinutes, bookedPassengers: loads.get(f.id) ?? 0, crewIds: [] });
    }
  }
  flights.sort(compareFlights);
  const flightsById = new Map(flights.map((f) => [f.id, f]));
  const flightsByAirline = new Map<string, Flight[]>();
  const rotations = new Map<string, Flight[]>();
  for (const f of flights) {
    pushTo(flightsByAirline, f.airline, f);
    pushTo(rotations, f.tail, f);
  }
  const crew: CrewDuty[] = [];
  for (const duty of schedule.crew) {
    const remaining = duty.flightIds.filter((id) => flightsById.has(id));
    if (remaining.length === 0) continue;
    crew.push({ ...duty, flightIds: remaining });
    for (const id of remaining) flightsById.get(id)!.crewIds.push(duty.crewId);
  }
  const itineraries: Itinerary[] = [];
  const itinerariesByFlight = new Map<string, Itinerary[]>();
  for (const b of state.bookings) {
    if (b.stranded || b.flightIds.length < 2) continue;
    const itinerary: Itinerary = { id: b.id, passengers: b.passengers, flightIds: [...b.flightIds] };
    itineraries.push(itinerary);
    for (const id of b.flightIds) pushTo(itinerariesByFlight, id, itinerary);
  }
  return {
    schedule: {
      ...schedule, flights, flightsById, flightsByAirline, rotations,
      crew, crewById: new Map(crew.map((c) => [c.crewId, c])), itineraries, itinerariesByFlight,
    },
    facts: { departedFlightIds },
  };
}
