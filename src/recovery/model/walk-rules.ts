// What an aircraft may do, as the network engine's walk (network/operating-plan.ts) asks it: one
// interface, one implementation per adapter. The walk keeps the mechanics (time order, airport
// capacity first come first served, the problem's unavailability and checks, cancelling what cannot be
// flown, the plan changes); the rules answer when an aircraft may leave again, whether it may fly a
// leg then, and how departures are read. The ROADEF 2009 rules are `ROADEF_WALK_RULES`
// (roadef-rules.ts); the service's are the leg rules of rules.ts, the turnaround table and the
// scope's checks (`ServiceWalkRules`, network/scope-walk.ts). Docs: docs/model.md 4.2.
//
// The types below are what the rules read of the engine's aircraft and flights (network/problem.ts's
// NetworkAircraft and NetworkFlight are such), so that this room imports no engine.

/** An aircraft as the rules read it. */
export interface RulesAircraft {
  tail: string;
  /** Longest leg it may fly, block minutes. */
  rangeMinutes: number;
  turnaroundMinutes: number;
  /** Ground time before a flight that continues the one it just flew. */
  transitMinutes: number;
}

/** A planned flight as the rules read it. */
export interface RulesFlight {
  id: string;
  flightNumber: string;
  /** The flight number it continues on the same aircraft, null if none. */
  continues: string | null;
}

/** A period [startMinutes, endMinutes) in which an aircraft flies nothing (an unavailability, a check). */
export interface BlockedPeriod { startMinutes: number; endMinutes: number }

export interface WalkRules {
  /** Departures leave on a grid of so many minutes counted from each leg's earliest departure (1: any minute). */
  readonly gridMinutes: number;
  /**
   * A leg that would leave this many minutes or more after its earliest departure (PlanChanges.notBefore)
   * is cancelled, with the legs after it up to one from where its aircraft stands (Infinity: only what
   * cannot be flown).
   */
  readonly cancelFromDelayMinutes: number;
  /**
   * The earliest `aircraft` may leave on `next` (null: a new flight, which continues nothing), having
   * last landed at `lastArrMinutes` from flight `lastFlight` (both null before it flew any; `lastFlight`
   * null after a new flight): its ground time, and what it must do on the ground. Rules that follow
   * the aircraft (the service's) answer from the landings they were told of (`landed`); the walk asks
   * of a landing it only supposes (before the problem's check, NetworkAircraft.check) only on problems
   * that state such checks, which the service's do not.
   */
  earliestDeparture(aircraft: RulesAircraft, lastArrMinutes: number | null, lastFlight: string | null, next: RulesFlight | null): number;
  /** Whether a leg of `blockMinutes` is within `aircraft`'s range (a new flight's too). */
  withinRange(aircraft: RulesAircraft, blockMinutes: number): boolean;
  /** Whether `aircraft` may fly planned `flight` from `station` leaving at `depMinutes` (the leg rules). */
  allows(aircraft: RulesAircraft, flight: RulesFlight, station: string, depMinutes: number): boolean;
  /** Told of each planned flight `aircraft` flies (a rule that follows the aircraft keeps its state here). */
  landed(aircraft: RulesAircraft, flight: RulesFlight, depMinutes: number, arrMinutes: number): void;
  /**
   * Whether a departure at `depMinutes` of a flight of operating date `day` (days since 1970-01-01)
   * still reads as after the end of every period of `unavailability` and `check` it follows, as the
   * files of the adapter write it.
   */
  readsAfterPeriods(depMinutes: number, day: number, unavailability: readonly BlockedPeriod[], check: BlockedPeriod | null): boolean;
}
