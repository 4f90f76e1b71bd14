// Scenario: the security checks of issue #5 that test/http does not already make: the key comparison
// does the same constant-time work whatever key is presented, and no key reaches the logs on any of
// the new answers (429, 413, 414, 415, 405, 503 of a saturated solver). Traversal, CORS denial and
// header reflection are covered by test/http and by the fuzzing in fuzz.test.ts.
import * as crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKeyVerifier, hashApiKey } from '../../src/security/api-keys.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { RecoveryError } from '../../src/recovery/model/failure.ts';
import { SECOND_STAGING_KEY, STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

describe('constant-time key comparison', () => {
  it('unit: every presented key costs one SHA-256 and one timingSafeEqual of 32 bytes per configured key, matching or not, whatever its length', () => {
    const configured = ['first-key-aaaaaaaaaaaaaaaaaaaaaaaa', 'second-key-bbbbbbbbbbbbbbbbbbbbbbb', 'third-key-ccccccccccccccccccccccccc'];
    const verify = createKeyVerifier(configured.map(hashApiKey));
    const compare = vi.mocked(crypto.timingSafeEqual);
    const presented = [configured[0]!, configured[2]!, 'first-key-aaaaaaaaaaaaaaaaaaaaaaab', 'f', '', 'x'.repeat(10_000), configured[1]!.toUpperCase()];
    const expected = [true, true, false, false, false, false, false];
    presented.forEach((key, i) => {
      compare.mockClear();
      expect(verify(key)).toBe(expected[i]);
      // No early exit on a match, no comparison of the key text itself: three digests of 32 bytes each time.
      expect(compare).toHaveBeenCalledTimes(3);
      for (const [a, b] of compare.mock.calls) {
        expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
        expect((a as Buffer).toString('utf8')).not.toContain(key || '\u0000never');
      }
    });
  });
});

describe('keys never reach the logs, whatever the answer', () => {
  let server: TestServer;
  let busy = false;
  beforeAll(async () => {
    const solver: Solver = {
      solve: async () => {
        if (busy) throw new RecoveryError({ kind: 'busy', message: 'All solver workers are busy and the queue is full.' });
        return { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: 0, detail: 'stub' };
      },
    };
    server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '12', BODY_LIMIT_BYTES: '512', LOG_LEVEL: 'debug' }, solver });
  });
  afterAll(async () => { await server.close(); });

  it('scenario: 200, 400, 401, 403, 404, 405, 413, 414, 415, 429 and 503 are logged with the header redacted and no key anywhere', async () => {
    const wrongKey = 'drs_staging_wrong-key-that-must-not-be-logged-000';
    const send = (path: string, key: string | null, init: RequestInit = {}) => fetch(`${server.baseUrl}${path}`, {
      ...init, headers: { ...(key === null ? {} : { 'X-API-Key': key }), ...(init.headers as Record<string, string> | undefined) },
    });
    const json = { 'Content-Type': 'application/json' };
    const simulation = JSON.stringify({ scenario_id: 's', disrupted_flight: 'NV100_2026-11-21T04:45:00Z', min_delay_minutes: 60, schedule_file: 'small' });
    const seen = new Set<number>();
    const record = async (response: Promise<Response>) => { const r = await response; await r.text(); seen.add(r.status); };
    await record(send('/flights', STAGING_KEY));
    await record(send('/flights?airline=x', STAGING_KEY));
    await record(send('/flights', null));
    await record(send('/flights', wrongKey));
    await record(send('/flights/nope', STAGING_KEY));
    await record(send('/flights', STAGING_KEY, { method: 'DELETE' }));
    await record(send('/simulate', STAGING_KEY, { method: 'POST', headers: json, body: `{"pad":"${'x'.repeat(600)}"}` }));
    await record(send(`/flights?airline=${'A'.repeat(2100)}`, STAGING_KEY));
    await record(send('/simulate', STAGING_KEY, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: simulation }));
    busy = true;
    await record(send('/simulate', STAGING_KEY, { method: 'POST', headers: json, body: simulation }));
    busy = false;
    for (let i = 0; i < 4; i++) await record(send('/config', SECOND_STAGING_KEY));
    for (let i = 0; i < 12; i++) await record(send('/config', STAGING_KEY));
    expect([...seen].sort()).toEqual([200, 400, 401, 403, 404, 405, 413, 414, 415, 429, 503]);

    const text = server.logText();
    for (const key of [STAGING_KEY, SECOND_STAGING_KEY, wrongKey]) expect(text).not.toContain(key);
    const lines = server.logLines().filter((line) => line.req !== undefined);
    expect(lines.length).toBeGreaterThanOrEqual(25);
    for (const line of lines) {
      const headers = (line.req as { headers: Record<string, unknown> }).headers;
      if ('x-api-key' in headers) expect(headers['x-api-key']).toBe('[Redacted]');
    }
    const metrics = await (await send('/metrics', SECOND_STAGING_KEY)).text();
    for (const key of [STAGING_KEY, SECOND_STAGING_KEY, wrongKey]) expect(metrics).not.toContain(key);
  });
});
