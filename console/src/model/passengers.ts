// The passengers an option disrupts, group by group, from the option's `action_set.reaccommodations`
// and the day's snapshot (scheduled times, booked passengers, seats). Moved groups get their new
// journey, the arrival it gives them in this plan and how late that is; groups left without a journey
// (compensated under EU261) get why, as facts read off the plan: no later flight to their destination,
// every later flight full, or the first one with a seat landing that late.
//
// The arrival delay is measured at the destination of the flight the group does not take
// (`from_flight`), against its scheduled arrival: the group's destination for a cancelled flight's own
// passengers and for an itinerary of two flights broken at its connection. A booking of several flights
// goes on to where it ends (docs/model.md 1.6), beyond that flight when one of its legs is cancelled or
// it leaves from an earlier hub; the delay is then left unknown rather than guessed.
import type { RecoveryOption } from '../api/wire.ts';
import type { DaySchedule } from './gantt-model.ts';
import { duration, parseInstant } from './time-axis.ts';

export interface FlightRef {
  flight: string;
  origin: string;
  dest: string;
  /** Departure and arrival in this plan (the rotation's times, else the schedule's). */
  depMs: number;
  arrMs: number;
}

export interface MovedGroup {
  fromFlight: FlightRef;
  reason: 'cancellation' | 'misconnection';
  itineraryId: string | null;
  passengers: number;
  toFlights: FlightRef[];
  /** Arrival of the new journey's last flight in this plan. */
  newArrivalMs: number;
  /** newArrival − the scheduled arrival of from_flight, minutes; null when the journey ends elsewhere. */
  arrivalDelayMinutes: number | null;
}

export type StrandedWhy = 'no_flight' | 'no_seat' | 'too_late';

export interface StrandedGroup {
  fromFlight: FlightRef;
  reason: 'cancellation' | 'misconnection';
  itineraryId: string | null;
  passengers: number;
  why: StrandedWhy;
  /** The facts behind `why`, as the end of a sentence ("the first later flight … lands 4 h 45 min after …"). */
  whyDetail: string;
}

export interface OptionPassengers {
  moved: MovedGroup[];
  stranded: StrandedGroup[];
  /** Passengers disrupted that no group lists: those a smaller aircraft could not take (spilled). */
  spilled: number;
}

const numberOf = (flight: string) => flight.split('_')[0] ?? flight;

/** The passenger groups of an option, moved ones by arrival delay (largest first), stranded ones by size. */
export function optionPassengers(day: DaySchedule, option: RecoveryOption): OptionPassengers {
  const plan = planOf(day, option);
  const takenSeats = new Map<string, number>();
  for (const r of option.action_set.reaccommodations) for (const id of r.to_flights) takenSeats.set(id, (takenSeats.get(id) ?? 0) + r.passengers);

  const moved: MovedGroup[] = [];
  const stranded: StrandedGroup[] = [];
  for (const r of option.action_set.reaccommodations) {
    const from = plan.scheduled(r.from_flight);
    const base = { fromFlight: from, reason: r.reason, itineraryId: r.itinerary_id, passengers: r.passengers };
    if (r.to_flights.length) {
      const toFlights = r.to_flights.map((id) => plan.flown(id));
      const last = toFlights[toFlights.length - 1]!;
      moved.push({ ...base, toFlights, newArrivalMs: last.arrMs, arrivalDelayMinutes: last.dest === from.dest ? Math.round((last.arrMs - from.arrMs) / 60_000) : null });
    } else {
      stranded.push({ ...base, ...whyStranded(day, plan, takenSeats, from, r.from_flight) });
    }
  }
  moved.sort((a, b) => (b.arrivalDelayMinutes ?? Infinity) - (a.arrivalDelayMinutes ?? Infinity) || b.passengers - a.passengers);
  stranded.sort((a, b) => b.passengers - a.passengers);
  const listed = option.action_set.reaccommodations.reduce((sum, r) => sum + r.passengers, 0);
  return { moved, stranded, spilled: Math.max(0, option.summary.passengers_disrupted - listed) };
}

interface Plan {
  /** The flight as scheduled (the snapshot). */
  scheduled(flight: string): FlightRef;
  /** The flight as this plan flies it. */
  flown(flight: string): FlightRef;
  cancelled: Set<string>;
  tailOf(flight: string): string | undefined;
}

function planOf(day: DaySchedule, option: RecoveryOption): Plan {
  const legs = new Map<string, { tail: string; depMs: number; arrMs: number }>();
  for (const rotation of option.rotations) for (const leg of rotation.legs) legs.set(leg.flight, { tail: rotation.tail, depMs: parseInstant(leg.dep), arrMs: parseInstant(leg.arr) });
  const scheduled = (flight: string): FlightRef => {
    const bar = day.flightsById.get(flight)?.flight;
    // A flight the snapshot does not have (another airline's window): its id still says when it leaves.
    if (!bar) return { flight, origin: '?', dest: '?', depMs: parseInstant(flight.split('_')[1] ?? ''), arrMs: Number.NaN };
    return { flight, origin: bar.origin, dest: bar.dest, depMs: bar.depMs, arrMs: bar.arrMs };
  };
  return {
    scheduled,
    flown: (flight) => {
      const leg = legs.get(flight);
      return leg ? { ...scheduled(flight), depMs: leg.depMs, arrMs: leg.arrMs } : scheduled(flight);
    },
    cancelled: new Set(option.action_set.cancellations.map((c) => c.flight)),
    tailOf: (flight) => legs.get(flight)?.tail ?? day.flightsById.get(flight)?.tail,
  };
}

/**
 * Why a group has no journey, from the later direct flights from where it is to where it was going
 * (leaving after the flight it does not take): none flown, none with a free seat in this plan (seats of
 * the aircraft that flies it, less its booked passengers and those this plan moves onto it), or the
 * first with a seat landing that late.
 */
function whyStranded(day: DaySchedule, plan: Plan, takenSeats: Map<string, number>, from: FlightRef, fromId: string): { why: StrandedWhy; whyDetail: string } {
  const airline = day.flightsById.get(fromId)?.airline;
  const later = [...day.flightsById.entries()]
    .filter(([id, f]) => id !== fromId && f.airline === airline && f.flight.origin === from.origin && f.flight.dest === from.dest
      && f.flight.depMs > from.depMs && !plan.cancelled.has(id))
    .map(([id]) => plan.flown(id))
    .sort((a, b) => a.depMs - b.depMs);
  const route = `${from.origin}→${from.dest}`;
  if (!later.length) return { why: 'no_flight', whyDetail: `no later flight ${route} in the day's schedule.` };
  const free = (ref: FlightRef) => {
    const tail = plan.tailOf(ref.flight);
    const seats = tail === undefined ? 0 : day.seatsByTail.get(tail) ?? 0;
    return seats - (day.flightsById.get(ref.flight)?.flight.passengers ?? 0) - (takenSeats.get(ref.flight) ?? 0);
  };
  const withSeat = later.find((ref) => free(ref) > 0);
  if (!withSeat) {
    const names = later.slice(0, 4).map((ref) => numberOf(ref.flight)).join(', ') + (later.length > 4 ? ', …' : '');
    return { why: 'no_seat', whyDetail: `${later.length === 1 ? 'the one later flight' : `all ${later.length} later flights`} ${route} (${names}) ${later.length === 1 ? 'is' : 'are'} full in this plan.` };
  }
  const lateMinutes = Math.round((withSeat.arrMs - from.arrMs) / 60_000);
  return {
    why: 'too_late',
    whyDetail: `the first later flight ${route} with a free seat, ${numberOf(withSeat.flight)} (${free(withSeat)} free), lands ${duration(lateMinutes)} after the planned arrival.`,
  };
}

/** The groups as the exported JSON carries them (UTC instants, the service's field style). */
export function passengersJson(passengers: OptionPassengers): object {
  const iso = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));
  const ref = (f: FlightRef) => f.flight;
  return {
    moved: passengers.moved.map((g) => ({
      from_flight: ref(g.fromFlight), reason: g.reason, itinerary_id: g.itineraryId, passengers: g.passengers,
      to_flights: g.toFlights.map(ref), new_arrival: iso(g.newArrivalMs), arrival_delay_minutes: g.arrivalDelayMinutes,
    })),
    stranded: passengers.stranded.map((g) => ({
      from_flight: ref(g.fromFlight), reason: g.reason, itinerary_id: g.itineraryId, passengers: g.passengers, why: g.why, why_detail: g.whyDetail,
    })),
    spilled: passengers.spilled,
  };
}
