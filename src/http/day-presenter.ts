// Turns operational days (src/domain/day/, src/store/) into the JSON of the /days routes: field names,
// local times of the airport concerned, the alert sentences.
import type { DayAlert } from '../domain/day/alerts.ts';
import { estimatedTimes, type Booking, type DayFlight, type DayState } from '../domain/day/day.ts';
import { diffDays, type DayDiff } from '../domain/day/diff.ts';
import type { Schedule } from '../domain/schedule.ts';
import { formatLocal, formatUtc } from '../domain/time.ts';
import type { DayRecord, RevisionRecord } from '../store/day-store.ts';
import type { AlertsView, DayResponse, DaySummaryView, DiffView, RevisionView } from './day-schemas.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function localAt(schedule: Schedule, airport: string, minutes: number): string {
  return formatLocal(minutes, schedule.airports.get(airport)?.timeZone ?? 'UTC');
}

export function presentDaySummary(day: DayRecord): DaySummaryView {
  return {
    id: day.id, revision: day.revision, schedule_file: day.scheduleName,
    window: { from: formatUtc(day.window.fromMinutes), to: formatUtc(day.window.toMinutes) },
    created_at: iso(day.createdAtMs), updated_at: iso(day.updatedAtMs),
  };
}

function statusOf(flight: DayFlight): DayResponse['flights'][number]['status'] {
  if (flight.cancelled) return 'cancelled';
  const { actual } = flight;
  if (actual.onBlock !== null) return 'arrived';
  if (actual.landed !== null) return 'landed';
  if (actual.airborne !== null) return 'airborne';
  if (actual.offBlock !== null) return 'departed';
  return 'scheduled';
}

function bookingStatus(booking: Booking, original: ReadonlyMap<string, readonly string[]>): DayResponse['passengers'][number]['status'] {
  if (booking.stranded) return 'stranded';
  const journey = original.get(booking.id);
  return journey && journey.length === booking.flightIds.length && journey.every((id, i) => id === booking.flightIds[i]) ? 'booked' : 'rebooked';
}

/**
 * GET /days/{day_id}: the revision's flights (scheduled, planned, estimated, actual times) and its
 * passengers. `opened` is the day as opened (for what is booked and what was rebooked).
 */
export function presentDay(schedule: Schedule, day: DayRecord, state: DayState, opened: DayState): DayResponse {
  const estimates = estimatedTimes(schedule, state);
  const loads = new Map<string, number>();
  for (const b of state.bookings) for (const id of b.flightIds) loads.set(id, (loads.get(id) ?? 0) + b.passengers);
  const original = new Map(opened.bookings.map((b) => [b.id, b.flightIds]));
  return {
    ...presentDaySummary(day),
    flights: state.flights.map((f) => {
      const base = schedule.flightsById.get(f.id)!;
      const dep = (minutes: number) => localAt(schedule, base.origin, minutes);
      const arr = (minutes: number) => localAt(schedule, base.dest, minutes);
      const at = (minutes: number | null, local: (m: number) => string) => (minutes === null ? null : local(minutes));
      const estimate = estimates.get(f.id);
      return {
        id: f.id, flight_number: base.flightNumber, airline: base.airline, origin: base.origin, dest: base.dest,
        tail: f.tail, scheduled_tail: base.tail, status: statusOf(f),
        scheduled: { dep: dep(base.depMinutes), arr: arr(base.arrMinutes) },
        planned: { dep: dep(f.depMinutes), arr: arr(f.arrMinutes) },
        estimated: estimate ? { dep: dep(estimate.depMinutes), arr: arr(estimate.arrMinutes) } : null,
        actual: { off_block: at(f.actual.offBlock, dep), airborne: at(f.actual.airborne, dep), landed: at(f.actual.landed, arr), on_block: at(f.actual.onBlock, arr) },
        passengers: loads.get(f.id) ?? 0,
      };
    }),
    passengers: state.bookings.map((b) => ({
      booking_id: b.id, passengers: b.passengers, origin: b.origin, dest: b.dest, flights: [...b.flightIds], status: bookingStatus(b, original),
    })),
  };
}

function changesOf(diff: DayDiff): RevisionView['changes'] {
  const count = (pick: (t: DayDiff['tails'][number]) => readonly unknown[]) => diff.tails.reduce((sum, t) => sum + pick(t).length, 0);
  return {
    flights_retimed: count((t) => t.retimed), flights_moved: count((t) => t.movedIn), flights_cancelled: count((t) => t.cancelled),
    flights_reinstated: count((t) => t.reinstated), passengers_moved: diff.passengersMoved.reduce((sum, p) => sum + p.passengers, 0),
    movements: diff.movements.length,
  };
}

/** A revision with what it changed against the one before (`before` null for revision 1). */
export function presentRevision(revision: RevisionRecord, before: DayState | null, after: DayState): RevisionView {
  return {
    day_id: revision.dayId, number: revision.number, kind: revision.kind, created_at: iso(revision.createdAtMs),
    key_id: revision.keyId, operator: revision.operator,
    reason: { simulation_id: revision.simulationId, option_id: revision.optionId, reverted_to: revision.revertedTo },
    changes: changesOf(diffDays(before ?? after, after)),
  };
}

export function presentDiff(schedule: Schedule, dayId: string, fromRevision: number, toRevision: number, before: DayState, after: DayState): DiffView {
  const diff = diffDays(before, after);
  const dep = (id: string, minutes: number) => localAt(schedule, schedule.flightsById.get(id)!.origin, minutes);
  const arr = (id: string, minutes: number) => localAt(schedule, schedule.flightsById.get(id)!.dest, minutes);
  return {
    day_id: dayId, from_revision: fromRevision, to_revision: toRevision,
    tails: diff.tails.map((t) => ({
      tail: t.tail,
      retimed: t.retimed.map((r) => ({
        flight: r.flightId, from_dep: dep(r.flightId, r.fromDepMinutes), to_dep: dep(r.flightId, r.toDepMinutes),
        from_arr: arr(r.flightId, r.fromArrMinutes), to_arr: arr(r.flightId, r.toArrMinutes),
      })),
      moved_in: t.movedIn.map((m) => ({ flight: m.flightId, from_tail: m.fromTail })),
      moved_out: t.movedOut.map((m) => ({ flight: m.flightId, to_tail: m.toTail })),
      cancelled: [...t.cancelled],
      reinstated: [...t.reinstated],
    })),
    passengers_moved: diff.passengersMoved.map((p) => ({
      booking_id: p.bookingId, passengers: p.passengers, from_flights: p.fromFlightIds, to_flights: p.toFlightIds, stranded: p.stranded,
    })),
    movements: diff.movements.map((m) => ({
      flight: m.flightId,
      actual: {
        off_block: m.actual.offBlock === null ? null : dep(m.flightId, m.actual.offBlock), airborne: m.actual.airborne === null ? null : dep(m.flightId, m.actual.airborne),
        landed: m.actual.landed === null ? null : arr(m.flightId, m.actual.landed), on_block: m.actual.onBlock === null ? null : arr(m.flightId, m.actual.onBlock),
      },
    })),
  };
}

export function presentAlerts(schedule: Schedule, dayId: string, revision: number, alerts: readonly DayAlert[]): AlertsView {
  return {
    day_id: dayId, revision,
    alerts: alerts.map((a) => {
      if (a.type === 'connection') {
        return {
          type: a.type, booking_id: a.bookingId, passengers: a.passengers, arriving_flight: a.arrivingFlightId, departing_flight: a.departingFlightId, hub: a.hub,
          arrival: localAt(schedule, a.hub, a.arrivalMinutes), departure: localAt(schedule, a.hub, a.departureMinutes),
          min_connection_minutes: a.minConnectionMinutes, short_by_minutes: a.shortByMinutes,
          detail: `${a.passengers} passengers of ${a.bookingId} arrive at ${a.hub} on ${a.arrivingFlightId} ${a.shortByMinutes} minutes too late for ${a.departingFlightId} (minimum connection ${a.minConnectionMinutes} minutes).`,
        };
      }
      const dest = schedule.flightsById.get(a.flightId)!.dest;
      return {
        type: a.type, flight: a.flightId, crew_id: a.crewId, limit: localAt(schedule, dest, a.limitMinutes), arrival: localAt(schedule, dest, a.arrivalMinutes),
        excess_minutes: a.excessMinutes,
        detail: `Crew ${a.crewId} would end its flight-duty period on ${a.flightId} ${a.excessMinutes} minutes beyond its maximum.`,
      };
    }),
  };
}
