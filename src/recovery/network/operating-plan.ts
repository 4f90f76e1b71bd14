// The reference plan (ROADEF 2009 spec 6.1), the baseline every plan must beat: planned rotations
// kept, disruption delays propagated, what cannot be flown cancelled, passengers whose trip broke
// cancelled after the part they had already flown. It swaps no aircraft and re-routes nobody.
//
// The same walk is the search's operating plan (search.ts): given PlanChanges (holds, flights given
// to another aircraft or cancelled, new flights after an aircraft's last flight, ferries to end
// positions), it keeps every aircraft, airport and maintenance rule around them, cancelling what then
// cannot be flown. The walk holds the mechanics (time order, airport capacity, the problem's
// unavailability and checks, cancellations, the plan changes); what an aircraft may do it asks of the
// adapter's rules (model/walk-rules.ts): ROADEF's (model/roadef-rules.ts) or the service's on a
// service scope (scope-walk.ts: the departure grid, the leg rules, ground times, checks, a
// cancellation threshold).
import type { CabinCode } from '../model/cost-model.ts';
import type { BlockedPeriod, WalkRules } from '../model/walk-rules.ts';
import { CANCELLED, MAX_OUTBOUND_DELAY_MINUTES, MIN_CONNECTION_MINUTES, bookingClass, disruptionDelays, fixedPart } from './bookings.ts';
import {
  MINUTES_PER_DAY, UNLIMITED_SEATS, pairKey,
  type NetworkAircraft, type NetworkBooking, type NetworkFlight, type NetworkPlan, type NetworkProblem, type PassengerLine, type PlanLeg,
} from './problem.ts';

/** A walk of part of the fleet (the service's walk of one aircraft among the others' movements). */
export interface WalkPart {
  /** Only these aircraft are walked; all when absent. */
  aircraft?: ReadonlySet<string>;
  /** Movements already using the capacities before the walk. */
  booked?: readonly { origin: string; depMinutes: number; dest: string; arrMinutes: number }[];
}

/** A capacity cut of the problem (an airport_capacity disruption), as hourCapacity reads it. */
export interface CapacityCut { airport: string; startMinutes: number; endMinutes: number; departures: number; arrivals: number }

/** The problem's capacity cuts, in its order. */
export function capacityCuts(problem: NetworkProblem): CapacityCut[] {
  return problem.disruptions.flatMap((d) => (d.type === 'airport_capacity'
    ? [{ airport: d.airport, startMinutes: d.fromMinutes, endMinutes: d.toMinutes, departures: d.maxDeparturesPerHour, arrivals: d.maxArrivalsPerHour }]
    : []));
}

/** The cut of `airport` that holds clock hour `hour` (minutes / 60): the first whose period holds the hour's start (spec 4.6). */
export function cutHolding(cuts: readonly CapacityCut[], airport: string, hour: number): CapacityCut | undefined {
  const start = hour * 60;
  return cuts.find((c) => c.airport === airport && c.startMinutes <= start && start < c.endMinutes);
}

/**
 * The hourly capacities of `airport` in clock hour `hour` (minutes / 60), null when unlimited (spec
 * 4.6: the first cut whose period holds the hour's start, else the airport's window holding that time
 * of day). Not for a problem stated by `hourlyLimits`.
 */
export function hourCapacity(problem: NetworkProblem, cuts: readonly CapacityCut[], airport: string, hour: number): { departures: number; arrivals: number } | null {
  const cut = cutHolding(cuts, airport, hour);
  if (cut) return cut;
  const start = hour * 60;
  const minute = ((start % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return problem.airportCapacity.get(airport)?.find((w) => w.fromMinute <= minute && minute < w.toMinute) ?? null;
}

/**
 * Movements booked per airport and clock hour, against the hourly capacities: the problem's own
 * (spec 4.6: a capacity cut holds for the clock hours that start within its period, the airport's own
 * windows otherwise), or, when the problem states them hour by hour (`hourlyLimits`: a service scope's
 * capacity rows), only those, each starting from the movements outside the problem.
 */
class AirportSlots {
  private readonly used = new Map<string, number>();
  private readonly cuts: readonly CapacityCut[];
  private readonly limits: Map<string, number> | null;
  constructor(private readonly problem: NetworkProblem) {
    this.cuts = capacityCuts(problem);
    this.limits = problem.hourlyLimits ? new Map() : null;
    for (const l of problem.hourlyLimits ?? []) {
      const key = AirportSlots.key(l.kind, l.airport, l.hourStartMinutes);
      this.limits!.set(key, l.max);
      this.used.set(key, l.outside);
    }
  }

  private static key(kind: 'departures' | 'arrivals', airport: string, minute: number): string {
    return `${kind} ${airport} ${Math.floor(minute / 60)}`;
  }

  private capacity(airport: string, hour: number): { departures: number; arrivals: number } | null {
    return hourCapacity(this.problem, this.cuts, airport, hour);
  }

  free(airport: string, minute: number, kind: 'departures' | 'arrivals'): boolean {
    const key = AirportSlots.key(kind, airport, minute);
    if (this.limits) {
      const max = this.limits.get(key);
      return max === undefined || (this.used.get(key) ?? 0) < max;
    }
    const cap = this.capacity(airport, Math.floor(minute / 60));
    return cap === null || (this.used.get(key) ?? 0) < cap[kind];
  }

  book(origin: string, dep: number, dest: string, arr: number): void {
    for (const [kind, airport, minute] of [['departures', origin, dep], ['arrivals', dest, arr]] as const) {
      const key = AirportSlots.key(kind, airport, minute);
      this.used.set(key, (this.used.get(key) ?? 0) + 1);
    }
  }
}

/** Minutes a flight to the maintenance airport is planned to land before the check starts, for airport capacity to push it. */
const FERRY_SLACK_MINUTES = 60;

/** One aircraft walking through its planned legs. */
interface Walk {
  aircraft: NetworkAircraft;
  legs: NetworkFlight[];
  next: number;
  location: string;
  /** Arrival of its last flown leg (null before any). */
  readyAt: number | null;
  /** The flight number of its last flown leg (null before any, or after a new flight). */
  lastFlight: string | null;
  /** Minutes flown on legs departing before its maintenance starts. */
  flownBeforeMaintenance: number;
  /** Its maintenance is behind it (or cannot be influenced any more). */
  maintenanceSettled: boolean;
  /** Its periods out of service (the aircraft_unavailable disruptions). */
  unavailability: BlockedPeriod[];
}

interface Flown { dep: number; arr: number; aircraft: string }


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
  private readonly newFlights: PlanLeg[] = [];
  private readonly slots: AirportSlots;
  /** Each planned flight's place in the problem's order (ties between equal times go by it). */
  private readonly order = new Map<string, number>();

  constructor(private readonly problem: NetworkProblem, private readonly changes: PlanChanges, private readonly rules: WalkRules, private readonly part: WalkPart) {
    this.S = problem.window.startMinutes;
    this.E = problem.window.endMinutes;
    this.delay = disruptionDelays(problem);
    this.slots = new AirportSlots(problem);
    for (const m of part.booked ?? []) this.slots.book(m.origin, m.depMinutes, m.dest, m.arrMinutes);
    problem.flights.forEach((f, i) => this.order.set(f.id, i));
  }

  private isShuttle(leg: NetworkFlight): boolean {
    return this.problem.aircraft.get(leg.tail)!.shuttle;
  }

  private byPlace = (a: NetworkFlight, b: NetworkFlight): number =>
    legPlace(a, this.changes.placeAt) - legPlace(b, this.changes.placeAt) || a.arrMinutes - b.arrMinutes || this.order.get(a.id)! - this.order.get(b.id)!;

  /** Legs the solver may not move: disrupted, departed before the window, or shuttles (spec 4.3). */
  private anchored(leg: NetworkFlight): boolean {
    return this.delay.has(leg.id) || leg.depMinutes < this.S || this.isShuttle(leg);
  }

  /** The aircraft that is to fly a leg: its planned one unless the changes move a leg the solver may move. */
  private aircraftOf(leg: NetworkFlight): string {
    return this.anchored(leg) ? leg.tail : this.changes.aircraft?.get(leg.id) ?? leg.tail;
  }

  /** The earliest departure the plan allows a movable leg: its planned one, or later when the changes hold it. */
  private notBefore(leg: NetworkFlight): number {
    return Math.max(leg.depMinutes, this.changes.notBefore?.get(leg.id) ?? leg.depMinutes);
  }

  private duration(leg: NetworkFlight): number {
    return leg.arrMinutes - leg.depMinutes;
  }

  /** Step 1: anchored legs keep their aircraft and their (delayed) times; their movements are booked first. */
  private placeAnchoredLegs(): void {
    for (const leg of this.problem.flights) if (this.changes.cancel?.has(leg.id) && !this.anchored(leg)) this.cancelled.add(leg.id);
    for (const leg of this.problem.flights) {
      if (!this.anchored(leg)) continue;
      const d = this.delay.get(leg.id) ?? 0;
      if (d === CANCELLED) { this.cancelled.add(leg.id); continue; }
      const placed = { dep: leg.depMinutes + d, arr: leg.arrMinutes + d, aircraft: leg.tail };
      this.flown.set(leg.id, placed);
      if (!this.isShuttle(leg)) this.slots.book(leg.origin, placed.dep, leg.dest, placed.arr);
    }
  }

  private fly(walk: Walk, flightNumber: string | null, dest: string, dep: number, arr: number): void {
    const m = walk.aircraft.check;
    if (m && dep < m.startMinutes) walk.flownBeforeMaintenance += arr - dep;
    if (m && dep >= m.startMinutes) walk.maintenanceSettled = true;
    walk.location = dest;
    walk.readyAt = arr;
    walk.lastFlight = flightNumber;
  }

  /** The first departure on the rules' grid (counted from the leg's earliest departure `from`) at or after `minute`. */
  private onGrid(minute: number, from: number): number {
    const step = this.rules.gridMinutes;
    return from + Math.ceil(Math.max(0, minute - from) / step) * step;
  }

  /** Consume anchored legs at the head of the walk (already placed in step 1). */
  private consumeAnchored(walk: Walk): void {
    while (walk.next < walk.legs.length && this.anchored(walk.legs[walk.next]!)) {
      const leg = walk.legs[walk.next++]!;
      const placed = this.flown.get(leg.id);
      if (placed) this.fly(walk, leg.flightNumber, leg.dest, placed.dep, placed.arr);
    }
  }

  /** The earliest the rules let the walk's aircraft leave on `next` (null: a new flight) after its last landing. */
  private readyFor(walk: Walk, next: NetworkFlight | null): number {
    return this.rules.earliestDeparture(walk.aircraft, walk.readyAt, walk.lastFlight, next);
  }

  /**
   * The earliest start at or after `earliest` for a leg of `durationMinutes` from `origin` to `dest`:
   * on the rules' grid, pushed past unavailability and maintenance, then (when `capacity`) to the next
   * hour while its departure or arrival hour is full. Null when it would land after `landBy`, or when
   * a departure pushed past midnight of `day` would not read as after a period it follows (the rules'
   * readsAfterPeriods: ROADEF's files write it without its +N).
   */
  private earliestStart(walk: Walk, origin: string, dest: string, durationMinutes: number, earliest: number, day: number, landBy = this.E, capacity = true, gridFrom = earliest): number | null {
    const m = walk.aircraft.check;
    let start = earliest;
    for (;;) {
      start = this.onGrid(start, gridFrom);
      const end = start + durationMinutes;
      if (end > landBy) return null;
      const blocked = walk.unavailability.find((p) => start < p.endMinutes && end > p.startMinutes);
      if (blocked) { start = blocked.endMinutes; continue; }
      if (m && ((start >= m.startMinutes && start < m.endMinutes) || (start < m.startMinutes && end > m.startMinutes))) { start = m.endMinutes; continue; }
      if (capacity && !this.slots.free(origin, start, 'departures')) { start = (Math.floor(start / 60) + 1) * 60; continue; }
      if (capacity && !this.slots.free(dest, end, 'arrivals')) { start = (Math.floor(end / 60) + 1) * 60 - durationMinutes; continue; }
      break;
    }
    return this.rules.readsAfterPeriods(start, day, walk.unavailability, m) ? start : null;
  }

  private cancel(walk: Walk): void {
    this.cancelled.add(walk.legs[walk.next++]!.id);
  }

  /** Legs still to place that the plan flies before the maintenance starts. */
  private legsBeforeMaintenance(walk: Walk): NetworkFlight[] {
    const m = walk.aircraft.check!;
    const out: NetworkFlight[] = [];
    for (let i = walk.next; i < walk.legs.length && walk.legs[i]!.depMinutes < m.startMinutes; i++) out.push(walk.legs[i]!);
    return out;
  }

  /** Whether the legs before the maintenance, flown as early as ground times allow, reach it in time and within budget. */
  private reachesMaintenance(walk: Walk): boolean {
    const m = walk.aircraft.check!;
    let location = walk.location;
    let ready = walk.readyAt;
    let flown = walk.flownBeforeMaintenance;
    let last = walk.lastFlight;
    for (const leg of this.legsBeforeMaintenance(walk)) {
      if (this.cancelled.has(leg.id)) continue;
      const placed = this.flown.get(leg.id);
      if (leg.origin !== location) return false;
      const dep = placed ? placed.dep : Math.max(this.notBefore(leg), this.rules.earliestDeparture(walk.aircraft, ready, last, leg));
      const arr = dep + this.duration(leg);
      if (arr > m.startMinutes) return false;
      location = leg.dest;
      ready = arr;
      flown += arr - dep;
      last = leg.flightNumber;
    }
    if (location === m.station) return flown <= m.maxFlyingMinutes;
    // Elsewhere, a flight there after these legs still makes it when it lands by the start with
    // FERRY_SLACK_MINUTES to spare (airport capacity may push it) and within the flying budget.
    const route = this.problem.airportPairs.get(pairKey(location, m.station));
    if (!route || !this.rules.withinRange(walk.aircraft, route.blockMinutes) || flown + route.blockMinutes > m.maxFlyingMinutes) return false;
    const ferryFrom = Math.max(this.S, this.rules.earliestDeparture(walk.aircraft, ready, last, null));
    return ferryFrom + route.blockMinutes + FERRY_SLACK_MINUTES <= Math.min(m.startMinutes, this.E);
  }

  /** The shortest run of movable legs from the walk's head that leaves from and returns to where it is. */
  private roundTripFromHere(walk: Walk): number | null {
    let location = walk.location;
    const m = walk.aircraft.check!;
    for (let i = walk.next; i < walk.legs.length; i++) {
      const leg = walk.legs[i]!;
      if (leg.depMinutes >= m.startMinutes || this.anchored(leg) || leg.origin !== location) return null;
      location = leg.dest;
      if (location === walk.location) return i - walk.next + 1;
    }
    return null;
  }

  /** A direct new flight to the maintenance airport, landing by its start; false when none fits. */
  private repositionForMaintenance(walk: Walk): boolean {
    const m = walk.aircraft.check!;
    // Within the window too: a check after it is no reason for a flight past its end.
    return this.newFlight(walk, m.station, Math.min(m.startMinutes, this.E), m.maxFlyingMinutes - walk.flownBeforeMaintenance);
  }

  /**
   * A direct new flight (no passengers booked) from where the walk is to `dest`, as early as the
   * aircraft, its periods and the airports allow but not before `notBefore`, landing by `landBy` and
   * within `maxMinutes` of flying; false when none fits.
   */
  private newFlight(walk: Walk, dest: string, landBy: number, maxMinutes = Infinity, notBefore = this.S): boolean {
    const route = this.problem.airportPairs.get(pairKey(walk.location, dest));
    if (!route || !this.rules.withinRange(walk.aircraft, route.blockMinutes) || route.blockMinutes > maxMinutes) return false;
    const earliest = Math.max(this.S, notBefore, this.readyFor(walk, null));
    const day = Math.floor(earliest / MINUTES_PER_DAY);
    const start = this.earliestStart(walk, walk.location, dest, route.blockMinutes, earliest, day, landBy);
    if (start === null) return false;
    const arr = start + route.blockMinutes;
    this.newFlights.push({
      flightId: `${NEW_FLIGHT_PREFIX}${this.newFlights.length + 1}`, flightNumber: null, day: Math.floor(start / MINUTES_PER_DAY),
      origin: walk.location, dest, depMinutes: start, arrMinutes: arr, tail: walk.aircraft.tail, isNew: true,
    });
    this.slots.book(walk.location, start, dest, arr);
    this.fly(walk, null, dest, start, arr);
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
      const m = walk.aircraft.check;
      if (m && (walk.readyAt === null || walk.readyAt < m.endMinutes)) continue;
      for (const trip of this.changes.trips?.get(walk.aircraft.tail) ?? []) {
        if (trip.dest === walk.location || !this.newFlight(walk, trip.dest, this.E, Infinity, trip.notBefore)) break;
      }
      const target = this.changes.endAt?.get(walk.aircraft.tail);
      if (target && target !== walk.location) this.newFlight(walk, target, this.E);
    }
  }

  /**
   * Before the next leg of an aircraft whose maintenance is ahead: when the legs left before it can no
   * longer bring the aircraft there in time (or `broken`, a leg was just pushed past its start),
   * cancel round trips from where it is; failing that, cancel those legs and fly there directly.
   */
  private keepMaintenance(walk: Walk, broken: boolean): void {
    const m = walk.aircraft.check;
    if (!m || walk.maintenanceSettled) return;
    if (m.startMinutes <= this.S && walk.readyAt !== null && walk.readyAt >= m.startMinutes) { walk.maintenanceSettled = true; return; }
    if (!broken && this.reachesMaintenance(walk)) return;
    for (let trip = this.roundTripFromHere(walk); trip !== null; trip = this.roundTripFromHere(walk)) {
      for (let i = 0; i < trip; i++) this.cancel(walk);
      if (this.reachesMaintenance(walk)) return;
    }
    while (walk.next < walk.legs.length && walk.legs[walk.next]!.depMinutes < m.startMinutes && !this.anchored(walk.legs[walk.next]!)) this.cancel(walk);
    if (walk.location !== m.station) this.repositionForMaintenance(walk);
    walk.maintenanceSettled = true;
  }

  /**
   * The walk's next leg to fly and its start (airport capacity considered or not), cancelling on the
   * way what cannot be flown; null when the walk is done.
   */
  private nextCandidate(walk: Walk, capacity: boolean): { leg: NetworkFlight; start: number } | null {
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
      if (this.cancelled.has(leg.id)) { walk.next++; continue; }
      const check = walk.aircraft.check;
      if (check && !walk.maintenanceSettled && leg.depMinutes >= check.startMinutes && walk.location !== check.station) {
        // The legs before the check are behind the aircraft and it stands elsewhere: the check was
        // reachable only by a flight there, which is flown now (a synthetic B-like network left seven
        // aircraft at their hub when the check started, their next legs being the next day's).
        this.keepMaintenance(walk, true);
        continue;
      }
      if (leg.origin !== walk.location || !this.rules.withinRange(walk.aircraft, this.duration(leg))) { this.cancel(walk); continue; }
      const start = this.earliestStart(walk, walk.location, leg.dest, this.duration(leg), Math.max(this.notBefore(leg), this.readyFor(walk, leg)), leg.day, this.E, capacity, this.notBefore(leg));
      if (start === null || !this.rules.allows(walk.aircraft, leg, walk.location, start)) { this.cancel(walk); continue; }
      // A disruption's own delay is no reason to cancel: the threshold counts the delay beyond the earliest departure.
      if (capacity && start - this.notBefore(leg) >= this.rules.cancelFromDelayMinutes) { this.cancel(walk); continue; }
      const m = walk.aircraft.check;
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
    const byAircraft = new Map<string, NetworkFlight[]>();
    for (const leg of this.problem.flights) {
      const aircraft = this.aircraftOf(leg);
      const list = byAircraft.get(aircraft);
      if (list) list.push(leg); else byAircraft.set(aircraft, [leg]);
    }
    const queue = new WalkQueue();
    const walks: Walk[] = [];
    const unavailability = new Map<string, BlockedPeriod[]>();
    for (const d of this.problem.disruptions) {
      if (d.type !== 'aircraft_unavailable') continue;
      const list = unavailability.get(d.tail) ?? unavailability.set(d.tail, []).get(d.tail)!;
      list.push({ startMinutes: d.fromMinutes, endMinutes: d.toMinutes });
    }
    for (const aircraft of this.problem.aircraft.values()) {
      if (this.part.aircraft && !this.part.aircraft.has(aircraft.tail)) continue;
      const walk: Walk = {
        aircraft, legs: (byAircraft.get(aircraft.tail) ?? []).sort(this.byPlace), next: 0, location: aircraft.base, readyAt: null,
        lastFlight: null, flownBeforeMaintenance: 0, maintenanceSettled: false, unavailability: unavailability.get(aircraft.tail) ?? [],
      };
      walks.push(walk);
      const candidate = this.nextCandidate(walk, false);
      if (candidate) queue.push(candidate.start, this.order.get(candidate.leg.id)!, walk);
    }
    for (let item = queue.pop(); item; item = queue.pop()) {
      const { walk } = item;
      const candidate = this.nextCandidate(walk, true);
      if (!candidate) continue;
      if (this.order.get(candidate.leg.id) !== item.order) {
        // The queued leg had to be cancelled once capacity was counted: queue the next one in its turn.
        const next = this.nextCandidate(walk, false);
        if (next) queue.push(next.start, this.order.get(next.leg.id)!, walk);
        continue;
      }
      const { leg, start } = candidate;
      const arr = start + this.duration(leg);
      this.flown.set(leg.id, { dep: start, arr, aircraft: walk.aircraft.tail });
      this.slots.book(leg.origin, start, leg.dest, arr);
      this.fly(walk, leg.flightNumber, leg.dest, start, arr);
      this.rules.landed(walk.aircraft, leg, start, arr);
      walk.next += 1;
      const next = this.nextCandidate(walk, false);
      if (next) queue.push(next.start, this.order.get(next.leg.id)!, walk);
    }
    this.flyAfterLastLegs(walks);
  }

  /** Whether the passengers of a booking can still travel exactly as booked. */
  private stillFlies(booking: NetworkBooking): boolean {
    let previous: Flown | null = null;
    for (const booked of booking.flights) {
      const placed = this.flown.get(booked.flightId);
      if (!placed) return false;
      if (previous && placed.dep - previous.arr < MIN_CONNECTION_MINUTES) return false;
      previous = placed;
    }
    if (booking.direction === 'outbound') {
      const plannedArr = this.problem.flightsById.get(booking.flights.at(-1)!.flightId)!.arrMinutes;
      if (previous!.arr - plannedArr > MAX_OUTBOUND_DELAY_MINUTES[bookingClass(this.problem, booking)]) return false;
    }
    return true;
  }

  /** Step 4: bookings keep their flights when they still fly; the others stop after their boarded part. */
  private passengerLines(): PassengerLine[] {
    const kept = new Set<NetworkBooking>();
    for (const b of this.problem.bookings) if (this.stillFlies(b)) kept.add(b);
    // Seats: the plan's loads fit the planned aircraft, but nothing checks the problem promises it.
    const load = new Map<string, { seats: number; passengers: number; riders: NetworkBooking[] }>();
    for (const b of this.problem.bookings) {
      for (const l of kept.has(b) ? b.flights : fixedPart(this.problem, b, this.delay)) {
        const key = `${l.flightId}:${l.cabin}`;
        let entry = load.get(key);
        if (!entry) {
          const placed = this.flown.get(l.flightId)!;
          load.set(key, (entry = { seats: this.problem.aircraft.get(placed.aircraft)!.seats[l.cabin as CabinCode], passengers: 0, riders: [] }));
        }
        entry.passengers += b.passengers;
        if (kept.has(b)) entry.riders.push(b);
      }
    }
    for (const entry of load.values()) {
      while (entry.seats !== UNLIMITED_SEATS && entry.passengers > entry.seats && entry.riders.length > 0) {
        const dropped = entry.riders.pop()!;
        if (kept.delete(dropped)) entry.passengers -= dropped.passengers;
      }
    }
    return this.problem.bookings.map((b): PassengerLine => (kept.has(b)
      ? { booking: b.id, passengers: b.passengers, flights: b.flights, cancelled: false }
      : { booking: b.id, passengers: b.passengers, flights: fixedPart(this.problem, b, this.delay), cancelled: true }));
  }

  solve(): NetworkPlan {
    this.placeAnchoredLegs();
    this.walkRotations();
    const legs: PlanLeg[] = this.problem.flights.map((f) => {
      const placed = this.flown.get(f.id);
      return {
        flightId: f.id, flightNumber: f.flightNumber, day: f.day, origin: f.origin, dest: f.dest,
        depMinutes: placed?.dep ?? f.depMinutes, arrMinutes: placed?.arr ?? f.arrMinutes, tail: placed?.aircraft ?? null, isNew: false,
      };
    });
    return { legs: [...legs, ...this.newFlights], passengers: this.passengerLines() };
  }
}

/**
 * Where the walk sorts a leg among its aircraft's legs: where the changes place it (PlanChanges.placeAt),
 * else its planned departure; a new flight (`planned` undefined: no planned flight by its id) after
 * every planned leg, as the walk flies new flights after the last one. Moves that must know the walk's
 * order ask this too (round-trip-transfers.ts).
 */
export function legPlace(planned: NetworkFlight | undefined, placeAt: ReadonlyMap<string, number> | undefined): number {
  return planned === undefined ? Infinity : placeAt?.get(planned.id) ?? planned.depMinutes;
}

/** Prefix of the ids a plan gives its new flights (`+1`, `+2`, ...), which no planned flight id has. */
export const NEW_FLIGHT_PREFIX = '+';

/** A new flight after an aircraft's last flight (PlanChanges.trips). */
export interface NewTrip { dest: string; notBefore: number }

/**
 * Decisions a search layers on the reference plan; the walk then keeps every rule as before. Only
 * flights the search may move (not disrupted, not before the window, not shuttles) are affected.
 */
export interface PlanChanges {
  /** Flight id -> the aircraft that flies it instead of its planned one. */
  aircraft?: ReadonlyMap<string, string>;
  /** Flight id -> the earliest departure allowed, absolute minutes (a hold, e.g. to protect a connection). */
  notBefore?: ReadonlyMap<string, number>;
  /**
   * Flight id -> the minute that places it among its aircraft's legs instead of its planned departure:
   * a round trip given to an aircraft that reaches its airport only later (with a hold, notBefore, to
   * that minute) is flown in that gap of the taker's rotation, not where its planned time would sort it.
   */
  placeAt?: ReadonlyMap<string, number>;
  /** Flights cancelled (their aircraft stays on the ground instead). */
  cancel?: ReadonlySet<string>;
  /**
   * Aircraft -> new flights it flies in turn after its last flight, each to `dest` and leaving at or
   * after `notBefore` (absolute minutes): to carry passengers the plan leaves stranded.
   */
  trips?: ReadonlyMap<string, readonly NewTrip[]>;
  /** Aircraft -> the airport a ferry takes it to after its last flight (and its trips), when it ends the window elsewhere. */
  endAt?: ReadonlyMap<string, string>;
}

/**
 * The reference plan (spec 6.1) of `problem` under ROADEF's `rules` (deterministic; linear in its size
 * up to a log factor), or, with `changes`, the same walk over rotations and departure times a search
 * has changed; under the rules the adapter gives (ROADEF's, model/roadef-rules.ts, or the service's on
 * a service scope, scope-walk.ts), walking `part` of the fleet (all of it unless given).
 */
export function solveReferencePlan(problem: NetworkProblem, changes: PlanChanges, rules: WalkRules, part: WalkPart = {}): NetworkPlan {
  return new ReferencePlanner(problem, changes, rules, part).solve();
}
