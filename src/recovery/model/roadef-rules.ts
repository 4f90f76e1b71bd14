// The ROADEF 2009 rules of what an aircraft may do, as the network engine's walk asks them
// (walk-rules.ts; spec: docs/spec/roadef2009.md 4.5 and 4.11). Beside them the walk keeps, for every
// adapter, the rules that are the problem's data: airport capacity (R32, R33), unavailability (R21),
// the check with its flying budget (R28-R31) and the window (R27).
import type { BlockedPeriod, RulesAircraft, RulesFlight, WalkRules } from './walk-rules.ts';

const MINUTES_PER_DAY = 1440;

/** R25, R26: ground time before `next` (null: a new flight) after flight `lastFlight`: transit when `next` continues it, else turn-round. */
export function groundMinutes(aircraft: RulesAircraft, lastFlight: string | null, next: RulesFlight | null): number {
  return next !== null && next.continues !== null && next.continues === lastFlight ? aircraft.transitMinutes : aircraft.turnaroundMinutes;
}

export const ROADEF_WALK_RULES: WalkRules = {
  // Any minute: the files write minutes.
  gridMinutes: 1,
  // Only what cannot be flown is cancelled; a later departure is the objective's to price.
  cancelFromDelayMinutes: Number.POSITIVE_INFINITY,
  // Before its first leg nothing holds an aircraft (the leg's own earliest departure does).
  earliestDeparture: (aircraft, lastArrMinutes, lastFlight, next) =>
    (lastArrMinutes === null ? Number.NEGATIVE_INFINITY : lastArrMinutes + groundMinutes(aircraft, lastFlight, next)),
  // R23.
  withinRange: (aircraft, blockMinutes) => blockMinutes <= aircraft.rangeMinutes,
  // Range is checked before a leg is timed (withinRange); continuity, the window and the problem's periods by the walk.
  allows: () => true,
  landed: () => {},
  readsAfterPeriods: departureReadsAfterPeriods,
};

/**
 * Spec 4.11: a departure pushed past midnight of its operating date is written without its +N, and
 * the official checker reads it so: a departure that reads as before the end of a period it follows
 * breaks R21 or R31 there.
 */
function departureReadsAfterPeriods(depMinutes: number, day: number, unavailability: readonly BlockedPeriod[], check: BlockedPeriod | null): boolean {
  const daysLater = Math.floor((depMinutes - day * MINUTES_PER_DAY) / MINUTES_PER_DAY);
  if (daysLater < 1) return true;
  const asRead = depMinutes - daysLater * MINUTES_PER_DAY;
  const follows = (p: BlockedPeriod) => p.endMinutes <= depMinutes && asRead < p.endMinutes;
  return !unavailability.some(follows) && !(check !== null && follows(check));
}
