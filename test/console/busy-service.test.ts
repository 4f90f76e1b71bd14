// The console when the service is saturated: a real 503 from a full solver queue (no mock), the
// service's sentence and the wait shown, then a Retry that succeeds once a solver is free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { stuckModel } from '../support/models.ts';
import { launchBrowser, type ConsoleBrowser } from './browser.ts';
import { accessibilityFindings, clickFlight, enterKey, openConsole, screenshot, waitForGantt } from './console-driver.ts';

let browser: ConsoleBrowser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser?.close(); });

describe('a saturated service', () => {
  let pool: SolverPool;
  let server: TestServer;
  beforeAll(async () => {
    // One solver thread and a queue of three: an idle pool takes a simulation's four solves (one runs,
    // three wait); while a solve holds the thread, a simulation's four do not fit and it is refused at once.
    pool = createSolverPool({ threads: 1, maxQueue: 3, hardStopGraceMs: 100 });
    await pool.ready();
    server = await startTestServer({ solver: pool });
  });
  afterAll(async () => {
    await server?.close();
    await pool?.close();
  });

  it('scenario: a simulation refused with 503 shows the service\'s sentence and when to retry; Retry succeeds once a solver is free', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await enterKey(page, STAGING_KEY);
    await waitForGantt(page);
    await clickFlight(page, 'NV146_2026-11-21T07:50:00Z');
    await page.fill('#delay-minutes', '60');
    await page.click('text=Add delay');

    const busy = pool.solve({ model: stuckModel(), timeLimitMs: 3000, mipGap: 0 });
    await expect.poll(() => pool.stats().running).toBe(1);
    const refused = page.waitForResponse((r) => r.url().endsWith('/simulate'));
    await page.click('#simulate');
    const reply = await refused;
    expect(reply.status()).toBe(503);
    const { detail } = (await reply.json()) as { detail: string };
    const retryAfter = reply.headers()['retry-after'];
    await expect.poll(() => page.textContent('#message')).toContain(detail);
    expect(await page.textContent('#message')).toContain(`retry in ${retryAfter} s`);
    expect(await page.isVisible('#retry')).toBe(true);
    expect(await accessibilityFindings(page), '503 view').toEqual([]);
    await screenshot(page, '7-busy');

    // The held worker is stopped at its hard stop and replaced; once the new one is ready, retry.
    await busy;
    await expect.poll(() => pool.stats(), { timeout: 20_000 }).toMatchObject({ workersReady: 1, running: 0 });
    const answer = page.waitForResponse((r) => r.url().endsWith('/simulate'), { timeout: 90_000 });
    await page.click('#retry');
    expect((await answer).status()).toBe(200);
    await page.waitForSelector('#options .option', { timeout: 30_000 });
    expect(await page.isVisible('#message')).toBe(false);
    await context.close();
  });
});
