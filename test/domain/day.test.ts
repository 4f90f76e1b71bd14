// Unit tests of the operational day (src/domain/day/) on the hand-written fixture schedule
// (test/fixtures/schedules/default.json), whose every flight the expectations name: opening a day,
// estimates, the engine's schedule of a revision, applying an option, movements, revert, diff, alerts.
import { describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/domain/day/alerts.ts';
import { applyOption, revertTo, type OptionToApply } from '../../src/domain/day/apply.ts';
import { estimatedTimes, openDay, scheduleOfDay, wholeScheduleWindow, type DayState } from '../../src/domain/day/day.ts';
import { applyDelta, deltaOf } from '../../src/domain/day/delta.ts';
import { diffDays } from '../../src/domain/day/diff.ts';
import { recordMovements } from '../../src/domain/day/movements.ts';
import type { Flight } from '../../src/domain/schedule.ts';
import { parseZonedInstant } from '../../src/domain/time.ts';
import { selectScope } from '../../src/recovery/model/scope.ts';
import { passengerGroups } from '../../src/recovery/passengers/passengers.ts';
import { DEFAULT_SOLVER_CONFIG } from '../../src/recovery/model/solver-config.ts';
import { fixtureCatalog } from '../support/server.ts';

const schedule = fixtureCatalog().resolve('default')!.schedule;
const at = (text: string) => parseZonedInstant(text)!;
const NV101 = 'NV101_2026-11-21T05:30:00Z';
const NV102 = 'NV102_2026-11-21T09:00:00Z';
const NV103 = 'NV103_2026-11-21T12:00:00Z';
const NV104 = 'NV104_2026-11-21T15:00:00Z';
const NV201 = 'NV201_2026-11-21T06:00:00Z';
const NV202 = 'NV202_2026-11-21T09:00:00Z';
const flight = (id: string): Flight => schedule.flightsById.get(id)!;
const opened = () => openDay(schedule, wholeScheduleWindow(schedule));
const dayFlight = (state: DayState, id: string) => state.flights.find((f) => f.id === id)!;

describe('opening a day', () => {
  it('unit: every flight on its tail at its times; one booking per itinerary, the rest of each flight local', () => {
    const day = opened();
    expect(day.flights).toHaveLength(schedule.flights.length);
    expect(dayFlight(day, NV101)).toMatchObject({ tail: 'OE-NVA', depMinutes: flight(NV101).depMinutes, cancelled: false, actual: { offBlock: null } });
    expect(day.bookings.find((b) => b.id === 'IT-0001')).toMatchObject({ passengers: 12, flightIds: [NV101, NV102], origin: 'VIE', dest: 'VIE' });
    expect(day.bookings.find((b) => b.id === `${NV101}/local`)!.passengers).toBe(150 - 12);
    expect(day.bookings.find((b) => b.id === `${NV103}/local`)!.passengers).toBe(170);
  });

  it('unit: a window keeps the flights departing in it and drops itineraries that leave it', () => {
    const day = openDay(schedule, { fromMinutes: at('2026-11-21T08:00:00Z'), toMinutes: at('2026-11-21T20:00:00Z') });
    expect(day.flights.map((f) => f.id)).not.toContain(NV101);
    expect(day.flights.map((f) => f.id)).toContain(NV102);
    expect(day.bookings.some((b) => b.id === 'IT-0001')).toBe(false);
  });
});

describe('estimates and the engine\'s schedule', () => {
  it('unit: a late off-block pushes the rotation by the turnaround, never earlier than planned', () => {
    const moved = recordMovements(opened(), [{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T07:00:00Z') } }], at('2026-11-21T07:30:00Z'));
    if (!moved.ok) throw new Error(JSON.stringify(moved.problem));
    const estimates = estimatedTimes(schedule, moved.state);
    expect(estimates.get(NV101)).toEqual({ depMinutes: at('2026-11-21T07:00:00Z'), arrMinutes: at('2026-11-21T09:30:00Z') });
    // A320 at LHR: 50 minutes (DEFAULT_TURNAROUND).
    const turn = estimates.get(NV102)!.depMinutes - at('2026-11-21T09:30:00Z');
    expect(turn).toBeGreaterThanOrEqual(40);
    expect(estimates.get(NV102)!.depMinutes).toBeGreaterThan(flight(NV102).depMinutes);
    expect(estimates.get(NV201)).toEqual({ depMinutes: flight(NV201).depMinutes, arrMinutes: flight(NV201).arrMinutes });
  });

  it('unit: a flight that leaves after its successor\'s planned departure still delays it (estimates, alerts)', () => {
    // NV101 (planned 05:30-08:00 VIE-LHR) leaves at 09:30, after NV102's planned 09:00 departure.
    const moved = recordMovements(opened(), [{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T09:30:00Z') } }], at('2026-11-21T09:40:00Z'));
    if (!moved.ok) throw new Error(JSON.stringify(moved.problem));
    const estimates = estimatedTimes(schedule, moved.state);
    expect(estimates.get(NV101)).toEqual({ depMinutes: at('2026-11-21T09:30:00Z'), arrMinutes: at('2026-11-21T12:00:00Z') });
    expect(estimates.get(NV102)!.depMinutes).toBeGreaterThanOrEqual(at('2026-11-21T12:40:00Z'));
    // NV103 is pushed as well, and IT-0001's connection (NV101 then NV102 at LHR) is judged against
    // NV102's pushed departure, not its plan.
    expect(estimates.get(NV103)!.depMinutes).toBeGreaterThan(flight(NV103).depMinutes);
    const connection = alertsOf(schedule, moved.state).find((a) => a.type === 'connection' && a.bookingId === 'IT-0001');
    expect(connection).toMatchObject({ arrivalMinutes: at('2026-11-21T12:00:00Z'), departureMinutes: estimates.get(NV102)!.depMinutes });
    const { schedule: revised } = scheduleOfDay(schedule, moved.state, at('2026-11-21T09:40:00Z'));
    expect(revised.rotations.get('OE-NVA')!.map((f) => f.id)).toEqual([NV101, NV102, NV103, NV104]);
  });

  it('unit: the engine reads departed flights at their actual times, the others no earlier than now, cancelled ones gone', () => {
    const day = opened();
    const state: DayState = { ...day, flights: day.flights.map((f) => (f.id === NV201 ? { ...f, actual: { ...f.actual, offBlock: at('2026-11-21T06:05:00Z') } } : f.id === NV104 ? { ...f, cancelled: true } : f)) };
    const { schedule: revised, facts } = scheduleOfDay(schedule, state, at('2026-11-21T06:10:00Z'));
    expect(facts.departedFlightIds).toEqual([NV201]);
    expect(revised.flightsById.has(NV104)).toBe(false);
    expect(revised.flightsById.get(NV201)!.depMinutes).toBe(at('2026-11-21T06:05:00Z'));
    // NV101 (05:30) has not left: at 06:10 it is estimated at 06:10 at the earliest.
    expect(revised.flightsById.get(NV101)!.depMinutes).toBe(at('2026-11-21T06:10:00Z'));
    expect(revised.rotations.get('OE-NVA')!.map((f) => f.id)).toEqual([NV101, NV102, NV103]);
    expect(revised.itineraries.map((it) => it.id)).toEqual(['IT-0001']);
    expect(revised.flightsById.get(NV101)!.bookedPassengers).toBe(150);
  });
});

describe('applying an option', () => {
  const base = opened();
  const option = (over: Partial<OptionToApply> = {}): OptionToApply => ({ rotations: [], cancellations: [], reaccommodations: [], ...over });

  it('unit: retimings, swaps and cancellations take effect; legs left as they were change nothing', () => {
    const change = applyOption(base, base, option({
      rotations: [{
        tail: 'OE-NVB', checks: [], endStation: 'VIE', requiredEndStation: 'VIE', outOfPosition: false,
        legs: [
          { flight: flight(NV201), depMinutes: flight(NV201).depMinutes, arrMinutes: flight(NV201).arrMinutes, delayMinutes: 0 },
          { flight: flight(NV103), depMinutes: flight(NV103).depMinutes + 30, arrMinutes: flight(NV103).arrMinutes + 30, delayMinutes: 30 },
        ],
      }],
      cancellations: [{ flight: flight(NV104), passengers: 140 }],
      reaccommodations: [{ fromFlight: flight(NV104), toFlights: [], passengers: 140, reason: 'cancellation', itineraryId: null }],
    }), 'r2');
    if (!change.ok) throw new Error(JSON.stringify(change.conflict));
    expect(dayFlight(change.state, NV103)).toMatchObject({ tail: 'OE-NVB', depMinutes: flight(NV103).depMinutes + 30 });
    expect(dayFlight(change.state, NV201)).toBe(dayFlight(base, NV201));
    expect(dayFlight(change.state, NV104).cancelled).toBe(true);
    expect(change.state.bookings.find((b) => b.id === `${NV104}/local`)).toMatchObject({ stranded: true, flightIds: [] });
    expect(base.flights.find((f) => f.id === NV104)!.cancelled).toBe(false); // pure: the input is untouched
  });

  it('unit: a rebooking splits a booking, and the passengers of a cancelled flight are shared out over its bookings', () => {
    const change = applyOption(base, base, option({
      cancellations: [{ flight: flight(NV101), passengers: 150 }],
      reaccommodations: [
        { fromFlight: flight(NV101), toFlights: [flight('NV150_2026-11-21T06:00:00Z')], passengers: 20, reason: 'cancellation', itineraryId: null },
        { fromFlight: flight(NV101), toFlights: [], passengers: 130, reason: 'cancellation', itineraryId: null },
      ],
    }), 'r2');
    if (!change.ok) throw new Error(JSON.stringify(change.conflict));
    const it = change.state.bookings.filter((b) => b.id.startsWith('IT-0001'));
    // The itinerary (12, first by id) rides on NV150 then keeps NV102; 8 of the local 138 too; the rest are stranded.
    expect(it).toEqual([expect.objectContaining({ id: 'IT-0001', passengers: 12, flightIds: ['NV150_2026-11-21T06:00:00Z', NV102], stranded: false })]);
    const local = change.state.bookings.filter((b) => b.id.startsWith(`${NV101}/local`));
    expect(local.map((b) => [b.passengers, b.stranded]).sort()).toEqual([[130, true], [8, false]]);
    expect(change.state.bookings.reduce((sum, b) => sum + b.passengers, 0)).toBe(base.bookings.reduce((sum, b) => sum + b.passengers, 0));
  });

  it('unit: an option that moves a departed flight is refused naming it; one whose flight changed since, too', () => {
    const moved = recordMovements(base, [{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T05:35:00Z') } }], at('2026-11-21T06:00:00Z'));
    if (!moved.ok) throw new Error('movement refused');
    const retime = option({ rotations: [{ tail: 'OE-NVA', checks: [], endStation: 'VIE', requiredEndStation: 'VIE', outOfPosition: false, legs: [{ flight: flight(NV101), depMinutes: flight(NV101).depMinutes + 15, arrMinutes: flight(NV101).arrMinutes + 15, delayMinutes: 15 }] }] });
    expect(applyOption(moved.state, base, retime, 'r3')).toEqual({ ok: false, conflict: { kind: 'departed', flightId: NV101, offBlockMinutes: at('2026-11-21T05:35:00Z') } });
    const cancelled: DayState = { ...base, flights: base.flights.map((f) => (f.id === NV103 ? { ...f, cancelled: true } : f)) };
    expect(applyOption(cancelled, base, option({ cancellations: [{ flight: flight(NV103), passengers: 170 }], reaccommodations: [{ fromFlight: flight(NV103), toFlights: [], passengers: 170, reason: 'cancellation', itineraryId: null }] }), 'r3'))
      .toEqual({ ok: false, conflict: { kind: 'changed', flightId: NV103 } });
  });

  it('unit: an option naming a flight the day does not have is refused', () => {
    const other = { ...flight(NV103), id: 'NV999_2026-11-21T12:00:00Z' };
    expect(applyOption(base, base, option({ cancellations: [{ flight: other, passengers: 0 }] }), 'r2')).toEqual({ ok: false, conflict: { kind: 'unknown_flight', flightId: other.id } });
  });
});

describe('movements', () => {
  const day = opened();
  const now = at('2026-11-21T12:00:00Z');

  it('unit: recorded in order; later messages add to earlier ones', () => {
    const moved = recordMovements(day, [
      { flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T05:40:00Z'), airborne: at('2026-11-21T05:52:00Z') } },
      { flightId: NV101, tail: 'OE-NVA', times: { landed: at('2026-11-21T08:02:00Z'), onBlock: at('2026-11-21T08:09:00Z') } },
      { flightId: NV102, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T09:05:00Z') } },
    ], now);
    expect(moved.ok).toBe(true);
    if (moved.ok) expect(dayFlight(moved.state, NV101).actual).toEqual({ offBlock: at('2026-11-21T05:40:00Z'), airborne: at('2026-11-21T05:52:00Z'), landed: at('2026-11-21T08:02:00Z'), onBlock: at('2026-11-21T08:09:00Z') });
  });

  it('unit: each rule refuses with its reason: unknown flight, wrong tail, order, future, previous flight not departed, before its arrival, cancelled', () => {
    const problem = (messages: Parameters<typeof recordMovements>[1], state = day) => { const r = recordMovements(state, messages, now); return r.ok ? null : r.problem.kind; };
    expect(problem([{ flightId: 'NV999_2026-11-21T05:30:00Z', tail: 'OE-NVA', times: { offBlock: at('2026-11-21T05:40:00Z') } }])).toBe('unknown_flight');
    expect(problem([{ flightId: NV101, tail: 'OE-NVB', times: { offBlock: at('2026-11-21T05:40:00Z') } }])).toBe('wrong_tail');
    expect(problem([{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T05:40:00Z'), airborne: at('2026-11-21T05:39:00Z') } }])).toBe('order');
    expect(problem([{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T12:01:00Z') } }])).toBe('future');
    expect(problem([{ flightId: NV102, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T09:00:00Z') } }])).toBe('previous_not_departed');
    expect(problem([
      { flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T05:40:00Z'), onBlock: at('2026-11-21T08:10:00Z') } },
      { flightId: NV102, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T08:05:00Z') } },
    ])).toBe('before_previous');
    const cancelled: DayState = { ...day, flights: day.flights.map((f) => (f.id === NV103 ? { ...f, cancelled: true } : f)) };
    expect(problem([{ flightId: NV103, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T11:00:00Z') } }], cancelled)).toBe('cancelled');
  });
});

describe('revert, delta, diff, alerts', () => {
  const day = opened();
  const cancelledNv103: DayState = { ...day, flights: day.flights.map((f) => (f.id === NV103 ? { ...f, cancelled: true } : f)) };

  it('unit: revert restores the plan and keeps the actual times; a departed flight cannot be cancelled by it', () => {
    const moved = recordMovements(cancelledNv103, [{ flightId: NV201, tail: 'OE-NVB', times: { offBlock: at('2026-11-21T06:02:00Z') } }], at('2026-11-21T07:00:00Z'));
    if (!moved.ok) throw new Error('movement refused');
    const back = revertTo(moved.state, day);
    if (!back.ok) throw new Error('revert refused');
    expect(dayFlight(back.state, NV103).cancelled).toBe(false);
    expect(dayFlight(back.state, NV201).actual.offBlock).toBe(at('2026-11-21T06:02:00Z'));
    const departedThenCancelled: DayState = { ...day, flights: day.flights.map((f) => (f.id === NV201 ? { ...f, cancelled: true } : f)) };
    expect(revertTo(moved.state, departedThenCancelled)).toEqual({ ok: false, conflict: { kind: 'departed', flightId: NV201, offBlockMinutes: at('2026-11-21T06:02:00Z') } });
  });

  it('unit: a delta holds only what changed and rebuilds the state', () => {
    const delta = deltaOf(day, cancelledNv103);
    expect(delta.flights.map((f) => f.id)).toEqual([NV103]);
    expect(delta.bookings).toEqual([]);
    expect(applyDelta(day, delta)).toEqual(cancelledNv103);
  });

  it('unit: the diff names per tail what was cancelled, moved and retimed', () => {
    const after: DayState = { ...cancelledNv103, flights: cancelledNv103.flights.map((f) => (f.id === NV202 ? { ...f, tail: 'OE-NVC', depMinutes: f.depMinutes + 20, arrMinutes: f.arrMinutes + 20 } : f)) };
    const diff = diffDays(day, after);
    expect(diff.tails.map((t) => [t.tail, t.cancelled, t.movedIn.map((m) => m.flightId), t.movedOut.map((m) => m.flightId), t.retimed.map((r) => r.flightId)])).toEqual([
      ['OE-NVA', [NV103], [], [], []],
      ['OE-NVB', [], [], [NV202], []],
      ['OE-NVC', [], [NV202], [], [NV202]],
    ]);
  });

  it('unit: a late arrival breaks the itinerary\'s connection and a crew\'s duty limit in the alerts', () => {
    expect(alertsOf(schedule, day)).toEqual([]);
    const late = recordMovements(day, [{ flightId: NV101, tail: 'OE-NVA', times: { offBlock: at('2026-11-21T09:00:00Z'), onBlock: at('2026-11-21T11:30:00Z') } }], at('2026-11-21T11:30:00Z'));
    if (!late.ok) throw new Error('movement refused');
    const alerts = alertsOf(schedule, late.state);
    // IT-0001 connects NV101 -> NV102 at LHR (60 minutes); NV102 follows on the same A320 after its 50-minute turnaround.
    expect(alerts.filter((a) => a.type === 'connection')).toEqual([{
      type: 'connection', bookingId: 'IT-0001', passengers: 12, arrivingFlightId: NV101, departingFlightId: NV102, hub: 'LHR',
      arrivalMinutes: at('2026-11-21T11:30:00Z'), departureMinutes: at('2026-11-21T12:20:00Z'), minConnectionMinutes: 60, shortByMinutes: 10,
    }]);
    const crew = alerts.filter((a) => a.type === 'crew_duty');
    for (const a of crew) {
      const duty = schedule.crewById.get(a.type === 'crew_duty' ? a.crewId : '')!;
      expect(a.type === 'crew_duty' && a.arrivalMinutes > duty.dutyStartMinutes + duty.maxDutyMinutes).toBe(true);
    }
  });
});

describe('the engine on a day', () => {
  it('unit: a departed flight stays out of the scope even after the disruption time, and is no seat for a rebooking', () => {
    const disruptions = [{ type: 'aircraft_unavailable' as const, tail: 'OE-NVA', fromMinutes: at('2026-11-21T05:00:00Z'), toMinutes: at('2026-11-21T07:00:00Z') }];
    const free = selectScope(schedule, 'NV', disruptions, DEFAULT_SOLVER_CONFIG);
    expect(free.flights.map((f) => f.id)).toContain(NV101);
    const departed = new Set([NV101, 'NV150_2026-11-21T06:00:00Z']);
    const fixed = selectScope(schedule, 'NV', disruptions, DEFAULT_SOLVER_CONFIG, departed);
    expect(fixed.flights.map((f) => f.id)).not.toContain(NV101);
    const nva = fixed.aircraft.find((a) => a.aircraft.tail === 'OE-NVA')!;
    expect(nva.station).toBe('LHR');
    expect(nva.arrivalMinutes).toBe(flight(NV101).arrMinutes);
    const groups = passengerGroups(schedule, fixed, DEFAULT_SOLVER_CONFIG);
    expect(groups.network.flights.some((f) => departed.has(f.id))).toBe(false);
  });
});
