// The console when the service is saturated (a real 503 from a full solver queue, then a retry that
// succeeds) and on the large schedule (610 aircraft, 4,114 flights): first paint and the cost of every
// frame while panning, measured in the browser with the Performance API.
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

describe('the large schedule', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(async () => { await server?.close(); });

  it('scenario: 610 aircraft and 4,114 flights paint within 1 s of the request and no frame takes 50 ms while panning and scrolling', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await page.fill('#schedule-file', 'large');
    await page.fill('#airlines', 'NV,BZ');
    await enterKey(page, STAGING_KEY);
    const paint = await waitForGantt(page);
    await expect.poll(() => page.textContent('#gantt-title')).toContain('(610 aircraft, 4114 flights)');

    // Pan: zoom in (at the whole day there is nothing to pan), drag the time axis back and forth, scroll
    // through the rows. Every frame's drawing is a 'gantt-draw' measure; long tasks are observed too.
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) w.longTasks.push(entry.duration); }).observe({ type: 'longtask' });
    });
    await page.focus('#gantt');
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await page.evaluate(() => performance.clearMeasures('gantt-draw'));
    const box = (await page.locator('#gantt').boundingBox())!;
    const y = box.y + box.height / 2;
    for (const [from, to] of [[0.8, 0.3], [0.3, 0.9], [0.9, 0.4]] as const) {
      await page.mouse.move(box.x + box.width * from, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * to, y, { steps: 40 });
      await page.mouse.up();
    }
    for (let i = 0; i < 30; i++) await page.mouse.wheel(0, 400);
    await page.waitForTimeout(200);
    const frames = await page.evaluate(() => ({
      draws: performance.getEntriesByName('gantt-draw').map((e) => e.duration),
      longTasks: (window as unknown as { longTasks: number[] }).longTasks,
    }));
    const maxDrawMs = Math.max(...frames.draws);
    const sorted = [...frames.draws].sort((a, b) => a - b);
    const p95DrawMs = sorted[Math.floor(sorted.length * 0.95)]!;
    console.log(`large schedule: request to first paint ${paint.requestToPaintMs.toFixed(0)} ms (data received to paint ${paint.dataToPaintMs.toFixed(0)} ms); `
      + `${frames.draws.length} frames while panning and scrolling: p95 ${p95DrawMs.toFixed(1)} ms, max ${maxDrawMs.toFixed(1)} ms; long tasks ${JSON.stringify(frames.longTasks.map(Math.round))}`);
    expect(frames.draws.length).toBeGreaterThan(30);
    expect(paint.requestToPaintMs).toBeLessThan(1000);
    expect(maxDrawMs).toBeLessThan(50);
    await context.close();
  });
});
