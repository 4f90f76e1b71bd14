// The rules of docs/model.md 1.3 that bind a plan's aircraft whoever reads the plan: each day
// continuous and turned in time from where the aircraft stands, each aircraft at L(a) in time for its
// first flight after the window (constraint 6), the fleet policy of every swap and the counts that
// constraints 3-5 limit. The checker (checker.ts, an engine's option) and the --against scorer
// (benchmarks/lib/plan-scorer.ts, any engine's actions) both read them here and word them for their
// own report; what else each checks (the checker a whole option's views and strategy, the scorer a
// foreign plan's scope) stays with it.
import { policyAllows, turnOf, type Leg, type OFlight, type Outcome, type Problem } from './model.ts';

/** One flight of an aircraft's day, as the outcome flies it. */
export interface DayLeg { id: string; origin: string; dest: string; dep: number; arr: number }

/** A break of one aircraft's day, in the order of the day. */
export type DayBreak =
  /** prev then next on tail: not continuous (prev.dest ≠ next.origin), or turned in `turn` < `need` min (`short`), or both. */
  | { kind: 'pair'; tail: string; prev: DayLeg; next: DayLeg; continuous: boolean; short: boolean; turn: number; need: number }
  /** The day's first flight leaves from elsewhere than where the aircraft stands. */
  | { kind: 'start'; tail: string; first: DayLeg; station: string };

/** An aircraft of K that is not at its next scheduled flight's origin, ready, by its departure. */
export interface EndBreak { station: string; ready: number; after: OFlight }

/** A swapped flight whose aircraft the fleet policy does not let fly it. */
export interface PolicyBreak { tail: string; fleet: string; plannedFleet: string }

export interface AircraftRuleBreaks {
  /** Every flown aircraft's day (all flights of the airline), aircraft by first flight in schedule order. */
  days: DayBreak[];
  /** By tail of K. */
  ends: Map<string, EndBreak>;
  /** By flight id. */
  policy: Map<string, PolicyBreak>;
  /** Flights flown by another aircraft than planned (constraint 3). */
  swaps: number;
  /** Flights cancelled besides the disrupted ones (constraints 4-5). */
  cancelled: number;
}

/** The breaks of these rules under an outcome; `routes` are routeOf(p, o, tail) of every tail of K. */
export function aircraftRuleBreaks(p: Problem, o: Outcome, routes: ReadonlyMap<string, Leg[]>): AircraftRuleBreaks {
  const dayOf = new Map<string, DayLeg[]>();
  const policy = new Map<string, PolicyBreak>();
  let swaps = 0;
  let cancelled = 0;
  for (const f of p.airlineFlights) {
    const a = o.get(f.id)!;
    if (!a.flown) { if (!p.disruptedCancelled.has(f.id)) cancelled++; continue; }
    if (!dayOf.has(a.tail)) dayOf.set(a.tail, []);
    dayOf.get(a.tail)!.push({ id: f.id, origin: f.origin, dest: f.dest, dep: a.dep, arr: a.arr });
    if (a.tail === f.tail) continue;
    swaps++;
    const flying = p.aircraft.get(a.tail);
    const plannedFleet = p.aircraft.get(f.tail)!.fleet;
    if (flying && !policyAllows(p, flying.fleet, plannedFleet)) policy.set(f.id, { tail: a.tail, fleet: flying.fleet, plannedFleet });
  }
  const days: DayBreak[] = [];
  for (const [tail, day] of dayOf) {
    day.sort((x, y) => x.dep - y.dep);
    for (let i = 1; i < day.length; i++) {
      const [prev, next] = [day[i - 1]!, day[i]!];
      const continuous = prev.dest === next.origin;
      const need = turnOf(p, tail, prev.dest);
      const turn = next.dep - prev.arr;
      const short = turn < need;
      if (!continuous || short) days.push({ kind: 'pair', tail, prev, next, continuous, short, turn, need });
    }
    const init = p.init.get(tail);
    if (init && !init.lastDeparted && day.length > 0 && day[0]!.origin !== init.station) days.push({ kind: 'start', tail, first: day[0]!, station: init.station });
  }
  const ends = new Map<string, EndBreak>();
  for (const tail of p.K) {
    const after = p.afterWindow.get(tail);
    if (!after) continue;
    const legs = routes.get(tail)!;
    const station = legs.length > 0 ? legs[legs.length - 1]!.f.dest : p.init.get(tail)!.station;
    const ready = legs.length > 0 ? legs[legs.length - 1]!.arr + turnOf(p, tail, station) : p.init.get(tail)!.ready;
    if (station !== after.origin || ready > after.sdep) ends.set(tail, { station, ready, after });
  }
  return { days, ends, policy, swaps, cancelled };
}
