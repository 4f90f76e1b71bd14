// A recovery plan's parts as plain domain data: timed legs, rotations, delays, swaps, cancellations,
// re-accommodations and the soft rules a plan breaks. Instants are epoch minutes (time.ts). The engines
// produce them (src/recovery/), the presenter words them (src/http/), and a plan can be applied to an
// operational day without either.
import type { CrewDuty, Flight, MaintenanceCheck } from './schedule.ts';

/** One flight as an aircraft flies it in a plan. */
export interface TimedLeg { flight: Flight; depMinutes: number; arrMinutes: number; delayMinutes: number }

/** An aircraft's timed rotation in a plan (the whole re-planned part of its day). */
export interface AircraftRotation {
  tail: string;
  legs: TimedLeg[];
  /** Checks performed, each after leg `afterLeg` (-1: before the first leg). */
  checks: { check: MaintenanceCheck; afterLeg: number }[];
  /** Where the aircraft is at the end of the plan, and where the rest of the schedule needs it. */
  endStation: string;
  requiredEndStation: string;
  /** True when the plan charges aircraft_position for it (it ends the day elsewhere than required). */
  outOfPosition: boolean;
}

export interface Delay { flight: Flight; tail: string; delayMinutes: number; depMinutes: number; arrMinutes: number }
export interface Swap { flight: Flight; fromTail: string; toTail: string }
export interface Cancellation { flight: Flight; passengers: number }
export interface Reaccommodation {
  /**
   * The cancelled flight, or for a misconnection the flight the passengers do not take: the first one
   * they miss, or, when they are re-accommodated from an earlier hub of their itinerary, the flight
   * they would have taken from there.
   */
  fromFlight: Flight;
  /** The new journey, in order; empty when the passengers could not be re-accommodated. */
  toFlights: Flight[];
  passengers: number;
  reason: 'cancellation' | 'misconnection';
  /**
   * For an itinerary's passengers, the itinerary (reason: a leg of it cancelled, or a connection of it
   * broken); null for the passengers of a cancelled flight who were going no further.
   */
  itineraryId: string | null;
}

/**
 * A maintenance check the plan misses. `flight` is the flight whose arrival at the check's station
 * comes after the check's start (`arrivalMinutes`); when the aircraft never reaches the station
 * after that start, `flight` is the last flight it leaves on before the check (or null when it flies
 * none) and `arrivalMinutes` is null.
 */
export interface MaintenanceViolation {
  type: 'maintenance';
  tail: string;
  check: MaintenanceCheck;
  flight: Flight | null;
  arrivalMinutes: number | null;
}

/** A flight arriving after its crew's maximum flight-duty period ends. */
export interface CrewDutyViolation {
  type: 'crew_duty';
  flight: Flight;
  crew: CrewDuty;
  limitMinutes: number;
  arrMinutes: number;
}

export type Violation = MaintenanceViolation | CrewDutyViolation;
