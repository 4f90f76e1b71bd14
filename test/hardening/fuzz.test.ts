// Property: hostile and malformed input never gets a 5xx. fast-check drives every endpoint over real
// HTTP (a keep-alive raw client, so paths go on the wire exactly as generated) with random and
// adversarial query strings, path values, headers and bodies: deep nesting, huge and non-finite
// numbers, full unicode with lone surrogates, bad percent-encoding, traversal spellings, prototype-
// pollution keys, wrong content types and encodings, other methods. Every route of the app, the
// operational days' routes included (on a PGlite store of the test's own, with real day and simulation ids).
// For every answer: status below 500; the four security headers; every error exactly {"detail"} with
// no stack trace; no request value reflected into a response header (a marker planted in query,
// path, headers and bodies is searched for); no API key in any body; Object.prototype untouched.
// Endpoint-specific truths are checked too (auth before anything else, only real schedules served).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { registeredRoutes } from '../support/routes.ts';
import { bundledCatalog, STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { expectDetailOnly, expectSecurityHeaders, rawClient, type Answer } from './support.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';

// Why this many cases: the file is request-bound (about 5 ms a request on a quiet 2-core machine, the
// valid simulations more), and at 2,000 cases on every route it took 296 s of CI's 717 s (468 s beside
// other work). The generators that carry most of the hostile input (query strings, headers, keys,
// origins, content types, methods) are the same on every route, so the suite sends each of them
// 28 routes x these cases (18,000 requests); per route, a route whose input is a body (the POSTs)
// gets twice the cases of one whose input is its path and query, since its body generators are its
// own. Measured (the statuses printed after the run): these counts reached every status of every
// route that 2,000 a route did, but those 2,000 reach only once or twice in a run (e.g. a 204 preflight,
// a 412 on movements), which either size reaches in some runs and not others; the file took 136 s
// instead of 468 s under a load average of 14. FUZZ_RUNS=2000 (with FUZZ_SEED to replay) is the deep fuzz.
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 500);
const runsFor = (endpoint: string) => (endpoint.startsWith('POST ') ? 2 * RUNS_PER_ROUTE : RUNS_PER_ROUTE);
/** Planted in generated values; must never come back in a response header (except where noted). */
const MARKER = 'zq7fuzzmark';
const WRONG_KEY = 'drs_staging_not-a-configured-key-000000000000';

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

let server: TestServer;
let pool: SolverPool;
let days: DayStoreHandle;
let removeDays: () => void;
/** Days opened on the small schedule and a simulation of the first, made before the fuzzing: real ids for the /days routes. */
const realDays: string[] = [];
const realSimulations: string[] = [];
let client: ReturnType<typeof rawClient>;
const counts = new Map<string, number>();
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  pool = createSolverPool({ threads: 1, hardStopGraceMs: 200 });
  await pool.ready();
  ({ days, remove: removeDays } = await freshPgliteDayStore());
  server = await startTestServer({
    // Limits off so that every case reaches the code under test; small solver budgets keep the valid
    // simulations fast.
    env: {
      RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0', SIMULATION_MAX_TIME_LIMIT_MS: '300', JOB_MAX_TIME_LIMIT_MS: '300', JOB_QUEUE_MAX: '100000', LOG_LEVEL: 'warn',
    },
    solver: pool,
    // The fuzz checks the answers; running the hundreds of valid jobs it submits would only burn the shared CPU.
    runJobs: false,
    days,
  });
  client = rawClient(server.baseUrl, 2);
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': STAGING_KEY };
  for (let i = 0; i < 3; i++) {
    const opened = await fetch(`${server.baseUrl}/days`, { method: 'POST', headers, body: JSON.stringify({ schedule_file: 'small' }) });
    realDays.push(((await opened.json()) as { id: string }).id);
  }
  const simulated = await fetch(`${server.baseUrl}/days/${realDays[0]}/simulate`, { method: 'POST', headers, body: JSON.stringify({ scenario_id: 'fuzz', disrupted_flight: SMALL_FLIGHTS[0]!.id, min_delay_minutes: 60, now: '2026-11-21T00:00:00Z', config: { solver: { time_limit_ms: 300 } } }) });
  realSimulations.push(((await simulated.json()) as { simulation_id: string }).simulation_id);
}, 120_000);
afterAll(async () => {
  client.close();
  await server.close();
  await pool.close();
  await days.close();
  removeDays();
  // Which statuses the fuzzing reached, so that a reader can see it was not all 400s.
  console.log([...statuses].map(([endpoint, byStatus]) => `${endpoint}: ${[...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`).join('\n'));
});

// ---- generators ------------------------------------------------------------------------------------

const SMALL = bundledCatalog().resolve('small')!.schedule;
const SMALL_FLIGHTS = SMALL.flights.map((f) => ({ id: f.id, airline: f.airline, tail: f.tail, dep: f.depMinutes }));

const nastyText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('', ' ', '.', '..', '../', '..\\', '/etc/passwd', 'C:\\Windows', '%00', '\u0000', '__proto__', 'constructor', 'prototype',
    'toString', 'null', 'undefined', 'NaN', '-1', '1e400', '0x10', '[]', '{}', '"', "'", '<script>', '${x}', '😀', 'é', '\u202e', '\ud800', 'default', 'default.json',
    'small', 'small.json', 'large', 'DEFAULT', 'default/', 'default.JSON', 'default.json.json', ' default', 'NV', 'BZ', 'nv', 'XX', 'N', 'NVV',
    '2026-11-21T06:00:00Z', '2026-11-21T06:00:00+01:00', '2026-11-21T06:00:00', '2026-02-30T06:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21', '+275760-09-13T00:00:00Z',
    MARKER) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `${s}${MARKER}`) },
);

/** Percent-encode every byte outside the unreserved set (UTF-8; a lone surrogate becomes U+FFFD). */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** Raw fragments a hostile client can put on the wire as they are (all within what HTTP allows). */
const rawFragment = fc.constantFrom('%', '%zz', '%C0%AE', '%FF', '%2e%2e', '%2F', '..%2f..%2f', '//', '#frag', '?', '&&', '=', '==', ';', '%25', '+', '%u002e', '[', ']', '\\', '%5C', '..');

const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.tuple(
    fc.oneof(fc.constantFrom('airline', 'schedule_file', 'from', 'to', 'airline[]', 'airline[x]', '__proto__', 'constructor', '__proto__[polluted]', 'a'), nastyText),
    fc.oneof(nastyText, rawFragment),
    fc.boolean(),
  ), { maxLength: 5 }).map((pairs) => pairs.map(([key, value, raw]) => `${encode(key)}=${raw ? value.replace(/[^\x21-\x7e]/g, encode) : encode(value)}`).join('&')) },
  { weight: 1, arbitrary: fc.array(rawFragment, { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.integer({ min: 1900, max: 3000 }).map((n) => `airline=${'A'.repeat(n)}`) },
  { weight: 4, arbitrary: fc.constant('') },
);

const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 60 });

const apiKey = fc.oneof(
  { weight: 12, arbitrary: fc.constant(STAGING_KEY) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('', WRONG_KEY, `${STAGING_KEY} `, `${STAGING_KEY}x`, STAGING_KEY.toUpperCase(), `sha256:${'0'.repeat(64)}`) },
  { weight: 1, arbitrary: headerValue },
);

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'APPLICATION/JSON',
    'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json-patch+json', 'application/*', '*/*', '', 'json', 'application/json;;;') },
  { weight: 1, arbitrary: headerValue },
);

const origin = fc.constantFrom('https://operator.com', 'https://ops.operator.com', `https://${MARKER}.operator.com`, 'https://evil-operator.com', 'http://operator.com',
  'null', 'https://operator.com.evil.net', `https://${MARKER}.example`, 'https://client.example.org', 'file://', 'https://operator.com/path');

/** `arbitrary` in `presentPercent` % of the cases, else undefined (the header is not sent). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, presentPercent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: presentPercent, arbitrary }, { weight: 100 - presentPercent, arbitrary: fc.constant(undefined) });

/** Optional headers, each present or not; values can carry the marker. */
const headers = (withBody: boolean) => fc.record({
  key: apiKey,
  contentType: withBody ? sometimes(contentType, 92) : fc.constant(undefined),
  contentEncoding: withBody ? sometimes(fc.constantFrom('identity', 'gzip', 'deflate', 'br', 'x-unknown', MARKER), 10) : fc.constant(undefined),
  origin: sometimes(origin, 30),
  requestId: sometimes(fc.oneof(fc.constant(MARKER), fc.constant(`${MARKER} unsafe`), fc.stringMatching(/^[A-Za-z0-9._-]{1,70}$/), headerValue), 30),
  extra: fc.dictionary(
    fc.oneof(fc.constantFrom('Accept', 'Accept-Encoding', 'Accept-Language', 'Cookie', 'Authorization', 'Referer', 'User-Agent', 'X-Forwarded-For', 'X-Forwarded-Host',
      'X-Forwarded-Proto', 'Forwarded', 'X-HTTP-Method-Override', 'X-Original-URL', 'X-Rewrite-URL', 'If-None-Match', 'Range', 'Access-Control-Request-Method',
      'Access-Control-Request-Headers', 'Idempotency-Key', 'Last-Event-ID'), fc.stringMatching(/^X-Fuzz-[A-Za-z0-9]{1,8}$/)),
    fc.oneof(headerValue, headerValue.map((v) => `${v}${MARKER}`)),
    { maxKeys: 4 },
  ),
}).map((h) => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h.extra)) out[name] = value;
  if (h.key !== undefined) out['X-API-Key'] = h.key;
  if (h.contentType !== undefined) out['Content-Type'] = h.contentType;
  if (h.contentEncoding !== undefined) out['Content-Encoding'] = h.contentEncoding;
  if (h.origin !== undefined) out.Origin = h.origin;
  if (h.requestId !== undefined) out['X-Request-Id'] = h.requestId;
  return out;
});

const method = (usual: string) => fc.oneof(
  { weight: 10, arbitrary: fc.constant(usual) },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE') },
);

const objectKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf', MARKER), fc.string({ maxLength: 12 }));

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e-320, '', MARKER, [], {}),
  fc.integer(), fc.double(), fc.string({ unit: 'binary', maxLength: 30 }), nastyText,
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(objectKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** Text that JSON.stringify cannot produce: numbers beyond double range, deep nesting, broken JSON. */
const rawJsonText = fc.oneof(
  fc.integer({ min: 1000, max: 45_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1000, max: 16_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 1000, max: 16_000 }).map((n) => `{"config":${'{"solver":'.repeat(n)}1${'}'.repeat(n + 1)}`),
  fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0.0000000000000000000000001', 'NaN', 'Infinity').map((n) =>
    `{"scenario_id":"s","disrupted_flight":"${SMALL_FLIGHTS[0]!.id}","min_delay_minutes":${n},"schedule_file":"small"}`),
  fc.constantFrom('', ' ', 'null', '[]', '"x"', '{', '{"a":1', '{"a":1}}', "{'a':1}", '{"a":1,}', '\ufeff{}', '{"a":undefined}', '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"config":{"__proto__":{"polluted":"yes"}}}', '{"config":{"solver":{"__proto__":{"time_limit_ms":999999}}}}',
    `{"scenario_id":"${MARKER}","scenario_id":"dup"}`, '\u0000', 'tru', '{"a":"\\ud800"}', '{"a":"\\u0000"}'),
  fc.integer({ min: 102_401, max: 150_000 }).map((n) => `{"pad":"${'x'.repeat(n)}"}`),
);

const scenarioId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), fc.constant(MARKER));

/** A simulation the service accepts (small schedule, a time limit within the operator's 300 ms). */
const validSimulation = fc.record({
  scenario_id: scenarioId,
  flight: fc.constantFrom(...SMALL_FLIGHTS),
  min_delay_minutes: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(0, 2880)),
  with_airline: fc.boolean(),
  schedule_file: fc.constantFrom('small', 'small.json'),
  time_limit_ms: fc.integer({ min: 50, max: 300 }),
  evaluate: fc.option(fc.subarray(['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'], { minLength: 1 }), { nil: undefined }),
  extra: fc.option(fc.record({
    max_delay_minutes: fc.integer({ min: 0, max: 2880 }),
    max_swaps: fc.integer({ min: 0, max: 1000 }),
    crew_duty: fc.constantFrom('soft', 'hard'),
    maintenance: fc.constantFrom('soft', 'hard'),
    allow_cancellations: fc.boolean(),
  }, { requiredKeys: [] }), { nil: undefined }),
}).map((s) => ({
  scenario_id: s.scenario_id,
  disrupted_flight: s.flight.id,
  min_delay_minutes: s.min_delay_minutes,
  ...(s.with_airline ? { airline: s.flight.airline } : {}),
  schedule_file: s.schedule_file,
  config: {
    solver: { time_limit_ms: s.time_limit_ms },
    ...(s.evaluate ? { strategies: { evaluate: s.evaluate } } : {}),
    ...(s.extra ? { constraints: s.extra } : {}),
  },
}));

/** A valid simulation with one field replaced, removed or added by an adversarial value. */
const mutatedSimulation = fc.tuple(validSimulation, fc.constantFrom('scenario_id', 'disrupted_flight', 'min_delay_minutes', 'airline', 'schedule_file', 'config', 'extra', 'remove'), jsonValue, objectKey)
  .map(([body, field, value, key]) => {
    const copy: Record<string, unknown> = { ...body };
    if (field === 'remove') delete copy[key === '__proto__' ? 'scenario_id' : 'disrupted_flight'];
    else if (field === 'extra') Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
    else copy[field] = value;
    return copy;
  });

const simulateBody = fc.oneof(
  { weight: 5, arbitrary: validSimulation.map((b) => JSON.stringify(b)) },
  { weight: 10, arbitrary: mutatedSimulation.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 3, arbitrary: rawJsonText },
);

const configCandidate = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    constraints: fc.dictionary(fc.oneof(fc.constantFrom('max_delay_minutes', 'max_swaps', 'allow_cancellations', 'max_cancellations', 'crew_duty', 'maintenance',
      'recovery_window_hours', 'swap_fleet_policy', 'max_reaccommodation_legs'), objectKey), jsonValue, { maxKeys: 3 }),
    cost_weights: fc.dictionary(fc.oneof(fc.constantFrom('delay_per_minute', 'cancellation_per_flight', 'swap_per_flight'), objectKey), jsonValue, { maxKeys: 3 }),
    strategies: fc.record({ evaluate: fc.oneof(fc.subarray(['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated']), jsonValue) }, { requiredKeys: [] }),
    turnaround: fc.record({
      default_minutes: jsonValue,
      by_fleet: fc.dictionary(fc.oneof(fc.constantFrom('A320', 'A321', 'E190'), objectKey), jsonValue, { maxKeys: 3 }),
      by_airport_fleet: fc.dictionary(fc.oneof(fc.constantFrom('VIE', 'LHR'), objectKey), fc.dictionary(objectKey, jsonValue, { maxKeys: 2 }), { maxKeys: 2 }),
    }, { requiredKeys: [] }),
    solver: fc.dictionary(fc.oneof(fc.constantFrom('time_limit_ms', 'mip_gap', 'max_candidate_aircraft', 'max_routes_per_aircraft', 'max_branching'), objectKey), jsonValue, { maxKeys: 3 }),
  }, { requiredKeys: [] }).map((c) => JSON.stringify(c)) },
  { weight: 2, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: rawJsonText },
);

const withQuery = (path: string) => queryString.map((q) => (q === '' ? path : `${path}?${q}`));

const get = (pathArb: fc.Arbitrary<string>, usual = 'GET'): fc.Arbitrary<FuzzRequest> =>
  fc.record({ method: method(usual), path: pathArb, headers: headers(false) });

const post = (path: string, body: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> =>
  fc.record({ method: method('POST'), path: withQuery(path), headers: headers(true), body });

const scheduleSegment = fc.oneof(
  { weight: 3, arbitrary: nastyText.map(encode) },
  { weight: 1, arbitrary: fc.constantFrom('default', 'small.json', 'large', 'default.json') },
  { weight: 2, arbitrary: fc.array(fc.oneof(rawFragment, nastyText.map(encode)), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
);

const jobSegment = fc.oneof(
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 3, arbitrary: nastyText.map(encode) },
  { weight: 1, arbitrary: fc.array(fc.oneof(rawFragment, nastyText.map(encode)), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
);

const snapshotQuery = fc.record({
  airline: fc.option(fc.oneof(fc.constantFrom('NV', 'BZ'), nastyText), { nil: undefined }),
  from: fc.option(fc.oneof(fc.date({ min: new Date('2026-11-19T00:00:00Z'), max: new Date('2026-11-24T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()), nastyText), { nil: undefined }),
  to: fc.option(fc.oneof(fc.date({ min: new Date('2026-11-19T00:00:00Z'), max: new Date('2026-11-24T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '+02:00')), nastyText), { nil: undefined }),
  schedule_file: fc.option(fc.oneof(fc.constantFrom('default', 'small', 'large.json'), nastyText), { nil: undefined }),
  extra: fc.option(queryString, { nil: undefined }),
}).map((q) => {
  const parts = Object.entries(q).filter(([k, v]) => k !== 'extra' && v !== undefined).map(([k, v]) => `${k}=${encode(v as string)}`);
  if (q.extra) parts.push(q.extra);
  return parts.length ? `/snapshot?${parts.join('&')}` : '/snapshot';
});

// ---- the operational days ----------------------------------------------------------------------------

/** Chosen at run time from what beforeAll made (arbitraries are built before it runs). */
const oneOf = (list: readonly string[], fallback: fc.Arbitrary<string>) => fc.oneof(
  { weight: 3, arbitrary: fc.nat(99).map((i) => list[i % Math.max(1, list.length)] ?? 'none') },
  { weight: 2, arbitrary: fallback },
);
const daySegment = oneOf(realDays, jobSegment);
const dayPath = (suffix: string) => daySegment.chain((segment) => withQuery(`/days/${segment}${suffix}`));
const revisionSegment = fc.oneof(fc.integer({ min: 1, max: 4 }).map(String), fc.integer({ min: -3, max: 1e12 }).map(String), nastyText.map(encode));
const isoAround = fc.integer({ min: -600, max: 2400 }).map((m) => new Date(Date.UTC(2026, 10, 21) + m * 60_000).toISOString());
const timestamp = fc.oneof({ weight: 4, arbitrary: isoAround }, { weight: 1, arbitrary: jsonValue });
const ifMatch = sometimes(fc.oneof(fc.constantFrom('"1"', '"2"', 'W/"1"', '*', '1', '"0"', '"999999999999"', `"${MARKER}"`), headerValue), 80);
const withIfMatch = (request: fc.Arbitrary<FuzzRequest>) => fc.tuple(request, ifMatch, sometimes(fc.oneof(fc.constant('Controller'), headerValue), 30))
  .map(([r, match, operator]) => ({ ...r, headers: { ...r.headers, ...(match === undefined ? {} : { 'If-Match': match }), ...(operator === undefined ? {} : { 'X-Operator': operator }) } }));
const dayPost = (suffix: string, body: fc.Arbitrary<string>) => withIfMatch(fc.record({ method: method('POST'), path: dayPath(suffix), headers: headers(true), body }));
const jsonOrRaw = (valid: fc.Arbitrary<unknown>) => fc.oneof(
  { weight: 6, arbitrary: valid.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: rawJsonText },
);
const openDayBody = jsonOrRaw(fc.record({
  schedule_file: fc.oneof(fc.constantFrom('small', 'small.json'), nastyText, jsonValue), from: timestamp, to: timestamp,
}, { requiredKeys: [] }));
const daySimulationBody = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(validSimulation, isoAround).map(([{ schedule_file: _s, ...body }, now]) => JSON.stringify({ ...body, now })) },
  // Valid day simulations run the solver (up to 300 ms each): a few are enough to reach the success path.
  { weight: 9, arbitrary: simulateBody },
);
const applyBody = jsonOrRaw(fc.record({
  simulation_id: oneOf(realSimulations, fc.oneof(fc.uuid(), nastyText)), option_id: fc.oneof(fc.constantFrom('opt_integrated', 'opt_delay_propagation', 'opt_x'), nastyText, jsonValue),
}, { requiredKeys: [] }));
const revertBody = jsonOrRaw(fc.record({ revision: fc.oneof(fc.integer({ min: -2, max: 6 }), jsonValue) }, { requiredKeys: [] }));
const movement = fc.record({
  flight: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SMALL_FLIGHTS) }, { weight: 1, arbitrary: nastyText.map((id) => ({ id, tail: 'OE-NVA', airline: 'NV', dep: 0 })) }),
  tail: fc.option(fc.oneof(fc.constantFrom('OE-NVA', 'XX-XXX'), nastyText), { nil: undefined }),
  off: fc.option(fc.oneof(fc.integer({ min: -30, max: 30 }).map((near) => ({ near })), jsonValue.map((raw) => ({ raw }))), { nil: undefined }),
  airborne: fc.option(timestamp, { nil: undefined }),
  landed: fc.option(timestamp, { nil: undefined }),
  on_block: fc.option(fc.oneof(timestamp, fc.constant(null)), { nil: undefined }),
}).map((m) => ({
  flight: m.flight.id, tail: m.tail ?? m.flight.tail,
  ...(m.off === undefined ? {} : { off_block: 'near' in m.off ? new Date((m.flight.dep + m.off.near) * 60_000).toISOString() : m.off.raw }),
  ...(m.airborne === undefined ? {} : { airborne: m.airborne }), ...(m.landed === undefined ? {} : { landed: m.landed }), ...(m.on_block === undefined ? {} : { on_block: m.on_block }),
}));
const movementsBody = jsonOrRaw(fc.record({ now: timestamp, movements: fc.oneof(fc.array(movement, { minLength: 1, maxLength: 5 }), jsonValue) }, { requiredKeys: ['movements'] }));

const ENDPOINTS: Record<string, fc.Arbitrary<FuzzRequest>> = {
  'POST /days': post('/days', openDayBody),
  'GET /days': get(fc.oneof(withQuery('/days'), fc.oneof(fc.integer({ min: -5, max: 500 }).map(String), nastyText).map((limit) => `/days?limit=${encode(limit)}`))),
  'GET /days/{day_id}': get(dayPath('')),
  'GET /days/{day_id}/revisions': get(dayPath('/revisions')),
  'GET /days/{day_id}/revisions/{number}': get(fc.tuple(daySegment, revisionSegment).chain(([d, n]) => withQuery(`/days/${d}/revisions/${n}`))),
  'GET /days/{day_id}/revisions/{number}/diff': get(fc.tuple(daySegment, revisionSegment).chain(([d, n]) => withQuery(`/days/${d}/revisions/${n}/diff`))),
  'GET /days/{day_id}/alerts': get(dayPath('/alerts')),
  'POST /days/{day_id}/simulate': dayPost('/simulate', daySimulationBody),
  'POST /days/{day_id}/apply': dayPost('/apply', applyBody),
  'POST /days/{day_id}/revert': dayPost('/revert', revertBody),
  'POST /days/{day_id}/movements': dayPost('/movements', movementsBody),
  'GET /health': get(withQuery('/health')),
  'GET /flights': get(withQuery('/flights')),
  'GET /flights/{schedule_file}': get(fc.tuple(scheduleSegment, queryString).map(([segment, q]) => `/flights/${segment}${q ? `?${q}` : ''}`)),
  'GET /snapshot': get(snapshotQuery),
  'GET /config': get(withQuery('/config')),
  'POST /config/validate': post('/config/validate', configCandidate),
  'POST /simulate': post('/simulate', simulateBody),
  'POST /simulations': post('/simulations', fc.oneof(
    { weight: 4, arbitrary: simulateBody },
    { weight: 1, arbitrary: fc.tuple(validSimulation, jsonValue).map(([body, limit]) => JSON.stringify({ ...body, time_limit_ms: limit })) },
  )),
  'GET /simulations': get(fc.oneof(
    withQuery('/simulations'),
    fc.tuple(fc.oneof(fc.constantFrom('queued', 'running', 'succeeded', 'failed', 'cancelled'), nastyText), fc.oneof(fc.integer({ min: -5, max: 500 }).map(String), nastyText))
      .map(([status, limit]) => `/simulations?status=${encode(status)}&limit=${encode(limit)}`),
  )),
  'GET /simulations/{job_id}': get(jobSegment.chain((segment) => withQuery(`/simulations/${segment}`))),
  'GET /simulations/{job_id}/events': get(jobSegment.chain((segment) => withQuery(`/simulations/${segment}/events`))),
  'GET /simulations/{job_id}/status': get(jobSegment.chain((segment) => withQuery(`/simulations/${segment}/status`))),
  'DELETE /simulations/{job_id}': fc.record({ method: method('DELETE'), path: jobSegment.chain((segment) => withQuery(`/simulations/${segment}`)), headers: headers(false) }),
  'GET /openapi.json': get(withQuery('/openapi.json')),
  'GET /docs': get(fc.oneof(
    fc.constantFrom('/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css', '/docs/index.html', '/docs/package.json', '/docs/../package.json', '/docs/%2e%2e/package.json',
      '/docs/..%2f..%2fpackage.json', '/docs//etc/passwd', '/docs/swagger-ui.css.map', '/docs/%00'),
    fc.array(fc.oneof(rawFragment, nastyText.map(encode)), { maxLength: 4 }).map((parts) => `/docs/${parts.join('/')}`),
  ).chain((p) => withQuery(p))),
  'GET /metrics': get(withQuery('/metrics')),
  'GET /console': get(fc.oneof(
    fc.constantFrom('/console', '/console/', '/console/index.html', '/console/assets/', '/console/package.json', '/console/../package.json',
      '/console/%2e%2e/package.json', '/console/..%2f..%2fpackage.json', '/console//etc/passwd', '/console/.vite/manifest.json', '/console/%00',
      // No path once parsed (a protocol-relative URL): serve-static's send threw on it, a 500.
      '/console//=?=@#', '/console//?x'),
    fc.array(fc.oneof(rawFragment, nastyText.map(encode)), { maxLength: 4 }).map((parts) => `/console/${parts.join('/')}`),
  ).chain((p) => withQuery(p))),
};

// ---- the checks ------------------------------------------------------------------------------------

const KEYED_FIXED_PATHS = new Set(['/flights', '/snapshot', '/config', '/config/validate', '/simulate', '/simulations', '/metrics', '/days']);
const SERVED_SCHEDULES = new Set(['default', 'default.json', 'small', 'small.json', 'large', 'large.json']);
const STACK_TRACE = /\n\s+at |\.ts:\d+|node_modules|Error: /;

function check(endpoint: string, request: FuzzRequest, answer: Answer): void {
  const context = `${endpoint}: ${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 300)} body ${String(request.body).slice(0, 200)} -> ${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, context).toBeGreaterThanOrEqual(200);
  expect(answer.status, context).toBeLessThan(500);
  expectSecurityHeaders(answer.headers, context);
  if (answer.status >= 400 && request.method !== 'HEAD') {
    const detail = expectDetailOnly(answer, context);
    expect(detail, context).not.toMatch(STACK_TRACE);
  }
  expect(answer.body, context).not.toContain(STAGING_KEY);
  expect(answer.body, context).not.toContain(WRONG_KEY);

  // Nothing a caller sent becomes a response header, but a request id of the safe form (echoed on
  // purpose) and an allowed origin (CORS).
  for (const [name, value] of Object.entries(answer.headers)) {
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    if (!text.includes(MARKER)) continue;
    if (name === 'x-request-id' && text === request.headers['X-Request-Id'] && /^[A-Za-z0-9._-]{1,64}$/.test(text)) continue;
    if (name === 'access-control-allow-origin' && text === `https://${MARKER}.operator.com`) continue;
    expect.fail(`input reflected into response header ${name}: ${context}`);
  }
  expect(Object.getOwnPropertyNames(Object.prototype).filter((name) => name.includes('polluted') || name === MARKER), context).toEqual([]);
  expect(({} as Record<string, unknown>).polluted, context).toBeUndefined();

  // The server reads the path up to ? or # (a fragment on the wire is not part of the path).
  const [path] = request.path.split(/[?#]/) as [string];
  // HTTP strips leading and trailing white space from header values.
  const key = request.headers['X-API-Key']?.replace(/^[ \t]+|[ \t]+$/g, '');
  const tooLong = request.path.length > 2048;
  if (KEYED_FIXED_PATHS.has(path) && !tooLong && request.method !== 'OPTIONS') {
    // Authentication comes before anything a route does.
    if (key === undefined || key === '') expect(answer.status, context).toBe(401);
    else if (key !== STAGING_KEY) expect(answer.status, context).toBe(403);
  }
  if (endpoint === 'GET /flights/{schedule_file}' && answer.status === 200 && request.method === 'GET') {
    const name = decodeURIComponent(path.slice('/flights/'.length));
    expect(SERVED_SCHEDULES.has(name), context).toBe(true);
  }
  if (endpoint === 'GET /health' && (request.method === 'GET' || request.method === 'HEAD') && !tooLong) {
    expect(answer.status, context).toBe(200);
  }
  if (request.headers.Origin && answer.headers['access-control-allow-origin'] !== undefined) {
    expect(['https://operator.com', 'https://ops.operator.com', `https://${MARKER}.operator.com`, 'https://client.example.org'], context)
      .toContain(answer.headers['access-control-allow-origin']);
  }
}

describe('fuzzing every endpoint over HTTP', () => {
  it('unit: the fuzzed endpoints are exactly the routes the app serves', () => {
    const served = registeredRoutes(server.app).map((r) => `${r.kind === 'mount' ? 'GET' : r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect([...new Set(served)].sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  for (const [endpoint, requests] of Object.entries(ENDPOINTS)) {
    const runs = runsFor(endpoint);
    it(`property: ${endpoint}: ${runs} hostile requests, zero 5xx, every error exactly {detail}, security headers, no reflection into headers`, async () => {
      let previous: FuzzRequest | undefined;
      await fc.assert(fc.asyncProperty(requests, async (request) => {
        let answer: Answer;
        try {
          answer = await client.send(request.method, request.path, request.headers, request.body);
        } catch (error) {
          // No answer at all fails the property too; the request before may have poisoned the connection.
          throw new Error(`no answer (${(error as Error).message}); the request before it: ${JSON.stringify(previous).slice(0, 2000)}`);
        }
        previous = request;
        counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
        const byStatus = statuses.get(endpoint) ?? new Map<number, number>();
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
        statuses.set(endpoint, byStatus);
        check(endpoint, request, answer);
      }), { numRuns: runs, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) });
      expect(counts.get(endpoint)).toBeGreaterThanOrEqual(runs);
    }, 120_000);
  }
});
