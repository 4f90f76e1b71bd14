// The console against a busy service, through the jobs API: a real 503 from a full job queue (no
// mock), the service's sentence and the wait shown, then a Retry that succeeds once the queue has
// room; and a long job cancelled from the page, which draws the best plans the job kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type ConsoleBrowser } from './browser.ts';
import { accessibilityFindings, clickFlight, enterKey, openConsole, screenshot, waitForGantt } from './console-driver.ts';

let browser: ConsoleBrowser;
let pool: SolverPool;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  // One solver thread; the embedded store runs one job at a time and lets one more wait.
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
  server = await startTestServer({ solver: pool, env: { JOB_QUEUE_MAX: '1', JOB_MAX_TIME_LIMIT_MS: '60000' } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await pool?.close();
});

const headers = { 'X-API-Key': STAGING_KEY, 'Content-Type': 'application/json' };

/** A job that runs for tens of seconds: two delays of the default schedule with a 30 s limit per strategy. */
async function submitLongJob(scenarioId: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/simulations`, {
    method: 'POST', headers, body: JSON.stringify({
      scenario_id: scenarioId, time_limit_ms: 30_000, disruptions: [
        { type: 'flight_delay', flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 240 },
        { type: 'flight_delay', flight: 'NV260_2026-11-21T08:40:00Z', min_delay_minutes: 45 },
      ],
    }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

async function jobStatus(id: string): Promise<string> {
  return ((await (await fetch(`${server.baseUrl}/simulations/${id}`, { headers })).json()) as { status: string }).status;
}

async function delayFlight(page: import('playwright-core').Page, flight: string, minutes: number): Promise<void> {
  await clickFlight(page, flight);
  await page.fill('#delay-minutes', String(minutes));
  await page.click('text=Add delay');
}

describe('the console and a busy service', () => {
  it('scenario: a submission refused with 503 (the job queue is full) shows the service\'s sentence and when to retry; Retry succeeds once the queue has room', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await enterKey(page, STAGING_KEY);
    await waitForGantt(page);
    await delayFlight(page, 'NV146_2026-11-21T07:50:00Z', 60);

    // One job runs, one waits: the queue is full.
    const running = await submitLongJob('holder');
    await expect.poll(() => jobStatus(running), { timeout: 30_000 }).toBe('running');
    const waiting = await submitLongJob('waiter');

    const refused = page.waitForResponse((r) => r.url().endsWith('/simulations') && r.request().method() === 'POST');
    await page.click('#simulate');
    const reply = await refused;
    expect(reply.status()).toBe(503);
    const { detail } = (await reply.json()) as { detail: string };
    const retryAfter = reply.headers()['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    await expect.poll(() => page.textContent('#message')).toContain(detail);
    expect(await page.textContent('#message')).toContain(`retry in ${retryAfter} s`);
    expect(await page.isVisible('#retry')).toBe(true);
    expect(await accessibilityFindings(page), '503 view').toEqual([]);
    await screenshot(page, '7-busy');

    // Room again: both jobs cancelled (the running one stops within a second).
    for (const id of [waiting, running]) expect((await fetch(`${server.baseUrl}/simulations/${id}`, { method: 'DELETE', headers })).status).toBe(200);
    await expect.poll(() => jobStatus(running), { timeout: 10_000 }).toBe('cancelled');
    const accepted = page.waitForResponse((r) => r.url().endsWith('/simulations') && r.request().method() === 'POST');
    await page.click('#retry');
    expect((await accepted).status()).toBe(202);
    await page.waitForSelector('#options h2', { timeout: 90_000 });
    expect(await page.isVisible('#message')).toBe(false);
    await context.close();
  });

  it('scenario: Cancel on a running job stops it within seconds and the page draws the best plans it kept', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await enterKey(page, STAGING_KEY);
    await waitForGantt(page);
    await delayFlight(page, 'NV146_2026-11-21T07:50:00Z', 240);
    await delayFlight(page, 'NV260_2026-11-21T08:40:00Z', 45);
    await page.fill('#time-limit', '30');

    const submitted = page.waitForResponse((r) => r.url().endsWith('/simulations') && r.request().method() === 'POST');
    await page.click('#simulate');
    const reply = await submitted;
    expect(reply.status()).toBe(202);
    const { job_id: id } = (await reply.json()) as { job_id: string };
    // Progress from the job's events: wait for a first plan, then cancel.
    await expect.poll(() => page.textContent('#run-status'), { timeout: 60_000 }).toContain('best cost so far');
    const clicked = Date.now();
    await page.click('#cancel-run');
    await expect.poll(() => page.textContent('#run-status'), { timeout: 10_000 }).toMatch(/^Cancelled after/);
    const cancelledWithinMs = Date.now() - clicked;
    const job = (await (await fetch(`${server.baseUrl}/simulations/${id}`, { headers })).json()) as { status: string; result: { options: { option_id: string }[] } | null };
    expect(job.status).toBe('cancelled');
    // The page draws exactly the best plans the job kept.
    expect(job.result).not.toBeNull();
    // One card per distinct plan: together the cards name every option the job kept, each once.
    const shown = await page.$$eval('#options .option', (cards) => cards.flatMap((c) => (c as HTMLElement).dataset.optionIds!.split(' ')));
    expect(shown.sort()).toEqual(job.result!.options.map((o) => o.option_id).sort());
    expect(await page.isVisible('#cancel-run')).toBe(false);
    process.stdout.write(`console cancel: the page showed the cancelled job ${cancelledWithinMs} ms after the click\n`);
    await context.close();
  });
});
