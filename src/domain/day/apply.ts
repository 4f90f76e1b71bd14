// Applying a recovery option to a day, and reverting a day to an earlier revision's plan: pure
// functions from a state to the next state, or the reason the change cannot be made (a value, not an
// exception: the HTTP layer words it as 409).
import type { AircraftRotation, Cancellation, Reaccommodation } from '../plan.ts';
import { flightsOf, hasDeparted, type Booking, type DayFlight, type DayState } from './day.ts';

/** What an option decides, in the domain's terms (a RecoveryOption has these fields). */
export interface OptionToApply {
  rotations: readonly AircraftRotation[];
  cancellations: readonly Cancellation[];
  reaccommodations: readonly Reaccommodation[];
}

/** Why a change cannot be made to the day as it is now. */
export type DayConflict =
  /** The flight has left (actual off-block) since the option was computed: it can no longer be moved. */
  | { kind: 'departed'; flightId: string; offBlockMinutes: number }
  /** The flight's plan (tail, times, cancellation) changed since the revision the option was computed on. */
  | { kind: 'changed'; flightId: string }
  /** The option names a flight the day does not have (it belongs to another day or schedule). */
  | { kind: 'unknown_flight'; flightId: string }
  /** The passengers the option moves are no longer where it found them (booking, or the flight's total). */
  | { kind: 'passengers'; subject: string };

export type DayChange = { ok: true; state: DayState } | { ok: false; conflict: DayConflict };

const samePlan = (a: DayFlight, b: DayFlight) => a.tail === b.tail && a.depMinutes === b.depMinutes && a.arrMinutes === b.arrMinutes && a.cancelled === b.cancelled;
const byId = (a: Booking, b: Booking) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The day after `option`, computed on revision `simulatedOn`, is applied to `current` (the latest
 * revision): every flight the option retimes or gives to another aircraft takes the option's times
 * and tail, its cancellations are cancelled, and its rebookings move the passengers (a booking split
 * when only some of its passengers move; new bookings are named `<booking id>@<tag>.<n>`, `tag`
 * naming the revision). Refused when a flight the option changes has left, or when any flight it
 * touches (changes, or rebooks passengers onto) was planned otherwise in `current` than in
 * `simulatedOn`. A leg the option leaves at the time and on the tail the engine read is not a change.
 */
export function applyOption(current: DayState, simulatedOn: DayState, option: OptionToApply, tag: string): DayChange {
  const now = flightsOf(current);
  const then = flightsOf(simulatedOn);
  const touched = new Set<string>();
  const changes = new Map<string, Partial<DayFlight>>();
  for (const rotation of option.rotations) {
    for (const leg of rotation.legs) {
      if (leg.delayMinutes === 0 && leg.flight.tail === rotation.tail) continue;
      changes.set(leg.flight.id, { tail: rotation.tail, depMinutes: leg.depMinutes, arrMinutes: leg.arrMinutes });
      touched.add(leg.flight.id);
    }
  }
  for (const c of option.cancellations) {
    changes.set(c.flight.id, { cancelled: true });
    touched.add(c.flight.id);
  }
  for (const r of option.reaccommodations) for (const f of r.toFlights) touched.add(f.id);
  for (const id of touched) {
    const flight = now.get(id);
    const before = then.get(id);
    if (!flight || !before) return { ok: false, conflict: { kind: 'unknown_flight', flightId: id } };
    if (changes.has(id) && hasDeparted(flight)) return { ok: false, conflict: { kind: 'departed', flightId: id, offBlockMinutes: flight.actual.offBlock! } };
    if (!samePlan(flight, before) || hasDeparted(flight) !== hasDeparted(before)) return { ok: false, conflict: { kind: 'changed', flightId: id } };
  }
  const flights = current.flights.map((f) => (changes.has(f.id) ? { ...f, ...changes.get(f.id) } : f));
  const bookings = rebook(current.bookings, option.reaccommodations, tag);
  if ('conflict' in bookings) return { ok: false, conflict: bookings.conflict };
  return { ok: true, state: { flights, bookings: bookings.bookings } };
}

/** The bookings after the option's rebookings, or the conflict that prevents them. */
function rebook(bookings: readonly Booking[], reaccommodations: readonly Reaccommodation[], tag: string): { bookings: Booking[] } | { conflict: DayConflict } {
  const result = new Map(bookings.map((b) => [b.id, { ...b, flightIds: [...b.flightIds] }]));
  let counter = 0;
  /** Moves `passengers` of `booking` onto `journey` (empty: stranded): the whole booking, or a new one split off it. */
  const move = (booking: Booking, passengers: number, journey: (flightIds: string[]) => string[] | null) => {
    const flightIds = journey(booking.flightIds);
    const moved: Booking = { ...booking, passengers, flightIds: flightIds ?? [], stranded: flightIds === null };
    if (passengers === booking.passengers) {
      result.set(booking.id, moved);
    } else {
      booking.passengers -= passengers;
      const id = `${booking.id.split('@')[0]}@${tag}.${++counter}`;
      result.set(id, { ...moved, id });
    }
  };

  const byCancelledFlight = new Map<string, Reaccommodation[]>();
  for (const r of reaccommodations) {
    if (r.itineraryId === null) {
      const list = byCancelledFlight.get(r.fromFlight.id) ?? [];
      list.push(r);
      byCancelledFlight.set(r.fromFlight.id, list);
      continue;
    }
    // An itinerary's passengers (a connection broke or a leg is cancelled): passengers of one booking leave their journey before `fromFlight`.
    const booking = result.get(r.itineraryId);
    const at = booking?.flightIds.indexOf(r.fromFlight.id) ?? -1;
    if (!booking || booking.stranded || at < 0 || booking.passengers < r.passengers) return { conflict: { kind: 'passengers', subject: r.itineraryId } };
    move(booking, r.passengers, (ids) => (r.toFlights.length === 0 ? null : [...ids.slice(0, at), ...r.toFlights.map((f) => f.id)]));
  }
  for (const [flightId, entries] of byCancelledFlight) {
    // Everyone on a cancelled flight is in its entries; they are shared out over the flight's bookings in id order.
    const onFlight = [...result.values()].filter((b) => !b.stranded && b.flightIds.includes(flightId)).sort(byId);
    const booked = onFlight.reduce((sum, b) => sum + b.passengers, 0);
    if (booked !== entries.reduce((sum, r) => sum + r.passengers, 0)) return { conflict: { kind: 'passengers', subject: flightId } };
    let next = 0;
    for (const r of entries) {
      let left = r.passengers;
      while (left > 0) {
        const booking = onFlight[next]!;
        const take = Math.min(left, booking.passengers);
        const whole = take === booking.passengers;
        const replaced = r.toFlights.map((f) => f.id);
        move(booking, take, (ids) => (replaced.length === 0 ? null : ids.flatMap((id) => (id === flightId ? replaced : [id]))));
        left -= take;
        if (whole) next++;
      }
    }
  }
  return { bookings: [...result.values()].sort(byId) };
}

/**
 * The day with the plan of `target` (an earlier revision) restored on top of `current`: tails, planned
 * times, cancellations and bookings as they were then; actual times as they are now (facts are never
 * reverted). Refused when a flight that has left would be cancelled or flown by another aircraft.
 */
export function revertTo(current: DayState, target: DayState): DayChange {
  const then = flightsOf(target);
  const flights: DayFlight[] = [];
  for (const f of current.flights) {
    const old = then.get(f.id);
    if (!old) return { ok: false, conflict: { kind: 'unknown_flight', flightId: f.id } };
    if (hasDeparted(f) && (old.cancelled || old.tail !== f.tail)) return { ok: false, conflict: { kind: 'departed', flightId: f.id, offBlockMinutes: f.actual.offBlock! } };
    flights.push({ ...old, actual: f.actual });
  }
  return { ok: true, state: { flights, bookings: target.bookings.map((b) => ({ ...b, flightIds: [...b.flightIds] })) } };
}
