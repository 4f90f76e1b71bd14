// Scenario: GET /snapshot window rules and overlap semantics, on the hand-written fixture (every value
// known) and on the real default schedule (round trip with /flights).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog, fixtureCatalog, startTestServer, type TestServer } from '../support/server.ts';

interface Snapshot {
  airline: string;
  schedule_file: string;
  schedule_airlines: string[];
  window: { from: string; to: string };
  flights: Record<string, unknown>[];
  aircraft: Record<string, unknown>[];
  crew: Record<string, unknown>[];
  maintenance: Record<string, unknown>[];
}

let fixture: TestServer;
let real: TestServer;
beforeAll(async () => {
  [fixture, real] = await Promise.all([startTestServer({ schedules: fixtureCatalog() }), startTestServer()]);
});
afterAll(async () => { await Promise.all([fixture.close(), real.close()]); });

function query(params: Record<string, string>): string {
  return `/snapshot?${new URLSearchParams(params).toString()}`;
}

async function snapshot(server: TestServer, params: Record<string, string> = {}): Promise<Snapshot> {
  const response = await server.get(query(params));
  expect(response.status, JSON.stringify(params)).toBe(200);
  return (await response.json()) as Snapshot;
}

async function rejected(params: Record<string, string>, status = 400): Promise<string> {
  const response = await fixture.get(query(params));
  expect(response.status, JSON.stringify(params)).toBe(status);
  const body = (await response.json()) as { detail: string };
  expect(Object.keys(body)).toEqual(['detail']);
  return body.detail;
}

const ids = (s: Snapshot, key: string, field: string) => s[key as 'flights'].map((x) => x[field]);

describe('window', () => {
  it('defaults to the earliest departure of any airline and 24 hours, even for the other airline', async () => {
    const nv = await snapshot(fixture);
    expect(nv.window).toEqual({ from: '2026-11-21T05:30:00+00:00', to: '2026-11-22T05:30:00+00:00' });
    const bz = await snapshot(fixture, { airline: 'BZ' });
    expect(bz.window).toEqual(nv.window);
    const realDefault = await snapshot(real);
    expect(Date.parse(realDefault.window.from)).toBe(bundledCatalog().resolve('default')!.schedule.flights[0]!.depMinutes * 60_000);
  });

  it('from alone gives a 24-hour window; to alone keeps the default from', async () => {
    expect((await snapshot(fixture, { from: '2026-11-21T10:00:00Z' })).window).toEqual({ from: '2026-11-21T10:00:00+00:00', to: '2026-11-22T10:00:00+00:00' });
    expect((await snapshot(fixture, { to: '2026-11-21T07:00:00Z' })).window).toEqual({ from: '2026-11-21T05:30:00+00:00', to: '2026-11-21T07:00:00+00:00' });
  });

  it('accepts numeric offsets and reports the window in UTC', async () => {
    const s = await snapshot(fixture, { from: '2026-11-21T09:00:00+01:00', to: '2026-11-21T05:00:00-05:00' });
    expect(s.window).toEqual({ from: '2026-11-21T08:00:00+00:00', to: '2026-11-21T10:00:00+00:00' });
  });

  it('exactly 72 hours is allowed; a minute more is 400', async () => {
    await snapshot(fixture, { from: '2026-11-21T00:00:00Z', to: '2026-11-24T00:00:00Z' });
    expect(await rejected({ from: '2026-11-21T00:00:00Z', to: '2026-11-24T00:01:00Z' })).toBe("The window from 'from' to 'to' must be at most 72 hours long.");
  });

  it('to at or before from is 400', async () => {
    const equal = await rejected({ from: '2026-11-21T08:00:00Z', to: '2026-11-21T08:00:00Z' });
    expect(equal).toBe("Query parameter 'to' must be later than 'from' (the window must be positive).");
    expect(await rejected({ from: '2026-11-21T08:00:00Z', to: '2026-11-21T07:00:00Z' })).toBe(equal);
    expect(await rejected({ to: '2026-11-21T05:00:00Z' })).toBe(equal);
  });

  it.each([
    ['from', '2026-11-21T08:00:00'],
    ['from', '2026-11-21'],
    ['from', '2026-02-30T00:00:00Z'],
    ['to', '2026-11-31T00:00:00Z'],
    ['from', '2026-11-21T24:00:00Z'],
    ['from', '2026-11-21T08:00:00+25:00'],
    ['to', 'tomorrow'],
    ['to', ''],
    ['from', '1795245736'],
  ])('%s=%s is 400 naming the parameter and the rule', async (name, value) => {
    const detail = await rejected({ [name]: value });
    expect(detail).toContain(`Query parameter '${name}'`);
    expect(detail).toContain('with a zone');
    expect(detail).toContain('real date');
  });

  it('unknown parameters, unknown schedule and airline without flights are refused', async () => {
    expect(await rejected({ start: '2026-11-21T08:00:00Z' })).toContain("'start'");
    expect(await rejected({ schedule_file: 'nope' }, 404)).toBe("Schedule 'nope' not found");
    expect(await rejected({ schedule_file: '../schedules/default' }, 404)).toBe("Schedule '../schedules/default' not found");
    expect(await rejected({ airline: 'ZZ' }, 404)).toBe("Airline 'ZZ' has no flights in schedule 'default'");
    expect(await rejected({ airline: 'nv' })).toContain("'airline'");
  });
});

describe('contents', () => {
  it('has exactly the contract fields', async () => {
    const s = await snapshot(fixture);
    expect(Object.keys(s).sort()).toEqual(['aircraft', 'airline', 'crew', 'flights', 'maintenance', 'schedule_airlines', 'schedule_file', 'window']);
    expect(Object.keys(s.flights[0]!).sort()).toEqual(['arr', 'booked_passengers', 'crew_ids', 'dep', 'dest', 'fleet', 'flight_number', 'id', 'origin', 'seats', 'status', 'tail']);
    expect(Object.keys(s.aircraft[0]!).sort()).toEqual(['airborne_flight', 'base', 'fleet', 'location', 'next_maintenance', 'seats', 'status', 'tail']);
    expect(Object.keys(s.crew[0]!).sort()).toEqual(['base', 'crew_id', 'duty_end', 'duty_start', 'flights', 'max_duty_minutes', 'role']);
    expect(Object.keys(s.maintenance[0]!).sort()).toEqual(['end', 'start', 'station', 'tail', 'type']);
  });

  it('schedule_airlines names every airline with flights in the file, whichever airline was asked for (the console tells a controller of the others)', async () => {
    const nv = await snapshot(real, { schedule_file: 'large' });
    const bz = await snapshot(real, { schedule_file: 'large', airline: 'BZ' });
    expect(nv.schedule_airlines).toEqual(['BZ', 'NV']);
    expect(bz.schedule_airlines).toEqual(['BZ', 'NV']);
    expect(new Set(bz.flights.map((f) => String(f.id).slice(0, 2)))).toEqual(new Set(['BZ']));
    expect((await snapshot(real, { schedule_file: 'small' })).schedule_airlines).toEqual(['BZ', 'NV']);
    expect((await snapshot(fixture)).schedule_airlines).toEqual(['BZ', 'NV']);
  });

  it('a flight overlaps when dep < to and arr > from: touching the window edges is outside', async () => {
    // 08:00-09:00Z: NV101 lands at 08:00 and NV201 too (out), NV150 is in the air (in), NV102/NV202 leave at 09:00 (out).
    const s = await snapshot(fixture, { from: '2026-11-21T08:00:00Z', to: '2026-11-21T09:00:00Z' });
    expect(ids(s, 'flights', 'id')).toEqual(['NV150_2026-11-21T06:00:00Z']);
    const wide = await snapshot(fixture, { from: '2026-11-21T07:59:00Z', to: '2026-11-21T09:01:00Z' });
    expect(ids(wide, 'flights', 'id')).toEqual([
      'NV101_2026-11-21T05:30:00Z', 'NV150_2026-11-21T06:00:00Z', 'NV201_2026-11-21T06:00:00Z',
      'NV102_2026-11-21T09:00:00Z', 'NV202_2026-11-21T09:00:00Z',
    ]);
  });

  it('flights carry the schedule facts, local times and status scheduled', async () => {
    const s = await snapshot(fixture, { from: '2026-11-21T05:00:00Z', to: '2026-11-21T06:00:00Z' });
    expect(s.flights).toEqual([{
      id: 'NV101_2026-11-21T05:30:00Z', tail: 'OE-NVA', origin: 'VIE', dest: 'LHR',
      dep: '2026-11-21T06:30:00+01:00', arr: '2026-11-21T08:00:00+00:00',
      flight_number: 'NV101', fleet: 'A320', seats: 180, booked_passengers: 150, crew_ids: ['NV-P001'], status: 'scheduled',
    }]);
  });

  it('the default window returns everything of the day, with no 50 cut, and only that airline', async () => {
    const nv = await snapshot(fixture);
    expect(nv.flights).toHaveLength(8);
    expect(ids(nv, 'flights', 'id').every((id) => String(id).startsWith('NV'))).toBe(true);
    const bz = await snapshot(fixture, { airline: 'BZ' });
    expect(ids(bz, 'flights', 'id')).toEqual(['BZ501_2026-11-21T07:00:00Z', 'BZ502_2026-11-21T09:30:00Z']);
    expect(ids(bz, 'aircraft', 'tail')).toEqual(['F-HBZA']);
    expect(ids(bz, 'crew', 'crew_id')).toEqual(['BZ-P001']);
    expect(bz.maintenance).toEqual([]);
    const large = await snapshot(real, { schedule_file: 'large', to: '2026-11-23T00:00:00Z' });
    expect(large.flights.length).toBeGreaterThan(50);
  });

  it('aircraft: airborne, in a check, landed, before the first flight', async () => {
    const atEight = await snapshot(fixture, { from: '2026-11-21T08:00:00Z', to: '2026-11-21T09:00:00Z' });
    expect(atEight.aircraft).toEqual([
      { tail: 'OE-NVC', fleet: 'A320', seats: 180, base: 'VIE', status: 'in_service', location: 'airborne', airborne_flight: 'NV150_2026-11-21T06:00:00Z', next_maintenance: null },
      {
        tail: 'OE-NVD', fleet: 'E195', seats: 120, base: 'VIE', status: 'in_maintenance', location: 'VIE', airborne_flight: null,
        next_maintenance: { type: 'daily_check', station: 'VIE', start: '2026-11-21T09:00:00+01:00', end: '2026-11-21T11:00:00+01:00' },
      },
    ]);
    const atEleven = await snapshot(fixture, { from: '2026-11-21T11:00:00Z', to: '2026-11-21T14:00:00Z' });
    expect(ids(atEleven, 'aircraft', 'tail')).toEqual(['OE-NVA', 'OE-NVB']);
    expect(atEleven.aircraft[0]).toMatchObject({ location: 'airborne', airborne_flight: 'NV102_2026-11-21T09:00:00Z', status: 'in_service' });
    expect(atEleven.aircraft[1]).toMatchObject({
      location: 'VIE', airborne_flight: null, status: 'in_service',
      next_maintenance: { type: 'a_check', station: 'VIE', start: '2026-11-21T12:30:00+01:00', end: '2026-11-21T21:00:00+01:00' },
    });
    const landed = await snapshot(fixture, { from: '2026-11-21T08:10:00Z', to: '2026-11-21T08:20:00Z' });
    expect(landed.aircraft).toEqual([
      expect.objectContaining({ tail: 'OE-NVC', location: 'airborne' }),
      expect.objectContaining({ tail: 'OE-NVD', location: 'VIE', status: 'in_maintenance', next_maintenance: null }),
    ]);
    const afterLanding = await snapshot(fixture, { from: '2026-11-21T08:10:00Z', to: '2026-11-21T09:30:00Z' });
    expect(afterLanding.aircraft.find((a) => a.tail === 'OE-NVA')).toMatchObject({ location: 'LHR', airborne_flight: null });
    // At the very minute of departure the aircraft is still at the origin; at the minute of arrival, at the destination.
    const atDeparture = await snapshot(fixture, { from: '2026-11-21T05:30:00Z', to: '2026-11-21T06:00:00Z' });
    expect(atDeparture.aircraft.find((a) => a.tail === 'OE-NVA')).toMatchObject({ location: 'VIE', airborne_flight: null });
    const atArrival = await snapshot(fixture, { from: '2026-11-21T08:00:00Z', to: '2026-11-21T09:30:00Z' });
    expect(atArrival.aircraft.find((a) => a.tail === 'OE-NVA')).toMatchObject({ location: 'LHR', airborne_flight: null });
    const early = await snapshot(fixture, { from: '2026-11-21T04:00:00Z', to: '2026-11-21T06:00:00Z' });
    expect(early.aircraft.find((a) => a.tail === 'OE-NVA')).toMatchObject({
      location: 'VIE', status: 'in_service',
      next_maintenance: { type: 'overnight_check', station: 'VIE', start: '2026-11-21T18:30:00+01:00', end: '2026-11-22T05:30:00+01:00' },
    });
  });

  it('crew duties and checks overlap by their own start and end; times are local with offsets', async () => {
    const s = await snapshot(fixture, { from: '2026-11-21T08:00:00Z', to: '2026-11-21T09:00:00Z' });
    expect(s.crew).toEqual([
      { crew_id: 'NV-P001', role: 'cockpit', base: 'VIE', duty_start: '2026-11-21T05:45:00+01:00', duty_end: '2026-11-21T12:45:00+01:00', flights: ['NV101_2026-11-21T05:30:00Z', 'NV102_2026-11-21T09:00:00Z'], max_duty_minutes: 660 },
      { crew_id: 'NV-C001', role: 'cabin', base: 'VIE', duty_start: '2026-11-21T06:15:00+01:00', duty_end: '2026-11-21T12:15:00+01:00', flights: ['NV201_2026-11-21T06:00:00Z', 'NV202_2026-11-21T09:00:00Z'], max_duty_minutes: 660 },
    ]);
    expect(s.maintenance).toEqual([{ tail: 'OE-NVD', type: 'daily_check', station: 'VIE', start: '2026-11-21T09:00:00+01:00', end: '2026-11-21T11:00:00+01:00' }]);
    const night = await snapshot(fixture, { from: '2026-11-21T23:00:00Z', to: '2026-11-22T02:00:00Z' });
    // A duty ending at a non-base airport is written in that airport's zone.
    expect(night.crew).toEqual([expect.objectContaining({ crew_id: 'NV-P002', duty_start: '2026-11-21T22:15:00+01:00', duty_end: '2026-11-22T01:00:00+00:00' })]);
    expect(ids(night, 'maintenance', 'tail')).toEqual(['OE-NVA']);
  });
});

describe('round trip with /flights on the real default schedule', () => {
  it('every id of /flights is in the default snapshot, with dep equal to the id instant', async () => {
    const list = (await (await real.get('/flights')).json()) as { flights: { id: string; dep: string; arr: string }[] };
    const s = await snapshot(real);
    const byId = new Map(s.flights.map((f) => [f.id as string, f]));
    for (const f of list.flights) {
      const inSnapshot = byId.get(f.id);
      expect(inSnapshot, f.id).toBeDefined();
      const idInstant = f.id.split('_')[1]!;
      expect(new Date(Date.parse(inSnapshot!.dep as string)).toISOString().replace('.000Z', 'Z')).toBe(idInstant);
      expect(inSnapshot!.dep).toBe(f.dep);
      expect(inSnapshot!.arr).toBe(f.arr);
    }
  });
});
