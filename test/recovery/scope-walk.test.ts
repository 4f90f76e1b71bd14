// The engine's walk on a service scope (src/recovery/network/scope-walk.ts over operating-plan.ts under
// WalkRules, docs/model.md 4.2 and 4.6), on the storm of issue 23 (default schedule): every walk of
// the portfolio, judged here from the schedule and the disruptions alone (not by the engine's rules):
// each aircraft's legs follow on from where it stands with at least the shortest turnaround of the
// default table (30 minutes) between them, no
// flight leaves before its scheduled departure plus its disruption's delay, departures sit on the
// grid counted from there, the aircraft out of service flies nothing in its period, and VIE's capped
// hours hold at most 4 departures and 4 arrivals of the airline (those outside the scope included).
import { describe, expect, it } from 'vitest';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { resolveSolverConfig } from '../../src/recovery/model/solver-config.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { ScopeWalks } from '../../src/recovery/network/scope-walk.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { ISSUE_23_STORM } from '../../benchmarks/storm.ts';
import { schedulePath } from '../../benchmarks/lib/schedules.ts';

const minutes = (iso: string) => Date.parse(iso) / 60_000;
const DELAYED = new Map([['NV644_2026-11-21T04:30:00Z', 75], ['NV369_2026-11-21T06:10:00Z', 75], ['NV415_2026-11-21T06:20:00Z', 75]]);
const OUT = { tail: 'OE-NWU', from: minutes('2026-11-21T05:00:00Z'), to: minutes('2026-11-21T11:00:00Z') };
const CAP = { airport: 'VIE', from: minutes('2026-11-21T05:00:00Z'), to: minutes('2026-11-21T08:00:00Z'), max: 4 };

describe('the engine\'s walk on a service scope', () => {
  it('scenario: the storm of issue 23, each walk of the portfolio keeps rotations, delays, the grid, the aircraft out of service and VIE\'s capped hours', () => {
    const schedule = loadScheduleFile(schedulePath('default'));
    const resolved = resolveSolverConfig({});
    if (!resolved.valid) throw new Error('invalid configuration');
    const config = resolved.config;
    const prepared = prepareSimulation(schedule, { scenarioId: 'walk', airline: 'NV', scheduleName: 'default', config, disruptions: ISSUE_23_STORM, disruptedFlightId: null });
    const { scope } = prepared;
    const walks = new ScopeWalks(scope, new RouteEvaluator(schedule, scope, config), config.solver.time_step_minutes);
    const step = config.solver.time_step_minutes;
    const inScope = new Set(scope.aircraft.flatMap((a) => a.plannedFlights.map((f) => f.id)));
    for (const threshold of [Number.POSITIVE_INFINITY, 240, 90, 45]) {
      const routes = walks.walk({ thresholdMinutes: threshold });
      expect(routes.size).toBe(scope.aircraft.length);
      const movements = new Map<string, number>();
      const count = (kind: string, at: number) => {
        if (at < CAP.from || at >= CAP.to) return;
        const key = `${kind} ${Math.floor(at / 60)}`;
        movements.set(key, (movements.get(key) ?? 0) + 1);
      };
      let flown = 0;
      for (const a of scope.aircraft) {
        const route = routes.get(a.aircraft.tail)!;
        expect(route, `${a.aircraft.tail} at ${threshold}`).not.toBeNull();
        let station = a.station;
        let landed = a.arrivalMinutes;
        for (const leg of route!.legs) {
          const f = leg.flight;
          expect(f.origin, `${f.id} follows on`).toBe(station);
          expect(leg.depMinutes - landed, `${f.id} turnaround`).toBeGreaterThanOrEqual(landed === Number.NEGATIVE_INFINITY ? 0 : 30);
          const earliest = f.depMinutes + (DELAYED.get(f.id) ?? 0);
          expect(leg.depMinutes, `${f.id} earliest`).toBeGreaterThanOrEqual(earliest);
          expect((leg.depMinutes - earliest) % step, `${f.id} on the grid`).toBe(0);
          expect(leg.arrMinutes - leg.depMinutes).toBe(f.arrMinutes - f.depMinutes);
          if (a.aircraft.tail === OUT.tail) expect(leg.arrMinutes <= OUT.from || leg.depMinutes >= OUT.to, `${f.id} while ${OUT.tail} is out`).toBe(true);
          if (f.origin === CAP.airport) count('dep', leg.depMinutes);
          if (f.dest === CAP.airport) count('arr', leg.arrMinutes);
          station = f.dest;
          landed = leg.arrMinutes;
          flown++;
        }
      }
      // The airline's flights outside the scope keep their scheduled times.
      for (const f of schedule.flights) {
        if (f.airline !== 'NV' || inScope.has(f.id)) continue;
        if (f.origin === CAP.airport) count('dep', f.depMinutes);
        if (f.dest === CAP.airport) count('arr', f.arrMinutes);
      }
      for (const [key, n] of movements) expect(n, `${key} at ${threshold}`).toBeLessThanOrEqual(CAP.max);
      expect(flown).toBeGreaterThan(0);
    }
    // The walk that cancels what is 45 minutes late flies fewer flights than the one that cancels only what cannot fly.
    const legsOf = (threshold: number) => [...walks.walk({ thresholdMinutes: threshold }).values()].reduce((n, r) => n + (r?.legs.length ?? 0), 0);
    expect(legsOf(45)).toBeLessThan(legsOf(Number.POSITIVE_INFINITY));
  });
});
