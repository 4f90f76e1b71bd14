// The live day in the console (issue 26, item 6): two controllers in two Chromium processes on one
// operational day of the default schedule, the service's days kept in a PGlite database of the test's
// own. Anna opens the day and decides on an option through the apply confirmation (keyboard only:
// the per-aircraft diff, the passengers, apply); Ben, who has the same day open, sees her revision
// appear without reloading, and his own apply, confirmed on the revision he saw, gets the service's
// 412 sentence. Movement messages arrive (posted by the test, as a movement feed would) and both pages
// draw the flights at their actual times; the alerts, the history (who, when, why), a revision's diff
// and a revert are checked against the service's own answers. axe-core on every view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { DayResponse, RevisionView, AlertsView, DiffView } from '../../src/http/day-schemas.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';
import { SECOND_STAGING_KEY, STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { launchBrowser, type ConsoleBrowser } from './browser.ts';
import {
  accessibilityFindings, addDelay, enterKey, focusedBar, frame, openConsole, screenshot, simulateFromPage, timeScale, waitForGantt, xOf,
} from './console-driver.ts';

type Option = SimulationResponse['options'][number];

let pool: SolverPool;
let server: TestServer;
let days: DayStoreHandle;
let removeDir: () => void;
let anna: ConsoleBrowser;
let ben: ConsoleBrowser;

beforeAll(async () => {
  pool = createSolverPool({ threads: 2 });
  ({ days, remove: removeDir } = await freshPgliteDayStore());
  await pool.ready();
  server = await startTestServer({ solver: pool, days, env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' } });
  // Two browsers, as two controllers at two desks: nothing shared but the service.
  [anna, ben] = await Promise.all([launchBrowser(), launchBrowser()]);
});

afterAll(async () => {
  await anna?.close();
  await ben?.close();
  await server?.close();
  await days?.close();
  await pool?.close();
  removeDir?.();
});

/** The service's answer to a request with a key (the test's own view of the day). */
async function api<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string } = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'X-API-Key': init.key ?? STAGING_KEY, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Presses Tab until the focused element matches `selector` (keyboard only); fails after `max` presses. */
async function tabTo(page: Page, selector: string, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * The test's own per-aircraft diff of an option against the day it was solved on: the tails it changes.
 * The engine reads the day with every flight that has not left pushed past the simulation's `now`
 * down its rotation (src/domain/day/day.ts scheduleOfDay): on a tail with such a flight, a leg's change
 * is its delay against those times (`delay_minutes`), not against the day's estimate.
 */
function changedTails(option: Option, day: DayResponse, now?: string): Set<string> {
  const flights = new Map(day.flights.map((f) => [f.id, f]));
  const pushed = new Set(now === undefined ? [] : day.flights
    .filter((f) => f.status === 'scheduled' && f.actual.off_block === null && f.estimated && Date.parse(f.estimated.dep) < Date.parse(now)).map((f) => f.tail));
  const changed = new Set<string>();
  for (const r of option.rotations) for (const l of r.legs) {
    const f = flights.get(l.flight)!;
    const estimated = f.estimated ?? f.planned;
    const moved = pushed.has(f.tail) ? l.delay_minutes > 0 : Date.parse(l.dep) !== Date.parse(estimated.dep);
    if (moved || f.tail !== r.tail) { changed.add(r.tail); changed.add(f.tail); }
  }
  for (const c of option.action_set.cancellations) changed.add(flights.get(c.flight)!.tail);
  for (const v of option.violations) if (v.tail) changed.add(v.tail);
  for (const o of option.aircraft_out_of_position) changed.add(o.tail);
  return changed;
}

async function openDayFromList(page: Page, dayId: string): Promise<void> {
  await page.click('#refresh-days');
  await page.waitForSelector(`#day-select option[value="${dayId}"]`, { state: 'attached' });
  await page.selectOption('#day-select', dayId);
  await page.click('#watch-day');
}

const title = (page: Page) => page.textContent('#gantt-title');

describe('the live day, two controllers in two browsers (default schedule, 1440×900)', () => {
  it('scenario: open, simulate, apply through the confirmation (keyboard only); the other browser sees it without reloading and its stale apply gets the 412 sentence; movements, alerts, history, diff, revert', async () => {
    const a = await anna.newPage({ width: 1440, height: 900 });
    const b = await ben.newPage({ width: 1440, height: 900 });
    const pageA = a.page;
    const pageB = b.page;
    const errors: string[] = [];
    for (const page of [pageA, pageB]) page.on('pageerror', (error) => errors.push(error.message));

    // Anna: the key, her name, a new day of the default schedule.
    await openConsole(pageA, server.baseUrl);
    await enterKey(pageA, STAGING_KEY);
    await waitForGantt(pageA);
    // The live day's section, closed until wanted; a name the service would refuse in X-Operator
    // (not ASCII) is refused at once, in a sentence.
    await pageA.click('#live-day summary');
    await pageA.fill('#operator', 'Anna Müller');
    expect(await pageA.isVisible('#operator-error')).toBe(true);
    expect(await pageA.textContent('#operator-error')).toContain('plain ASCII');
    await pageA.fill('#operator', 'Anna');
    expect(await pageA.isVisible('#operator-error')).toBe(false);
    await expect.poll(() => pageA.textContent('#day-select')).toContain('No day yet');
    expect(await accessibilityFindings(pageA), 'live day section, no day yet').toEqual([]);
    await pageA.click('#new-day');
    await expect.poll(() => title(pageA), { timeout: 20_000 }).toMatch(/^Live day: default, revision 1 \(/);
    const { body: opened } = await api<{ days: { id: string }[] }>('/days');
    expect(opened.days.length).toBe(1);
    const dayId = opened.days[0]!.id;
    const day1 = (await api<DayResponse>(`/days/${dayId}`)).body;
    // The rows are the day's: every flight of the revision, every aircraft of its schedule.
    await expect.poll(() => title(pageA)).toContain(`${day1.flights.length} flights)`);
    expect(await pageA.textContent('#day-status')).toContain('revision 1 of default');
    expect(await pageA.textContent('#day-status')).toContain('opened from the schedule, by Anna');

    // Ben, at another desk with another key of the environment: the same day from the list.
    await openConsole(pageB, server.baseUrl);
    await enterKey(pageB, SECOND_STAGING_KEY);
    await waitForGantt(pageB);
    await pageB.click('#live-day summary');
    await pageB.fill('#operator', 'Ben');
    await openDayFromList(pageB, dayId);
    await expect.poll(() => title(pageB), { timeout: 20_000 }).toMatch(/^Live day: default, revision 1 /);
    await pageB.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });
    // Ben's page watches the day by polling GET /days/{id} with If-None-Match: 304 while nothing changes.
    const polls: { ifNoneMatch: string | undefined; status: number; etag: string | undefined }[] = [];
    pageB.on('response', (r) => {
      if (r.request().method() === 'GET' && new URL(r.url()).pathname === `/days/${dayId}`) polls.push({ ifNoneMatch: r.request().headers()['if-none-match'], status: r.status(), etag: r.headers().etag });
    });
    await expect.poll(() => polls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(polls[0]).toEqual({ ifNoneMatch: '"1"', status: 304, etag: '"1"' });
    expect(await accessibilityFindings(pageB), 'live day view').toEqual([]);

    // The replay's "now": the day's first departure (the bundled day is in the past).
    expect(await pageA.inputValue('#day-now')).toBe(day1.window.from.slice(0, 16));

    // Both simulate a delay on the day (jobs with `day`): Anna NV138 +90, Ben NV146 +120.
    await addDelay(pageA, 'NV138_2026-11-21T09:05:00Z', 90);
    await pageA.fill('#time-limit', '10');
    const submittedA = pageA.waitForRequest((r) => r.url().endsWith('/simulations') && r.method() === 'POST');
    const runA = simulateFromPage(pageA, server.baseUrl, STAGING_KEY);
    expect((await submittedA).postDataJSON()).toMatchObject({ day: dayId, now: day1.window.from });
    const { response: responseA } = await runA;
    await addDelay(pageB, 'NV146_2026-11-21T07:50:00Z', 120);
    await pageB.fill('#time-limit', '10');
    const { response: responseB } = await simulateFromPage(pageB, server.baseUrl, SECOND_STAGING_KEY);
    const bestA = responseA.options.find((o) => o.option_id === responseA.best_option_id)!;
    const bestB = responseB.options.find((o) => o.option_id === responseB.best_option_id)!;
    expect(bestA).toBeDefined();
    expect(bestB).toBeDefined();

    // Ben opens his apply confirmation first: it names revision 1, the one on his screen.
    await pageB.locator(`#options [data-option-ids~="${bestB.option_id}"]`).getByText('Show on Gantt').click();
    await pageB.click('#apply-option');
    await pageB.waitForSelector('#apply-dialog[open]');
    expect(await pageB.textContent('#confirm-apply')).toBe('Apply as revision 2');

    // Anna, keyboard only: the best card's Show on Gantt, the per-aircraft diff, the passengers, apply.
    await pageA.focus('#options-title');
    await tabTo(pageA, `#options [data-option-id="${bestA.option_id}"] button[data-action="show"]`);
    await pageA.keyboard.press('Enter');
    await expect.poll(() => title(pageA)).toContain(bestA.option_id);
    await expect.poll(() => pageA.evaluate(() => document.activeElement?.id)).toBe('option-title');
    const expectedTails = changedTails(bestA, day1);
    expect(expectedTails.size, 'the option changes some aircraft').toBeGreaterThan(0);
    expect(bestA.action_set.cancellations.length + bestA.action_set.delays.length, 'the option cancels or delays flights').toBeGreaterThan(0);
    console.log(`live day: Anna's best option ${bestA.option_id}: ${bestA.action_set.cancellations.length} cancellations, ${bestA.action_set.delays.length} delays, ${bestA.action_set.swaps.length} swaps; tails ${[...expectedTails].join(', ')}`);
    await tabTo(pageA, '#tail-changes button[data-tail]');
    const firstTail = (await pageA.evaluate(() => (document.activeElement as HTMLElement).dataset.tail))!;
    expect(expectedTails.has(firstTail)).toBe(true);
    await pageA.keyboard.press('Enter');
    const shown = await focusedBar(pageA);
    expect(shown.tail === firstTail || expectedTails.has(shown.tail)).toBe(true);
    await pageA.focus('#option-title');
    await tabTo(pageA, '#option-passengers');
    await pageA.keyboard.press('Enter');
    await expect.poll(() => pageA.evaluate(() => document.activeElement?.id)).toBe('passengers-title');
    await tabTo(pageA, '#apply-option');
    await pageA.keyboard.press('Enter');
    await pageA.waitForSelector('#apply-dialog[open]');
    // The confirmation: the revision it writes on, who, the diff by aircraft, the passengers.
    expect(await pageA.evaluate(() => document.activeElement?.id)).toBe('confirm-apply');
    expect(await pageA.textContent('#apply-what')).toContain('It becomes revision 2 of the day default');
    expect(await pageA.textContent('#apply-what')).toContain('written on revision 1 (the one on screen), by Anna');
    const dialogTails = await pageA.$$eval('#apply-tails [data-tail]', (items) => items.map((i) => (i as HTMLElement).dataset.tail!));
    expect(new Set(dialogTails)).toEqual(expectedTails);
    for (const c of bestA.action_set.cancellations) {
      const tail = day1.flights.find((f) => f.id === c.flight)!.tail;
      expect(await pageA.textContent(`#apply-tails [data-tail="${tail}"]`)).toContain(`${c.flight.split('_')[0]}`);
    }
    const moved = bestA.action_set.reaccommodations.filter((r) => r.to_flights.length > 0);
    const stranded = bestA.action_set.reaccommodations.filter((r) => r.to_flights.length === 0);
    const sum = (groups: typeof moved) => groups.reduce((total, r) => total + r.passengers, 0);
    expect(await pageA.textContent('#apply-passengers')).toMatch(new RegExp(`^${sum(moved)} moved to other flights in ${moved.length} groups?; ${sum(stranded)} left without a journey \\(compensated\\) in ${stranded.length} groups?`));
    expect(await accessibilityFindings(pageA), 'apply confirmation').toEqual([]);
    await screenshot(pageA, '10-apply');
    await pageA.keyboard.press('Enter');
    await expect.poll(() => pageA.textContent('#message'), { timeout: 15_000 }).toContain('Applied: revision 2 written');
    expect(await pageA.isVisible('#apply-dialog')).toBe(false);
    await expect.poll(() => title(pageA)).toMatch(/^Live day: default, revision 2 /);

    // The service recorded it: revision 2, an apply of Anna's option, by Anna with her key.
    const { body: history2 } = await api<{ revisions: RevisionView[] }>(`/days/${dayId}/revisions`);
    const written = history2.revisions.at(-1)!;
    expect(written).toMatchObject({ number: 2, kind: 'apply', operator: 'Anna', reason: { option_id: bestA.option_id } });

    // Ben's page, not reloaded, polls: revision 2 appears, with who and what; his dialog says so.
    await expect.poll(() => pageB.textContent('#day-status'), { timeout: 15_000 }).toContain('New: revision 2 of default');
    expect(await pageB.textContent('#day-status')).toContain(`applied ${bestA.option_id}`);
    expect(await pageB.textContent('#day-status')).toContain('by Anna');
    expect(await pageB.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // It learnt of it from the first 200 to its If-None-Match "1"; every poll before was a 304.
    const changed = polls.findIndex((p) => p.status === 200);
    expect(polls[changed]).toEqual({ ifNoneMatch: '"1"', status: 200, etag: '"2"' });
    expect(polls.slice(0, changed).every((p) => p.status === 304 && p.ifNoneMatch === '"1"')).toBe(true);
    expect(await pageB.isVisible('#apply-warning')).toBe(true);
    expect(await pageB.textContent('#apply-warning')).toContain('Revision 2 was written while you decided');
    // His apply names revision 1 (what he saw): the service refuses it with 412, and he reads its sentence.
    const refused = pageB.waitForResponse((r) => r.url().endsWith(`/days/${dayId}/apply`));
    await pageB.click('#confirm-apply');
    const reply = await refused;
    expect(reply.status()).toBe(412);
    expect(reply.request().headers()['if-match']).toBe('"1"');
    const { detail } = (await reply.json()) as { detail: string };
    expect(detail).toContain('The day is at revision 2, not 1');
    await expect.poll(() => pageB.textContent('#apply-error')).toBe(detail);
    expect(await pageB.isDisabled('#confirm-apply')).toBe(true);
    expect(await accessibilityFindings(pageB), 'stale apply refused').toEqual([]);
    await pageB.click('#cancel-apply');
    const day2 = (await api<DayResponse>(`/days/${dayId}`)).body;
    expect(day2.revision).toBe(2);
    await pageB.click('#back-to-day');
    await expect.poll(() => title(pageB)).toMatch(/^Live day: default, revision 2 /);
    // Ben's Gantt draws Anna's decision where the service's revision 2 has it.
    for (const c of bestA.action_set.cancellations) {
      await pageB.fill('#find-flight', c.flight);
      await pageB.click('#find');
      const bar = await focusedBar(pageB, c.flight);
      expect(bar.kind).toBe('cancelled');
      expect(bar.tail).toBe(day2.flights.find((f) => f.id === c.flight)!.tail);
    }
    for (const d of bestA.action_set.delays) {
      const flight = day2.flights.find((f) => f.id === d.flight)!;
      await pageB.fill('#find-flight', d.flight);
      await pageB.click('#find');
      const bar = await focusedBar(pageB, d.flight);
      expect(bar.tail).toBe(flight.tail);
      expect(bar.x).toBeCloseTo(xOf(await timeScale(pageB), Date.parse(flight.estimated!.dep)), 0);
    }

    // Movement messages (a movement feed, here the test): NV146's aircraft's first flight leaves as
    // late as its next flight was planned to leave (95 minutes) and is in the air, so that its next
    // flight and its passengers' connections at VIE are late (an alert: the applied option itself
    // leaves none, it re-accommodates every booking its plan breaks); another aircraft's first flight
    // flies its whole leg on time. (An off-block after the next flight's planned departure would not
    // do: the day's estimates order a rotation by off-block, and the next flight would keep its time.)
    const firstOf = (tail: string) => day2.flights.filter((f) => f.tail === tail && f.status === 'scheduled').sort((x, y) => Date.parse(x.planned.dep) - Date.parse(y.planned.dep))[0]!;
    const rotationOf = (tail: string) => day2.flights.filter((f) => f.tail === tail && f.status === 'scheduled').sort((x, y) => Date.parse(x.planned.dep) - Date.parse(y.planned.dep));
    const late = firstOf(day2.flights.find((f) => f.id.startsWith('NV146_'))!.tail);
    const onTime = firstOf(day2.flights.find((f) => f.airline === 'BZ')!.tail);
    const minutes = (iso: string, add: number) => new Date(Date.parse(iso) + add * 60_000).toISOString().replace('.000Z', 'Z');
    const offLate = minutes(rotationOf(late.tail)[1]!.planned.dep, 0);
    const moves = await api<RevisionView>(`/days/${dayId}/movements`, {
      method: 'POST', headers: { 'X-Operator': 'movement feed' }, body: {
        now: minutes(late.scheduled.dep, 200), movements: [
          { flight: late.id, tail: late.tail, off_block: offLate, airborne: minutes(offLate, 10) },
          { flight: onTime.id, tail: onTime.tail, off_block: onTime.scheduled.dep, airborne: minutes(onTime.scheduled.dep, 10), landed: minutes(onTime.scheduled.arr, -5), on_block: onTime.scheduled.arr },
        ],
      },
    });
    expect(moves.status, JSON.stringify(moves.body)).toBe(201);
    const day3 = (await api<DayResponse>(`/days/${dayId}`)).body;
    expect(day3.revision).toBe(3);
    const alerts = (await api<AlertsView>(`/days/${dayId}/alerts`)).body;
    expect(alerts.alerts.length, 'revision 3 has alerts to show').toBeGreaterThan(0);
    for (const page of [pageA, pageB]) {
      await expect.poll(() => title(page), { timeout: 15_000 }).toMatch(/^Live day: default, revision 3 /);
      // Drawn at the actual times: the late one from its off-block (✈, still flying), the other ✓.
      await page.fill('#find-flight', late.id);
      await page.click('#find');
      const flying = await focusedBar(page, late.id);
      expect(flying.x).toBeCloseTo(xOf(await timeScale(page), Date.parse(offLate)), 0);
      expect(flying.label.startsWith('✈ ')).toBe(true);
      expect(await page.textContent('[data-field="status"]')).toBe('airborne');
      await page.fill('#find-flight', onTime.id);
      await page.click('#find');
      const flown = await focusedBar(page, onTime.id);
      const scale = await timeScale(page);
      expect(flown.x).toBeCloseTo(xOf(scale, Date.parse(onTime.scheduled.dep)), 0);
      expect(flown.x + flown.width).toBeCloseTo(xOf(scale, Date.parse(onTime.scheduled.arr)), 0);
      expect(flown.label.startsWith('✓ ')).toBe(true);
      expect(await page.textContent('[data-field="on-block"]')).toContain(new Date(Date.parse(onTime.scheduled.arr)).toISOString().slice(11, 16));
      // The alerts of revision 3, in the service's sentences, and ⚠ on the rows of the aircraft
      // whose late arrival (or crew) they are about.
      await expect.poll(() => page.$$eval('#day-alerts [data-alert]', (items) => items.map((i) => i.textContent))).toEqual(alerts.alerts.map((x) => `⚠ ${x.detail}`));
      const alerted = new Set(alerts.alerts.map((x) => day3.flights.find((f) => f.id === (x.type === 'connection' ? x.arriving_flight : x.flight))!.tail));
      const alertedTail = [...alerted][0]!;
      await page.fill('#find-flight', day3.flights.find((f) => f.tail === alertedTail)!.id);
      await page.click('#find');
      const marked = await frame(page, (f) => f.rows.tails.includes(alertedTail) && f.rows.flagged.length > 0);
      expect(marked.rows.flagged).toEqual(marked.rows.tails.filter((t) => alerted.has(t)));
      expect(marked.rows.flagged).toContain(alertedTail);
    }
    expect(await pageB.textContent('#day-alert-count')).toContain(`${alerts.alerts.length} alert`);
    // The day's now follows the feed (typed in the page's zone, UTC here): the Gantt's now line moves there.
    const feedNow = minutes(late.scheduled.dep, 200);
    await pageA.fill('#day-now', feedNow.slice(0, 16));
    await pageA.press('#day-now', 'Tab');
    expect((await frame(pageA, (f) => f.axis.now?.ms === Date.parse(feedNow))).axis.now!.px).toBeCloseTo(xOf(await timeScale(pageA), Date.parse(feedNow)), 0);
    await pageA.fill('#find-flight', late.id);
    await pageA.click('#find');
    await pageA.locator('#gantt-title').scrollIntoViewIfNeeded();
    await screenshot(pageA, '9-live-day');

    // The history: who, when, why for each revision, as the service records them; a revision's diff.
    await pageA.click('#day-history-button');
    const { body: history3 } = await api<{ revisions: RevisionView[] }>(`/days/${dayId}/revisions`);
    const items = await pageA.$$eval('#day-history [data-revision]', (lis) => lis.map((li) => ({
      n: Number((li as HTMLElement).dataset.revision), kind: (li as HTMLElement).dataset.kind, who: li.querySelector('[data-field="who"]')!.textContent, when: li.querySelector('[data-field="when"]')!.textContent,
    })));
    expect(items.map((i) => i.n)).toEqual([3, 2, 1]);
    for (const item of items) {
      const r = history3.revisions.find((x) => x.number === item.n)!;
      expect(item.kind).toBe(r.kind);
      expect(item.who).toBe(r.operator ? `by ${r.operator} (key ${r.key_id})` : `by key ${r.key_id}, no name given`);
      expect(item.when).toBe(`${r.created_at.slice(0, 10)} ${r.created_at.slice(11, 16)} UTC`);
    }
    await pageA.click('#day-history [data-diff="2"]');
    const diff = (await api<DiffView>(`/days/${dayId}/revisions/2/diff`)).body;
    await expect.poll(() => pageA.$$eval('#day-diff [data-tail]', (lis) => lis.map((li) => (li as HTMLElement).dataset.tail).sort())).toEqual(diff.tails.map((t) => t.tail).sort());
    expect(new Set(diff.tails.map((t) => t.tail))).toEqual(expectedTails);
    expect(await accessibilityFindings(pageA), 'history, diff and alerts').toEqual([]);
    await screenshot(pageA, '11-history');

    // Ben simulates his delay again, on the changed day (revision 3, at the feed's now): the option's
    // diff names only what it changes, not the delays the day already has (OE-NWP's estimates after
    // its late departure), and his apply, on the revision he sees, is written.
    await pageB.fill('#day-now', feedNow.slice(0, 16));
    await pageB.press('#day-now', 'Tab');
    const submittedB = pageB.waitForRequest((r) => r.url().endsWith('/simulations') && r.method() === 'POST');
    const rerun = simulateFromPage(pageB, server.baseUrl, SECOND_STAGING_KEY);
    expect((await submittedB).postDataJSON()).toMatchObject({ day: dayId, now: feedNow, disruptions: [{ type: 'flight_delay', flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 120 }] });
    const { response: responseB3 } = await rerun;
    const bestB3 = responseB3.options.find((o) => o.option_id === responseB3.best_option_id)!;
    expect(day3.flights.filter((f) => f.tail === late.tail && f.status === 'scheduled' && f.estimated && f.estimated.dep !== f.planned.dep).length, 'the day already has estimated delays').toBeGreaterThan(0);
    await pageB.locator(`#options [data-option-ids~="${bestB3.option_id}"]`).getByText('Show on Gantt').click();
    await expect.poll(() => title(pageB)).toContain(bestB3.option_id);
    const expectedB3 = changedTails(bestB3, day3, feedNow);
    expect(new Set(await pageB.$$eval('#tail-changes [data-tail]', (n) => n.map((x) => (x as HTMLElement).dataset.tail!)))).toEqual(expectedB3);
    await pageB.click('#apply-option');
    await pageB.waitForSelector('#apply-dialog[open]');
    expect(await pageB.textContent('#apply-what')).toContain('written on revision 3 (the one on screen), by Ben');
    expect(new Set(await pageB.$$eval('#apply-tails [data-tail]', (n) => n.map((x) => (x as HTMLElement).dataset.tail!)))).toEqual(expectedB3);
    await pageB.click('#confirm-apply');
    await expect.poll(() => pageB.textContent('#message'), { timeout: 15_000 }).toContain('Applied: revision 4 written');
    expect((await api<{ revisions: RevisionView[] }>(`/days/${dayId}/revisions`)).body.revisions.at(-1)).toMatchObject({ number: 4, kind: 'apply', operator: 'Ben', reason: { option_id: bestB3.option_id } });
    await expect.poll(() => pageA.textContent('#day-status'), { timeout: 15_000 }).toContain('New: revision 4 of default');
    expect(await pageA.textContent('#day-status')).toContain('by Ben');

    // Anna reverts to revision 1 (confirmed in place): revision 5, and Ben sees her cancellations gone.
    await pageA.click('#day-history [data-revert="1"]');
    expect(await pageA.evaluate(() => (document.activeElement as HTMLElement).dataset.confirmRevert)).toBe('1');
    expect(await pageA.textContent('#day-history [data-revision="1"] .revert-note')).toContain('as revision 5, written on revision 4?');
    expect(await accessibilityFindings(pageA), 'revert confirmation').toEqual([]);
    await pageA.click('#day-history [data-confirm-revert="1"]');
    await expect.poll(() => pageA.textContent('#message'), { timeout: 15_000 }).toContain('Reverted: revision 5 restores the plan of revision 1 (by Anna');
    const reverted = (await api<{ revisions: RevisionView[] }>(`/days/${dayId}/revisions`)).body.revisions.at(-1)!;
    expect(reverted).toMatchObject({ number: 5, kind: 'revert', operator: 'Anna', reason: { reverted_to: 1 } });
    await expect.poll(() => pageB.textContent('#day-status'), { timeout: 15_000 }).toContain('New: revision 5 of default');
    for (const c of bestA.action_set.cancellations) {
      await pageB.fill('#find-flight', c.flight);
      await pageB.click('#find');
      await expect.poll(async () => (await focusedBar(pageB, c.flight)).kind).not.toBe('cancelled');
    }
    await frame(pageB);
    expect(errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('scenario: the flight an option changes leaves while the controller decides: the page draws the new revision under the option, the confirmation names it, and the apply gets the service\'s 409 sentence', async () => {
    const { page, context } = await anna.newPage({ width: 1440, height: 900 });
    await openConsole(page, server.baseUrl);
    await enterKey(page, STAGING_KEY);
    await waitForGantt(page);
    await page.click('#live-day summary');
    await page.fill('#operator', 'Anna');
    await page.click('#new-day');
    await expect.poll(() => title(page), { timeout: 20_000 }).toMatch(/^Live day: default, revision 1 /);
    const dayId = (await api<{ days: { id: string; revision: number }[] }>('/days')).body.days.find((d) => d.revision === 1)!.id;
    const day1 = (await api<DayResponse>(`/days/${dayId}`)).body;
    const delayed = 'NV138_2026-11-21T09:05:00Z';
    await addDelay(page, delayed, 90);
    await page.fill('#time-limit', '10');
    const { response } = await simulateFromPage(page, server.baseUrl, STAGING_KEY);
    // An option that changes NV138 (cancels or retimes it).
    const option = response.options.find((o) => o.action_set.cancellations.some((c) => c.flight === delayed) || o.action_set.delays.some((d) => d.flight === delayed))!;
    expect(option, 'some option changes NV138').toBeDefined();
    await page.locator(`#options [data-option-ids~="${option.option_id}"]`).getByText('Show on Gantt').click();
    await expect.poll(() => title(page)).toContain(option.option_id);

    // The movement feed: NV138's aircraft flies its morning and NV138 leaves on time after all.
    const nv138 = day1.flights.find((f) => f.id === delayed)!;
    const before = day1.flights.filter((f) => f.tail === nv138.tail && Date.parse(f.planned.dep) < Date.parse(nv138.planned.dep));
    const feed = await api<RevisionView>(`/days/${dayId}/movements`, {
      method: 'POST', body: {
        now: new Date(Date.parse(nv138.scheduled.dep) + 5 * 60_000).toISOString().replace('.000Z', 'Z'),
        movements: [...before.map((f) => ({ flight: f.id, tail: f.tail, off_block: f.scheduled.dep, on_block: f.scheduled.arr })), { flight: nv138.id, tail: nv138.tail, off_block: nv138.scheduled.dep }],
      },
    });
    expect(feed.status, JSON.stringify(feed.body)).toBe(201);
    await expect.poll(() => page.textContent('#day-status'), { timeout: 15_000 }).toContain('New: revision 2 of default');
    // Still the option on screen, drawn against revision 2: NV138's planned bar has left (✈).
    expect(await title(page)).toContain(option.option_id);
    const drawn = await frame(page, (f) => f.labels.some((l) => l.flight === delayed && l.lane === 'before'));
    expect(drawn.rows.tails).toContain(nv138.tail);
    await page.click('#apply-option');
    await page.waitForSelector('#apply-dialog[open]');
    expect(await page.textContent('#apply-what')).toContain('written on revision 2 (the one on screen)');
    expect(await page.textContent('#apply-warning')).toContain('The options were simulated on revision 1; the day is at revision 2.');
    const refused = page.waitForResponse((r) => r.url().endsWith(`/days/${dayId}/apply`));
    await page.click('#confirm-apply');
    const reply = await refused;
    expect(reply.status()).toBe(409);
    expect(reply.request().headers()['if-match']).toBe('"2"');
    const { detail } = (await reply.json()) as { detail: string };
    expect(detail).toContain(`Flight ${delayed} has departed`);
    await expect.poll(() => page.textContent('#apply-error')).toBe(detail);
    expect(await accessibilityFindings(page), 'apply refused: the flight has departed').toEqual([]);
    // Nothing was written: the day is still at revision 2.
    expect((await api<DayResponse>(`/days/${dayId}`)).body.revision).toBe(2);

    // Leaving the day: the schedule as planned again, no banner, and the polling stops.
    await page.click('#cancel-apply');
    await page.click('#leave-day');
    await expect.poll(() => title(page)).toMatch(/^The day: default, NV /);
    expect(await page.isVisible('#day-banner')).toBe(false);
    expect(await page.isVisible('#day-panel')).toBe(false);
    let polled = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/days/')) polled++; });
    await page.waitForTimeout(5_000);
    expect(polled).toBe(0);
    await context.close();
  });
});
