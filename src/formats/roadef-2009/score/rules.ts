// The feasibility rules of spec section 4, one named function per group, each finding reported under
// the rule's identifier (the names the reference scorer prints) with a count and a few examples.
import { SHUTTLE_FAMILY, type Cabin, type RoadefAircraft } from '../instance.ts';
import type { ReadSolutionLeg } from '../solution.ts';
import { formatDate, formatInstant, legKey } from '../text.ts';
import { MIN_CONNECTION_MINUTES, aircraftOf, recordsOfLine, type ScoringContext } from './context.ts';

export const RULES = [
  { id: 'format', ref: 'R1', text: 'a solution record is malformed (skipped)' },
  { id: 'flight.missing', ref: 'R2', text: 'a planned leg has no record in sol_rotations.csv' },
  { id: 'flight.duplicate', ref: 'R3', text: 'a (FLIGHT, DATE) appears twice' },
  { id: 'flight.od-changed', ref: 'R4', text: "a planned leg's record changes its origin or destination" },
  { id: 'flight.duration-changed', ref: 'R5', text: "a planned leg's record changes its duration" },
  { id: 'flight.linked-changed', ref: 'R6', text: "a planned leg's record changes PREV" },
  { id: 'flight.departs-early', ref: 'R7', text: 'a flown planned leg departs before its planned departure' },
  { id: 'flight.new-linked', ref: 'R8', text: 'a new flight has PREV other than 0' },
  { id: 'flight.new-duration', ref: 'R9', text: "a new flight's pair is not in dist.csv or its duration differs from it" },
  { id: 'flight.new-before-recovery', ref: 'R10', text: 'a new flight departs before the window start' },
  { id: 'created.cancelled', ref: 'R11', text: 'a new flight is cancelled' },
  { id: 'aircraft.unknown', ref: 'R12', text: 'a record names an aircraft not in aircraft.csv' },
  { id: 'fixed.cancellation-not-respected', ref: 'R13', text: 'a leg cancelled by alt_flights.csv is flown' },
  { id: 'fixed.disrupted-cancelled', ref: 'R14', text: 'a leg delayed by alt_flights.csv is cancelled' },
  { id: 'fixed.disrupted-time', ref: 'R15', text: 'a leg delayed by alt_flights.csv does not fly at exactly its planned times plus the delay' },
  { id: 'fixed.disrupted-aircraft', ref: 'R16', text: 'a leg delayed by alt_flights.csv is not flown by its planned aircraft' },
  { id: 'fixed.cancelled', ref: 'R17', text: 'a leg planned before the window start is cancelled' },
  { id: 'fixed.time', ref: 'R18', text: 'a leg planned before the window start does not keep its planned times' },
  { id: 'fixed.aircraft', ref: 'R19', text: 'a leg planned before the window start changes aircraft' },
  { id: 'fixed.shuttle-cancelled', ref: 'R19a', text: 'a shuttle (TranspCom) leg is cancelled' },
  { id: 'fixed.shuttle-time', ref: 'R19b', text: 'a shuttle leg does not keep its planned times' },
  { id: 'fixed.shuttle-aircraft', ref: 'R19c', text: 'a shuttle leg changes aircraft' },
  { id: 'swap.family', ref: 'R20', text: 'a planned leg is flown by an aircraft of another family' },
  { id: 'aircraft.breakdown', ref: 'R21', text: 'an aircraft flies during its unavailability' },
  { id: 'rotation.initial-position', ref: 'R22', text: "an aircraft's first leg does not leave from its ORIGIN" },
  { id: 'rotation.range', ref: 'R23', text: "a leg is longer than its aircraft's range" },
  { id: 'rotation.continuity', ref: 'R24', text: 'a leg does not leave from where the previous leg of its aircraft landed' },
  { id: 'rotation.turn-round', ref: 'R25', text: 'a ground time is shorter than the turn-round time' },
  { id: 'rotation.transit', ref: 'R26', text: 'a ground time before a linked leg is shorter than the transit time' },
  { id: 'rotation.after-recovery-end', ref: 'R27', text: 'a leg lands after the window end' },
  { id: 'rotation.maint-arrival', ref: 'R28', text: 'the last leg before a maintenance lands after it starts' },
  { id: 'rotation.maint-position', ref: 'R29', text: 'an aircraft is not at its maintenance airport when the maintenance starts' },
  { id: 'rotation.maint-flying-time', ref: 'R30', text: 'an aircraft flies more than its budget before its maintenance' },
  { id: 'rotation.maint-leaves-early', ref: 'R31', text: 'a leg departs during a maintenance' },
  { id: 'airport.departures', ref: 'R32', text: 'an airport has more departures in a clock hour than its capacity' },
  { id: 'airport.arrivals', ref: 'R33', text: 'an airport has more arrivals in a clock hour than its capacity' },
  { id: 'capacity.first', ref: 'R34', text: 'a leg carries more First passengers than seats' },
  { id: 'capacity.business', ref: 'R35', text: 'a leg carries more Business passengers than seats' },
  { id: 'capacity.eco', ref: 'R36', text: 'a leg carries more Economy passengers than seats' },
  { id: 'itinerary.empty', ref: 'R37', text: "a passenger line has neither legs nor 'cancelled'" },
  { id: 'itinerary.flight-after-cancellation', ref: 'R38', text: "legs follow 'cancelled'" },
  { id: 'itinerary.fixed-part-missing', ref: 'R39', text: "a line does not start with its booking's fixed part" },
  { id: 'itinerary.unknown-flight', ref: 'R40', text: 'a line takes a leg that has no record in sol_rotations.csv' },
  { id: 'itinerary.cancelled-flight-taken', ref: 'R41', text: 'a line takes a cancelled leg' },
  { id: 'itinerary.airports-differ', ref: 'R42', text: "a line's consecutive legs do not meet at one airport" },
  { id: 'itinerary.connection-time', ref: 'R43', text: 'a connection is shorter than 30 minutes' },
  { id: 'pax.unknown-itinerary', ref: 'R44', text: 'a line names an itinerary not in itineraries.csv' },
  { id: 'pax.count', ref: 'R45', text: "the lines of a booking do not carry its passengers" },
  { id: 'pax.wrong-type', ref: 'R46', text: "a line's DIRECTION is not the booked one" },
  { id: 'pax.origin', ref: 'R47', text: "a line does not start at its booking's origin" },
  { id: 'pax.departs-early', ref: 'R48', text: "a line departs before its booking's planned departure" },
  { id: 'pax.final-destination', ref: 'R49', text: "a line not marked cancelled does not end at its booking's destination" },
  { id: 'pax.cancelled-after-recovery-start', ref: 'R49a', text: 'a line marked cancelled has legs but its first leg departs after the window start' },
  { id: 'pax.max-delay-18h', ref: 'R50', text: 'an outbound D or C booking arrives more than 18 hours late' },
  { id: 'pax.max-delay-36h', ref: 'R50', text: 'an outbound I booking arrives more than 36 hours late' },
] as const;

export type RuleId = (typeof RULES)[number]['id'];

/** Examples kept per rule; the count is always complete. */
export const EXAMPLES_PER_RULE = 5;

export class Findings {
  private readonly found = new Map<RuleId, { count: number; examples: string[] }>();

  add(rule: RuleId, example: string): void {
    let entry = this.found.get(rule);
    if (!entry) this.found.set(rule, (entry = { count: 0, examples: [] }));
    entry.count += 1;
    if (entry.examples.length < EXAMPLES_PER_RULE) entry.examples.push(example);
  }

  /** Violated rules in catalogue order. */
  list(): { rule: RuleId; ref: string; text: string; count: number; examples: string[] }[] {
    return RULES.filter((r) => this.found.has(r.id)).map((r) => ({ rule: r.id, ref: r.ref, text: r.text, ...this.found.get(r.id)! }));
  }
}

const legName = (flight: number, day: number) => `${flight} ${formatDate(day)}`;
const at = (r: ReadSolutionLeg) => `${legName(r.flight, r.day)} (sol_rotations.csv line ${r.line})`;
const onAircraft = (r: ReadSolutionLeg) => `${at(r)} on ${r.aircraft}`;

/** R1: malformed records, already found by the reader. */
function checkFormat(ctx: ScoringContext, out: Findings): void {
  for (const p of ctx.solution.problems) out.add('format', `${p.file}${p.line === null ? '' : ` line ${p.line}`}: ${p.problem}`);
}

/** R2-R12: every planned leg once; what a record may change; new flights. */
function checkLegs(ctx: ScoringContext, out: Findings): void {
  const { instance } = ctx;
  for (const r of ctx.duplicates) out.add('flight.duplicate', `${at(r)} repeats sol_rotations.csv line ${ctx.recordByKey.get(legKey(r.flight, r.day))!.line}`);
  for (const leg of instance.legs) if (!ctx.recordByKey.has(leg.key)) out.add('flight.missing', `${legName(leg.flight, leg.day)} (rotations.csv line ${leg.line})`);
  for (const r of ctx.recordByKey.values()) {
    if (r.aircraft !== null && !instance.aircraft.has(r.aircraft)) out.add('aircraft.unknown', `${at(r)}: ${r.aircraft}`);
    const planned = instance.legsByKey.get(legKey(r.flight, r.day));
    if (planned) {
      const flight = instance.flights.get(r.flight)!;
      if (r.origin !== flight.origin || r.dest !== flight.dest) out.add('flight.od-changed', `${at(r)}: ${r.origin}-${r.dest}, planned ${flight.origin}-${flight.dest}`);
      const duration = planned.arrMinutes - planned.depMinutes;
      if (r.arrMinutes - r.depMinutes !== duration) out.add('flight.duration-changed', `${at(r)}: ${r.arrMinutes - r.depMinutes} min, planned ${duration}`);
      if (r.previous !== flight.previous) out.add('flight.linked-changed', `${at(r)}: PREV ${r.previous}, planned ${flight.previous}`);
      if (r.aircraft !== null && r.depMinutes < planned.depMinutes) out.add('flight.departs-early', `${at(r)}: ${formatInstant(r.depMinutes)}, planned ${formatInstant(planned.depMinutes)}`);
    } else if (r.aircraft === null) {
      out.add('created.cancelled', at(r));
    } else {
      // A new flight: only flown ones exist (a cancelled one is R11 and nothing else).
      if (r.previous !== 0) out.add('flight.new-linked', `${at(r)}: PREV ${r.previous}`);
      const route = instance.routes.get(`${r.origin}-${r.dest}`);
      if (!route) out.add('flight.new-duration', `${at(r)}: ${r.origin}-${r.dest} is not in dist.csv`);
      else if (r.arrMinutes - r.depMinutes !== route.durationMinutes) out.add('flight.new-duration', `${at(r)}: ${r.arrMinutes - r.depMinutes} min, dist.csv ${route.durationMinutes}`);
      if (r.depMinutes < instance.config.windowStartMinutes) out.add('flight.new-before-recovery', `${at(r)}: ${formatInstant(r.depMinutes)}`);
    }
  }
}

/** R13-R19c: legs disrupted by alt_flights.csv, legs before the window, shuttle legs. */
function checkFixedLegs(ctx: ScoringContext, out: Findings): void {
  const { instance } = ctx;
  const S = instance.config.windowStartMinutes;
  for (const leg of instance.legs) {
    const r = ctx.recordByKey.get(leg.key);
    if (!r) continue; // R2 reports it
    const delay = ctx.disruption.get(leg.key);
    const times = (shift: number) => r.depMinutes === leg.depMinutes + shift && r.arrMinutes === leg.arrMinutes + shift;
    const planned = `planned ${formatInstant(leg.depMinutes)} on ${leg.aircraft}`;
    if (delay === -1) {
      if (r.aircraft !== null) out.add('fixed.cancellation-not-respected', onAircraft(r));
    } else if (delay !== undefined) {
      if (r.aircraft === null) out.add('fixed.disrupted-cancelled', at(r));
      else {
        if (!times(delay)) out.add('fixed.disrupted-time', `${at(r)}: ${formatInstant(r.depMinutes)}, must be ${formatInstant(leg.depMinutes + delay)} (${planned} + ${delay} min)`);
        if (r.aircraft !== leg.aircraft) out.add('fixed.disrupted-aircraft', `${onAircraft(r)}, ${planned}`);
      }
    } else if (leg.depMinutes < S) {
      if (r.aircraft === null) out.add('fixed.cancelled', at(r));
      else {
        if (!times(0)) out.add('fixed.time', `${at(r)}: ${formatInstant(r.depMinutes)}, ${planned}`);
        if (r.aircraft !== leg.aircraft) out.add('fixed.aircraft', `${onAircraft(r)}, ${planned}`);
      }
    } else if (instance.aircraft.get(leg.aircraft)!.family === SHUTTLE_FAMILY) {
      if (r.aircraft === null) out.add('fixed.shuttle-cancelled', at(r));
      else {
        if (!times(0)) out.add('fixed.shuttle-time', `${at(r)}: ${formatInstant(r.depMinutes)}, ${planned}`);
        if (r.aircraft !== leg.aircraft) out.add('fixed.shuttle-aircraft', `${onAircraft(r)}, ${planned}`);
      }
    }
  }
}

/** R20-R21: family swaps and unavailability. */
function checkAircraft(ctx: ScoringContext, out: Findings): void {
  const { instance } = ctx;
  for (const leg of instance.legs) {
    const r = ctx.recordByKey.get(leg.key);
    const plane = aircraftOf(ctx, r?.aircraft ?? null);
    const plannedFamily = instance.aircraft.get(leg.aircraft)!.family;
    if (r && plane && plane.family !== plannedFamily) out.add('swap.family', `${onAircraft(r)} (${plane.family}), planned ${leg.aircraft} (${plannedFamily})`);
  }
  for (const u of instance.aircraftUnavailability) {
    for (const r of ctx.rotations.get(u.aircraft) ?? []) {
      if (r.depMinutes < u.endMinutes && r.arrMinutes > u.startMinutes) {
        out.add('aircraft.breakdown', `${onAircraft(r)} flies ${formatInstant(r.depMinutes)}-${formatInstant(r.arrMinutes)}, unavailable ${formatInstant(u.startMinutes)}-${formatInstant(u.endMinutes)}`);
      }
    }
  }
}

function checkMaintenance(plane: RoadefAircraft, rotation: readonly ReadSolutionLeg[], out: Findings): void {
  const m = plane.maintenance;
  if (!m) return;
  const before = rotation.filter((x) => x.depMinutes < m.startMinutes);
  const last = before.at(-1);
  const period = `${m.airport} ${formatInstant(m.startMinutes)}-${formatInstant(m.endMinutes)}`;
  if (last && last.arrMinutes > m.startMinutes) out.add('rotation.maint-arrival', `${onAircraft(last)} lands ${formatInstant(last.arrMinutes)}, maintenance ${period}`);
  const where = last ? last.dest : plane.origin;
  if (where !== m.airport) out.add('rotation.maint-position', `${plane.id} is at ${where} when its maintenance ${period} starts`);
  const flown = before.reduce((sum, x) => sum + (x.arrMinutes - x.depMinutes), 0);
  if (flown > m.maxFlyingMinutes) out.add('rotation.maint-flying-time', `${plane.id} flies ${flown} min before its maintenance ${period}, budget ${m.maxFlyingMinutes}`);
  for (const x of rotation) {
    if (x.depMinutes >= m.startMinutes && x.depMinutes < m.endMinutes) out.add('rotation.maint-leaves-early', `${onAircraft(x)} departs ${formatInstant(x.depMinutes)} during maintenance ${period}`);
  }
}

/** R22-R31: each aircraft's rotation and maintenance. */
function checkRotations(ctx: ScoringContext, out: Findings): void {
  const E = ctx.instance.config.windowEndMinutes;
  for (const plane of ctx.instance.aircraft.values()) {
    const rotation = ctx.rotations.get(plane.id) ?? [];
    const first = rotation[0];
    if (first && first.origin !== plane.origin) out.add('rotation.initial-position', `${onAircraft(first)} leaves ${first.origin}, ORIGIN ${plane.origin}`);
    for (let i = 0; i < rotation.length; i++) {
      const x = rotation[i]!;
      if (x.arrMinutes - x.depMinutes > plane.rangeMinutes) out.add('rotation.range', `${onAircraft(x)}: ${x.arrMinutes - x.depMinutes} min, range ${plane.rangeMinutes}`);
      if (x.arrMinutes > E) out.add('rotation.after-recovery-end', `${onAircraft(x)} lands ${formatInstant(x.arrMinutes)}, window ends ${formatInstant(E)}`);
      if (i === 0) continue;
      const p = rotation[i - 1]!;
      if (p.dest !== x.origin) out.add('rotation.continuity', `${onAircraft(x)} leaves ${x.origin}; ${legName(p.flight, p.day)} landed at ${p.dest}`);
      const ground = x.depMinutes - p.arrMinutes;
      const linked = x.previous !== 0 && x.previous === p.flight;
      if (linked && ground < plane.transitMinutes) out.add('rotation.transit', `${onAircraft(x)}: ${ground} min after ${legName(p.flight, p.day)}, transit ${plane.transitMinutes}`);
      if (!linked && ground < plane.turnRoundMinutes) out.add('rotation.turn-round', `${onAircraft(x)}: ${ground} min after ${legName(p.flight, p.day)}, turn-round ${plane.turnRoundMinutes}`);
    }
    checkMaintenance(plane, rotation, out);
  }
}

/** Departure and arrival capacity of an airport in clock hour `hour` (minutes / 60); null = unlimited. */
export function hourlyCapacity(ctx: ScoringContext, airport: string, hour: number): { departures: number; arrivals: number } | null {
  const start = hour * 60;
  const reduced = ctx.instance.capacityReductions.find((c) => c.airport === airport && c.startMinutes <= start && start < c.endMinutes);
  if (reduced) return reduced;
  const minute = ((start % 1440) + 1440) % 1440;
  return ctx.instance.airportCapacity.get(airport)?.find((w) => w.fromMinute <= minute && minute < w.toMinute) ?? null;
}

/** R32-R33: movements per airport and clock hour, shuttles excluded (spec 4.6). */
function checkAirports(ctx: ScoringContext, out: Findings): void {
  const count = new Map<string, { airport: string; hour: number; departures: number; arrivals: number }>();
  const bump = (airport: string, hour: number, kind: 'departures' | 'arrivals') => {
    const key = `${airport} ${hour}`;
    let c = count.get(key);
    if (!c) count.set(key, (c = { airport, hour, departures: 0, arrivals: 0 }));
    c[kind] += 1;
  };
  for (const [id, rotation] of ctx.rotations) {
    if (ctx.instance.aircraft.get(id)!.family === SHUTTLE_FAMILY) continue;
    for (const r of rotation) {
      bump(r.origin, Math.floor(r.depMinutes / 60), 'departures');
      bump(r.dest, Math.floor(r.arrMinutes / 60), 'arrivals');
    }
  }
  const ordered = [...count.values()].sort((a, b) => a.hour - b.hour || (a.airport < b.airport ? -1 : 1));
  for (const c of ordered) {
    const cap = hourlyCapacity(ctx, c.airport, c.hour);
    if (!cap) continue;
    const hour = `${c.airport} ${formatInstant(c.hour * 60)}-${formatInstant(c.hour * 60 + 60)}`;
    if (c.departures > cap.departures) out.add('airport.departures', `${hour}: ${c.departures} departures, capacity ${cap.departures}`);
    if (c.arrivals > cap.arrivals) out.add('airport.arrivals', `${hour}: ${c.arrivals} arrivals, capacity ${cap.arrivals}`);
  }
}

const CAPACITY_RULE: Record<Cabin, RuleId> = { F: 'capacity.first', B: 'capacity.business', E: 'capacity.eco' };

/** R34-R36: passengers per flown leg and cabin, legs before a `cancelled` label included. */
function checkCabins(ctx: ScoringContext, out: Findings): void {
  const load = new Map<string, number>();
  for (const s of ctx.solution.itineraries) {
    if (!ctx.bookings.has(s.itinerary)) continue;
    for (const l of s.legs) {
      const key = `${legKey(l.flight, l.day)}:${l.cabin}`;
      load.set(key, (load.get(key) ?? 0) + s.passengers);
    }
  }
  for (const [key, passengers] of load) {
    const [leg, cabin] = key.split(':') as [string, Cabin];
    const r = ctx.recordByKey.get(leg);
    const plane = aircraftOf(ctx, r?.aircraft ?? null);
    if (!r || !plane) continue;
    const seats = plane.seats[cabin];
    if (seats !== -1 && passengers > seats) out.add(CAPACITY_RULE[cabin], `${onAircraft(r)}: ${passengers} passengers in ${cabin}, ${seats} seats`);
  }
}

/** R37-R43 and R44-R50: each passenger line, then each booking's passenger count. */
function checkPassengers(ctx: ScoringContext, out: Findings): void {
  const S = ctx.instance.config.windowStartMinutes;
  const carried = new Map<number, number>();
  for (const s of ctx.solution.itineraries) {
    const where = `itinerary ${s.itinerary} (sol_itineraries.csv line ${s.line})`;
    const booking = ctx.bookings.get(s.itinerary);
    if (!booking) out.add('pax.unknown-itinerary', where);
    else {
      carried.set(s.itinerary, (carried.get(s.itinerary) ?? 0) + s.passengers);
      if (s.direction !== booking.itinerary.direction) out.add('pax.wrong-type', `${where}: ${s.direction}, booked ${booking.itinerary.direction}`);
    }
    if (s.legsAfterCancellation.length > 0) out.add('itinerary.flight-after-cancellation', `${where}: ${s.legsAfterCancellation.length} leg(s) after 'cancelled'`);
    if (s.legs.length === 0 && !s.cancelled) {
      out.add('itinerary.empty', where);
      continue;
    }
    if (booking) {
      const fixed = booking.fixedPart;
      const starts = fixed.every((f, i) => s.legs[i] !== undefined && s.legs[i]!.flight === f.flight && s.legs[i]!.day === f.day);
      if (!starts) out.add('itinerary.fixed-part-missing', `${where} must start with ${fixed.map((f) => legName(f.flight, f.day)).join(', ')}`);
    }
    let previous: ReadSolutionLeg | undefined;
    for (const l of s.legs) {
      const r = ctx.recordByKey.get(legKey(l.flight, l.day));
      if (!r) {
        out.add('itinerary.unknown-flight', `${where}: ${legName(l.flight, l.day)}`);
        previous = undefined;
        continue;
      }
      if (r.aircraft === null) out.add('itinerary.cancelled-flight-taken', `${where}: ${legName(l.flight, l.day)}`);
      if (previous) {
        if (previous.dest !== r.origin) out.add('itinerary.airports-differ', `${where}: ${legName(previous.flight, previous.day)} lands at ${previous.dest}, ${legName(r.flight, r.day)} leaves ${r.origin}`);
        else if (r.depMinutes - previous.arrMinutes < MIN_CONNECTION_MINUTES) {
          out.add('itinerary.connection-time', `${where}: ${r.depMinutes - previous.arrMinutes} min at ${r.origin} between ${legName(previous.flight, previous.day)} and ${legName(r.flight, r.day)}`);
        }
      }
      previous = r;
    }
    const records = booking && s.legs.length > 0 ? recordsOfLine(ctx, s) : null;
    if (!booking || !records) continue;
    const first = records[0]!;
    const last = records.at(-1)!;
    if (first.origin !== booking.origin) out.add('pax.origin', `${where} starts at ${first.origin}, booked from ${booking.origin}`);
    if (first.depMinutes < booking.plannedDepMinutes) out.add('pax.departs-early', `${where} departs ${formatInstant(first.depMinutes)}, booked ${formatInstant(booking.plannedDepMinutes)}`);
    if (!s.cancelled && last.dest !== booking.dest) out.add('pax.final-destination', `${where} ends at ${last.dest}, booked to ${booking.dest}`);
    if (s.cancelled && first.depMinutes > S) out.add('pax.cancelled-after-recovery-start', `${where} is marked cancelled but its first leg departs ${formatInstant(first.depMinutes)}, after the window start`);
    if (last.dest === booking.dest && booking.itinerary.direction === 'A') {
      const delay = last.arrMinutes - booking.plannedArrMinutes;
      const long = booking.haulClass === 'I';
      if (delay > (long ? 2160 : 1080)) {
        out.add(long ? 'pax.max-delay-36h' : 'pax.max-delay-18h', `${where} arrives ${delay} min late (${formatInstant(last.arrMinutes)}, booked ${formatInstant(booking.plannedArrMinutes)})`);
      }
    }
  }
  for (const [id, booking] of ctx.bookings) {
    const got = carried.get(id) ?? 0;
    if (got !== booking.itinerary.passengers) out.add('pax.count', `itinerary ${id}: ${got} passengers on its lines, ${booking.itinerary.passengers} booked`);
  }
}

/** Every rule of spec section 4, in catalogue order of their groups. */
export function checkFeasibility(ctx: ScoringContext): Findings {
  const out = new Findings();
  checkFormat(ctx, out);
  checkLegs(ctx, out);
  checkFixedLegs(ctx, out);
  checkAircraft(ctx, out);
  checkRotations(ctx, out);
  checkAirports(ctx, out);
  checkCabins(ctx, out);
  checkPassengers(ctx, out);
  return out;
}
