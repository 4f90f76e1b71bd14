// Scenario: the document's examples are real answers. A session over a running service (the small
// schedule, a job, an operational day) calls every operation that takes or gives JSON; its requests
// and answers, abridged (every array cut to its first two items), are the examples of
// src/http/openapi-examples.json. The test fails when an operation has no example, when an example
// breaks its own schema, or when the live answer no longer has an example's shape (its fields and
// their types); `EXAMPLES_UPDATE=1 npx vitest run test/http/examples.test.ts` records them again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

const EXAMPLES_FILE = join(import.meta.dirname, '../../src/http/openapi-examples.json');
type Examples = Record<string, { request?: unknown; response?: unknown }>;
interface Operation { operationId: string; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }
type Document = { paths: Record<string, Record<string, Operation>> };

/** Every array cut to its first two items, at any depth: an example shows the shape, not the bulk. */
function abridge(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(abridge);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abridge(v)]));
  return value;
}

/**
 * Where two values differ in shape (fields and value types, not values): paths of the differences. A
 * null, or an empty array, matches any value there (a job's lower bound may be known in one run only).
 */
function shapeDifferences(a: unknown, b: unknown, path = '$'): string[] {
  if (a === null || b === null) return [];
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return [`${path}: array and ${Array.isArray(a) ? typeof b : typeof a}`];
    return a.length === 0 || b.length === 0 ? [] : shapeDifferences(a[0], b[0], `${path}[0]`);
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
    return keys.flatMap((k) => (!(k in x) || !(k in y) ? [`${path}.${k}: only in ${k in x ? 'the example' : 'the live answer'}`] : shapeDifferences(x[k], y[k], `${path}.${k}`)));
  }
  return typeof a === typeof b ? [] : [`${path}: ${typeof a} and ${typeof b}`];
}

/** Operations whose answer is not JSON or is the document itself: no example. */
const NO_JSON_EXAMPLE = new Set(['getOpenApiDocument', 'getDocs', 'getConsole', 'getMetrics', 'streamSimulationJobEvents']);

let pool: SolverPool;
let server: TestServer;
let days: DayStoreHandle;
let removeDir: () => void;
let doc: Document;
const recorded: Examples = {};

async function call(operationId: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method, headers: { 'X-API-Key': STAGING_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = response.status === 304 ? null : await response.json();
  expect(response.status, `${operationId}: ${JSON.stringify(answer).slice(0, 300)}`).toBeLessThan(300);
  recorded[operationId] = { ...(body === undefined ? {} : { request: abridge(body) }), response: abridge(answer) };
  return { status: response.status, headers: response.headers, body: answer };
}

beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  ({ days, remove: removeDir } = await freshPgliteDayStore());
  server = await startTestServer({ solver: pool, days, env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' } });
  doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Document;

  // A session that calls every operation once, in the order a client would.
  await call('getHealth', 'GET', '/health');
  const flights = await call('listFlights', 'GET', '/flights?airline=NV');
  await call('listScheduleFlights', 'GET', '/flights/small?airline=NV');
  await call('getSnapshot', 'GET', '/snapshot?schedule_file=small&airline=NV&from=2026-11-21T06:00:00Z&to=2026-11-21T10:00:00Z');
  await call('getSolverConfig', 'GET', '/config');
  await call('validateSolverConfig', 'POST', '/config/validate', { solver: { time_limit_ms: 5000 }, cost_weights: { cancellation: 5000 } });
  const small = (await (await fetch(`${server.baseUrl}/flights/small?airline=NV`, { headers: { 'X-API-Key': STAGING_KEY } })).json()) as { flights: { id: string; dep: string }[] };
  void flights;
  const flight = small.flights[2]!.id;
  const simulation = { scenario_id: 'example', schedule_file: 'small', disrupted_flight: flight, min_delay_minutes: 90, config: { solver: { time_limit_ms: 10_000 } } };
  await call('simulate', 'POST', '/simulate', simulation);
  const job = await call('createSimulationJob', 'POST', '/simulations', { ...simulation, time_limit_ms: 10_000 }, { 'Idempotency-Key': 'example-1' });
  for (let i = 0; i < 200; i++) {
    const status = await call('getSimulationJobStatus', 'GET', `/simulations/${job.body.job_id}/status`);
    if (status.body.status === 'succeeded') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await call('getSimulationJob', 'GET', `/simulations/${job.body.job_id}`);
  await call('listSimulationJobs', 'GET', '/simulations?limit=5');
  await call('cancelSimulationJob', 'DELETE', `/simulations/${job.body.job_id}`);

  const opened = await call('openDay', 'POST', '/days', { schedule_file: 'small' }, { 'X-Operator': 'Controller A' });
  const dayId = opened.body.id as string;
  await call('listDays', 'GET', '/days?limit=5');
  const day = await call('getDay', 'GET', `/days/${dayId}`);
  const now = '2026-11-21T04:00:00Z';
  const onDay = await call('simulateOnDay', 'POST', `/days/${dayId}/simulate`, { scenario_id: 'example-day', disrupted_flight: flight, min_delay_minutes: 90, now, config: { solver: { time_limit_ms: 10_000 } } });
  await call('applyOption', 'POST', `/days/${dayId}/apply`, { simulation_id: onDay.body.simulation_id, option_id: onDay.body.best_option_id }, { 'If-Match': '"1"', 'X-Operator': 'Controller A' });
  const first = [...(day.body.flights as { id: string; tail: string; scheduled: { dep: string } }[])].sort((a, b) => Date.parse(a.scheduled.dep) - Date.parse(b.scheduled.dep))[0]!;
  await call('recordMovements', 'POST', `/days/${dayId}/movements`, { now: first.scheduled.dep, movements: [{ flight: first.id, tail: first.tail, off_block: first.scheduled.dep }] });
  await call('revertDay', 'POST', `/days/${dayId}/revert`, { revision: 1 }, { 'If-Match': '"3"', 'X-Operator': 'Controller B' });
  await call('listDayRevisions', 'GET', `/days/${dayId}/revisions`);
  await call('getDayRevision', 'GET', `/days/${dayId}/revisions/2`);
  await call('getDayRevisionDiff', 'GET', `/days/${dayId}/revisions/2/diff`);
  await call('getDayAlerts', 'GET', `/days/${dayId}/alerts`);
  if (process.env.EXAMPLES_UPDATE === '1') writeFileSync(EXAMPLES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
}, 240_000);

afterAll(async () => {
  await server.close();
  await days.close();
  removeDir();
  await pool.close();
});

describe('the examples of the OpenAPI document', () => {
  it('every operation that takes or gives JSON has a request (when it has a body) and a response example, in the document', () => {
    const stored = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (NO_JSON_EXAMPLE.has(op.operationId)) continue;
        expect(stored[op.operationId]?.response, op.operationId).toBeDefined();
        if (op.requestBody) expect(stored[op.operationId]?.request, op.operationId).toBeDefined();
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1];
        expect(success.content?.['application/json'], op.operationId).toHaveProperty('example', stored[op.operationId]!.response);
      }
    }
  });

  it('every example is valid against its own schema, and has the shape of the live answer', () => {
    const stored = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ ...doc, $id: 'doc' } as object);
    const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const example = stored[op.operationId];
        if (!example) continue;
        const status = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
        const validResponse = ajv.validate({ $ref: `doc#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}` }, example.response);
        expect(validResponse, `${op.operationId} response: ${ajv.errorsText()}`).toBe(true);
        if (example.request !== undefined) {
          const validRequest = ajv.validate({ $ref: `doc#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}` }, example.request);
          expect(validRequest, `${op.operationId} request: ${ajv.errorsText()}`).toBe(true);
        }
        expect(shapeDifferences(example.response, recorded[op.operationId]!.response), `${op.operationId}: the live answer has other fields; EXAMPLES_UPDATE=1 records them again`).toEqual([]);
      }
    }
  });
});
