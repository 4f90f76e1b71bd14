// What the rules and costs derive from a booking and the disruptions (ROADEF 2009 spec 2.8, 4.8,
// 5.1), engine side: the operating plan and the passenger plan read them here. The ROADEF scorer keeps
// its own copy on purpose: it must judge the engine, so the two share no code.
import { CABIN_RANK, compensationBand, type AircraftCostFacts, type CabinCode, type HaulCode, type TripFacts } from '../model/cost-model.ts';
import { CABIN_CODES, HAUL_RANK, pairKey, type NetworkBooking, type NetworkFlight, type NetworkPlan, type NetworkProblem } from './problem.ts';

/** Shortest passenger connection, minutes (ROADEF 2009 spec 4.8, R43). */
export const MIN_CONNECTION_MINUTES = 30;
/** Longest arrival delay of an outbound booking (spec R50), minutes, by its class. */
export const MAX_OUTBOUND_DELAY_MINUTES: Readonly<Record<HaulCode, number>> = { D: 1080, C: 1080, I: 2160 };
/** The delay that marks a cancelled flight in the delays map. */
export const CANCELLED = -1;

/** The haul class of a flight between two airports (domestic where the problem does not say). */
export function legClass(problem: NetworkProblem, origin: string, dest: string): HaulCode {
  return problem.airportPairs.get(pairKey(origin, dest))?.haul ?? 'D';
}

/** The class of a booking: the highest haul class among its flights. */
export function bookingClass(problem: NetworkProblem, booking: NetworkBooking): HaulCode {
  let best: HaulCode = 'D';
  for (const l of booking.flights) {
    const f = problem.flightsById.get(l.flightId)!;
    const haul = legClass(problem, f.origin, f.dest);
    if (HAUL_RANK[haul] > HAUL_RANK[best]) best = haul;
  }
  return best;
}

/** The reference cabin of a booking: the highest cabin among its flights. */
export function referenceCabin(booking: NetworkBooking): CabinCode {
  let best: CabinCode = 'E';
  for (const l of booking.flights) if (CABIN_RANK[l.cabin] > CABIN_RANK[best]) best = l.cabin;
  return best;
}

/**
 * The fixed part of a booking (spec 4.8): the booked flights already boarded or flown at the window
 * start, after the disruptions. Every passenger line of the booking starts with it.
 */
export function fixedPart(problem: NetworkProblem, booking: NetworkBooking, delays: ReadonlyMap<string, number>): NetworkBooking['flights'] {
  const S = problem.window.startMinutes;
  const part: NetworkBooking['flights'][number][] = [];
  let previousArr: number | null = null;
  for (const booked of booking.flights) {
    const leg = problem.flightsById.get(booked.flightId)!;
    const d = delays.get(booked.flightId) ?? 0;
    if (d === CANCELLED || leg.depMinutes + d >= S) break;
    if (previousArr !== null && leg.depMinutes + d - previousArr < MIN_CONNECTION_MINUTES) break;
    part.push(booked);
    previousArr = leg.arrMinutes + d;
  }
  return part;
}

/** The disruptions' delays by flight id (CANCELLED for a cancelled flight). */
export function disruptionDelays(problem: NetworkProblem): Map<string, number> {
  const delays = new Map<string, number>();
  for (const d of problem.disruptions) {
    if (d.type === 'flight_delay') delays.set(d.flightId, d.minDelayMinutes);
    else if (d.type === 'flight_cancellation') delays.set(d.flightId, CANCELLED);
  }
  return delays;
}

/**
 * Whether a planned flight stays as the disruptions leave it (spec 4.3): one they delay or cancel, one
 * that leaves before the window, or a ground shuttle's. No plan moves it to another aircraft or time,
 * and none cancels it unless the disruptions do; the search's moves and the keeps-flights problem's
 * forced cancellations (forced-cancellations.ts) leave it alone alike.
 */
export function pinned(problem: NetworkProblem, delays: ReadonlyMap<string, number>, flight: NetworkFlight): boolean {
  return delays.has(flight.id) || flight.depMinutes < problem.window.startMinutes || problem.aircraft.get(flight.tail)?.shuttle === true;
}

/**
 * Booked passengers `plan` leaves behind (its cancelled passenger lines), per leg of their bookings:
 * where the seats ran out, a larger aircraft may carry them (the search's exchanges and transfers).
 */
export function passengersLeftBehind(bookings: ReadonlyMap<string, NetworkBooking>, plan: NetworkPlan): Map<string, number> {
  const left = new Map<string, number>();
  for (const line of plan.passengers) {
    if (!line.cancelled) continue;
    for (const l of bookings.get(line.booking)!.flights) left.set(l.flightId, (left.get(l.flightId) ?? 0) + line.passengers);
  }
  return left;
}

/** Passengers booked per flight id. */
export function flightPassengers(problem: NetworkProblem): Map<string, number> {
  const booked = new Map<string, number>();
  for (const b of problem.bookings) for (const l of b.flights) booked.set(l.flightId, (booked.get(l.flightId) ?? 0) + b.passengers);
  return booked;
}

/** What the cost model needs to know of an aircraft. */
export function aircraftFacts(problem: NetworkProblem, tail: string): AircraftCostFacts {
  const a = problem.aircraft.get(tail);
  if (!a) return { tail, seats: 0, costPerBlockHour: 0 };
  return { tail, seats: CABIN_CODES.reduce((sum, c) => sum + Math.max(0, a.seats[c]), 0), costPerBlockHour: a.costPerBlockHour };
}

/** What the cost model needs to know of a booking; `begun` when its fixed part is not empty. */
export function tripFacts(problem: NetworkProblem, booking: NetworkBooking, begun: boolean): TripFacts {
  let minutes = 0;
  for (const l of booking.flights) {
    const leg = problem.flightsById.get(l.flightId)!;
    minutes += leg.arrMinutes - leg.depMinutes;
  }
  return {
    passengers: booking.passengers, cabin: referenceCabin(booking), haul: bookingClass(problem, booking),
    direction: booking.direction, fare: booking.fare, plannedTripMinutes: minutes,
    compensationPerPassenger: compensationBand(minutes).cancellation, begun,
  };
}
