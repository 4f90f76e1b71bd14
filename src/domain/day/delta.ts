// A day's state as what differs from the day as opened (openDay): the flights whose plan or actual
// times changed, the bookings that are new or changed, the ids of those gone. This is what a revision
// stores and what a simulation request carries to the simulation thread or a job worker: a day with
// a few decisions is a few kilobytes, not the whole schedule (tens of kilobytes after a full day of
// movements, since every flown flight then has its actual times).
import type { Booking, DayFlight, DayState } from './day.ts';

export interface DayDelta {
  flights: DayFlight[];
  bookings: Booking[];
  removedBookingIds: string[];
}

const sameFlight = (a: DayFlight, b: DayFlight) => a.tail === b.tail && a.depMinutes === b.depMinutes && a.arrMinutes === b.arrMinutes
  && a.cancelled === b.cancelled && a.actual.offBlock === b.actual.offBlock && a.actual.airborne === b.actual.airborne
  && a.actual.landed === b.actual.landed && a.actual.onBlock === b.actual.onBlock;

export const sameBooking = (a: Booking, b: Booking) => a.passengers === b.passengers && a.stranded === b.stranded
  && a.origin === b.origin && a.dest === b.dest && a.flightIds.length === b.flightIds.length && a.flightIds.every((id, i) => id === b.flightIds[i]);

/** What `state` changes in `opened` (the same day as openDay made it). */
export function deltaOf(opened: DayState, state: DayState): DayDelta {
  const before = new Map(opened.flights.map((f) => [f.id, f]));
  const flights = state.flights.filter((f) => !sameFlight(before.get(f.id)!, f));
  const openedBookings = new Map(opened.bookings.map((b) => [b.id, b]));
  const bookings = state.bookings.filter((b) => { const o = openedBookings.get(b.id); return !o || !sameBooking(o, b); });
  const kept = new Set(state.bookings.map((b) => b.id));
  return { flights, bookings, removedBookingIds: opened.bookings.filter((b) => !kept.has(b.id)).map((b) => b.id) };
}

/** The state `delta` describes on top of `opened`; flights keep the schedule's order, bookings are ordered by id. */
export function applyDelta(opened: DayState, delta: DayDelta): DayState {
  const changed = new Map(delta.flights.map((f) => [f.id, f]));
  const removed = new Set(delta.removedBookingIds);
  const replaced = new Map(delta.bookings.map((b) => [b.id, b]));
  const bookings = opened.bookings.filter((b) => !removed.has(b.id) && !replaced.has(b.id));
  bookings.push(...delta.bookings);
  bookings.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { flights: opened.flights.map((f) => changed.get(f.id) ?? f), bookings };
}
