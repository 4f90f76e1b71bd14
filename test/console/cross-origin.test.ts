// Scenario: a web page of a partner, on another origin that the operator allowed (CORS_ALLOWED_ORIGINS),
// drives the jobs API with fetch in real Chromium: it creates a job (a preflight with Idempotency-Key,
// then Location read from the answer), follows it (its status, the first event of its stream) and
// cancels it (DELETE, another preflight). A page on an origin that is not allowed reads nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type ConsoleBrowser } from './browser.ts';

let browser: ConsoleBrowser;
let pool: SolverPool;
let api: TestServer;
let allowedPage: Server;
let otherPage: Server;
const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A page of its own origin: an empty document the test's script runs in. */
async function pageServer(): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>partner</title><p>partner page</p>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  browser = await launchBrowser();
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
  allowedPage = await pageServer();
  otherPage = await pageServer();
  api = await startTestServer({ solver: pool, env: { CORS_ALLOWED_ORIGINS: origin(allowedPage), JOB_MAX_TIME_LIMIT_MS: '60000' } });
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await pool?.close();
  allowedPage?.close();
  otherPage?.close();
});

/** A job that runs for tens of seconds, so that it is still running when the page cancels it. */
const LONG_JOB = {
  scenario_id: 'partner-page', time_limit_ms: 30_000, disruptions: [
    { type: 'flight_delay', flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 240 },
    { type: 'flight_delay', flight: 'NV260_2026-11-21T08:40:00Z', min_delay_minutes: 45 },
  ],
};

describe('a page on another origin', () => {
  it('scenario: an allowed origin creates a job, follows it and cancels it with fetch', async () => {
    const { context, page } = await browser.newPage();
    try {
      await page.goto(origin(allowedPage));
      const outcome = await page.evaluate(async ({ base, key, job }) => {
        const headers = { 'X-API-Key': key };
        const created = await fetch(`${base}/simulations`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': `page-${Date.now()}` }, body: JSON.stringify(job) });
        const location = created.headers.get('Location');
        const accepted = await created.json() as { job_id: string; status: string };
        // Follow: the first event of its stream (Last-Event-ID is allowed too), then its status.
        const events = await fetch(`${base}${location}/events`, { headers: { ...headers, 'Last-Event-ID': '0' } });
        const reader = events.body!.getReader();
        let text = '';
        while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
        await reader.cancel();
        const status = await (await fetch(`${base}${location}/status`, { headers })).json() as { status: string };
        const cancelled = await fetch(`${base}${location}`, { method: 'DELETE', headers });
        const after = await cancelled.json() as { status: string };
        return { created: created.status, location, accepted, firstEvent: /^event: (\w+)$/m.exec(text)?.[1], status: status.status, cancelled: cancelled.status, after: after.status };
      }, { base: api.baseUrl, key: STAGING_KEY, job: LONG_JOB });
      expect(outcome.created).toBe(202);
      expect(outcome.location).toBe(`/simulations/${outcome.accepted.job_id}`);
      expect(outcome.firstEvent).toBe('progress');
      expect(['queued', 'running']).toContain(outcome.status);
      expect(outcome.cancelled).toBe(200);
      expect(outcome.after).toBe('cancelled');
    } finally {
      await context.close();
    }
  });

  it('scenario: an origin that is not allowed cannot read an answer (the browser stops it)', async () => {
    const { context, page } = await browser.newPage();
    try {
      await page.goto(origin(otherPage));
      const outcome = await page.evaluate(async ({ base, key }) => {
        try {
          await fetch(`${base}/flights`, { headers: { 'X-API-Key': key } });
          return 'read';
        } catch (error) {
          return (error as Error).name;
        }
      }, { base: api.baseUrl, key: STAGING_KEY });
      expect(outcome).toBe('TypeError');
    } finally {
      await context.close();
    }
  });
});
