// The operational day over HTTP (`npm run bench -- --parts days`, part of the default run): the real
// service as a child process with a PGlite directory of its own (under the system's temp folder,
// removed afterwards), the default schedule opened as a day, one simulation of three delays, and its
// option with the most actions (at least 20; delays, swaps, cancellations and rebookings counted).
// Measured, one request at a time:
//   - apply: POST /days/{id}/apply of that option (If-Match), each followed by an unmeasured revert
//     to revision 1, so that the same option applies again on the same plan;
//   - GET /days/{id} of a revision read for the first time (right after a revert: the day rebuilt
//     and presented) and of a revision already read (the presented revision kept by the process);
//   - a poll that finds nothing new: GET with If-None-Match of the current ETag (304).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from './lib/http.ts';
import { announce, progress } from './lib/progress.ts';
import { measure, summarize, type MeasureOptions, type Summary } from './lib/stats.ts';

export interface DayFigures {
  option: { option_id: string; actions: number };
  apply: Summary;
  get_first_read: Summary;
  get_kept: Summary;
  poll_304: Summary;
  response_bytes: number;
}

/**
 * The disruptions whose option with the most actions is applied: three delays at the hub (every
 * strategy's option has between 19 and 37 actions on the default schedule when proven; a single delay
 * gave only 12); a 10-second budget so that a loaded machine still proves them.
 */
const DISRUPTION = {
  scenario_id: 'bench-day', now: '2026-11-21T04:00:00Z', config: { solver: { time_limit_ms: 10_000 } },
  disruptions: [
    { type: 'flight_delay', flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 150 },
    { type: 'flight_delay', flight: 'NV106_2026-11-21T08:45:00Z', min_delay_minutes: 90 },
    { type: 'flight_delay', flight: 'NV226_2026-11-21T08:45:00Z', min_delay_minutes: 120 },
  ],
};
/** The target is stated for an option of this many actions; the measured option has at least as many. */
const TARGET_ACTIONS = 20;
const actionsOf = (o: { action_set: Record<'delays' | 'swaps' | 'cancellations' | 'reaccommodations', unknown[]> }) =>
  o.action_set.delays.length + o.action_set.swaps.length + o.action_set.cancellations.length + o.action_set.reaccommodations.length;

export async function measureDays(reps: MeasureOptions): Promise<DayFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-days-'));
  let server: RunningServer | null = null;
  try {
    progress('days: starting the service with a PGlite directory of its own');
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0', PGLITE_DIR: join(dir, 'pglite'), LOG_LEVEL: 'warn' });
    const s = server;
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${s.baseUrl}${path}`, {
        method, headers: { 'X-API-Key': s.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, etag: response.headers.get('etag'), text };
    };
    const expectStatus = <A extends { status: number; text: string }>(answer: A, status: number, what: string): A => {
      if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return answer;
    };
    progress('days: opening the default day and simulating');
    const id = JSON.parse(expectStatus(await call('POST', '/days', { schedule_file: 'default' }), 201, 'POST /days').text).id as string;
    const simulation = JSON.parse(expectStatus(await call('POST', `/days/${id}/simulate`, DISRUPTION), 200, 'POST /days/{id}/simulate').text);
    const option = [...simulation.options].sort((p, q) => actionsOf(q) - actionsOf(p))[0];
    const actions = actionsOf(option);
    if (actions < TARGET_ACTIONS) throw new Error(`the option with the most actions has ${actions}, fewer than the ${TARGET_ACTIONS} the target is stated for`);
    let revision = 1;
    const apply = async () => {
      const answer = expectStatus(await call('POST', `/days/${id}/apply`, { simulation_id: simulation.simulation_id, option_id: option.option_id }, { 'If-Match': `"${revision}"` }), 201, 'apply');
      revision = Number(answer.etag!.replaceAll('"', ''));
    };
    const revert = async () => {
      const answer = expectStatus(await call('POST', `/days/${id}/revert`, { revision: 1 }, { 'If-Match': `"${revision}"` }), 201, 'revert');
      revision = Number(answer.etag!.replaceAll('"', ''));
    };
    progress('days: apply');
    const applySamples: number[] = [];
    await measure(async () => {
      const t0 = performance.now();
      await apply();
      applySamples.push(performance.now() - t0);
      await revert();
    }, { ...reps, warmup: 1 });
    progress('days: GET of a revision read for the first time');
    const firstRead: number[] = [];
    let bytes = 0;
    await measure(async () => {
      await apply();
      await revert();
      const t0 = performance.now();
      bytes = expectStatus(await call('GET', `/days/${id}`), 200, 'GET /days/{id}').text.length;
      firstRead.push(performance.now() - t0);
    }, { ...reps, warmup: 1 });
    progress('days: GET of a revision already read');
    const kept = await measure(async () => { expectStatus(await call('GET', `/days/${id}`), 200, 'GET /days/{id}'); }, reps);
    const poll = await measure(async () => { expectStatus(await call('GET', `/days/${id}`, undefined, { 'If-None-Match': `"${revision}"` }), 304, 'GET /days/{id} If-None-Match'); }, reps);
    announce('operational day measured');
    return {
      option: { option_id: option.option_id, actions },
      apply: summarize(applySamples.slice(1)), get_first_read: summarize(firstRead.slice(1)), get_kept: summarize(kept), poll_304: summarize(poll), response_bytes: bytes,
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
