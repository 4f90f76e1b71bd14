// Tests of the oracle's day checker itself (test/oracle/day.ts): a day as the service presents it
// passes, and each kind of defect planted in it is reported.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDay, wholeScheduleWindow } from '../../src/domain/day/day.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { presentDay } from '../../src/http/day-presenter.ts';
import type { DayResponse } from '../../src/http/day-schemas.ts';
import { fixtureCatalog, FIXTURE_SCHEDULES_DIR } from '../support/server.ts';
import { brokenConnections, checkDay } from './day.ts';

const file = JSON.parse(readFileSync(`${FIXTURE_SCHEDULES_DIR}default.json`, 'utf8')) as ScheduleFile;
const schedule = fixtureCatalog().resolve('default')!.schedule;
const window = wholeScheduleWindow(schedule);
const opened = openDay(schedule, window);
const record = { id: 'd', environment: 'staging', scheduleName: 'default', window, revision: 1, createdAtMs: 0, updatedAtMs: 0 };
const day = (): DayResponse => structuredClone(presentDay(schedule, record, opened, opened));
const NV101 = 'NV101_2026-11-21T05:30:00Z';
const NV102 = 'NV102_2026-11-21T09:00:00Z';
const flight = (d: DayResponse, id: string) => d.flights.find((f) => f.id === id)!;

describe('the oracle\'s day checker', () => {
  it('unit: the day as opened is sound and has no broken connection', () => {
    expect(checkDay(file, day())).toEqual([]);
    expect(brokenConnections(file, day())).toEqual([]);
  });

  it('unit: each planted defect is reported', () => {
    const early = day();
    flight(early, NV101).estimated = { dep: '2026-11-21T05:00:00Z', arr: '2026-11-21T07:30:00Z' };
    expect(checkDay(file, early).join(' ')).toMatch(/before its scheduled departure/);

    const tight = day();
    flight(tight, NV102).estimated = { dep: '2026-11-21T08:10:00Z', arr: '2026-11-21T10:25:00Z' };
    expect(checkDay(file, tight).join(' ')).toMatch(/turns .* below|before its scheduled departure/);

    const onCancelled = day();
    flight(onCancelled, NV101).status = 'cancelled';
    flight(onCancelled, NV101).estimated = null;
    expect(checkDay(file, onCancelled).join(' ')).toMatch(/is on cancelled flight/);

    const lost = day();
    lost.passengers[0]!.passengers -= 1;
    expect(checkDay(file, lost).join(' ')).toMatch(/its schedule booked/);

    const departed = day();
    flight(departed, NV101).actual.off_block = '2026-11-21T06:30:00+01:00';
    flight(departed, NV101).estimated = { dep: '2026-11-21T06:30:00+01:00', arr: '2026-11-21T08:00:00Z' };
    const moved = structuredClone(departed);
    flight(moved, NV101).tail = 'OE-NVC';
    expect(checkDay(file, moved, departed).join(' ')).toMatch(/Departed flight .* moved/);

    const reinstated = structuredClone(onCancelled);
    flight(reinstated, NV101).status = 'scheduled';
    expect(checkDay(file, reinstated, onCancelled).join(' ')).toMatch(/flies again/);
    expect(checkDay(file, reinstated, onCancelled, { revert: true }).join(' ')).not.toMatch(/flies again/);
  });

  it('unit: a connection the estimates break is found', () => {
    const late = day();
    flight(late, NV101).estimated = { dep: '2026-11-21T08:40:00Z', arr: '2026-11-21T11:10:00Z' };
    flight(late, NV101).actual.off_block = '2026-11-21T08:40:00Z';
    expect(brokenConnections(file, late)).toEqual([`IT-0001|${NV101}|${NV102}`]);
  });
});
