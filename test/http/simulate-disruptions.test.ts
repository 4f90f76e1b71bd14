// POST /simulate with a list of disruptions (contract.md, "Several disruptions at once"), over real
// HTTP with a real solver pool, on the small schedule: the accepted body, its validation (400 for
// malformed or contradictory lists, 404 naming unknown flights, tails and airports), the normalised
// echo, and plans that respect every disruption (checked here from the response alone); and, on a
// hand-checked schedule of its own, an itinerary of three flights.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { F10, fid } from '../oracle/fixtures.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let pool: SolverPool;

beforeAll(async () => {
  pool = createSolverPool({ threads: 2 });
  await pool.ready();
  server = await startTestServer({ solver: pool });
});
afterAll(async () => {
  await server.close();
  await pool.close();
});

const post = (body: unknown) => fetch(`${server.baseUrl}/simulate`, {
  method: 'POST', headers: { 'X-API-Key': STAGING_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});

async function detailOf(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  const body = await response.json() as { detail: string };
  expect(Object.keys(body)).toEqual(['detail']);
  return body.detail;
}

// Generous limits: these tests are about the contract, not the speed of a loaded machine.
const CONFIG = { solver: { time_limit_ms: 10_000 } };
const base = { scenario_id: 'several', schedule_file: 'small', config: CONFIG };
const minutes = (iso: string) => Date.parse(iso) / 60_000;

describe('POST /simulate with disruptions: validation', () => {
  it('unit: a body with both forms, or neither, is a 400 naming the fields', async () => {
    const both = await post({ ...base, disrupted_flight: 'NV110_2026-11-21T09:35:00Z', min_delay_minutes: 60, disruptions: [{ type: 'flight_cancellation', flight: 'NV110_2026-11-21T09:35:00Z' }] });
    expect(await detailOf(both, 400)).toMatch(/'disrupted_flight'.*'disruptions'.*not both/);
    expect(await detailOf(await post(base), 400)).toMatch(/'disrupted_flight' with 'min_delay_minutes', or 'disruptions'/);
    expect(await detailOf(await post({ ...base, disrupted_flight: 'NV110_2026-11-21T09:35:00Z' }), 400)).toMatch(/min_delay_minutes/);
    expect(await detailOf(await post({ ...base, disruptions: [] }), 400)).toMatch(/disruptions/);
  });

  it('unit: malformed entries are 400 naming the entry and the rule (unknown type, bad timestamp, negative capacity, zone missing)', async () => {
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'volcano', airport: 'VIE' }] }), 400)).toMatch(/disruptions\.0/);
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'aircraft_unavailable', tail: 'OE-NVB', from: '2026-11-21T09:00:00', to: '2026-11-21T12:00:00Z' }] }), 400)).toMatch(/disruptions\.0\.from/);
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'airport_capacity', airport: 'VIE', from: '2026-11-21T09:00:00Z', to: '2026-11-21T12:00:00Z', max_departures_per_hour: -1, max_arrivals_per_hour: 2 }] }), 400)).toMatch(/max_departures_per_hour/);
  });

  it('unit: contradictory lists are 400 (a flight delayed twice, delayed and cancelled, an empty period, overlapping periods)', async () => {
    const flight = 'NV110_2026-11-21T09:35:00Z';
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'flight_delay', flight, min_delay_minutes: 30 }, { type: 'flight_delay', flight, min_delay_minutes: 60 }] }), 400)).toMatch(/a second time/);
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'flight_delay', flight, min_delay_minutes: 30 }, { type: 'flight_cancellation', flight }] }), 400)).toMatch(/both delays and cancels/);
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'aircraft_unavailable', tail: 'OE-NVB', from: '2026-11-21T12:00:00Z', to: '2026-11-21T12:00:00Z' }] }), 400)).toMatch(/'to' at or before 'from'/);
    const period = { from: '2026-11-21T09:00:00Z', to: '2026-11-21T12:00:00Z' };
    expect(await detailOf(await post({ ...base, disruptions: [
      { type: 'airport_capacity', airport: 'VIE', ...period, max_departures_per_hour: 2, max_arrivals_per_hour: 2 },
      { type: 'airport_capacity', airport: 'VIE', from: '2026-11-21T11:00:00Z', to: '2026-11-21T13:00:00Z', max_departures_per_hour: 1, max_arrivals_per_hour: 1 },
    ] }), 400)).toMatch(/overlapping periods/);
  });

  it('unit: unknown flights, tails and airports (or another airline\'s) are 404 with a sentence naming them', async () => {
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'flight_cancellation', flight: 'NV999_2026-11-21T09:35:00Z' }] }), 404))
      .toBe("Flight 'NV999_2026-11-21T09:35:00Z' not found for airline 'NV'");
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'flight_cancellation', flight: 'BZ102_2026-11-21T09:30:00Z' }] }), 404))
      .toBe("Flight 'BZ102_2026-11-21T09:30:00Z' not found for airline 'NV'");
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'aircraft_unavailable', tail: 'HB-JZA', from: '2026-11-21T09:00:00Z', to: '2026-11-21T12:00:00Z' }] }), 404))
      .toBe("Aircraft 'HB-JZA' not found for airline 'NV'");
    expect(await detailOf(await post({ ...base, disruptions: [{ type: 'airport_capacity', airport: 'XXX', from: '2026-11-21T09:00:00Z', to: '2026-11-21T12:00:00Z', max_departures_per_hour: 1, max_arrivals_per_hour: 1 }] }), 404))
      .toBe("Airport 'XXX' not found in the schedule");
  });
});

describe('POST /simulate with disruptions: answers', () => {
  let body: SimulationResponse;
  const disruptions = [
    { type: 'flight_delay', flight: 'NV103_2026-11-21T08:15:00Z', min_delay_minutes: 45 },
    { type: 'flight_cancellation', flight: 'NV120_2026-11-21T12:10:00Z' },
    { type: 'aircraft_unavailable', tail: 'OE-NVB', from: '2026-11-21T09:00:00+01:00', to: '2026-11-21T14:00:00+01:00' },
    { type: 'airport_capacity', airport: 'VIE', from: '2026-11-21T09:00:00Z', to: '2026-11-21T11:00:00Z', max_departures_per_hour: 1, max_arrivals_per_hour: 2 },
  ];
  beforeAll(async () => {
    const response = await post({ ...base, disruptions });
    expect(response.status).toBe(200);
    body = await response.json() as SimulationResponse;
  }, 120_000);

  it('unit: the response keeps its shape: disrupted_flight null, the disruptions echoed normalised (UTC), the disruption time the earliest start', () => {
    expect(body.disrupted_flight).toBeNull();
    expect(body.disruptions).toEqual([
      disruptions[0], disruptions[1],
      { type: 'aircraft_unavailable', tail: 'OE-NVB', from: '2026-11-21T08:00:00Z', to: '2026-11-21T13:00:00Z' },
      disruptions[3],
    ]);
    expect(body.disruption).toEqual({ min_delay_minutes: null, disruption_time: '2026-11-21T08:00:00Z', window_end: null });
    expect(body.options.length).toBeGreaterThan(0);
    expect(body.best_option_id).toBe(body.options[0]!.option_id);
    expect(body.scope.aircraft).toEqual(expect.arrayContaining(['OE-NVD', 'OE-NVE', 'OE-NVB']));
  });

  it('scenario: every option respects every disruption: the delay, the cancellation, the aircraft out of service, the capacity of VIE', () => {
    for (const option of body.options) {
      const legs = option.rotations.flatMap((r) => r.legs.map((leg) => ({ ...leg, tail: r.tail })));
      const cancelled = new Set(option.action_set.cancellations.map((c) => c.flight));
      const nv103 = legs.find((l) => l.flight === 'NV103_2026-11-21T08:15:00Z');
      if (nv103) expect(nv103.delay_minutes).toBeGreaterThanOrEqual(45); else expect(cancelled.has('NV103_2026-11-21T08:15:00Z')).toBe(true);
      expect(legs.some((l) => l.flight === 'NV120_2026-11-21T12:10:00Z')).toBe(false);
      expect(cancelled.has('NV120_2026-11-21T12:10:00Z')).toBe(true);
      for (const l of legs.filter((leg) => leg.tail === 'OE-NVB')) {
        expect(minutes(l.arr) <= minutes('2026-11-21T08:00:00Z') || minutes(l.dep) >= minutes('2026-11-21T13:00:00Z'), `${option.strategy} ${l.flight}`).toBe(true);
      }
      // VIE capacity, counted over the whole airline: the scope's legs at their plan times, the rest as scheduled.
      for (const hour of ['2026-11-21T09:00:00Z', '2026-11-21T10:00:00Z'].map(minutes)) {
        const planned = new Set(legs.map((l) => l.flight));
        const inHour = (t: string) => minutes(t) >= hour && minutes(t) < hour + 60;
        const deps = legs.filter((l) => l.origin === 'VIE' && inHour(l.dep)).length;
        const arrs = legs.filter((l) => l.dest === 'VIE' && inHour(l.arr)).length;
        expect(deps, `${option.strategy} departures ${hour}`).toBeLessThanOrEqual(1);
        expect(arrs, `${option.strategy} arrivals ${hour}`).toBeLessThanOrEqual(2);
        expect(planned.size).toBeGreaterThan(0);
      }
      expect(option.action_set.new_flights).toEqual([]);
      expect(Array.isArray(option.aircraft_out_of_position)).toBe(true);
      expect(option.aircraft_out_of_position.length > 0).toBe(option.cost_breakdown.aircraft_position > 0);
    }
  });

  it('scenario: every option states what was proven: a lower bound not above its cost, optimal only with a zero gap', () => {
    for (const option of body.options) {
      const s = option.solver;
      if (s.status === 'optimal') expect(s.mip_gap).toBe(0);
      if (s.lower_bound !== null) expect(s.lower_bound).toBeLessThanOrEqual(option.summary.cost + 1e-6);
      if (option.strategy !== 'delay_propagation') expect(s.note).toMatch(/Column generation/);
    }
    for (const u of body.unsolved_strategies) expect(u.detail.length).toBeGreaterThan(10);
  });

  it('unit: the single-delay body and the same delay as a one-entry list give the same options', async () => {
    const single = await (await post({ ...base, disrupted_flight: 'NV103_2026-11-21T08:15:00Z', min_delay_minutes: 45 })).json() as SimulationResponse;
    const listed = await (await post({ ...base, disruptions: [disruptions[0]] })).json() as SimulationResponse;
    expect(single.disrupted_flight).toBe('NV103_2026-11-21T08:15:00Z');
    expect(single.disruption.min_delay_minutes).toBe(45);
    expect(listed.disrupted_flight).toBeNull();
    const costs = (r: SimulationResponse) => r.options.map((o) => [o.strategy, o.summary.cost, o.solver.status]);
    expect(costs(listed)).toEqual(costs(single));
  }, 120_000);
});

describe('POST /simulate on a schedule with an itinerary of three flights', () => {
  it('scenario: the itinerary breaks at its second hub and its passengers are re-accommodated from the first, as hand-checked (F10: 6825)', async () => {
    // F10 (test/oracle/fixtures.ts) served by its own instance: IT3 NV101 -> NV201 -> NV301, NV201 45 late.
    const dir = mkdtempSync(join(tmpdir(), 'drs-three-flights-'));
    writeFileSync(join(dir, 'three-flights.json'), JSON.stringify(F10));
    const own = await startTestServer({ solver: pool, schedules: loadScheduleCatalog(dir, 'three-flights') });
    try {
      const response = await fetch(`${own.baseUrl}/simulate`, {
        method: 'POST', headers: { 'X-API-Key': STAGING_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ scenario_id: 'three-flights', config: CONFIG, disruptions: [{ type: 'flight_delay', flight: fid('NV201', '10:30'), min_delay_minutes: 45 }] }),
      });
      expect(response.status).toBe(200);
      const body = await response.json() as SimulationResponse;
      expect(body.scope.itineraries).toBe(1);
      for (const option of body.options) {
        expect(option.summary.cost, option.strategy).toBe(6825);
        expect(option.solver.status, option.strategy).toBe('optimal');
        expect(option.cost_breakdown).toMatchObject({ delay: 5625, reaccommodation: 1200, compensation: 0 });
        expect(option.action_set.reaccommodations).toEqual([
          { from_flight: fid('NV201', '10:30'), to_flights: [fid('NV401', '13:00')], passengers: 10, reason: 'misconnection', itinerary_id: 'IT3' },
        ]);
        expect(option.summary.passengers_disrupted).toBe(10);
      }
    } finally {
      await own.close();
    }
  }, 120_000);
});
