// Minimum turnaround: the shortest ground time between an aircraft's arrival and its next departure.
// One rule decides it everywhere (schedule validation, the generator, the recovery model, the checker
// in the tests), so a plan and the schedule it came from are judged by the same numbers.

/** Minutes, most specific first: airport+fleet, then fleet, then airport, then the default. */
export interface TurnaroundRule {
  default_minutes: number;
  by_fleet: Record<string, number>;
  by_airport: Record<string, number>;
  by_airport_fleet: Record<string, Record<string, number>>;
}

/** Values used when a configuration does not say otherwise (documented in the README). */
export const DEFAULT_TURNAROUND: TurnaroundRule = {
  default_minutes: 35,
  by_fleet: { E190: 30, E195: 30, A319: 35, A320: 40, A321: 45 },
  // Slot-constrained, congested airports need longer ground times. A fleet value beats an airport
  // value, so the airports' longer times for listed fleets sit in by_airport_fleet.
  by_airport: { LHR: 50, CDG: 45 },
  by_airport_fleet: { LHR: { A319: 45, A320: 50, A321: 55 }, CDG: { A320: 45, A321: 50 } },
};

/** Minimum turnaround in minutes for a fleet at an airport; precedence as documented on TurnaroundRule. */
export function minTurnaroundMinutes(rule: TurnaroundRule, fleet: string, airport: string): number {
  return rule.by_airport_fleet[airport]?.[fleet]
    ?? rule.by_fleet[fleet]
    ?? rule.by_airport[airport]
    ?? rule.default_minutes;
}
