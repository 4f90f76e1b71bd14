// What a controller does on the console, as functions the tests share. Everything goes through the page
// (typing, clicking, keys); the API's own answers are captured from the network, so the tests compare
// the page with the service and never with the page's own data.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Bar geometry as the page exposes it (data attributes written after each frame). */
export interface BarGeometry {
  flight: string; tail: string; rowIndex: number; lane: 'day' | 'before' | 'after';
  kind: 'planned' | 'delayed' | 'swapped' | 'cancelled' | 'new'; label: string;
  x: number; y: number; width: number; height: number;
}

export interface TimeScale { domainStartMs: number; domainEndMs: number; rangeStart: number; rangeEnd: number }

export async function openConsole(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.waitForSelector('#api-key');
}

export async function enterKey(page: Page, key: string): Promise<void> {
  await page.fill('#api-key', key);
  await page.press('#api-key', 'Enter');
}

/** Waits for the first frame of a loaded schedule; returns the page's request-to-paint figures (ms). */
export async function waitForGantt(page: Page): Promise<{ requestToPaintMs: number; dataToPaintMs: number }> {
  await page.waitForFunction(() => performance.getEntriesByName('schedule-to-first-paint').length > 0, null, { timeout: 30_000 });
  return page.evaluate(() => ({
    requestToPaintMs: performance.getEntriesByName('schedule-to-first-paint')[0]!.duration,
    dataToPaintMs: performance.getEntriesByName('data-to-first-paint')[0]!.duration,
  }));
}

export async function timeScale(page: Page): Promise<TimeScale> {
  return page.$eval('#gantt', (canvas) => {
    const d = (canvas as HTMLElement).dataset;
    return { domainStartMs: Number(d.domainStartMs), domainEndMs: Number(d.domainEndMs), rangeStart: Number(d.rangeStart), rangeEnd: Number(d.rangeEnd) };
  });
}

/** Canvas x (CSS px) of an instant on the page's current scale. */
export function xOf(scale: TimeScale, ms: number): number {
  return scale.rangeStart + ((ms - scale.domainStartMs) / (scale.domainEndMs - scale.domainStartMs)) * (scale.rangeEnd - scale.rangeStart);
}

/** The focused bar's geometry once a frame has drawn it as focused on `flight`. */
export async function focusedBar(page: Page, flight?: string): Promise<BarGeometry> {
  const handle = await page.waitForFunction((wanted) => {
    const text = document.getElementById('gantt')!.dataset.focused;
    if (!text) return null;
    const geometry = JSON.parse(text) as { flight: string };
    return wanted === undefined || geometry.flight === wanted ? geometry : null;
  }, flight, { timeout: 10_000 });
  return (await handle.jsonValue()) as BarGeometry;
}

/** Finds a flight with the page's search and clicks the middle of its bar on the canvas. */
export async function clickFlight(page: Page, flightId: string): Promise<BarGeometry> {
  await page.fill('#find-flight', flightId);
  await page.click('#find');
  const bar = await focusedBar(page, flightId);
  const box = (await page.locator('#gantt').boundingBox())!;
  await page.mouse.click(box.x + bar.x + Math.min(bar.width / 2, 20), box.y + bar.y + bar.height / 2);
  return bar;
}

/** What the Gantt's last frame drew (console/src/views/gantt.ts FrameReport), read through the page's inspection hook. */
export interface Frame {
  labels: { flight: string; tail: string; lane: 'day' | 'before' | 'after'; text: string; x: number; y: number; width: number; height: number }[];
  connectors: { flight: string; tail: string; x0: number; x1: number; y: number }[];
  unavailable: { tail: string; x: number; width: number; y: number; height: number }[];
  bands: { airport: string; y: number; height: number; hours: { startMs: number; x: number; width: number; departures: number; arrivals: number; over: boolean; text: string }[] }[];
  axis: { date: string; zone: string; midnights: { ms: number; px: number; label: string }[]; now: { ms: number; px: number } | null };
  rows: { first: number; last: number; tails: string[]; flagged: string[] };
}

/** The last frame, once `ready` holds for it (frames follow changes within a few milliseconds). */
export async function frame(page: Page, ready: (frame: Frame) => boolean = () => true): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const last = await page.evaluate(() => (window as unknown as { consoleInspect: { frame: () => unknown } }).consoleInspect.frame()) as Frame | null;
    if (last !== null && ready(last)) return last;
    if (Date.now() > deadline) throw new Error(`No frame as expected within 10 s; the last: ${JSON.stringify(last)?.slice(0, 400)}`);
    await page.waitForTimeout(50);
  }
}

/** Opens a flight's editor from the Gantt and adds a delay. */
export async function addDelay(page: Page, flight: string, minutes: number): Promise<void> {
  await clickFlight(page, flight);
  await page.fill('#delay-minutes', String(minutes));
  await page.click('text=Add delay');
}

/**
 * Clicks Simulate and returns the API's answer as the network carried it, by whichever path the page
 * detected: POST /simulate, or (once the jobs API exists) POST /simulations and the job's final state.
 */
export async function simulateFromPage(page: Page, baseUrl: string, key: string): Promise<{ jobId: string; sent: unknown; response: SimulationResponse }> {
  // A job: 202 with the job, its progress shown while it runs, the final state's result drawn.
  const submitted = page.waitForResponse((r) => r.url().endsWith('/simulations') && r.request().method() === 'POST', { timeout: 30_000 });
  await page.click('#simulate');
  const reply = await submitted;
  expect(reply.status()).toBe(202);
  const { job_id: jobId } = (await reply.json()) as { job_id: string };
  await page.waitForSelector('#progress', { state: 'visible', timeout: 30_000 });
  // (Also "Done", what pages before issue 26 wrote, so that the defect tests run through on them.)
  await page.waitForFunction(() => /^(Finished|Done|Cancelled|Failed)/.test(document.getElementById('run-status')?.textContent ?? ''), null, { timeout: 90_000 });
  await page.waitForSelector('#options h2', { timeout: 10_000 });
  const job = await (await fetch(`${baseUrl}/simulations/${jobId}`, { headers: { 'X-API-Key': key } })).json() as { status: string; result: SimulationResponse };
  expect(job.status).toBe('succeeded');
  return { jobId, sent: reply.request().postDataJSON(), response: job.result };
}

/** axe-core on the page as it stands: the serious and critical findings (expected: none). */
export async function accessibilityFindings(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (the page itself may
  // not run inline or eval'd script).
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 5) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(' ')}`);
}

/** With UPDATE_CONSOLE_SCREENSHOTS=1, writes docs/console/<name>.png (the README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_CONSOLE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: new URL(`../../docs/console/${name}.png`, import.meta.url).pathname });
}
