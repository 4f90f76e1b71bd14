// What the day's estimated times break that a controller must hear about: a passenger connection that
// no longer holds (arrival plus the hub's minimum connection time after the next departure), and a
// crew arriving after the end of its maximum flight-duty period. Computed on a revision, never stored.
import type { Schedule } from '../schedule.ts';
import { estimatedTimes } from './day.ts';
import type { DayState } from './day.ts';

export type DayAlert =
  | {
    type: 'connection'; bookingId: string; passengers: number; arrivingFlightId: string; departingFlightId: string; hub: string;
    arrivalMinutes: number; departureMinutes: number; minConnectionMinutes: number; shortByMinutes: number;
  }
  | { type: 'crew_duty'; flightId: string; crewId: string; limitMinutes: number; arrivalMinutes: number; excessMinutes: number };

/** The alerts of a revision, connections first (by booking), then crews (by flight, crew). */
export function alertsOf(schedule: Schedule, state: DayState): DayAlert[] {
  const estimates = estimatedTimes(schedule, state);
  const alerts: DayAlert[] = [];
  for (const b of state.bookings) {
    for (let i = 1; i < b.flightIds.length; i++) {
      const arriving = estimates.get(b.flightIds[i - 1]!);
      const departing = estimates.get(b.flightIds[i]!);
      if (!arriving || !departing) continue;
      const hub = schedule.flightsById.get(b.flightIds[i]!)!.origin;
      const mct = schedule.airports.get(hub)?.minConnectionMinutes ?? 0;
      const short = arriving.arrMinutes + mct - departing.depMinutes;
      if (short > 0) {
        alerts.push({
          type: 'connection', bookingId: b.id, passengers: b.passengers, arrivingFlightId: b.flightIds[i - 1]!, departingFlightId: b.flightIds[i]!, hub,
          arrivalMinutes: arriving.arrMinutes, departureMinutes: departing.depMinutes, minConnectionMinutes: mct, shortByMinutes: short,
        });
      }
    }
  }
  const crewAlerts: DayAlert[] = [];
  for (const duty of schedule.crew) {
    const limitMinutes = duty.dutyStartMinutes + duty.maxDutyMinutes;
    for (const flightId of duty.flightIds) {
      const estimate = estimates.get(flightId);
      if (estimate && estimate.arrMinutes > limitMinutes) {
        crewAlerts.push({ type: 'crew_duty', flightId, crewId: duty.crewId, limitMinutes, arrivalMinutes: estimate.arrMinutes, excessMinutes: estimate.arrMinutes - limitMinutes });
      }
    }
  }
  crewAlerts.sort((a, b) => (a.type === 'crew_duty' && b.type === 'crew_duty' ? (a.flightId < b.flightId ? -1 : a.flightId > b.flightId ? 1 : a.crewId < b.crewId ? -1 : 1) : 0));
  return [...alerts, ...crewAlerts];
}
