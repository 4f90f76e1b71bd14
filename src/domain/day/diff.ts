// What one revision of a day changed against another, per aircraft (flights retimed, moved to or from
// it, cancelled, reinstated), for the passengers (bookings moved), and in actual times recorded.
import type { ActualTimes, Booking, DayState } from './day.ts';

export interface TailChanges {
  tail: string;
  retimed: { flightId: string; fromDepMinutes: number; toDepMinutes: number; fromArrMinutes: number; toArrMinutes: number }[];
  movedIn: { flightId: string; fromTail: string }[];
  movedOut: { flightId: string; toTail: string }[];
  cancelled: string[];
  reinstated: string[];
}

export interface PassengersMoved {
  bookingId: string;
  passengers: number;
  /** The journey before (of the booking it was split from, for a new booking). */
  fromFlightIds: string[];
  toFlightIds: string[];
  stranded: boolean;
}

export interface DayDiff {
  /** Aircraft with a change, ordered by tail. */
  tails: TailChanges[];
  passengersMoved: PassengersMoved[];
  /** Flights whose actual times changed, with their actual times after. */
  movements: { flightId: string; actual: ActualTimes }[];
}

const sameActuals = (a: ActualTimes, b: ActualTimes) => a.offBlock === b.offBlock && a.airborne === b.airborne && a.landed === b.landed && a.onBlock === b.onBlock;

/** What `after` changes in `before` (two revisions of the same day). */
export function diffDays(before: DayState, after: DayState): DayDiff {
  const old = new Map(before.flights.map((f) => [f.id, f]));
  const tails = new Map<string, TailChanges>();
  const of = (tail: string) => {
    let changes = tails.get(tail);
    if (!changes) tails.set(tail, (changes = { tail, retimed: [], movedIn: [], movedOut: [], cancelled: [], reinstated: [] }));
    return changes;
  };
  const movements: DayDiff['movements'] = [];
  for (const f of after.flights) {
    const o = old.get(f.id);
    if (!o) continue;
    if (!o.cancelled && f.cancelled) of(o.tail).cancelled.push(f.id);
    if (o.cancelled && !f.cancelled) of(f.tail).reinstated.push(f.id);
    if (o.tail !== f.tail) {
      of(f.tail).movedIn.push({ flightId: f.id, fromTail: o.tail });
      of(o.tail).movedOut.push({ flightId: f.id, toTail: f.tail });
    }
    if (o.depMinutes !== f.depMinutes || o.arrMinutes !== f.arrMinutes) {
      of(f.tail).retimed.push({ flightId: f.id, fromDepMinutes: o.depMinutes, toDepMinutes: f.depMinutes, fromArrMinutes: o.arrMinutes, toArrMinutes: f.arrMinutes });
    }
    if (!sameActuals(o.actual, f.actual)) movements.push({ flightId: f.id, actual: f.actual });
  }
  const oldBookings = new Map(before.bookings.map((b) => [b.id, b]));
  const passengersMoved: PassengersMoved[] = [];
  for (const b of after.bookings) {
    const o: Booking | undefined = oldBookings.get(b.id) ?? oldBookings.get(b.id.split('@')[0]!);
    if (o && o.id === b.id && sameJourney(o, b)) continue;
    passengersMoved.push({ bookingId: b.id, passengers: b.passengers, fromFlightIds: o ? [...o.flightIds] : [], toFlightIds: [...b.flightIds], stranded: b.stranded });
  }
  return { tails: [...tails.values()].sort((a, b) => (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0)), passengersMoved, movements };
}

/** Same journey and status (a booking that only lost the passengers split off it moved nobody itself). */
function sameJourney(a: Booking, b: Booking): boolean {
  return a.stranded === b.stranded && a.flightIds.length === b.flightIds.length && a.flightIds.every((id, i) => id === b.flightIds[i]);
}
