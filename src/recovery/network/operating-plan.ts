// The reference plan of spec 6.1, the baseline every ROADEF 2009 solver must beat: planned rotations
// kept, disruption delays propagated, what cannot be flown cancelled, passengers whose trip broke
// cancelled after the part they had already flown. It swaps no aircraft and re-routes nobody.
//
// The same walk is the engine's operating plan (engine-solver.ts): given PlanChanges (holds, legs
// given to another aircraft or cancelled, new flights after an aircraft's last leg, ferries to end
// positions), it keeps every aircraft, airport and maintenance rule around them, cancelling what then
// cannot be flown.
//
// Engine side: it reads the format's types but shares no code with the scorer (which must judge it).
import {
  SHUTTLE_FAMILY, routeKey,
  type Cabin, type Itinerary, type PlannedLeg, type RoadefAircraft, type RoadefInstance,
} from '../../formats/roadef-2009/instance.ts';
import type { RoadefSolution, SolutionLeg, SolutionLine } from '../../formats/roadef-2009/solution.ts';
import { MINUTES_PER_DAY, legKey } from '../../formats/roadef-2009/text.ts';
import { MAX_OUTBOUND_DELAY_MINUTES, MIN_CONNECTION_MINUTES, bookingClass, disruptionDelays, fixedPart, priceText } from './bookings.ts';

interface Period { startMinutes: number; endMinutes: number }

/** Movements booked per airport and clock hour, against the capacity rule of spec 4.6. */
class AirportSlots {
  private readonly used = new Map<string, number>();
  constructor(private readonly instance: RoadefInstance) {}

  private capacity(airport: string, hour: number): { departures: number; arrivals: number } | null {
    const start = hour * 60;
    for (const c of this.instance.capacityReductions) if (c.airport === airport && c.startMinutes <= start && start < c.endMinutes) return c;
    const minute = ((start % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
    return this.instance.airportCapacity.get(airport)?.find((w) => w.fromMinute <= minute && minute < w.toMinute) ?? null;
  }

  free(airport: string, minute: number, kind: 'departures' | 'arrivals'): boolean {
    const hour = Math.floor(minute / 60);
    const cap = this.capacity(airport, hour);
    return cap === null || (this.used.get(`${kind} ${airport} ${hour}`) ?? 0) < cap[kind];
  }

  book(origin: string, dep: number, dest: string, arr: number): void {
    for (const [kind, airport, minute] of [['departures', origin, dep], ['arrivals', dest, arr]] as const) {
      const key = `${kind} ${airport} ${Math.floor(minute / 60)}`;
      this.used.set(key, (this.used.get(key) ?? 0) + 1);
    }
  }
}

/** Minutes a flight to the maintenance airport is planned to land before the check starts, for airport capacity to push it. */
const FERRY_SLACK_MINUTES = 60;

/** One aircraft walking through its planned legs. */
interface Walk {
  aircraft: RoadefAircraft;
  legs: PlannedLeg[];
  next: number;
  location: string;
  /** Arrival of its last flown leg (null before any). */
  readyAt: number | null;
  lastFlight: number;
  /** Minutes flown on legs departing before its maintenance starts. */
  flownBeforeMaintenance: number;
  /** Its maintenance is behind it (or cannot be influenced any more). */
  maintenanceSettled: boolean;
  /** Its periods out of service (alt_aircraft.csv). */
  unavailability: Period[];
}

interface Flown { dep: number; arr: number; aircraft: string }

function byPlannedTime(a: PlannedLeg, b: PlannedLeg): number {
  return a.depMinutes - b.depMinutes || a.arrMinutes - b.arrMinutes || a.flight - b.flight;
}

/** A min-heap of walks keyed by the earliest start of their next leg. */
class WalkQueue {
  private readonly heap: { key: number; order: number; walk: Walk }[] = [];
  push(key: number, order: number, walk: Walk): void {
    const h = this.heap;
    h.push({ key, order, walk });
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }
  pop(): { key: number; order: number; walk: Walk } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(l, m)) m = l;
        if (r < h.length && this.less(r, m)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
  private less(i: number, j: number): boolean {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    return a.key < b.key || (a.key === b.key && a.order < b.order);
  }
}

class ReferencePlanner {
  private readonly S: number;
  private readonly E: number;
  private readonly delay: ReadonlyMap<string, number>;
  private readonly flown = new Map<string, Flown>();
  private readonly cancelled = new Set<string>();
  private readonly newFlights: SolutionLeg[] = [];
  private readonly slots: AirportSlots;
  private nextFlightNumber: number;

  constructor(private readonly instance: RoadefInstance, private readonly changes: PlanChanges = {}) {
    this.S = instance.config.windowStartMinutes;
    this.E = instance.config.windowEndMinutes;
    this.delay = disruptionDelays(instance);
    this.slots = new AirportSlots(instance);
    this.nextFlightNumber = Math.max(0, ...instance.flights.keys()) + 1;
  }

  private isShuttle(leg: PlannedLeg): boolean {
    return this.instance.aircraft.get(leg.aircraft)!.family === SHUTTLE_FAMILY;
  }

  /** Legs the solver may not move: disrupted, departed before the window, or shuttles (spec 4.3). */
  private anchored(leg: PlannedLeg): boolean {
    return this.delay.has(leg.key) || leg.depMinutes < this.S || this.isShuttle(leg);
  }

  /** The aircraft that is to fly a leg: its planned one unless the changes move a leg the solver may move. */
  private aircraftOf(leg: PlannedLeg): string {
    return this.anchored(leg) ? leg.aircraft : this.changes.aircraft?.get(leg.key) ?? leg.aircraft;
  }

  /** The earliest departure the plan allows a movable leg: its planned one, or later when the changes hold it. */
  private notBefore(leg: PlannedLeg): number {
    return Math.max(leg.depMinutes, this.changes.notBefore?.get(leg.key) ?? leg.depMinutes);
  }

  private duration(leg: PlannedLeg): number {
    return leg.arrMinutes - leg.depMinutes;
  }

  /** Step 1: anchored legs keep their aircraft and their (delayed) times; their movements are booked first. */
  private placeAnchoredLegs(): void {
    for (const leg of this.instance.legs) if (this.changes.cancel?.has(leg.key) && !this.anchored(leg)) this.cancelled.add(leg.key);
    for (const leg of this.instance.legs) {
      if (!this.anchored(leg)) continue;
      const d = this.delay.get(leg.key) ?? 0;
      if (d === -1) { this.cancelled.add(leg.key); continue; }
      const placed = { dep: leg.depMinutes + d, arr: leg.arrMinutes + d, aircraft: leg.aircraft };
      this.flown.set(leg.key, placed);
      if (!this.isShuttle(leg)) this.slots.book(this.origin(leg), placed.dep, this.dest(leg), placed.arr);
    }
  }

  private origin(leg: PlannedLeg): string { return this.instance.flights.get(leg.flight)!.origin; }
  private dest(leg: PlannedLeg): string { return this.instance.flights.get(leg.flight)!.dest; }

  private fly(walk: Walk, flight: number, dest: string, dep: number, arr: number): void {
    const m = walk.aircraft.maintenance;
    if (m && dep < m.startMinutes) walk.flownBeforeMaintenance += arr - dep;
    if (m && dep >= m.startMinutes) walk.maintenanceSettled = true;
    walk.location = dest;
    walk.readyAt = arr;
    walk.lastFlight = flight;
  }

  /** Consume anchored legs at the head of the walk (already placed in step 1). */
  private consumeAnchored(walk: Walk): void {
    while (walk.next < walk.legs.length && this.anchored(walk.legs[walk.next]!)) {
      const leg = walk.legs[walk.next++]!;
      const placed = this.flown.get(leg.key);
      if (placed) this.fly(walk, leg.flight, this.dest(leg), placed.dep, placed.arr);
    }
  }

  private groundMinutes(walk: Walk, flight: number): number {
    const previous = this.instance.flights.get(flight)?.previous ?? 0;
    return previous !== 0 && previous === walk.lastFlight ? walk.aircraft.transitMinutes : walk.aircraft.turnRoundMinutes;
  }

  /**
   * The earliest start at or after `earliest` for a leg of `durationMinutes` from `origin` to `dest`:
   * pushed past unavailability and maintenance, then (when `capacity`) to the next hour while its
   * departure or arrival hour is full. Null when it would land after `landBy`, or when a departure
   * pushed past midnight of `day` would read, without its +N, as before the end of a period it follows
   * (the official checker reads it so, spec 4.11).
   */
  private earliestStart(walk: Walk, origin: string, dest: string, durationMinutes: number, earliest: number, day: number, landBy = this.E, capacity = true): number | null {
    const m = walk.aircraft.maintenance;
    let start = earliest;
    for (;;) {
      const end = start + durationMinutes;
      if (end > landBy) return null;
      const blocked = walk.unavailability.find((p) => start < p.endMinutes && end > p.startMinutes);
      if (blocked) { start = blocked.endMinutes; continue; }
      if (m && ((start >= m.startMinutes && start < m.endMinutes) || (start < m.startMinutes && end > m.startMinutes))) { start = m.endMinutes; continue; }
      if (capacity && !this.slots.free(origin, start, 'departures')) { start = (Math.floor(start / 60) + 1) * 60; continue; }
      if (capacity && !this.slots.free(dest, end, 'arrivals')) { start = (Math.floor(end / 60) + 1) * 60 - durationMinutes; continue; }
      break;
    }
    const daysLater = Math.floor((start - day * MINUTES_PER_DAY) / MINUTES_PER_DAY);
    if (daysLater >= 1) {
      const asRead = start - daysLater * MINUTES_PER_DAY;
      const periods: Period[] = m ? [...walk.unavailability, m] : walk.unavailability;
      if (periods.some((p) => p.endMinutes <= start && asRead < p.endMinutes)) return null;
    }
    return start;
  }

  private cancel(walk: Walk): void {
    this.cancelled.add(walk.legs[walk.next++]!.key);
  }

  /** Legs still to place that the plan flies before the maintenance starts. */
  private legsBeforeMaintenance(walk: Walk): PlannedLeg[] {
    const m = walk.aircraft.maintenance!;
    const out: PlannedLeg[] = [];
    for (let i = walk.next; i < walk.legs.length && walk.legs[i]!.depMinutes < m.startMinutes; i++) out.push(walk.legs[i]!);
    return out;
  }

  /** Whether the legs before the maintenance, flown as early as ground times allow, reach it in time and within budget. */
  private reachesMaintenance(walk: Walk): boolean {
    const m = walk.aircraft.maintenance!;
    let location = walk.location;
    let ready = walk.readyAt;
    let flown = walk.flownBeforeMaintenance;
    let last = walk.lastFlight;
    for (const leg of this.legsBeforeMaintenance(walk)) {
      if (this.cancelled.has(leg.key)) continue;
      const placed = this.flown.get(leg.key);
      if (this.origin(leg) !== location) return false;
      const previous = this.instance.flights.get(leg.flight)!.previous;
      const ground = previous !== 0 && previous === last ? walk.aircraft.transitMinutes : walk.aircraft.turnRoundMinutes;
      const dep = placed ? placed.dep : Math.max(this.notBefore(leg), ready === null ? leg.depMinutes : ready + ground);
      const arr = dep + this.duration(leg);
      if (arr > m.startMinutes) return false;
      location = this.dest(leg);
      ready = arr;
      flown += arr - dep;
      last = leg.flight;
    }
    if (location === m.airport) return flown <= m.maxFlyingMinutes;
    // Elsewhere, a flight there after these legs still makes it when it lands by the start with
    // FERRY_SLACK_MINUTES to spare (airport capacity may push it) and within the flying budget.
    const route = this.instance.routes.get(routeKey(location, m.airport));
    if (!route || route.durationMinutes > walk.aircraft.rangeMinutes || flown + route.durationMinutes > m.maxFlyingMinutes) return false;
    const ferryFrom = Math.max(this.S, ready === null ? this.S : ready + walk.aircraft.turnRoundMinutes);
    return ferryFrom + route.durationMinutes + FERRY_SLACK_MINUTES <= m.startMinutes;
  }

  /** The shortest run of movable legs from the walk's head that leaves from and returns to where it is. */
  private roundTripFromHere(walk: Walk): number | null {
    let location = walk.location;
    const m = walk.aircraft.maintenance!;
    for (let i = walk.next; i < walk.legs.length; i++) {
      const leg = walk.legs[i]!;
      if (leg.depMinutes >= m.startMinutes || this.anchored(leg) || this.origin(leg) !== location) return null;
      location = this.dest(leg);
      if (location === walk.location) return i - walk.next + 1;
    }
    return null;
  }

  /** A direct new flight to the maintenance airport, landing by its start; false when none fits. */
  private repositionForMaintenance(walk: Walk): boolean {
    const m = walk.aircraft.maintenance!;
    return this.newFlight(walk, m.airport, m.startMinutes, m.maxFlyingMinutes - walk.flownBeforeMaintenance);
  }

  /**
   * A direct new flight (no passengers booked) from where the walk is to `dest`, as early as the
   * aircraft, its periods and the airports allow but not before `notBefore`, landing by `landBy` and
   * within `maxMinutes` of flying; false when none fits.
   */
  private newFlight(walk: Walk, dest: string, landBy: number, maxMinutes = Infinity, notBefore = this.S): boolean {
    const route = this.instance.routes.get(routeKey(walk.location, dest));
    if (!route || route.durationMinutes > walk.aircraft.rangeMinutes || route.durationMinutes > maxMinutes) return false;
    const earliest = Math.max(this.S, notBefore, walk.readyAt === null ? this.S : walk.readyAt + walk.aircraft.turnRoundMinutes);
    const day = Math.floor(earliest / MINUTES_PER_DAY);
    const start = this.earliestStart(walk, walk.location, dest, route.durationMinutes, earliest, day, landBy);
    if (start === null) return false;
    let flight = this.nextFlightNumber++;
    while (this.instance.legsByKey.has(legKey(flight, Math.floor(start / MINUTES_PER_DAY)))) flight = this.nextFlightNumber++;
    const arr = start + route.durationMinutes;
    this.newFlights.push({ flight, origin: walk.location, dest, depMinutes: start, arrMinutes: arr, previous: 0, day: Math.floor(start / MINUTES_PER_DAY), aircraft: walk.aircraft.id });
    this.slots.book(walk.location, start, dest, arr);
    this.fly(walk, flight, dest, start, arr);
    return true;
  }

  /**
   * Step 3 (only with changes): after their last leg, the aircraft the changes give new flights fly
   * them in turn (stopping at the first that does not fit), then those the changes send somewhere at
   * the end of the window ferry there, when their maintenance is behind them (a new flight must not
   * take an aircraft away from its check).
   */
  private flyAfterLastLegs(walks: readonly Walk[]): void {
    for (const walk of walks) {
      const m = walk.aircraft.maintenance;
      if (m && (walk.readyAt === null || walk.readyAt < m.endMinutes)) continue;
      for (const trip of this.changes.trips?.get(walk.aircraft.id) ?? []) {
        if (trip.dest === walk.location || !this.newFlight(walk, trip.dest, this.E, Infinity, trip.notBefore)) break;
      }
      const target = this.changes.endAt?.get(walk.aircraft.id);
      if (target && target !== walk.location) this.newFlight(walk, target, this.E);
    }
  }

  /**
   * Before the next leg of an aircraft whose maintenance is ahead: when the legs left before it can no
   * longer bring the aircraft there in time (or `broken`, a leg was just pushed past its start),
   * cancel round trips from where it is; failing that, cancel those legs and fly there directly.
   */
  private keepMaintenance(walk: Walk, broken: boolean): void {
    const m = walk.aircraft.maintenance;
    if (!m || walk.maintenanceSettled) return;
    if (m.startMinutes <= this.S && walk.readyAt !== null && walk.readyAt >= m.startMinutes) { walk.maintenanceSettled = true; return; }
    if (!broken && this.reachesMaintenance(walk)) return;
    for (let trip = this.roundTripFromHere(walk); trip !== null; trip = this.roundTripFromHere(walk)) {
      for (let i = 0; i < trip; i++) this.cancel(walk);
      if (this.reachesMaintenance(walk)) return;
    }
    while (walk.next < walk.legs.length && walk.legs[walk.next]!.depMinutes < m.startMinutes && !this.anchored(walk.legs[walk.next]!)) this.cancel(walk);
    if (walk.location !== m.airport) this.repositionForMaintenance(walk);
    walk.maintenanceSettled = true;
  }

  /**
   * The walk's next leg to fly and its start (airport capacity considered or not), cancelling on the
   * way what cannot be flown; null when the walk is done.
   */
  private nextCandidate(walk: Walk, capacity: boolean): { leg: PlannedLeg; start: number } | null {
    for (;;) {
      this.consumeAnchored(walk);
      this.keepMaintenance(walk, false);
      this.consumeAnchored(walk);
      if (walk.next >= walk.legs.length) {
        // No legs left: an aircraft away from its check flies there now (B01 wrote three aircraft
        // elsewhere when their checks started, from rotations that ended away from them).
        this.keepMaintenance(walk, true);
        return null;
      }
      const leg = walk.legs[walk.next]!;
      if (this.cancelled.has(leg.key)) { walk.next++; continue; }
      if (this.origin(leg) !== walk.location || this.duration(leg) > walk.aircraft.rangeMinutes) { this.cancel(walk); continue; }
      const ready = walk.readyAt === null ? leg.depMinutes : walk.readyAt + this.groundMinutes(walk, leg.flight);
      const start = this.earliestStart(walk, walk.location, this.dest(leg), this.duration(leg), Math.max(this.notBefore(leg), ready), leg.day, this.E, capacity);
      if (start === null) { this.cancel(walk); continue; }
      const m = walk.aircraft.maintenance;
      if (m && !walk.maintenanceSettled && leg.depMinutes < m.startMinutes && start + this.duration(leg) > m.startMinutes) {
        this.keepMaintenance(walk, true);
        continue;
      }
      return { leg, start };
    }
  }

  /**
   * Step 2: repeatedly serve the aircraft whose next leg could start earliest before airport capacity
   * is considered (ties: the leg's line in rotations.csv), and only then push that leg past full hours:
   * capacity goes first come, first served.
   */
  private walkRotations(): void {
    const byAircraft = new Map<string, PlannedLeg[]>();
    for (const leg of this.instance.legs) {
      const aircraft = this.aircraftOf(leg);
      const list = byAircraft.get(aircraft);
      if (list) list.push(leg); else byAircraft.set(aircraft, [leg]);
    }
    const queue = new WalkQueue();
    const walks: Walk[] = [];
    for (const aircraft of this.instance.aircraft.values()) {
      const walk: Walk = {
        aircraft, legs: (byAircraft.get(aircraft.id) ?? []).sort(byPlannedTime), next: 0, location: aircraft.origin, readyAt: null,
        lastFlight: 0, flownBeforeMaintenance: 0, maintenanceSettled: false,
        unavailability: this.instance.aircraftUnavailability.filter((u) => u.aircraft === aircraft.id),
      };
      walks.push(walk);
      const candidate = this.nextCandidate(walk, false);
      if (candidate) queue.push(candidate.start, candidate.leg.line, walk);
    }
    for (let item = queue.pop(); item; item = queue.pop()) {
      const { walk } = item;
      const candidate = this.nextCandidate(walk, true);
      if (!candidate) continue;
      if (candidate.leg.line !== item.order) {
        // The queued leg had to be cancelled once capacity was counted: queue the next one in its turn.
        const next = this.nextCandidate(walk, false);
        if (next) queue.push(next.start, next.leg.line, walk);
        continue;
      }
      const { leg, start } = candidate;
      const arr = start + this.duration(leg);
      this.flown.set(leg.key, { dep: start, arr, aircraft: walk.aircraft.id });
      this.slots.book(this.origin(leg), start, this.dest(leg), arr);
      this.fly(walk, leg.flight, this.dest(leg), start, arr);
      walk.next += 1;
      const next = this.nextCandidate(walk, false);
      if (next) queue.push(next.start, next.leg.line, walk);
    }
    this.flyAfterLastLegs(walks);
  }

  /** Whether the passengers of a booking can still travel exactly as booked. */
  private stillFlies(itinerary: Itinerary): boolean {
    let previous: Flown | null = null;
    for (const booked of itinerary.legs) {
      const placed = this.flown.get(legKey(booked.flight, booked.day));
      if (!placed) return false;
      if (previous && placed.dep - previous.arr < MIN_CONNECTION_MINUTES) return false;
      previous = placed;
    }
    if (itinerary.direction === 'A') {
      const last = itinerary.legs.at(-1)!;
      const plannedArr = this.instance.legsByKey.get(legKey(last.flight, last.day))!.arrMinutes;
      if (previous!.arr - plannedArr > MAX_OUTBOUND_DELAY_MINUTES[bookingClass(this.instance, itinerary)]) return false;
    }
    return true;
  }

  /** Step 4: bookings keep their legs when they still fly; the others stop after their boarded part. */
  private passengerLines(): SolutionLine[] {
    const kept = new Set<Itinerary>();
    for (const it of this.instance.itineraries) if (this.stillFlies(it)) kept.add(it);
    // Seats: the plan's loads fit the planned aircraft, but nothing checks the instance promises it.
    const load = new Map<string, { seats: number; passengers: number; riders: Itinerary[] }>();
    for (const it of this.instance.itineraries) {
      for (const l of kept.has(it) ? it.legs : fixedPart(this.instance, it, this.delay)) {
        const key = `${legKey(l.flight, l.day)}:${l.cabin}`;
        let entry = load.get(key);
        if (!entry) {
          const placed = this.flown.get(legKey(l.flight, l.day))!;
          load.set(key, (entry = { seats: this.instance.aircraft.get(placed.aircraft)!.seats[l.cabin as Cabin], passengers: 0, riders: [] }));
        }
        entry.passengers += it.passengers;
        if (kept.has(it)) entry.riders.push(it);
      }
    }
    for (const entry of load.values()) {
      while (entry.seats !== -1 && entry.passengers > entry.seats && entry.riders.length > 0) {
        const dropped = entry.riders.pop()!;
        if (kept.delete(dropped)) entry.passengers -= dropped.passengers;
      }
    }
    return this.instance.itineraries.map((it): SolutionLine => {
      const base = { itinerary: it.id, direction: it.direction, price: priceText(it.price), passengers: it.passengers };
      return kept.has(it) ? { ...base, legs: it.legs, cancelled: false } : { ...base, legs: fixedPart(this.instance, it, this.delay), cancelled: true };
    });
  }

  solve(): RoadefSolution {
    this.placeAnchoredLegs();
    this.walkRotations();
    const rotations: SolutionLeg[] = this.instance.legs.map((leg) => {
      const f = this.instance.flights.get(leg.flight)!;
      const placed = this.flown.get(leg.key);
      return {
        flight: leg.flight, origin: f.origin, dest: f.dest, previous: f.previous, day: leg.day,
        depMinutes: placed?.dep ?? leg.depMinutes, arrMinutes: placed?.arr ?? leg.arrMinutes, aircraft: placed?.aircraft ?? null,
      };
    });
    return { rotations: [...rotations, ...this.newFlights], itineraries: this.passengerLines() };
  }
}

/**
 * Decisions a solver layers on the reference plan; the walk then keeps every rule as before. Only
 * legs the solver may move (not disrupted, not before the window, not shuttles) are affected.
 */
/** A new flight after an aircraft's last leg (PlanChanges.trips). */
export interface NewTrip { dest: string; notBefore: number }

export interface PlanChanges {
  /** Leg key -> the aircraft that flies it instead of its planned one. */
  aircraft?: ReadonlyMap<string, string>;
  /** Leg key -> the earliest departure allowed, absolute minutes (a hold, e.g. to protect a connection). */
  notBefore?: ReadonlyMap<string, number>;
  /** Legs cancelled (their aircraft stays on the ground instead). */
  cancel?: ReadonlySet<string>;
  /**
   * Aircraft -> new flights it flies in turn after its last leg, each to `dest` and leaving at or
   * after `notBefore` (absolute minutes): to carry passengers the plan leaves stranded.
   */
  trips?: ReadonlyMap<string, readonly NewTrip[]>;
  /** Aircraft -> the airport a ferry takes it to after its last leg (and its trips), when it ends the window elsewhere. */
  endAt?: ReadonlyMap<string, string>;
}

/**
 * The reference plan of spec 6.1 for `instance` (deterministic; linear in its size up to a log factor),
 * or, with `changes`, the same walk over rotations and departure times a solver has changed.
 */
export function solveReferencePlan(instance: RoadefInstance, changes: PlanChanges = {}): RoadefSolution {
  return new ReferencePlanner(instance, changes).solve();
}
