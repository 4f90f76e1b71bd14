// Scenario: the typed client in clients/typescript/ as a consumer uses it. It is what `npm run
// client:generate` makes of the served document today (regenerated here and compared byte for byte),
// it compiles on its own under tsc --strict (with exactOptionalPropertyTypes), and its tour
// (clients/typescript/example.ts) drives a running service: flights, a simulation, a job followed by
// status polls and its event stream, an operational day with an option applied.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tour } from '../../clients/typescript/example.ts';
import { createRecoveryClient, type operations, type Schema } from '../../clients/typescript/index.ts';
import { CLIENT_DIR, generateClient } from '../../src/cli/generate-client.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';

const ROOT = join(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

describe('the generated client', () => {
  it('is up to date: npm run client:generate on this tree writes the committed files byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-'));
    try {
      await generateClient(dir);
      for (const file of ['openapi.json', 'schema.ts']) {
        expect(readFileSync(join(dir, file), 'utf8') === readFileSync(join(CLIENT_DIR, file), 'utf8'), `clients/typescript/${file} is stale: run npm run client:generate`).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('types what the service accepts: a partial configuration, an integer limit; a body without a disruption does not compile', () => {
    const partial: Schema<'SimulationRequest'> = { scenario_id: 'x', disruptions: [{ type: 'flight_cancellation', flight: 'NV146_2026-11-21T07:50:00Z' }], config: { solver: { time_limit_ms: 500 } } };
    const query: NonNullable<operations['listSimulationJobs']['parameters']['query']> = { limit: 5 };
    // @ts-expect-error: a simulation names one delayed flight with its delay, or a list of disruptions (npm test's tsc checks this line)
    const incomplete: Schema<'SimulationRequest'> = { scenario_id: 'x' };
    expect([partial.scenario_id, query.limit, incomplete.scenario_id]).toEqual(['x', 5, 'x']);
  });

  it('compiles on its own under tsc --strict, library types checked too', () => {
    execFileSync(bin('tsc'), ['-p', 'clients/typescript/tsconfig.json'], { cwd: ROOT, stdio: 'pipe' });
  });
});

describe('the client against a running service', () => {
  let pool: SolverPool;
  let server: TestServer;
  let days: DayStoreHandle;
  let removeDir: () => void;
  beforeAll(async () => {
    pool = createSolverPool({ threads: 1 });
    ({ days, remove: removeDir } = await freshPgliteDayStore());
    server = await startTestServer({ solver: pool, days, env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' } });
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await days.close();
    removeDir();
    await pool.close();
  });

  it('scenario: flights, a simulation, a followed job and a day, every answer typed by the document', async () => {
    const drs = createRecoveryClient({ baseUrl: server.baseUrl, apiKey: STAGING_KEY });
    const result = await tour(drs, 'small');
    expect(result.flights.length).toBeGreaterThan(0);
    expect(result.simulation.options.length).toBeGreaterThan(0);
    expect(result.job.status).toBe('succeeded');
    expect(result.job.result?.best_option_id).toBe(result.simulation.best_option_id);
    expect(result.statusPolls.at(-1)).toBe('succeeded');
    expect(result.jobEvents.at(-1)).toBe('final');
    expect(result.etag).toBe('"1"');
    expect(result.applied).toMatchObject({ day_id: result.day.id, number: 2, kind: 'apply' });
  }, 120_000);

  it('scenario: errors are typed too: {detail} by default, problem details when asked', async () => {
    const plain = await createRecoveryClient({ baseUrl: server.baseUrl, apiKey: STAGING_KEY }).GET('/simulations/{job_id}', { params: { path: { job_id: 'no-such-job' } } });
    expect(plain.response.status).toBe(404);
    expect(plain.error).toEqual({ detail: expect.stringContaining('Job not found') });
    const problem = await createRecoveryClient({ baseUrl: server.baseUrl, apiKey: STAGING_KEY, problemDetails: true }).GET('/flights', { params: { query: { airline: 'nv' } } });
    expect(problem.error).toMatchObject({ type: 'urn:drs:problem:invalid-request', status: 400, errors: [{ field: 'airline' }] });
  });
});
