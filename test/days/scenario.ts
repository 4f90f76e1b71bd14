// The operational-day scenario of issue 25, over HTTP, shared by the embedded service (scenario.test.ts,
// on PGlite and on PostgreSQL) and the jobs API with Redis and two workers (test/jobs/days.test.ts):
// open the default day, delay a flight, apply the best option, record the movements of the first wave,
// delay another flight on the changed day, apply again, revert once. At each step the oracle's day
// checker (test/oracle/day.ts) finds the day sound, and every option of both simulations passes the
// oracle's plan checker on the schedule the day should have given the engine; the second simulation
// respects the first decision (cancelled flights stay cancelled, departed flights never move).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { DayResponse } from '../../src/http/day-schemas.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { brokenConnections, checkDay, scheduleFileOfDay } from '../oracle/day.ts';
import { isoMinutes, isoOf } from '../oracle/model.ts';
import { STAGING_KEY } from '../support/server.ts';

export const DEFAULT_SCHEDULE_FILE = JSON.parse(readFileSync(new URL('../../schedules/default.json', import.meta.url), 'utf8')) as ScheduleFile;

export interface DayClient {
  /** A request to the service with the test's key and JSON body; resolves with status, headers and parsed body. */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  /** A simulation on the day (POST /days/{id}/simulate, or a job with `day`): its response and the simulation id to apply. */
  simulate(dayId: string, body: Record<string, unknown>): Promise<SimulationResponse & { simulation_id: string }>;
}

/** A client of the /days routes with `key` (the staging key of test/support/server.ts by default). */
export function httpClient(baseUrl: string, key = STAGING_KEY): DayClient {
  const send: DayClient['send'] = async (method, path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method, headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
  return {
    send,
    async simulate(dayId, body) {
      const answer = await send('POST', `/days/${dayId}/simulate`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    },
  };
}

const FIRST_DELAY = 'NV146_2026-11-21T07:50:00Z';
/** The operator's largest budget (SIMULATION_MAX_TIME_LIMIT_MS): the default 2 s ran out on a loaded machine (no plan at all), and the check needs plans. */
const BUDGET = { config: { solver: { time_limit_ms: 10_000 } } };

/** Every option of a day's simulation passes the oracle's checker on the schedule the day gives the engine. */
function checkOptions(day: DayResponse, now: string, simulation: SimulationResponse): void {
  const schedule = scheduleFileOfDay(DEFAULT_SCHEDULE_FILE, day, now);
  expect(simulation.options.length, JSON.stringify(simulation.unsolved_strategies)).toBeGreaterThan(0);
  for (const option of simulation.options) {
    const problems = checkOption({ schedule, disruptions: simulation.disruptions, airline: 'NV', config: oracleConfig(), option });
    expect(problems, option.option_id).toEqual([]);
  }
}

async function readDay(client: DayClient, id: string): Promise<DayResponse> {
  const answer = await client.send('GET', `/days/${id}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('etag')).toBe(`"${answer.body.revision}"`);
  return answer.body as DayResponse;
}

async function expectSound(client: DayClient, day: DayResponse, previous?: DayResponse, revert = false): Promise<void> {
  expect(checkDay(DEFAULT_SCHEDULE_FILE, day, previous, { revert })).toEqual([]);
  // The service's alerts name exactly the connections the oracle finds broken.
  const alerts = await client.send('GET', `/days/${day.id}/alerts`);
  expect(alerts.status).toBe(200);
  const connections = (alerts.body.alerts as { type: string; booking_id: string; arriving_flight: string; departing_flight: string }[])
    .filter((a) => a.type === 'connection').map((a) => `${a.booking_id}|${a.arriving_flight}|${a.departing_flight}`).sort();
  expect(connections).toEqual(brokenConnections(DEFAULT_SCHEDULE_FILE, day));
}

/** Movement messages for every flight estimated to leave before `now`, on time, in departure order. */
function firstWave(day: DayResponse, now: string): { flight: string; tail: string; off_block: string; airborne: string; landed?: string; on_block?: string }[] {
  const nowMinutes = isoMinutes(now);
  return day.flights
    .filter((f) => f.status === 'scheduled' && f.estimated && isoMinutes(f.estimated.dep) < nowMinutes)
    .sort((a, b) => isoMinutes(a.estimated!.dep) - isoMinutes(b.estimated!.dep))
    .map((f) => {
      const dep = isoMinutes(f.estimated!.dep);
      const arr = isoMinutes(f.estimated!.arr);
      return {
        flight: f.id, tail: f.tail, off_block: isoOf(dep), airborne: isoOf(Math.min(dep + 10, nowMinutes)),
        ...(arr <= nowMinutes ? { landed: isoOf(arr - 5), on_block: isoOf(arr) } : {}),
      };
    });
}

export async function runDayScenario(client: DayClient): Promise<void> {
  // 1. Open the default day.
  const opened = await client.send('POST', '/days', { schedule_file: 'default' }, { 'X-Operator': 'Controller A' });
  expect(opened.status).toBe(201);
  expect(opened.headers.get('etag')).toBe('"1"');
  expect(opened.headers.get('location')).toBe(`/days/${opened.body.id}`);
  const id = opened.body.id as string;
  const day1 = await readDay(client, id);
  expect(day1.revision).toBe(1);
  await expectSound(client, day1);

  // 2. Delay a flight, and apply the best option.
  const now1 = '2026-11-21T04:00:00Z';
  const sim1 = await client.simulate(id, { scenario_id: 'day-1', disrupted_flight: FIRST_DELAY, min_delay_minutes: 150, now: now1, ...BUDGET });
  checkOptions(day1, now1, sim1);
  const best1 = sim1.best_option_id!;
  const missingIfMatch = await client.send('POST', `/days/${id}/apply`, { simulation_id: sim1.simulation_id, option_id: best1 });
  expect(missingIfMatch.status).toBe(428);
  const applied1 = await client.send('POST', `/days/${id}/apply`, { simulation_id: sim1.simulation_id, option_id: best1 }, { 'If-Match': '"1"', 'X-Operator': 'Controller A' });
  expect(applied1.status, JSON.stringify(applied1.body)).toBe(201);
  expect(applied1.headers.get('etag')).toBe('"2"');
  expect(applied1.body).toMatchObject({ number: 2, kind: 'apply', operator: 'Controller A', reason: { simulation_id: sim1.simulation_id, option_id: best1 } });
  const day2 = await readDay(client, id);
  await expectSound(client, day2, day1);
  const option1 = sim1.options.find((o) => o.option_id === best1)!;
  const cancelled = new Set(option1.action_set.cancellations.map((c) => c.flight));
  for (const f of day2.flights) expect(f.status === 'cancelled', f.id).toBe(cancelled.has(f.id));
  for (const d of option1.action_set.delays) expect(isoMinutes(day2.flights.find((f) => f.id === d.flight)!.planned.dep)).toBe(isoMinutes(d.new_dep));
  const diff = await client.send('GET', `/days/${id}/revisions/2/diff`);
  expect(diff.status).toBe(200);
  expect(diff.body.tails.flatMap((t: { cancelled: string[] }) => t.cancelled).sort()).toEqual([...cancelled].sort());

  // 3. The first wave's movements, at 08:00.
  const now2 = '2026-11-21T08:00:00Z';
  const wave = firstWave(day2, now2);
  expect(wave.length).toBeGreaterThan(20);
  const moved = await client.send('POST', `/days/${id}/movements`, { now: now2, movements: wave });
  expect(moved.status, JSON.stringify(moved.body)).toBe(201);
  expect(moved.body).toMatchObject({ number: 3, kind: 'movements', changes: { movements: wave.length } });
  const day3 = await readDay(client, id);
  await expectSound(client, day3, day2);
  const departed = new Set(day3.flights.filter((f) => f.actual.off_block !== null).map((f) => f.id));
  expect(departed.size).toBe(wave.length);

  // 4. Delay another flight on the changed day; its options respect the first decision.
  const second = day3.flights
    .filter((f) => f.airline === 'NV' && f.origin === 'VIE' && f.status === 'scheduled' && isoMinutes(f.estimated!.dep) >= isoMinutes('2026-11-21T10:00:00Z'))
    .sort((a, b) => isoMinutes(a.estimated!.dep) - isoMinutes(b.estimated!.dep))[0]!;
  const sim2 = await client.simulate(id, { scenario_id: 'day-2', disrupted_flight: second.id, min_delay_minutes: 120, now: now2, ...BUDGET });
  checkOptions(day3, now2, sim2);
  for (const option of sim2.options) {
    const touched = [...option.action_set.delays.map((d) => d.flight), ...option.action_set.swaps.map((s) => s.flight), ...option.action_set.cancellations.map((c) => c.flight)];
    expect(touched.filter((f) => departed.has(f) || cancelled.has(f)), option.option_id).toEqual([]);
    expect(option.rotations.flatMap((r) => r.legs.map((l) => l.flight)).filter((f) => cancelled.has(f))).toEqual([]);
  }
  const stale = await client.send('POST', `/days/${id}/apply`, { simulation_id: sim2.simulation_id, option_id: sim2.best_option_id }, { 'If-Match': '"2"' });
  expect(stale.status).toBe(412);
  expect(stale.headers.get('etag')).toBe('"3"');

  // Two controllers apply at once on revision 3: exactly one revision is written, the other gets 412.
  const picks = [sim2.options[0]!, sim2.options[1] ?? sim2.options[0]!];
  const [a, b] = await Promise.all(picks.map((o) =>
    client.send('POST', `/days/${id}/apply`, { simulation_id: sim2.simulation_id, option_id: o.option_id }, { 'If-Match': '"3"' })));
  expect([a!.status, b!.status].sort()).toEqual([201, 412]);
  const day4 = await readDay(client, id);
  expect(day4.revision).toBe(4);
  await expectSound(client, day4, day3);

  // 5. Revert once, to revision 3: its plan again, the movements kept.
  const reverted = await client.send('POST', `/days/${id}/revert`, { revision: 3 }, { 'If-Match': '"4"', 'X-Operator': 'Controller B' });
  expect(reverted.status, JSON.stringify(reverted.body)).toBe(201);
  expect(reverted.body).toMatchObject({ number: 5, kind: 'revert', operator: 'Controller B', reason: { reverted_to: 3 } });
  const day5 = await readDay(client, id);
  await expectSound(client, day5, day4, true);
  const plan = (d: DayResponse) => d.flights.map((f) => [f.id, f.tail, f.status, f.planned.dep, f.actual.off_block]);
  expect(plan(day5)).toEqual(plan(day3));
  expect(day5.passengers).toEqual(day3.passengers);

  // The history: five revisions, who wrote them and why.
  const revisions = await client.send('GET', `/days/${id}/revisions`);
  expect(revisions.body.revisions.map((r: { number: number; kind: string }) => [r.number, r.kind])).toEqual([[1, 'open'], [2, 'apply'], [3, 'movements'], [4, 'apply'], [5, 'revert']]);
  // A second browser's poll: 304 while nothing changed.
  const poll = await client.send('GET', `/days/${id}`, undefined, { 'If-None-Match': '"5"' });
  expect(poll.status).toBe(304);
}
