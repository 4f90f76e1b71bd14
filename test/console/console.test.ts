// The operations console end to end: real headless Chromium, the page as `npm start` builds it, a real
// service over HTTP with a real solver pool. Every check compares the page with the API's own answers
// (captured from the network or asked by the test), never with the page's own data.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SnapshotResponse } from '../../src/http/schemas.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type ConsoleBrowser } from './browser.ts';
import {
  accessibilityFindings, clickFlight, enterKey, focusedBar, openConsole, screenshot, simulateFromPage, timeScale, waitForGantt, xOf, type BarGeometry,
} from './console-driver.ts';

// A morning on the default schedule that makes the engine use every kind of action: a 40-minute delay,
// a cancellation, and an aircraft out of service for six hours (its flights are swapped or cancelled).
const DELAYED = 'NV163_2026-11-21T06:55:00Z';
const CANCELLED = 'NV174_2026-11-21T10:30:00Z';
const GROUNDED_TAIL = 'OE-NWE';
const GROUNDED_FROM = '2026-11-21T07:20:00Z';
const GROUNDED_TO = '2026-11-21T13:20:00Z';

let pool: SolverPool;
let server: TestServer;
let browser: ConsoleBrowser;
let snapshot: SnapshotResponse;

beforeAll(async () => {
  pool = createSolverPool({ threads: 2 });
  await pool.ready();
  server = await startTestServer({ solver: pool });
  browser = await launchBrowser();
  snapshot = await (await server.get('/snapshot')).json() as SnapshotResponse;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await pool?.close();
});

/** Console messages that say the CSP or Trusted Types refused something (expected: none). */
function watchPolicyViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => { if (/Content Security Policy|Trusted ?Type/i.test(message.text())) seen.push(message.text()); });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

describe('operations console in headless Chromium', () => {
  it('scenario: a controller types a key, sees the day, disrupts it, compares the options and opens the best one where the response puts its bars', async () => {
    const { page, context } = await browser.newPage();
    const violations = watchPolicyViolations(page);
    await openConsole(page, server.baseUrl);
    expect(await accessibilityFindings(page), 'key view').toEqual([]);
    await screenshot(page, '1-key');

    // The key goes in; the day of the default schedule appears with every aircraft and flight of the API.
    await enterKey(page, STAGING_KEY);
    const paint = await waitForGantt(page);
    expect(paint.requestToPaintMs).toBeGreaterThan(0);
    await expect.poll(() => page.textContent('#gantt-title')).toContain(`(${snapshot.aircraft.length} aircraft, ${snapshot.flights.length} flights)`);
    expect(await accessibilityFindings(page), 'day view').toEqual([]);
    await screenshot(page, '2-day');

    // Keyboard: focus the Gantt, move to a flight; the details are the API's for that flight.
    await page.focus('#gantt');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    // The details follow each key at once; the bar geometry is exposed after the next frame, which
    // may come between the two keys: wait for the frame that shows the flight the details name.
    const detailed = (await page.textContent('[data-field="flight"]'))!;
    const keyed = await focusedBar(page, detailed);
    const keyedFlight = snapshot.flights.find((f) => f.id === keyed.flight)!;
    expect(keyedFlight).toBeDefined();
    expect(keyed.tail).toBe(keyedFlight.tail);
    expect(await page.textContent('[data-field="route"]')).toBe(`${keyedFlight.origin} → ${keyedFlight.dest}`);
    expect(await page.textContent('[data-field="passengers"]')).toBe(String(keyedFlight.booked_passengers));
    expect(await page.textContent('[data-field="crew"]')).toBe(keyedFlight.crew_ids.join(', '));
    // Its bar sits where the API's departure time falls on the axis.
    expect(keyed.x).toBeCloseTo(xOf(await timeScale(page), Date.parse(keyedFlight.dep)), 0);

    // Hover: move focus away, then point at the bar with the mouse: the details follow the pointer.
    await page.keyboard.press('ArrowRight');
    const box = (await page.locator('#gantt').boundingBox())!;
    await page.mouse.move(box.x + keyed.x + Math.min(keyed.width / 2, 10), box.y + keyed.y + keyed.height / 2);
    await expect.poll(() => page.textContent('[data-field="flight"]')).toBe(keyedFlight.id);
    expect(await page.isVisible('#tooltip')).toBe(true);
    expect(await page.textContent('#tooltip')).toContain(`${keyedFlight.flight_number} ${keyedFlight.origin}-${keyedFlight.dest}`);

    // Time zone: the local time of an airport, as the API writes times there (its own offsets).
    await page.selectOption('#zone', 'VIE');
    const fromVienna = snapshot.flights.find((f) => f.origin === 'VIE' && f.tail !== keyedFlight.tail)!;
    await page.fill('#find-flight', fromVienna.id);
    await page.click('#find');
    await expect.poll(() => page.textContent('[data-field="flight"]')).toBe(fromVienna.id);
    expect(await page.textContent('[data-field="dep"]')).toBe(`${fromVienna.dep.slice(0, 10)} ${fromVienna.dep.slice(11, 16)} VIE`);
    await page.selectOption('#zone', 'UTC');
    await page.click('#find');
    await expect.poll(() => page.textContent('[data-field="dep"]')).toBe(`${new Date(fromVienna.dep).toISOString().slice(0, 10)} ${new Date(fromVienna.dep).toISOString().slice(11, 16)} UTC`);

    // The disruption, built on the Gantt: delay one flight, cancel another, ground an aircraft.
    await clickFlight(page, DELAYED);
    await page.fill('#delay-minutes', '40');
    expect(await accessibilityFindings(page), 'disruption editor').toEqual([]);
    await page.click('text=Add delay');
    await clickFlight(page, CANCELLED);
    await page.click('text=Cancel flight');
    const groundedFlight = snapshot.flights.find((f) => f.tail === GROUNDED_TAIL)!;
    // Clicking its flight opens the flight editor; clicking the row's label opens the aircraft's.
    const row = await clickFlight(page, groundedFlight.id);
    await page.mouse.click(box.x + 40, box.y + row.y + row.height / 2);
    // The editor takes the page's zone (UTC here) as a date and a time.
    await page.fill('#unavailable-from', GROUNDED_FROM.slice(0, 16));
    await page.fill('#unavailable-to', GROUNDED_TO.slice(0, 16));
    await page.click('text=Add out of service');
    const entries = await page.$$eval('#disruption-list li[data-type]', (items) => items.map((i) => (i as HTMLElement).dataset.type));
    expect(entries.sort()).toEqual(['aircraft_unavailable', 'flight_cancellation', 'flight_delay']);

    // Run it. The page sends what was built and draws what comes back. Ten seconds per strategy (the
    // service's bound) so that every strategy finishes even when other jobs load the machine.
    await page.fill('#time-limit', '10');
    const { sent, response } = await simulateFromPage(page, server.baseUrl, STAGING_KEY);
    expect(response.disruptions.map((d) => d.type).sort()).toEqual(entries.sort());
    expect(sent).toMatchObject({ config: { solver: { time_limit_ms: 10_000 } } });

    // The options side by side (one card per distinct plan: each option is on exactly one card, the
    // first of its card's ids), the best one marked; the strategies without a plan listed with why.
    const cards = await page.$$eval('#options .option', (nodes) => nodes.map((n) => ({
      id: (n as HTMLElement).dataset.optionId, ids: (n as HTMLElement).dataset.optionIds!.split(' '), best: n.classList.contains('best'), text: n.textContent ?? '',
      status: (n.querySelector('[data-kpi="status"]') as HTMLElement | null)?.dataset.status, otp: n.querySelector('[data-kpi="otp"]')?.textContent,
    })));
    expect(cards.flatMap((c) => c.ids).sort()).toEqual(response.options.map((o) => o.option_id).sort());
    for (const card of cards) {
      const option = response.options.find((o) => o.option_id === card.id)!;
      expect(card.ids[0]).toBe(card.id);
      expect(Math.min(...card.ids.map((id) => response.options.find((o) => o.option_id === id)!.rank))).toBe(option.rank);
      expect(card.best).toBe(option.option_id === response.best_option_id);
      expect(card.text.includes('★ Best')).toBe(option.option_id === response.best_option_id);
      expect(card.text).toContain(`Cost €${Math.round(option.summary.cost).toLocaleString('en-GB')}`);
      expect(card.status).toBe(option.solver.status);
      expect(card.otp).toBe(`${(option.summary.otp * 100).toFixed(1)} %`);
    }
    expect(await page.$$eval('#options .unsolved', (n) => n.length)).toBe(response.unsolved_strategies.length);
    expect(await accessibilityFindings(page), 'options view').toEqual([]);

    // The best option on the Gantt: every action's bars where the response says they are.
    const best = response.options.find((o) => o.option_id === response.best_option_id)!;
    expect(best.action_set.delays.length + best.action_set.cancellations.length).toBeGreaterThan(0);
    await page.click(`#options [data-option-ids~="${best.option_id}"] >> text=Show on Gantt`);
    await expect.poll(() => page.textContent('#gantt-title')).toContain(best.option_id);
    const geometry = async (action: string, flight: string): Promise<BarGeometry[]> => {
      const text = await page.getAttribute(`#action-list [data-action="${action}"][data-flight="${flight}"]`, 'data-geometry', { timeout: 10_000 });
      return JSON.parse(text!) as BarGeometry[];
    };
    await page.waitForSelector('#action-list [data-geometry]');
    const scale = await timeScale(page);
    for (const delay of best.action_set.delays) {
      const after = (await geometry('delay', delay.flight)).find((g) => g.lane === 'after')!;
      expect(after.tail).toBe(delay.tail);
      expect(after.label).toContain(`+${delay.delay_minutes}m`);
      expect(after.x).toBeCloseTo(xOf(scale, Date.parse(delay.new_dep)), 0);
    }
    for (const swap of best.action_set.swaps) {
      const after = (await geometry('swap', swap.flight)).find((g) => g.lane === 'after')!;
      expect(after.tail).toBe(swap.to_tail);
      expect(after.kind).toBe('swapped');
      expect(after.label).toContain(`from ${swap.from_tail}`);
      const leg = best.rotations.find((r) => r.tail === swap.to_tail)!.legs.find((l) => l.flight === swap.flight)!;
      expect(after.x).toBeCloseTo(xOf(scale, Date.parse(leg.dep)), 0);
    }
    for (const cancellation of best.action_set.cancellations) {
      const planned = snapshot.flights.find((f) => f.id === cancellation.flight)!;
      const ghost = (await geometry('cancellation', cancellation.flight)).find((g) => g.lane === 'after')!;
      expect(ghost.kind).toBe('cancelled');
      expect(ghost.tail).toBe(planned.tail);
      expect(ghost.label).toContain('cancelled');
      expect(ghost.x).toBeCloseTo(xOf(scale, Date.parse(planned.dep)), 0);
    }
    // Violations and aircraft out of position are listed and flagged on their rows.
    expect(await page.$$eval('#flag-list [data-flag]', (n) => n.length)).toBe(best.violations.length + best.aircraft_out_of_position.length);

    // An action highlights its bars: it is brought into view and painted on the canvas there.
    const firstAction = best.action_set.delays[0]?.flight ?? best.action_set.cancellations[0]!.flight;
    const action = page.locator(`#action-list [data-flight="${firstAction}"]`).first();
    await action.click();
    expect(await action.getAttribute('aria-pressed')).toBe('true');
    const shown = await focusedBar(page, firstAction);
    const painted = await page.$eval('#gantt', (canvas, g) => {
      const c = canvas as HTMLCanvasElement;
      const ratio = c.width / c.clientWidth;
      const [r, gr, b] = c.getContext('2d')!.getImageData(Math.round((g.x + Math.min(g.width / 2, 6)) * ratio), Math.round((g.y + g.height / 2) * ratio), 1, 1).data;
      return [r, gr, b];
    }, shown);
    expect(painted).not.toEqual([255, 255, 255]);
    expect(shown.y).toBeGreaterThanOrEqual(0);
    expect(shown.y).toBeLessThan(box.height);
    expect(await accessibilityFindings(page), 'option on the Gantt').toEqual([]);

    // If the best option swaps nothing, another option's swaps are on the Gantt the same way.
    const swapping = response.options.find((o) => o.action_set.swaps.length > 0);
    if (best.action_set.swaps.length === 0 && swapping) {
      await page.click(`#options [data-option-ids~="${swapping.option_id}"] >> text=Show on Gantt`);
      await expect.poll(() => page.textContent('#gantt-title')).toContain(swapping.option_id);
      const swap = swapping.action_set.swaps[0]!;
      await page.waitForSelector(`#action-list [data-action="swap"][data-flight="${swap.flight}"][data-geometry]`);
      const after = (await geometry('swap', swap.flight)).find((g) => g.lane === 'after')!;
      expect(after.tail).toBe(swap.to_tail);
      expect(after.kind).toBe('swapped');
    }
    expect(response.options.some((o) => o.action_set.swaps.length > 0), 'the scenario makes some option swap').toBe(true);

    // Export: the option as the response gave it.
    await page.click(`#options [data-option-ids~="${best.option_id}"] >> text=Show on Gantt`);
    const download = page.waitForEvent('download');
    await page.click('#export-option');
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { option: unknown; scenario_id: string };
    expect(exported.scenario_id).toBe(response.scenario_id);
    expect(exported.option).toEqual(best);

    // The key lives in sessionStorage only: not in local storage, the URL, the page or the service's log.
    const stored = await page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length, html: document.documentElement.outerHTML, url: location.href }));
    expect(stored.session).toBe(1);
    expect(stored.local).toBe(0);
    expect(stored.html).not.toContain(STAGING_KEY);
    expect(stored.url).not.toContain(STAGING_KEY);
    expect(server.logText()).not.toContain(STAGING_KEY);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('scenario: filters by fleet, base and airport keep the API\'s aircraft; an airport\'s capacity cap joins the disruption from the airport filter', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await enterKey(page, STAGING_KEY);
    await waitForGantt(page);
    const shown = () => page.textContent('#row-count');
    await expect.poll(shown).toBe(`Showing ${snapshot.aircraft.length} of ${snapshot.aircraft.length} aircraft.`);
    await page.selectOption('#filter-fleet', 'E190');
    await expect.poll(shown).toBe(`Showing ${snapshot.aircraft.filter((a) => a.fleet === 'E190').length} of ${snapshot.aircraft.length} aircraft.`);
    await page.selectOption('#filter-base', 'VIE');
    await expect.poll(shown).toBe(`Showing ${snapshot.aircraft.filter((a) => a.fleet === 'E190' && a.base === 'VIE').length} of ${snapshot.aircraft.length} aircraft.`);
    await page.selectOption('#filter-fleet', '');
    await page.selectOption('#filter-base', '');
    await page.selectOption('#filter-airport', 'LHR');
    const touchingLhr = new Set(snapshot.flights.filter((f) => f.origin === 'LHR' || f.dest === 'LHR').map((f) => f.tail));
    await expect.poll(shown).toBe(`Showing ${touchingLhr.size} of ${snapshot.aircraft.length} aircraft.`);

    await page.click('#cap-airport');
    await page.fill('#capacity-from', '2026-11-21T09:00');
    await page.fill('#capacity-to', '2026-11-21T11:00');
    await page.fill('#capacity-departures', '1');
    await page.fill('#capacity-arrivals', '2');
    await page.click('text=Add capacity cap');
    expect(await page.textContent('#disruption-list [data-type="airport_capacity"]')).toContain('LHR capped at 1 dep / 2 arr per hour 21/11 09:00 – 21/11 11:00 UTC');
    expect(await page.isEnabled('#simulate')).toBe(true);
    await page.click('#disruption-list [data-type="airport_capacity"] button');
    expect(await page.$$eval('#disruption-list li[data-type]', (n) => n.length)).toBe(0);
    expect(await page.isEnabled('#simulate')).toBe(false);
    await context.close();
  });

  it('scenario: a wrong key shows the service\'s 403 sentence and draws nothing', async () => {
    const { page, context } = await browser.newPage();
    await openConsole(page, server.baseUrl);
    await enterKey(page, 'drs_staging_not-a-key-of-this-service-000');
    await expect.poll(() => page.textContent('#message'), { timeout: 10_000 }).toContain('Invalid API key');
    const detail = (await (await server.get('/snapshot', { key: 'drs_staging_not-a-key-of-this-service-000' })).json() as { detail: string }).detail;
    expect(await page.textContent('#message')).toContain(detail);
    expect(await page.isVisible('#message')).toBe(true);
    expect(await page.evaluate(() => performance.getEntriesByName('schedule-to-first-paint').length)).toBe(0);
    expect(await accessibilityFindings(page), 'error view').toEqual([]);
    await context.close();
  });

  it('unit: /console is public, redirects to /console/, and carries a strict CSP with the helmet headers', async () => {
    const redirect = await fetch(`${server.baseUrl}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('console/');
    const page = await fetch(`${server.baseUrl}/console/`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/\sstyle=/);
    const missing = await fetch(`${server.baseUrl}/console/package.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found' });
  });
});
