// `npm run bench -- --parts storm` (benchmarks/storm.ts): asked for on its own, and its storm is the
// issue's on flights, tails and airports the default schedule has.
import { describe, expect, it } from 'vitest';
import { ISSUE_23_STORM, stormPartRequested } from '../../benchmarks/storm.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { schedulePath } from '../../benchmarks/lib/schedules.ts';

describe('npm run bench -- --parts storm', () => {
  it('unit: the part is asked for with --parts storm and runs on its own', () => {
    expect(stormPartRequested(['--parts', 'storm', '--limits', '2000'])).toBe(true);
    expect(stormPartRequested(['--parts=storm'])).toBe(true);
    expect(stormPartRequested(['--parts', 'stages,http'])).toBe(false);
    expect(() => stormPartRequested(['--parts', 'stages,storm'])).toThrow('--parts storm runs on its own');
  });

  it('unit: the storm of issue 23 names three flights of NV arriving at VIE 05:00-09:00 UTC, an NV aircraft and VIE', () => {
    const schedule = loadScheduleFile(schedulePath('default'));
    const delays = ISSUE_23_STORM.filter((d) => d.type === 'flight_delay');
    expect(delays).toHaveLength(3);
    for (const d of delays) {
      const flight = schedule.flightsById.get(d.flightId)!;
      expect(flight.airline).toBe('NV');
      expect(flight.dest).toBe('VIE');
      expect(flight.arrMinutes).toBeGreaterThanOrEqual(Date.parse('2026-11-21T05:00:00Z') / 60_000);
      expect(flight.arrMinutes).toBeLessThan(Date.parse('2026-11-21T09:00:00Z') / 60_000);
      expect(d.minDelayMinutes).toBe(75);
    }
    const out = ISSUE_23_STORM.find((d) => d.type === 'aircraft_unavailable')!;
    expect(out.type === 'aircraft_unavailable' && schedule.aircraft.get(out.tail)?.airline).toBe('NV');
    expect(ISSUE_23_STORM.find((d) => d.type === 'airport_capacity')).toMatchObject({ airport: 'VIE', maxDeparturesPerHour: 4, maxArrivalsPerHour: 4 });
  });
});
