// Tests of the ORACLE itself (checker, brute force, min-cost flow, random generator) on fixtures whose
// answers were computed by hand from docs/model.md section 1 (see fixtures.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { RecoveryOptionView } from '../../src/http/recovery-schemas.ts';

/** An option as the response carries it; the oracle checks everything but the rotations (a view of the same plan). */
type RecoveryOption = Omit<RecoveryOptionView, 'rotations'>;
import { bruteForceOptimum, topLevelViolations, type BruteForceResult } from './brute-force.ts';
import { checkOption } from './checker.ts';
import { ORACLE_STRATEGIES, oracleConfig, type OracleConfigPatch, type OracleStrategy } from './config.ts';
import { at, F1, F1_CREW, F2, F3, F4, F5, fid, makeSchedule } from './fixtures.ts';
import { isoMinutes, minCostTransport, turnaroundMinutes, type TransportGroup } from './model.ts';
import { randomInstance, randomInstanceArbitrary } from './random-instance.ts';

interface Case { schedule: ScheduleFile; disruptedFlight: string; minDelayMinutes: number; patch?: OracleConfigPatch; strategy?: OracleStrategy }
const inputOf = (c: Case) => ({ schedule: c.schedule, disruptedFlight: c.disruptedFlight, minDelayMinutes: c.minDelayMinutes, config: oracleConfig(c.patch) });
const solve = (c: Case): BruteForceResult => bruteForceOptimum({ ...inputOf(c), strategy: c.strategy });
const check = (c: Case, option: RecoveryOption): string[] => checkOption({ ...inputOf(c), option });
const clone = <T>(x: T): T => structuredClone(x);

const N101 = fid('NV101', '08:00');
const N102 = fid('NV102', '10:15');
const f1: Case = { schedule: F1, disruptedFlight: N101, minDelayMinutes: 60 };
const f2: Case = { schedule: F2, disruptedFlight: N102, minDelayMinutes: 120 };
const f3: Case = { schedule: F3, disruptedFlight: N101, minDelayMinutes: 240, patch: { cost_weights: { reaccommodation_delay_per_passenger_minute: 0.1 } } };
const f4: Case = { schedule: F4, disruptedFlight: N101, minDelayMinutes: 60 };
const f5: Case = { schedule: F5, disruptedFlight: N101, minDelayMinutes: 60 };

describe('brute force: hand-checked optima', () => {
  it('F1 pure delay propagation: 17250, both flights delayed 60 and 55', () => {
    const r = solve(f1);
    expect(r.cost).toBe(17250);
    expect(r.option!.action_set.delays.map((d) => [d.flight, d.delay_minutes])).toEqual([[N101, 60], [fid('NV102', '10:15'), 55]]);
    expect(r.option!.action_set.cancellations).toEqual([]);
    expect(solve({ ...f1, strategy: 'delay_propagation' }).cost).toBe(17250);
  });

  it('F1 with a crew: soft 32250 with one violation; hard 62000 by cancelling NV102', () => {
    const soft = solve({ ...f1, schedule: F1_CREW });
    expect(soft.cost).toBe(32250);
    expect(soft.option!.violations.map((v) => [v.type, v.flight, v.crew_id])).toEqual([['crew_duty', fid('NV102', '10:15'), 'C1']]);
    const hard = solve({ ...f1, schedule: F1_CREW, patch: { constraints: { crew_duty: 'hard' } } });
    expect(hard.cost).toBe(62000);
    expect(hard.plan!.cancelled).toEqual([fid('NV102', '10:15')]);
    expect(hard.option!.cost_breakdown).toMatchObject({ delay: 9000, cancellation: 8000, compensation: 25000, aircraft_position: 20000 });
  });

  it('F2 a swap beats the delay: 18800; 51750 with max_swaps 1 or without the swap strategy', () => {
    const r = solve(f2);
    expect(r.scope.aircraft).toEqual(['OE-AAA', 'OE-AAB']);
    expect(r.cost).toBe(18800);
    expect(r.option!.action_set.swaps.map((s) => [s.flight, s.to_tail]).sort()).toEqual([[fid('NV103', '12:30'), 'OE-AAB'], [fid('NV104', '14:30'), 'OE-AAB']]);
    expect(solve({ ...f2, strategy: 'aircraft_swap' }).cost).toBe(18800);
    expect(solve({ ...f2, patch: { constraints: { max_swaps: 1 } } }).cost).toBe(51750);
    expect(solve({ ...f2, strategy: 'delay_propagation' }).cost).toBe(51750);
    expect(solve({ ...f2, strategy: 'cancellation' }).cost).toBe(51750);
  });

  it('F2 with a 3-hour window: the aircraft must be back at ZRH by 14:30 (2250 with D0 10, infeasible with D0 30)', () => {
    const ok = solve({ ...f2, minDelayMinutes: 10, patch: { constraints: { recovery_window_hours: 3 } } });
    expect(ok.scope.flights).toEqual([N102, fid('NV103', '12:30')]);
    expect(ok.cost).toBe(2250);
    const late = solve({ ...f2, minDelayMinutes: 30, patch: { constraints: { recovery_window_hours: 3 } } });
    expect(late.feasible).toBe(false);
    expect(late.cost).toBe(Number.POSITIVE_INFINITY);
  });

  it('F3 cancelling a round trip beats a 240-minute delay: 20384 with 7 passengers re-accommodated', () => {
    const r = solve(f3);
    expect(r.cost).toBe(20384);
    expect(r.plan!.cancelled).toEqual([N101, fid('NV102', '09:30')]);
    expect(r.option!.cost_breakdown).toMatchObject({ cancellation: 16000, reaccommodation: 7 * 162, compensation: 13 * 250, delay: 0 });
    expect(r.option!.summary).toMatchObject({ passengers_disrupted: 20, passengers_reaccommodated: 7, passengers_not_reaccommodated: 13, flights_cancelled: 2 });
    expect(solve({ ...f3, strategy: 'cancellation' }).cost).toBe(20384);
    expect(solve({ ...f3, patch: { ...f3.patch, constraints: { allow_cancellations: false } } }).cost).toBe(133525);
    expect(solve({ ...f3, patch: { ...f3.patch, constraints: { max_cancellations: 1 } } }).cost).toBe(133525);
  });

  it('F4 a misconnection is re-accommodated on a later flight: 22050; compensated when that is cheaper: 22250', () => {
    const r = solve(f4);
    expect(r.scope.aircraft).toEqual(['OE-AAA']);
    expect(r.cost).toBe(22050);
    expect(r.option!.action_set.reaccommodations).toEqual([
      { from_flight: fid('NV201', '10:00'), to_flights: [fid('NV203', '14:00')], passengers: 20, reason: 'misconnection', itinerary_id: 'IT1' },
    ]);
    const dear = solve({ ...f4, patch: { cost_weights: { reaccommodation_delay_per_passenger_minute: 1 } } });
    expect(dear.cost).toBe(22250);
    expect(dear.option!.action_set.reaccommodations[0]!.to_flights).toEqual([]);
  });

  it('F4 boundary: a flight is eligible for a misconnection from arr(f1) + mct on, not before', () => {
    // F4 plus OE-AAC (E190) NV205 VIE-ZRH 10:30-11:45 (50 booked). D0 60: NV101 arrives 10:15, 10:15 + 45 =
    // 11:00 > 10:30, so NV205 is not eligible and the optimum stays 22050. D0 30: NV101 09:45 (30),
    // NV102 ready 10:25 (25): 55 x 150 = 8250; 09:45 + 45 = 10:30 > 10:00 misconnects but NV205 (10:30 >=
    // 10:30) is eligible at 120 + 0.5 x (11:45 - 11:15) = 135 per passenger: 8250 + 20 x 135 = 10950.
    const schedule = clone(F4);
    schedule.aircraft.push({ tail: 'OE-AAC', airline: 'NV', fleet: 'E190', seats: 100, base: 'VIE' });
    schedule.flights.push({ flight_number: 'NV205', airline: 'NV', tail: 'OE-AAC', origin: 'VIE', dest: 'ZRH', dep: at('10:30'), arr: at('11:45'), distance_km: 600, booked_passengers: 50 });
    expect(solve({ ...f4, schedule }).cost).toBe(22050);
    const r = solve({ ...f4, schedule, minDelayMinutes: 30 });
    expect(r.cost).toBe(10950);
    expect(r.option!.action_set.reaccommodations[0]!.to_flights).toEqual([fid('NV205', '10:30')]);
    // No misconnection at all when the connection keeps exactly the minimum connection time.
    expect(solve({ ...f4, schedule, minDelayMinutes: 0 }).cost).toBe(0);
  });

  it('an aircraft taking over after a departed flight is ready only after its turnaround', () => {
    // OE-AAA (A320): NV100 VIE-PRG 08:00-08:50, NV101 PRG-VIE 09:30-10:20, NV103 VIE-FRA 11:00-12:30,
    // NV104 FRA-VIE 13:15-14:45 (100 each). OE-AAB (A320): NV201 ZRH-VIE 09:00-10:25, departed at t0 = 09:30,
    // so OE-AAB is at VIE, ready 10:25 + 40 = 11:05. NV101 disrupted by 180 min.
    // Delay all: NV101 12:30 (180), NV103 14:00 (180), NV104 16:10 (175): 535 x 150 = 80250.
    // OE-AAB takes NV103 at 11:05 (5) and NV104 (ready 12:35 + 40 = 13:15, on time):
    // 180 x 150 + 5 x 150 + 2 x 400 = 28550 = optimum.
    const schedule = makeSchedule({
      name: 'takeover',
      aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'A320', base: 'ZRH' }],
      flights: [
        ['NV100', 'OE-AAA', 'VIE', 'PRG', '08:00', '08:50', 100],
        ['NV101', 'OE-AAA', 'PRG', 'VIE', '09:30', '10:20', 100],
        ['NV103', 'OE-AAA', 'VIE', 'FRA', '11:00', '12:30', 100],
        ['NV104', 'OE-AAA', 'FRA', 'VIE', '13:15', '14:45', 100],
        ['NV201', 'OE-AAB', 'ZRH', 'VIE', '09:00', '10:25', 100],
      ],
    });
    const r = solve({ schedule, disruptedFlight: fid('NV101', '09:30'), minDelayMinutes: 180 });
    expect(r.cost).toBe(28550);
    expect(r.option!.action_set.delays.find((d) => d.flight.startsWith('NV103'))).toMatchObject({ tail: 'OE-AAB', delay_minutes: 5 });
  });

  it('otp counts arrivals up to 15 minutes late as on time', () => {
    // F1 with D0 15: NV101 arrives 15 late, NV102 (ready 09:45 + 40 = 10:25) 10 late: otp 1. D0 16: 0.5.
    expect(solve({ ...f1, minDelayMinutes: 15 }).option!.summary.otp).toBe(1);
    expect(solve({ ...f1, minDelayMinutes: 16 }).option!.summary.otp).toBe(0.5);
  });

  it('F5 a maintenance check: cancel (66000); missed without cancellations (67250); held when hard (175500)', () => {
    expect(solve(f5).cost).toBe(66000);
    const nc = solve({ ...f5, patch: { constraints: { allow_cancellations: false } } });
    expect(nc.cost).toBe(67250);
    expect(nc.option!.violations.map((v) => [v.type, v.flight, v.tail])).toEqual([['maintenance', fid('NV102', '10:15'), 'OE-AAA']]);
    const held = solve({ ...f5, patch: { constraints: { allow_cancellations: false, maintenance: 'hard' } } });
    expect(held.cost).toBe(175500);
    expect(held.option!.action_set.delays[0]).toMatchObject({ flight: N101, delay_minutes: 360 });
    expect(solve({ ...f5, strategy: 'delay_propagation' }).cost).toBe(67250);
    expect(solve({ ...f5, strategy: 'delay_propagation', patch: { constraints: { maintenance: 'hard' } } }).feasible).toBe(false);
  });

  it('top-level violations are those of the delay_propagation plan with soft rules', () => {
    const hardF5 = { ...inputOf(f5), config: oracleConfig({ constraints: { maintenance: 'hard', max_delay_minutes: 30 } }) };
    expect(topLevelViolations(hardF5).map((v) => [v.type, v.flight, v.tail])).toEqual([['maintenance', fid('NV102', '10:15'), 'OE-AAA']]);
    const crew = topLevelViolations({ ...inputOf(f1), schedule: F1_CREW });
    expect(crew.map((v) => [v.type, v.flight, v.crew_id, v.limit, v.actual, v.excess_minutes])).toEqual([['crew_duty', fid('NV102', '10:15'), 'C1', at('12:15'), at('12:40'), 25]]);
    expect(topLevelViolations(inputOf(f2))).toEqual([]);
  });

  it('selects candidate aircraft by fleet policy, ground time near a0 departures, nearest first, ties by tail', () => {
    const schedule = makeSchedule({
      name: 'scope',
      aircraft: [
        { tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAC', fleet: 'A320', base: 'ZRH' },
        { tail: 'OE-AAB', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAD', fleet: 'A320', base: 'PRG' },
        { tail: 'OE-AAE', fleet: 'E190', base: 'VIE' }, { tail: 'OE-AAF', fleet: 'A320', base: 'VIE' },
      ],
      flights: [
        ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
        ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
        ['NV103', 'OE-AAA', 'VIE', 'ZRH', '12:30', '13:45', 100],
        ['NV104', 'OE-AAA', 'ZRH', 'VIE', '14:30', '15:45', 100],
        // OE-AAD reaches VIE at 19:40: 430 min after OE-AAA's last departure there (12:30).
        ['NV401', 'OE-AAD', 'PRG', 'VIE', '18:50', '19:40', 50],
        // OE-AAF leaves VIE at 05:00 for good: 450 min before OE-AAA's departure there (12:30).
        ['NV501', 'OE-AAF', 'VIE', 'PRG', '05:00', '05:50', 50],
      ],
    });
    const base: Case = { schedule, disruptedFlight: N102, minDelayMinutes: 120 };
    const scope = (patch: OracleConfigPatch) => solve({ ...base, patch }).scope.aircraft;
    expect(scope({})).toEqual(['OE-AAA', 'OE-AAB', 'OE-AAC']);
    expect(scope({ solver: { max_candidate_aircraft: 1 } })).toEqual(['OE-AAA', 'OE-AAB']);
    expect(scope({ solver: { swap_window_hours: 8 } })).toEqual(['OE-AAA', 'OE-AAB', 'OE-AAC', 'OE-AAD', 'OE-AAF']);
    expect(scope({ solver: { swap_window_hours: 8, max_candidate_aircraft: 3 } })).toEqual(['OE-AAA', 'OE-AAB', 'OE-AAC', 'OE-AAD']);
    expect(scope({ solver: { swap_window_hours: 7.2 } })).toEqual(['OE-AAA', 'OE-AAB', 'OE-AAC', 'OE-AAD']);
    expect(scope({ constraints: { swap_fleet_policy: 'any' } })).toEqual(['OE-AAA', 'OE-AAB', 'OE-AAC', 'OE-AAE']);
    expect(scope({ solver: { max_candidate_aircraft: 0 } })).toEqual(['OE-AAA']);
    expect(solve({ ...base, patch: { solver: { max_candidate_aircraft: 0 } } }).cost).toBe(51750);
  });
});

describe('turnaround precedence', () => {
  it('is airport+fleet, then fleet, then airport, then default', () => {
    const t = oracleConfig().turnaround;
    expect(turnaroundMinutes(t, 'A320', 'LHR')).toBe(50);
    expect(turnaroundMinutes(t, 'A321', 'CDG')).toBe(50);
    expect(turnaroundMinutes(t, 'A319', 'CDG')).toBe(35);
    expect(turnaroundMinutes(t, 'E190', 'LHR')).toBe(30);
    expect(turnaroundMinutes(t, 'B738', 'LHR')).toBe(50);
    expect(turnaroundMinutes(t, 'B738', 'VIE')).toBe(35);
    expect(turnaroundMinutes(t, 'A320', 'VIE')).toBe(40);
  });

  it('is what the checker applies: 45 min suffice for an A320 at CDG, 40 do not', () => {
    // OE-AAA (A320): NV101 VIE-CDG 08:00-09:50, NV102 CDG-VIE 10:35-12:20; NV101 disrupted by 60 min:
    // NV102 ready 10:50 + 45 = 11:35 (delay 60). A plan flying it at 11:30 breaks the 45-min CDG turnaround.
    const schedule = makeSchedule({
      name: 'cdg', aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }],
      flights: [['NV101', 'OE-AAA', 'VIE', 'CDG', '08:00', '09:50', 100], ['NV102', 'OE-AAA', 'CDG', 'VIE', '10:35', '12:20', 100]],
    });
    schedule.airports.push({ code: 'CDG', name: 'Paris Charles de Gaulle', time_zone: 'Europe/Paris', lat: 49.0097, lon: 2.5479, hub: false, maintenance_station: false, min_connection_minutes: 60 });
    const c: Case = { schedule, disruptedFlight: N101, minDelayMinutes: 60 };
    const r = solve(c);
    expect(r.cost).toBe(120 * 150);
    expect(r.option!.action_set.delays[1]).toMatchObject({ delay_minutes: 60, new_dep: at('11:35') });
    const early = clone(r.option!);
    Object.assign(early.action_set.delays[1]!, { delay_minutes: 55, new_dep: at('11:30'), new_arr: at('13:15') });
    expect(check(c, early)).toContainEqual(expect.stringMatching(/at CDG in 40 min, below the minimum turnaround of 45 min/));
  });
});

describe('min-cost re-accommodation is exact', () => {
  // Exhaustive: every split of every group's passengers over its eligible flights and "not re-accommodated".
  function exhaustive(groups: TransportGroup[], capacity: Map<string, number>): number {
    let best = Number.POSITIVE_INFINITY;
    const used = new Map<string, number>();
    const rec = (i: number, acc: number) => {
      if (i === groups.length) { best = Math.min(best, acc); return; }
      const g = groups[i]!;
      const options = [...g.eligible.entries()];
      const split = (k: number, left: number, acc2: number) => {
        if (k === options.length) { rec(i + 1, acc2 + left * g.comp); return; }
        const [fid2, c] = options[k]!;
        const room = (capacity.get(fid2) ?? 0) - (used.get(fid2) ?? 0);
        for (let n = 0; n <= Math.min(left, room); n++) {
          used.set(fid2, (used.get(fid2) ?? 0) + n);
          split(k + 1, left - n, acc2 + n * c);
          used.set(fid2, used.get(fid2)! - n);
        }
      };
      split(0, g.size, acc);
    };
    rec(0, 0);
    return best;
  }

  it('matches exhaustive enumeration on small transportation problems', () => {
    const arb = fc.record({
      caps: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }),
      groups: fc.array(fc.record({
        size: fc.integer({ min: 0, max: 4 }),
        comp: fc.integer({ min: 0, max: 20 }).map((x) => x * 12.5),
        costs: fc.array(fc.option(fc.integer({ min: 0, max: 40 }).map((x) => x * 5.5), { nil: null }), { minLength: 3, maxLength: 3 }),
      }), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(fc.property(arb, ({ caps, groups }) => {
      const capacity = new Map(caps.map((c, j) => [`F${j}`, c]));
      const tg: TransportGroup[] = groups.map((g, i) => ({
        key: `G${i}`, size: g.size, comp: g.comp,
        eligible: new Map(g.costs.slice(0, caps.length).flatMap((c, j) => (c === null ? [] : [[`F${j}`, c] as [string, number]]))),
      }));
      const r = minCostTransport(tg, capacity);
      expect(r.cost).toBeCloseTo(exhaustive(tg, capacity), 6);
      for (const g of tg) expect(r.moves.filter((m) => m.key === g.key).reduce((s, m) => s + m.pax, 0)).toBe(g.size);
      for (const [f, c] of capacity) expect(r.moves.filter((m) => m.to === f).reduce((s, m) => s + m.pax, 0)).toBeLessThanOrEqual(c);
      for (const m of r.moves) expect(Number.isInteger(m.pax) && m.pax > 0).toBe(true);
    }), { numRuns: 300, seed: 20261121 });
  });
});

describe('checker', () => {
  // F1's optimum written by hand (times with numeric offsets, as the service writes them).
  const handF1: RecoveryOption = {
    option_id: 'hand-f1',
    strategy: 'integrated',
    rank: 1,
    summary: {
      otp: 0, nps: 1 - (100 * 60 / 180 + 100 * 55 / 180) / 200, cost: 17250, flights_delayed: 2, flights_cancelled: 0, flights_swapped: 0,
      passengers_disrupted: 0, passengers_reaccommodated: 0, passengers_not_reaccommodated: 0, total_delay_minutes: 115,
    },
    cost_breakdown: { delay: 17250, cancellation: 0, swap: 0, spill: 0, reaccommodation: 0, compensation: 0, crew_duty: 0, maintenance: 0, aircraft_position: 0 },
    action_set: {
      delays: [
        { flight: N101, tail: 'OE-AAA', delay_minutes: 60, new_dep: '2026-11-21T10:00:00+01:00', new_arr: '2026-11-21T11:30:00+01:00' },
        { flight: N102, tail: 'OE-AAA', delay_minutes: 55, new_dep: '2026-11-21T12:10:00+01:00', new_arr: '2026-11-21T13:40:00+01:00' },
      ],
      swaps: [], cancellations: [], reaccommodations: [],
    },
    violations: [],
    solver: { status: 'optimal', objective: 17250, mip_gap: 0, solve_ms: 1, rows: 0, columns: 0, nonzeros: 0, integers: 0, candidate_routes: 1, note: null },
  };
  const withDelay2 = (o: RecoveryOption, dep: string, delay: number): RecoveryOption => {
    const x = clone(o);
    const d = x.action_set.delays[1]!;
    d.delay_minutes = delay;
    d.new_dep = `${at(dep)}`;
    d.new_arr = new Date(isoMinutes(at(dep)) * 60_000 + 90 * 60_000).toISOString();
    return x;
  };

  it('accepts the hand-written optimum of F1 and every brute-force optimum of the fixtures', () => {
    expect(check(f1, handF1)).toEqual([]);
    const cases: Case[] = [
      f1, f2, f3, f4, f5, { ...f1, schedule: F1_CREW }, { ...f1, schedule: F1_CREW, patch: { constraints: { crew_duty: 'hard' } } },
      { ...f5, patch: { constraints: { allow_cancellations: false } } }, { ...f5, patch: { constraints: { allow_cancellations: false, maintenance: 'hard' } } },
      ...ORACLE_STRATEGIES.map((strategy) => ({ ...f2, strategy })), { ...f5, strategy: 'delay_propagation' },
    ];
    for (const c of cases) {
      const r = solve(c);
      expect(r.feasible).toBe(true);
      expect(check(c, r.option!)).toEqual([]);
    }
  });

  it('rejects a broken turnaround and a deliberate hold', () => {
    expect(check(f1, withDelay2(handF1, '11:05', 50))).toContainEqual(expect.stringMatching(/turns NV101_.* into NV102_.* at FRA in 35 min, below the minimum turnaround of 40 min/));
    expect(check(f1, withDelay2(handF1, '11:25', 70))).toContainEqual(expect.stringMatching(/NV102_.* departs at .*11:25.* although OE-AAA allows .*11:10.*never chosen/));
  });

  it('rejects wrong block times, delay minutes, too small a disruption delay and departed flights touched', () => {
    const block = clone(handF1);
    block.action_set.delays[1]!.new_arr = '2026-11-21T13:45:00+01:00';
    expect(check(f1, block)).toContainEqual(expect.stringMatching(/flown in 95 min but its scheduled block time is 90 min/));
    const minutes = clone(handF1);
    minutes.action_set.delays[0]!.delay_minutes = 59;
    expect(check(f1, minutes)).toContainEqual(expect.stringMatching(/reports 59 min but new_dep is 60 min/));
    expect(check({ ...f1, minDelayMinutes: 90 }, handF1)).toContainEqual(expect.stringMatching(/departs 60 min late, less than the minimum delay of 90 min/));
    const r = solve(f2);
    const departed = clone(r.option!);
    departed.action_set.delays.push({ flight: N101, tail: 'OE-AAA', delay_minutes: 5, new_dep: at('08:05'), new_arr: at('09:35') });
    expect(check(f2, departed)).toContainEqual(expect.stringMatching(/NV101_.* departed before the disruption time/));
  });

  it('rejects a discontinuous route and swaps beyond limits, policy or strategy', () => {
    const r = solve(f2);
    const broken = clone(r.option!);
    broken.action_set.swaps = broken.action_set.swaps.filter((s) => !s.flight.startsWith('NV104'));
    expect(check(f2, broken)).toContainEqual(expect.stringMatching(/The day of OE-AAA is not continuous: NV10\d_.* arrives at VIE but the next flight NV104_.* departs from ZRH/));
    expect(check({ ...f2, patch: { constraints: { max_swaps: 1 } } }, r.option!)).toContainEqual(expect.stringMatching(/swaps 2 flights, more than max_swaps = 1/));
    expect(check(f2, { ...clone(r.option!), strategy: 'delay_propagation' })).toContainEqual(expect.stringMatching(/delay_propagation strategy allows no swaps/));
    expect(check(f2, { ...clone(r.option!), strategy: 'cancellation' })).toContainEqual(expect.stringMatching(/cancellation strategy allows no swaps/));
    const f4r = solve(f4);
    const e190 = clone(f4r.option!);
    e190.action_set.swaps.push({ flight: fid('NV102', '10:00'), from_tail: 'OE-AAA', to_tail: 'OE-AAB' });
    e190.action_set.delays = e190.action_set.delays.map((d) => (d.flight.startsWith('NV102') ? { ...d, tail: 'OE-AAB' } : d));
    const problems = check(f4, e190);
    expect(problems).toContainEqual(expect.stringMatching(/flown by OE-AAB \(E190\) instead of OE-AAA \(A320\), which the same_family fleet policy forbids/));
    expect(problems).toContainEqual(expect.stringMatching(/flown by OE-AAB, which is not among the aircraft in scope/));
  });

  it('rejects cancellations that the configuration or strategy forbids', () => {
    const r = solve(f3);
    expect(check({ ...f3, patch: { ...f3.patch, constraints: { allow_cancellations: false } } }, r.option!)).toContainEqual(expect.stringMatching(/cancels 2 flights but cancellations are not allowed/));
    expect(check({ ...f3, patch: { ...f3.patch, constraints: { max_cancellations: 1 } } }, r.option!)).toContainEqual(expect.stringMatching(/more than max_cancellations = 1/));
    expect(check(f3, { ...clone(r.option!), strategy: 'aircraft_swap' })).toContainEqual(expect.stringMatching(/aircraft_swap strategy allows no cancellations/));
  });

  it('rejects exceeded seats, ineligible flights, unaccounted and undisrupted groups, and a dearer re-accommodation', () => {
    const r3 = solve(f3);
    const seats = clone(r3.option!);
    const onto301 = seats.action_set.reaccommodations.find((x) => x.to_flights[0]?.startsWith('NV301'))!;
    const none101 = seats.action_set.reaccommodations.find((x) => x.from_flight === N101 && x.to_flights.length === 0)!;
    onto301.passengers += 1;
    none101.passengers -= 1;
    expect(check(f3, seats)).toContainEqual(expect.stringMatching(/NV301_.* receives 6 re-accommodated passengers but has only 5 free seats/));

    const r4 = solve(f4);
    const dropped = clone(r4.option!);
    dropped.action_set.reaccommodations = [];
    expect(check(f4, dropped)).toContainEqual(expect.stringMatching(/misconnection group of itinerary IT1 has 20 passengers but the option accounts for 0/));
    const wrong = clone(r4.option!);
    wrong.action_set.reaccommodations[0]!.to_flights = [fid('NV202', '12:00')];
    expect(check(f4, wrong)).toContainEqual(expect.stringMatching(/onto NV202_.*, which is not an eligible flight/));
    const ghost = clone(handF1);
    ghost.action_set.reaccommodations.push({ from_flight: N102, to_flights: [], passengers: 3, reason: 'cancellation', itinerary_id: null });
    expect(check(f1, ghost)).toContainEqual(expect.stringMatching(/re-accommodation of cancelled flight NV102_.* is not a disrupted group/));

    // All 20 compensated instead of re-accommodated, with every figure consistent: only optimality fails.
    const dear = clone(r4.option!);
    dear.action_set.reaccommodations[0]!.to_flights = [];
    dear.cost_breakdown.reaccommodation = 0;
    dear.cost_breakdown.compensation = 5000;
    dear.summary.cost = 22250;
    dear.summary.passengers_reaccommodated = 0;
    dear.summary.passengers_not_reaccommodated = 20;
    // 20 passengers at disutility 1 instead of 0.5 + 0.5 x 240/360 (NV203 arrives 240 min after NV201 was due); 390 booked.
    dear.summary.nps = r4.option!.summary.nps - (20 - 20 * (0.5 + 0.5 * 240 / 360)) / 390;
    expect(check(f4, dear)).toEqual([expect.stringMatching(/re-accommodation costs 5000 but the cheapest one for these aircraft decisions costs 4800/)]);
  });

  it('rejects wrong costs, sums, counts, otp and nps', () => {
    const cost = clone(handF1);
    cost.cost_breakdown.delay = 17000;
    const problems = check(f1, cost);
    expect(problems).toContainEqual('The delay cost is reported as 17000 but recomputes to 17250.');
    expect(problems).toContainEqual('The cost breakdown sums to 17000 but summary.cost is 17250.');
    const total = clone(handF1);
    total.summary.cost = 17250.5;
    expect(check(f1, total)).toContainEqual(expect.stringMatching(/summary.cost is 17250.5 but the plan recomputes to 17250/));
    const close = clone(handF1);
    close.summary.cost = 17250 * (1 + 1e-9);
    close.cost_breakdown.delay = 17250 * (1 + 1e-9);
    expect(check(f1, close)).toEqual([]);
    const counts = clone(handF1);
    counts.summary.flights_delayed = 1;
    counts.summary.otp = 0.5;
    counts.summary.nps = 0.7;
    expect(check(f1, counts)).toEqual([
      'summary.flights_delayed is 1 but recomputes to 2.',
      'summary.otp is 0.5 but recomputes to 0.',
      expect.stringMatching(/^summary.nps is 0.7 but recomputes to 0.68055555/),
    ]);
  });

  it('rejects missing, extra and hard-forbidden violations', () => {
    const f5nc: Case = { ...f5, patch: { constraints: { allow_cancellations: false } } };
    const r = solve(f5nc);
    const missing = clone(r.option!);
    missing.violations = [];
    expect(check(f5nc, missing)).toContainEqual(expect.stringMatching(/does not report the maintenance violation on NV102_.* of OE-AAA/));
    expect(check({ ...f5, patch: { constraints: { allow_cancellations: false, maintenance: 'hard' } } }, r.option!))
      .toContainEqual(expect.stringMatching(/daily_check of OE-AAA at VIE .* is missed although maintenance is hard/));
    const extra = clone(handF1);
    extra.violations.push({ type: 'crew_duty', flight: N102, crew_id: 'C9', limit: at('12:00'), actual: at('12:40'), excess_minutes: 40, detail: 'x' });
    expect(check(f1, extra)).toContainEqual(expect.stringMatching(/reports a crew_duty violation on NV102_.* of crew C9 that the plan does not have/));
    const crewCase: Case = { ...f1, schedule: F1_CREW };
    expect(check({ ...crewCase, patch: { constraints: { crew_duty: 'hard' } } }, solve(crewCase).option!)).toContainEqual(expect.stringMatching(/Crew C1 ends NV102_.* beyond its duty limit .* although crew_duty is hard/));
  });
});

describe('random instances', () => {
  const FORMAT = {
    instant: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/, airport: /^[A-Z]{3}$/, airline: /^[A-Z0-9]{2}$/, fleet: /^[A-Z0-9]{3,4}$/,
    tail: /^[A-Z0-9]{1,2}-[A-Z0-9]{3,5}$/, flight: /^[A-Z0-9]{2}\d{1,4}$/, name: /^[a-z0-9][a-z0-9-]*$/,
  };
  /** The format rules of src/domain/schedule-file.ts and the rotation rules of the README, re-stated. */
  function problemsOf(s: ScheduleFile): string[] {
    const out: string[] = [];
    const need = (ok: boolean, what: string) => { if (!ok) out.push(what); };
    need(s.format_version === 1 && FORMAT.name.test(s.name) && /^\d{4}-\d{2}-\d{2}$/.test(s.operating_date), 'header');
    const airports = new Map(s.airports.map((a) => [a.code, a]));
    for (const a of s.airports) {
      need(FORMAT.airport.test(a.code) && Math.abs(a.lat!) <= 90 && Math.abs(a.lon!) <= 180, `airport ${a.code}`);
      need(Number.isInteger(a.min_connection_minutes) && a.min_connection_minutes >= 0 && a.min_connection_minutes <= 240, `mct ${a.code}`);
      try { new Intl.DateTimeFormat('en-US', { timeZone: a.time_zone }); } catch { out.push(`tz ${a.time_zone}`); }
    }
    need(s.airports.some((a) => a.hub && a.min_connection_minutes > 0), 'a hub');
    const fleets = new Map(s.fleets.map((f) => [f.code, f]));
    need(new Set(s.fleets.map((f) => f.family)).size === 2 && s.fleets.every((f) => FORMAT.fleet.test(f.code) && f.seats > 0), 'fleets');
    const aircraft = new Map(s.aircraft.map((a) => [a.tail, a]));
    need(aircraft.size === s.aircraft.length && s.aircraft.length >= 2 && s.aircraft.length <= 4, 'aircraft count');
    for (const a of s.aircraft) need(FORMAT.tail.test(a.tail) && fleets.has(a.fleet) && airports.has(a.base) && a.seats > 0 && a.airline === 'NV', `aircraft ${a.tail}`);
    need(s.flights.length >= 4 && s.flights.length <= 12, 'flight count');
    const ids = new Set<string>();
    for (const f of s.flights) {
      const id = `${f.flight_number}_${f.dep}`;
      need(!ids.has(id), `duplicate ${id}`);
      ids.add(id);
      need(FORMAT.flight.test(f.flight_number) && f.flight_number.startsWith(f.airline) && FORMAT.instant.test(f.dep) && FORMAT.instant.test(f.arr), `format ${id}`);
      need(aircraft.get(f.tail)?.airline === f.airline && airports.has(f.origin) && airports.has(f.dest) && f.origin !== f.dest, `refs ${id}`);
      need(Date.parse(f.arr) > Date.parse(f.dep) && f.distance_km! > 0 && Number.isInteger(f.booked_passengers) && f.booked_passengers >= 0, `values ${id}`);
      need(f.booked_passengers <= aircraft.get(f.tail)!.seats, `overbooked ${id}`);
    }
    const turn = oracleConfig().turnaround;
    for (const a of s.aircraft) {
      const rot = s.flights.filter((f) => f.tail === a.tail).sort((x, y) => Date.parse(x.dep) - Date.parse(y.dep));
      for (let i = 1; i < rot.length; i++) {
        need(rot[i - 1]!.dest === rot[i]!.origin, `continuity ${a.tail}`);
        need((Date.parse(rot[i]!.dep) - Date.parse(rot[i - 1]!.arr)) / 60_000 >= turnaroundMinutes(turn, a.fleet, rot[i - 1]!.dest), `turnaround ${a.tail}`);
      }
    }
    for (const m of s.maintenance) {
      need(aircraft.has(m.tail) && airports.get(m.station)?.maintenance_station === true && Date.parse(m.end) > Date.parse(m.start), `check ${m.tail}`);
      const rot = s.flights.filter((f) => f.tail === m.tail);
      const before = rot.filter((f) => Date.parse(f.arr) <= Date.parse(m.start)).sort((x, y) => Date.parse(x.arr) - Date.parse(y.arr)).at(-1);
      const next = rot.filter((f) => Date.parse(f.dep) > Date.parse(m.start)).sort((x, y) => Date.parse(x.dep) - Date.parse(y.dep))[0];
      need((before ? before.dest : rot[0]!.origin) === m.station && (!next || Date.parse(next.dep) >= Date.parse(m.end)), `check fits ${m.tail}`);
    }
    for (const c of s.crew) need(c.flights.length > 0 && c.flights.every((id) => ids.has(id)) && c.max_duty_minutes > 0 && FORMAT.instant.test(c.duty_start), `crew ${c.crew_id}`);
    for (const it of s.itineraries) {
      const [a, b] = it.flights.map((id) => s.flights.find((f) => `${f.flight_number}_${f.dep}` === id));
      need(!!a && !!b && a.dest === b.origin && it.passengers > 0, `itinerary ${it.itinerary_id}`);
      if (a && b) need((Date.parse(b.dep) - Date.parse(a.arr)) / 60_000 >= airports.get(a.dest)!.min_connection_minutes, `connection ${it.itinerary_id}`);
    }
    return out;
  }

  it('are valid schedules, deterministic per seed, with a disruption of the schedule', () => {
    fc.assert(fc.property(randomInstanceArbitrary(), (inst) => {
      expect(problemsOf(inst.schedule)).toEqual([]);
      expect(inst.schedule.flights.some((f) => `${f.flight_number}_${f.dep}` === inst.disruptedFlight)).toBe(true);
      expect(inst.minDelayMinutes).toBeGreaterThanOrEqual(0);
      expect(inst.minDelayMinutes).toBeLessThanOrEqual(240);
      expect(JSON.stringify(randomInstance(inst.seed))).toBe(JSON.stringify(inst));
    }), { numRuns: 300, seed: 7 });
  });

  it('brute force is fast, its optima pass the checker, and integrated is never worse than a restricted strategy', () => {
    let swaps = 0;
    let cancels = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const inst = randomInstance(seed);
      const costs = new Map<OracleStrategy, number>();
      for (const strategy of ORACLE_STRATEGIES) {
        const r = bruteForceOptimum({ ...inst, strategy });
        expect(r.stats.ms, `seed ${seed} ${strategy}`).toBeLessThan(1000);
        costs.set(strategy, r.cost);
        if (!r.feasible) continue;
        expect(checkOption({ ...inst, option: r.option! }), `seed ${seed} ${strategy}`).toEqual([]);
        if (strategy === 'integrated') {
          if (r.option!.action_set.swaps.length > 0) swaps++;
          if (r.option!.action_set.cancellations.length > 0) cancels++;
        }
      }
      for (const s of ORACLE_STRATEGIES) expect(costs.get('integrated')!, `seed ${seed} vs ${s}`).toBeLessThanOrEqual(costs.get(s)! + 1e-6);
    }
    // The generator must produce interesting optima, not only delays.
    expect(swaps + cancels).toBeGreaterThan(3);
  });
});
