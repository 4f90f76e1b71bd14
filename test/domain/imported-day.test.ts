// Unit: an operational day opened on an imported ROADEF schedule (A01, imported by the CLI into a
// temporary folder) estimates its flights by the aircraft's own ground times (the schedule's
// ownTurnaround), as POST /simulate does: with no movement recorded no flight is estimated late. Under
// the default turnaround (35-45 min) the 10-minute CDG-ORY shuttle turns would push 178 of its 608.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimatedTimes, openDay, scheduleOfDay, wholeScheduleWindow } from '../../src/domain/day/day.ts';
import type { Schedule } from '../../src/domain/schedule.ts';
import { DEFAULT_TURNAROUND } from '../../src/domain/turnaround.ts';
import { loadScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import { importedA01 } from '../roadef/support.ts';

let dir: string;
let schedule: Schedule;

beforeAll(async () => {
  ({ dir } = await importedA01());
  schedule = loadScheduleCatalog(dir, 'a01').resolve('a01')!.schedule;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const late = (estimates: ReadonlyMap<string, { depMinutes: number }>) => schedule.flights.filter((f) => estimates.get(f.id)!.depMinutes !== f.depMinutes).length;

describe('a day of an imported ROADEF schedule', () => {
  it('unit: the schedule states its ground times per fleet, the shorter of turn-round and transit, no airport rule', () => {
    expect(schedule.ownTurnaround).toEqual({
      default_minutes: 35, by_airport: {}, by_airport_fleet: {},
      by_fleet: { A318: 30, A319: 35, A320: 40, A321: 45, BAE200: 20, BAE300: 20, CRJ100: 20, CRJ700: 20, ERJ135: 20, ERJ145: 20, F100: 20, TranspCom: 10 },
    });
  });

  it('unit: opened with no movement, every flight is estimated at its planned time, and the engine\'s schedule of the day keeps them', () => {
    const day = openDay(schedule, wholeScheduleWindow(schedule));
    expect(late(estimatedTimes(schedule, day))).toBe(0);
    const { schedule: ofDay } = scheduleOfDay(schedule, day, schedule.flights[0]!.depMinutes);
    expect(ofDay.flights.filter((f) => f.depMinutes !== schedule.flightsById.get(f.id)!.depMinutes)).toEqual([]);
    // The rule matters: the default turnaround would estimate 178 flights late before anything happened.
    expect(late(estimatedTimes(schedule, day, DEFAULT_TURNAROUND))).toBe(178);
  });
});
