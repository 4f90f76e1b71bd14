// The console's wiring: key form, schedule loading, filters and time zone, the Gantt, the disruption
// editor, running a simulation, the options, one option on the Gantt (what changes per aircraft) and
// its passengers. Every number it shows comes from an API answer (GET /snapshot, /config, /openapi.json
// and the jobs API); the page re-plans nothing.
//
// Views: the day (the schedule as planned, the disruption being built), an option (before and after
// on one axis), and the live day: an operational day's current revision (GET /days/{day_id}) drawn with
// its actual times, watched by polling with If-None-Match so that another controller's change appears
// without a reload, simulated on (a job with `day`), changed by applying an option after a
// confirmation that shows its diff (If-Match: the revision on screen) or by reverting, with its
// history and alerts under the Gantt.
import { apiKey, ApiError, explainError, getJson } from './api/api-client.ts';
import { applyOption, DayWatcher, listDays, openDay, operatorName, operatorProblem, readAlerts, readDay, readDiff, readRevisions, revertDay } from './api/days-client.ts';
import { runJob } from './api/jobs-client.ts';
import { emptyServiceInfo, readConfig, readOpenApi } from './api/service-info.ts';
import type { DayAlerts, DayResponse, RecoveryOption, SimulationResponse, SnapshotResponse } from './api/wire.ts';
import { capacityHints, clockHours, hourlyDemand } from './model/capacity.ts';
import { daySchedule, filterRows, liveDaySchedule, optionRows, wholeDay, type DaySchedule, type FlightBar, type GanttRow } from './model/gantt-model.ts';
import { changedTails, type TailChange } from './model/option-diff.ts';
import { optionPassengers, passengersJson } from './model/passengers.ts';
import { distinctPlans, proofFraction, proofSentence, strategyName } from './model/plans.ts';
import { dateTime, fromLocalInput, isoUtc, localInputValue, parseInstant, UTC_ZONE, type DisplayZone } from './model/time-axis.ts';
import { ApplyDialog } from './views/apply-dialog.ts';
import { DayHistoryView, revisionAuthor, revisionReason } from './views/day-history-view.ts';
import { DisruptionEditor } from './views/disruption-editor.ts';
import { byId, el, replaceChildren } from './views/dom.ts';
import { Gantt, barLabel, type CapacityBand, type UnavailablePeriod } from './views/gantt.ts';
import { downloadJson, money, renderOptions } from './views/options-view.ts';
import { PassengersView } from './views/passengers-view.ts';

const input = (id: string) => byId<HTMLInputElement>(id);
const select = (id: string) => byId<HTMLSelectElement>(id);
const button = (id: string) => byId<HTMLButtonElement>(id);

let day: DaySchedule | null = null;
let response: SimulationResponse | null = null;
let shownOption: RecoveryOption | null = null;
let zone: DisplayZone = UTC_ZONE;
let running: AbortController | null = null;
/** What the details panel and the tooltip show, so a new zone redraws them at once. */
let detailed: { bar: FlightBar; row: GanttRow } | null = null;
let tooltipBar: FlightBar | null = null;
const info = emptyServiceInfo();

/** How often a watched day is polled (a 304 costs the service one small database read). */
const DAY_POLL_MS = 2_000;

/** The operational day on screen, when the page watches one. */
interface LiveDay {
  id: string;
  /** The revision drawn (the latest the page has seen). */
  current: DayResponse;
  /** The snapshots of every airline of the day's schedule (aircraft, checks, seats, crews). */
  snapshots: SnapshotResponse[];
  watcher: DayWatcher;
}
let live: LiveDay | null = null;
/** Where the options on screen come from when they were simulated on a live day: the job is the simulation_id of apply. */
let liveSimulation: { dayId: string; revision: number; jobId: string } | null = null;
/** The alerts last read for the watched day (its rows are marked ⚠ when they are of the revision drawn). */
let dayAlerts: DayAlerts | null = null;

const gantt = new Gantt(byId('gantt-scroll'), byId<HTMLCanvasElement>('gantt'), byId('gantt-spacer'), {
  onFlightActivate: (bar, row) => { if (!shownOption) editor.editFlight(bar, row); else highlightAction(bar.flight); },
  onRowActivate: (row, atMs) => { if (!shownOption) editor.editAircraft(row, atMs); },
  onFocusChange: (bar, row, hovered) => { showDetails(bar, row); showTooltip(hovered ? bar : null); },
// On a live day the "now" line is the day's now (a replay of a past day sets it within the day).
}, () => (live && !Number.isNaN(dayNowMs()) ? dayNowMs() : Date.now()));

const editor = new DisruptionEditor(byId('editor-form'), byId('disruption-list'), {
  zone: () => zone,
  info,
  demand: (airport, fromMs, toMs) => (day ? hourlyDemand(day.rows, airlineAt(airport), airport, clockHours(fromMs, toMs)) : []),
}, (entries) => {
  button('simulate').disabled = entries.length === 0 || running !== null || day === null;
  if (day && !shownOption) {
    gantt.setDisruptionTime(editor.earliestEffect((flight) => day!.flightsById.get(flight)?.flight.depMs));
    drawDisruptions();
  }
});

const passengersView = new PassengersView(byId('passengers'), () => zone);

// --- messages ---------------------------------------------------------------------------------------

function showMessage(text: string, kind: 'error' | 'info', retryAction: (() => void) | null = null): void {
  const box = byId('message');
  const children: (Node | string)[] = [text];
  if (retryAction) {
    const again = el('button', { type: 'button', id: 'retry' }, 'Retry');
    again.addEventListener('click', () => { box.hidden = true; retryAction(); });
    children.push(' ', again);
  }
  replaceChildren(box, ...children);
  box.className = `message ${kind}`;
  box.hidden = false;
}

function clearMessage(): void {
  byId('message').hidden = true;
}

function showFailure(error: unknown, again: () => void): void {
  const { text, retryAfterSeconds } = explainError(error);
  showMessage(text, 'error', retryAfterSeconds !== null ? again : null);
  // A key the service refuses is no key: forget it and say so beside the field.
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    apiKey.forget();
    renderKeyState(`Key refused by the service (${error.status}): enter another key.`);
    input('api-key').focus();
  }
}

// --- key --------------------------------------------------------------------------------------------

function renderKeyState(refused: string | null = null): void {
  const has = apiKey.get() !== null;
  const state = byId('key-state');
  state.textContent = refused ?? (has ? 'Key set for this tab.' : 'No key yet.');
  state.className = refused ? 'refused' : '';
  button('forget-key').disabled = !has;
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = input('api-key');
  if (field.value.trim() === '') return;
  apiKey.set(field.value.trim());
  field.value = '';
  renderKeyState();
  renderDayButtons();
  if (byId<HTMLDetailsElement>('live-day-details').open) void refreshDayList();
  void loadSchedule().then(() => { if (day) byId('gantt').focus(); });
});

button('forget-key').addEventListener('click', () => {
  apiKey.forget();
  running?.abort();
  clearDay();
  renderKeyState();
  renderDayButtons();
  input('api-key').focus();
});

/** Nothing of the service stays on screen without a key: the day, the options, the passengers. */
function clearDay(): void {
  stopWatching();
  day = null;
  response = null;
  leaveOption();
  editor.clear();
  clearMessage();
  byId('options').hidden = true;
  replaceChildren(byId('options'));
  byId('schedule-note').hidden = true;
  byId('gantt-title').textContent = 'The day';
  replaceChildren(byId('details-body'), el('p', {}, 'Hover or focus a flight.'));
  detailed = null;
  byId('run').hidden = true;
  gantt.setDisruptions([], []);
  gantt.setDisruptionTime(null);
  gantt.setRows([], false, [0, 1]);
  byId('row-count').textContent = 'No schedule loaded.';
  layoutChanged();
}

// --- schedule ---------------------------------------------------------------------------------------

async function loadSchedule(): Promise<void> {
  clearMessage();
  stopWatching();
  const scheduleFile = input('schedule-file').value.trim();
  const airlines = input('airlines').value.split(',').map((a) => a.trim().toUpperCase()).filter((a) => a !== '');
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark('schedule-requested');
  try {
    const [snapshots] = await Promise.all([
      Promise.all((airlines.length ? airlines : ['']).map((airline) => {
        const query = new URLSearchParams();
        if (scheduleFile) query.set('schedule_file', scheduleFile);
        if (airline) query.set('airline', airline);
        return getJson<SnapshotResponse>(`snapshot${query.size ? `?${query}` : ''}`);
      })),
      readConfig(info),
    ]);
    performance.mark('schedule-received');
    day = daySchedule(snapshots);
    response = null;
    leaveOption();
    editor.clear();
    byId('options').hidden = true;
    byId('run').hidden = true;
    fillFilters(day);
    byId('gantt-title').textContent = dayTitle();
    noteOtherAirlines(day);
    redraw();
    gantt.resetZoom();
    gantt.scrollToTop();
    gantt.onDraw = firstPaint;
    layoutChanged();
  } catch (error) {
    showFailure(error, () => void loadSchedule());
  }
}

/** The Gantt's title in the day view: the schedule as planned, or the live day's revision. */
function dayTitle(): string {
  if (!day) return 'The day';
  const size = `(${day.rows.length} aircraft, ${day.flightsById.size} flights)`;
  return live ? `Live day: ${day.scheduleFile}, revision ${live.current.revision} ${size}` : `The day: ${day.scheduleFile}, ${day.airlines.join(', ')} ${size}`;
}

/** A blank Airlines field loads the default airline only: say which other airlines the schedule has. */
function noteOtherAirlines(schedule: DaySchedule): void {
  const others = schedule.scheduleAirlines.filter((a) => !schedule.airlines.includes(a));
  const note = byId('schedule-note');
  note.hidden = others.length === 0;
  note.textContent = others.length
    ? `Showing ${schedule.airlines.join(', ')} only: this schedule also has ${others.join(', ')}. Enter ${[...schedule.airlines, ...others].join(',')} under Airlines and Load to see ${others.length === 1 ? 'it' : 'them'}.`
    : '';
}

/** Measures request-to-first-frame of a loaded schedule once (read by the browser test, shown nowhere). */
function firstPaint(): void {
  gantt.onDraw = exposeGeometry;
  performance.mark('gantt-first-paint');
  performance.measure('schedule-to-first-paint', 'schedule-requested', 'gantt-first-paint');
  performance.measure('data-to-first-paint', 'schedule-received', 'gantt-first-paint');
  exposeGeometry();
}

function fillOptions(id: string, values: Iterable<string>, first: [string, string]): void {
  const list = select(id);
  const previous = list.value;
  replaceChildren(list, el('option', { value: first[0] }, first[1]), ...[...new Set(values)].sort().map((v) => el('option', { value: v }, v)));
  list.value = [...list.options].some((o) => o.value === previous) ? previous : first[0];
}

function fillFilters(schedule: DaySchedule): void {
  fillOptions('filter-fleet', schedule.rows.map((r) => r.fleet), ['', 'all']);
  fillOptions('filter-base', schedule.rows.map((r) => r.base), ['', 'all']);
  fillOptions('filter-airport', schedule.airportOffsets.keys(), ['', 'all']);
  fillOptions('zone', schedule.airportOffsets.keys(), ['UTC', 'UTC']);
  updateZone();
}

/** The airline whose movements a cap at `airport` counts: the simulated one, else the first loaded that flies there. */
function airlineAt(airport: string): string {
  if (response) return response.airline;
  const row = day?.rows.find((r) => r.before.some((b) => b.origin === airport || b.dest === airport));
  return row?.airline ?? day?.airlines[0] ?? '';
}

/** Every row of the current view (an option's rows laid under the day's, or the day's). */
function viewRows(): GanttRow[] {
  if (!day) return [];
  return response && shownOption ? optionRows(day, response, shownOption) : day.rows;
}

/** An option's changed aircraft in the order the Gantt and the summary list show them: the response's scope order. */
function changesInOrder(all: GanttRow[], result: SimulationResponse): TailChange[] {
  const order = new Map(result.scope.aircraft.map((tail, i) => [tail, i]));
  return changedTails(all).sort((a, b) => (order.get(a.tail) ?? Infinity) - (order.get(b.tail) ?? Infinity));
}

function currentRows(all: GanttRow[]): GanttRow[] {
  let rows = all;
  if (response && shownOption) {
    // The changed aircraft first (in the summary list's order), then the others.
    const changed = new Map(changesInOrder(all, response).map((c, i) => [c.tail, i]));
    if (input('changed-only').checked) rows = rows.filter((r) => changed.has(r.tail));
    const order = new Map(response.scope.aircraft.map((tail, i) => [tail, i]));
    const rank = (r: GanttRow) => changed.get(r.tail) ?? 1e6 + (order.get(r.tail) ?? 1e5);
    rows = [...rows].sort((a, b) => rank(a) - rank(b));
  }
  return filterRows(rows, { fleet: select('filter-fleet').value, base: select('filter-base').value, airport: select('filter-airport').value });
}

function redraw(): void {
  if (!day) return;
  const all = viewRows();
  const rows = currentRows(all);
  const changedOnly = shownOption !== null && input('changed-only').checked;
  byId('row-count').textContent = changedOnly
    ? `Showing the ${rows.length} changed aircraft of ${day.rows.length} (untick "Changed aircraft only" to see every aircraft).`
    : `Showing ${rows.length} of ${day.rows.length} aircraft.`;
  gantt.setRows(rows, shownOption !== null, wholeDay(all, [day.startMs, day.endMs]));
  drawDisruptions(all);
}

/** The disruptions on the Gantt: those being built in the day view, the response's in an option's. */
function drawDisruptions(all: GanttRow[] = viewRows()): void {
  if (!day) return;
  const disruptions = response && shownOption ? response.disruptions : editor.disruptions;
  const unavailable: UnavailablePeriod[] = [];
  const bands: CapacityBand[] = [];
  for (const d of disruptions) {
    if (d.type === 'aircraft_unavailable') unavailable.push({ tail: d.tail, startMs: parseInstant(d.from), endMs: parseInstant(d.to) });
    if (d.type === 'airport_capacity') {
      const hours = clockHours(parseInstant(d.from), parseInstant(d.to));
      bands.push({
        airport: d.airport,
        hours: hourlyDemand(all, airlineAt(d.airport), d.airport, hours).map((h) => ({ ...h, maxDepartures: d.max_departures_per_hour, maxArrivals: d.max_arrivals_per_hour })),
      });
    }
  }
  gantt.setDisruptions(unavailable, bands);
}

function updateZone(): void {
  const label = select('zone').value;
  zone = label === 'UTC' || !day ? UTC_ZONE : { label, offsetMinutes: day.airportOffsets.get(label) ?? 0 };
  gantt.setZone(zone);
  // Everything that writes a time follows at once: the details, the tooltip, the editor, the lists.
  if (detailed) showDetails(detailed.bar, detailed.row);
  if (tooltipBar) showTooltip(tooltipBar);
  editor.refresh();
  passengersView.refresh();
  if (live) { renderDayNow(); void refreshHistory(); }
  if (shownOption) renderOptionPanel(shownOption);
}

byId<HTMLFormElement>('schedule-form').addEventListener('submit', (event) => { event.preventDefault(); void loadSchedule(); });
for (const id of ['filter-fleet', 'filter-base']) select(id).addEventListener('change', redraw);
select('filter-airport').addEventListener('change', () => { button('cap-airport').disabled = select('filter-airport').value === '' || shownOption !== null; redraw(); });
select('zone').addEventListener('change', updateZone);
button('cap-airport').addEventListener('click', () => {
  const airport = select('filter-airport').value;
  if (airport && day) editor.editAirport(airport, editor.earliestEffect(() => undefined) ?? day.startMs + 4 * 3_600_000);
});
function findFlight(): void {
  const wanted = input('find-flight').value.trim().toUpperCase();
  if (!day || wanted === '') return;
  const match = [...day.flightsById.keys()].find((id) => id.toUpperCase() === wanted || id.toUpperCase().startsWith(`${wanted}_`));
  if (!match) {
    showMessage(`No flight ${wanted} in the loaded schedule.`, 'info');
    return;
  }
  clearMessage();
  gantt.reveal(match);
  byId('gantt').focus();
}
button('find').addEventListener('click', findFlight);
input('find-flight').addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); findFlight(); } });
button('zoom-in').addEventListener('click', () => gantt.zoomBy(1.5));
button('zoom-out').addEventListener('click', () => gantt.zoomBy(1 / 1.5));
button('zoom-reset').addEventListener('click', () => gantt.resetZoom());

// --- details ----------------------------------------------------------------------------------------

function showDetails(bar: FlightBar | null, row: GanttRow | null): void {
  const body = byId('details-body');
  if (!bar || !row) return;
  detailed = { bar, row };
  const status = bar.kind === 'planned' ? 'as planned' : barLabel(bar);
  replaceChildren(body, el('dl', { class: 'details' },
    el('dt', {}, 'Flight'), el('dd', { 'data-field': 'flight' }, bar.flight),
    el('dt', {}, 'Route'), el('dd', { 'data-field': 'route' }, `${bar.origin} → ${bar.dest}`),
    el('dt', {}, 'Departs'), el('dd', { 'data-field': 'dep' }, dateTime(bar.depMs, zone)),
    el('dt', {}, 'Arrives'), el('dd', { 'data-field': 'arr' }, dateTime(bar.arrMs, zone)),
    el('dt', {}, 'Aircraft'), el('dd', {}, `${row.tail} (${row.fleet})`),
    el('dt', {}, 'Passengers'), el('dd', { 'data-field': 'passengers' }, bar.passengers === null ? 'unknown' : String(bar.passengers)),
    el('dt', {}, 'Crew'), el('dd', { 'data-field': 'crew' }, bar.crew.join(', ') || 'none listed'),
    el('dt', {}, 'State'), el('dd', {}, status),
    ...(row.flags.length ? [el('dt', {}, 'Flags'), el('dd', { 'data-field': 'flags' }, row.flags.map((f) => `⚠ ${f}`).join(' '))] : []),
    ...(bar.live ? liveDetails(bar.live, bar) : [])));
}

/** A live day's flight: its status, the schedule's times and the actual times reported. */
function liveDetails(times: NonNullable<FlightBar['live']>, bar: FlightBar): HTMLElement[] {
  const at = (ms: number | null) => (ms === null ? 'not reported' : dateTime(ms, zone));
  return [
    el('dt', {}, 'Status on the day'), el('dd', { 'data-field': 'status' }, times.status),
    el('dt', {}, 'Scheduled'), el('dd', { 'data-field': 'scheduled' }, `${dateTime(times.scheduledDepMs, zone)} – ${dateTime(times.scheduledArrMs, zone).slice(11)}`),
    el('dt', {}, 'Drawn at'), el('dd', { 'data-field': 'drawn' }, `${times.offBlockMs === null ? 'estimated' : 'actual'} ${dateTime(bar.depMs, zone).slice(11)} – ${times.onBlockMs === null ? 'estimated' : 'actual'} ${dateTime(bar.arrMs, zone).slice(11)}`),
    el('dt', {}, 'Off block'), el('dd', { 'data-field': 'off-block' }, at(times.offBlockMs)),
    el('dt', {}, 'Airborne'), el('dd', { 'data-field': 'airborne' }, at(times.airborneMs)),
    el('dt', {}, 'Landed'), el('dd', { 'data-field': 'landed' }, at(times.landedMs)),
    el('dt', {}, 'On block'), el('dd', { 'data-field': 'on-block' }, at(times.onBlockMs)),
  ];
}

/** A short line beside the pointer (the details panel says it all, for every way of pointing). */
function showTooltip(bar: FlightBar | null): void {
  const tip = byId('tooltip');
  tooltipBar = bar;
  tip.hidden = bar === null;
  if (bar) tip.textContent = `${barLabel(bar)} · ${dateTimeShort(bar.depMs)}–${dateTimeShort(bar.arrMs)} ${zone.label} · ${bar.passengers ?? '?'} pax`;
}

const dateTimeShort = (ms: number) => dateTime(ms, zone).slice(11, 16);

byId('gantt').addEventListener('mousemove', (event) => {
  const tip = byId('tooltip');
  const panel = byId('gantt-scroll').getBoundingClientRect();
  // Beside the pointer, on its left near the right edge so that it stays inside the Gantt.
  const x = event.clientX - panel.left;
  // A transform moves it without a layout of the page (this runs on every pointer move).
  tip.style.transform = `translate(${x > panel.width - tip.offsetWidth - 24 ? x - tip.offsetWidth - 10 : x + 14}px, ${event.clientY - byId('gantt-frame').getBoundingClientRect().top + 14}px)`;
});

// --- running ----------------------------------------------------------------------------------------

function airlineOf(): string | undefined {
  const first = editor.disruptions[0];
  if (!first || !day) return undefined;
  if ('flight' in first) return day.flightsById.get(first.flight)?.airline;
  if (first.type === 'aircraft_unavailable') return day.rows.find((r) => r.tail === first.tail)?.airline;
  return day.airlines.length === 1 ? day.airlines[0] : airlineAt(first.airport);
}

/** The time limit field in milliseconds, or a sentence refusing it (the service's bounds). */
function timeLimitMs(): number | null | string {
  const text = input('time-limit').value.trim();
  if (text === '') return null;
  const ms = Math.round(Number(text) * 1000);
  const { min, max } = info.timeLimitMs;
  if (!Number.isFinite(ms) || (min !== null && ms < min) || (max !== null && ms > max)) {
    return `The time limit must be from ${(min ?? 0) / 1000} to ${max === null ? 'any number of' : max / 1000} seconds (the service's limit).`;
  }
  return ms;
}

async function simulate(): Promise<void> {
  if (!day || running) return;
  clearMessage();
  const limit = timeLimitMs();
  if (typeof limit === 'string') { showMessage(limit, 'error'); input('time-limit').focus(); return; }
  const nowMs = live ? dayNowMs() : null;
  if (nowMs !== null && Number.isNaN(nowMs)) { showMessage('Enter the day\'s "now" (a date and a time) for the simulation.', 'error'); input('day-now').focus(); return; }
  const onDay = live ? { dayId: live.id, revision: live.current.revision } : null;
  const controller = new AbortController();
  running = controller;
  byId('run').hidden = false;
  button('simulate').disabled = true;
  button('cancel-run').hidden = false;
  const progress = byId<HTMLProgressElement>('progress');
  progress.removeAttribute('value');
  byId('progress-label').textContent = 'Solving: proof of the best plan so far';
  const status = byId('run-status');
  status.textContent = 'Submitted as a job…';
  const started = performance.now();
  const body = {
    scenario_id: `console-${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`,
    disruptions: [...editor.disruptions],
    // On a live day: solved on its current revision at the day's now (the day names its schedule).
    ...(onDay ? { day: onDay.dayId, now: isoUtc(nowMs!) } : day.scheduleFile ? { schedule_file: day.scheduleFile } : {}),
    ...(airlineOf() ? { airline: airlineOf()! } : {}),
    // A longer limit lets every strategy finish on a busy service; the service bounds it (400 beyond).
    ...(limit !== null ? { config: { solver: { time_limit_ms: limit } } } : {}),
  };
  try {
    const outcome = await runJob(body, ({ status: jobStatus, progress: p }) => {
      const seconds = ((p?.elapsed_ms ?? performance.now() - started) / 1000).toFixed(1);
      if (p?.mip_gap !== null && p?.mip_gap !== undefined) progress.value = Math.max(0, 1 - Math.min(1, p.mip_gap));
      status.textContent = `${jobStatus}${p?.phase ? `, ${p.phase.replace(/_/g, ' ')}` : ''}, ${seconds} s${p?.best_cost !== null && p?.best_cost !== undefined ? `, best cost so far ${money(p.best_cost, info.currency)}` : ''}`;
    }, controller.signal);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome.status === 'succeeded') status.textContent = `Finished in ${seconds} s. ${runSummary(outcome.result)}`;
    else {
      status.textContent = outcome.result
        ? `Cancelled after ${seconds} s: the best plans found so far. ${runSummary(outcome.result)}`
        : `Cancelled after ${seconds} s, before any plan was found.`;
    }
    // The bar ends at what is proven about the best plan, not at "done": full only when it is optimal.
    const best = outcome.result?.options.find((o) => o.option_id === outcome.result?.best_option_id);
    byId('progress-label').textContent = 'Proof of the best plan';
    progress.value = best ? proofFraction(best) : 0;
    liveSimulation = onDay && live?.id === onDay.dayId ? { ...onDay, jobId: outcome.jobId } : null;
    if (outcome.result) showResponse(outcome.result);
  } catch (error) {
    progress.value = 0;
    status.textContent = 'Failed.';
    showFailure(error, () => void simulate());
  } finally {
    running = null;
    button('cancel-run').hidden = true;
    button('simulate').disabled = editor.disruptions.length === 0 || day === null;
  }
}

/** `4 strategies, 2 distinct plans. Best (cancellation = integrated): proven optimal…` */
function runSummary(result: SimulationResponse): string {
  const plans = distinctPlans(result);
  const best = plans.find((p) => p.option.option_id === result.best_option_id);
  const counts = `${result.options.length} ${result.options.length === 1 ? 'strategy' : 'strategies'} with a plan, ${plans.length} distinct.`;
  if (!best) return `${counts} No strategy found a plan.`;
  return `${counts} Best (${best.options.map((o) => strategyName(o.strategy)).join(' = ')}): ${proofSentence(best.option)}`;
}

button('simulate').addEventListener('click', () => void simulate());
button('cancel-run').addEventListener('click', () => running?.abort());
button('clear-disruptions').addEventListener('click', () => editor.clear());

// --- options ----------------------------------------------------------------------------------------

function showResponse(result: SimulationResponse): void {
  response = result;
  const section = byId('options');
  section.hidden = false;
  renderOptions(section, result, info, day ? capacityHints(day.rows, result) : [], {
    onShow: (option) => showOption(option),
    onPassengers: (option) => { showOption(option); passengersView.focus(); byId('passengers').scrollIntoView({ block: 'start' }); },
    onExport: (option) => exportOption(result, option),
  });
  layoutChanged();
  byId('options-title').focus();
}

function showOption(option: RecoveryOption): void {
  if (!response || !day) return;
  shownOption = option;
  byId('option-panel').hidden = false;
  byId('editor').hidden = true;
  button('cap-airport').disabled = true;
  const plan = distinctPlans(response).find((p) => p.options.includes(option));
  const names = (plan?.options ?? [option]).map((o) => strategyName(o.strategy)).join(' = ');
  byId('option-title').textContent = `Option ${option.rank}: ${names}${option.option_id === response.best_option_id ? ' (best)' : ''}`;
  byId('gantt-title').textContent = `Option ${option.option_id} on the day: before (faded) and after on the same axis`;
  for (const card of document.querySelectorAll<HTMLElement>('#options [data-option-id]')) card.classList.toggle('shown', (card.dataset.optionIds ?? '').split(' ').includes(option.option_id));
  renderOptionPanel(option);
  button('apply-option').hidden = !(live && liveSimulation && liveSimulation.dayId === live.id);
  passengersView.show(`option ${option.rank} (${names})`, optionPassengers(day, option));
  gantt.setHighlighted([]);
  gantt.setDisruptionTime(parseInstant(response.disruption.disruption_time));
  redraw();
  // A new view starts at its top: the changed aircraft, not where the day was scrolled.
  gantt.scrollToTop();
  layoutChanged();
  byId('option-title').focus();
}

function renderOptionPanel(option: RecoveryOption): void {
  if (!day || !response) return;
  const changes = changesInOrder(optionRows(day, response, option), response);
  replaceChildren(byId('tail-changes'), ...(changes.length ? changes.map((change) => {
    const b = el('button', { type: 'button', class: 'action', 'data-tail': change.tail }, el('strong', {}, change.tail), `: ${change.summary}`);
    b.addEventListener('click', () => { if (change.flights[0]) highlightAction(change.flights[0]); });
    return el('li', {}, b);
  }) : [el('li', {}, 'No aircraft changes: the schedule flies as planned.')]));
  byId('tail-changes-title').textContent = `What changes, by aircraft (${changes.length})`;
  button('option-passengers').textContent = `Passengers (${option.summary.passengers_disrupted})`;
  renderActions(option);
}

/** The options on screen (and the disruption they answered) are gone: a day was opened, or an option of it applied. */
function dropOptions(): void {
  response = null;
  liveSimulation = null;
  leaveOption();
  editor.clear();
  byId('options').hidden = true;
  byId('run').hidden = true;
}

function leaveOption(): void {
  shownOption = null;
  byId('option-panel').hidden = true;
  byId('editor').hidden = false;
  passengersView.hide();
  gantt.setHighlighted([]);
  for (const card of document.querySelectorAll<HTMLElement>('#options [data-option-id]')) card.classList.remove('shown');
}

function actionItem(action: string, flight: string, text: string): HTMLElement {
  const b = el('button', { type: 'button', class: 'action', 'data-action': action, 'data-flight': flight, 'aria-pressed': 'false' }, text);
  b.addEventListener('click', () => highlightAction(flight));
  return el('li', {}, b);
}

function renderActions(option: RecoveryOption): void {
  const a = option.action_set;
  const items = [
    ...a.delays.map((d) => actionItem('delay', d.flight, `Delay ${d.flight} by ${d.delay_minutes} min on ${d.tail}`)),
    ...a.swaps.map((s) => actionItem('swap', s.flight, `Swap ${s.flight} from ${s.from_tail} to ${s.to_tail}`)),
    ...a.cancellations.map((c) => actionItem('cancellation', c.flight, `Cancel ${c.flight} (${c.passengers} passengers)`)),
    ...a.new_flights.map((n) => actionItem('new_flight', `${n.origin}-${n.dest} ferry`, `Ferry ${n.tail} ${n.origin} → ${n.dest}`)),
  ];
  replaceChildren(byId('action-list'), ...(items.length ? items : [el('li', {}, 'No action: the schedule flies as planned.')]));
  const flags = [
    ...option.violations.map((v) => el('li', { 'data-flag': v.type }, `⚠ ${v.detail}`)),
    ...option.aircraft_out_of_position.map((o) => el('li', { 'data-flag': 'aircraft_out_of_position' }, `⚠ ${o.tail} ends at ${o.ends_at}, needed at ${o.required_at}.`)),
  ];
  replaceChildren(byId('flag-list'), ...(flags.length ? flags : [el('li', {}, 'No violation; every aircraft ends where the next day needs it.')]));
}

function highlightAction(flight: string): void {
  for (const b of document.querySelectorAll<HTMLElement>('#action-list [data-flight]')) b.setAttribute('aria-pressed', String(b.dataset.flight === flight));
  gantt.setHighlighted([flight]);
  gantt.reveal(flight);
}

function exportOption(result: SimulationResponse, option: RecoveryOption): void {
  if (!day) return;
  const plan = distinctPlans(result).find((p) => p.options.includes(option));
  downloadJson(`${result.scenario_id}-${option.option_id}.json`, {
    scenario_id: result.scenario_id, schedule_file: result.schedule_file, disruptions: result.disruptions,
    cost_currency: info.currency,
    same_plan_as: (plan?.options ?? []).filter((o) => o !== option).map((o) => o.option_id),
    option,
    passengers: passengersJson(optionPassengers(day, option)),
  });
}

/** After each frame: where each action's bars are and the time scale, as data attributes (tests read them). */
function exposeGeometry(): void {
  const canvas = byId('gantt');
  const scale = gantt.scaleInfo();
  canvas.dataset.domainStartMs = String(scale.domainStartMs);
  canvas.dataset.domainEndMs = String(scale.domainEndMs);
  canvas.dataset.rangeStart = String(scale.rangeStart);
  canvas.dataset.rangeEnd = String(scale.rangeEnd);
  const focused = gantt.focusedGeometry();
  canvas.dataset.focused = focused ? JSON.stringify(focused) : '';
  if (!shownOption) return;
  for (const item of document.querySelectorAll<HTMLElement>('#action-list [data-flight]')) item.dataset.geometry = JSON.stringify(gantt.geometry(item.dataset.flight!));
}

/** The Gantt's height leaves room for the options above it: they stay in view after a run. */
function layoutChanged(): void {
  const options = byId('options');
  document.documentElement.style.setProperty('--options-height', `${options.hidden ? 0 : options.offsetHeight}px`);
}
new ResizeObserver(layoutChanged).observe(byId('options'));

input('changed-only').addEventListener('change', () => { redraw(); gantt.scrollToTop(); });
button('back-to-day').addEventListener('click', () => {
  leaveOption();
  byId('gantt-title').textContent = dayTitle();
  redraw();
  gantt.setDisruptionTime(editor.earliestEffect((flight) => day?.flightsById.get(flight)?.flight.depMs));
  layoutChanged();
});
button('export-option').addEventListener('click', () => { if (response && shownOption) exportOption(response, shownOption); });
button('option-passengers').addEventListener('click', () => { passengersView.focus(); byId('passengers').scrollIntoView({ block: 'start' }); });

// --- the live day -----------------------------------------------------------------------------------

const historyView = new DayHistoryView(() => zone, {
  onDiff: (revision) => void showDiff(revision),
  onRevert: (revision) => void revert(revision),
  onFlight: (flight) => { gantt.reveal(flight); byId('gantt').focus(); },
});
const applyDialog = new ApplyDialog();
/** The day's "now" for simulations (epoch ms; NaN while the field holds no time). */
let dayNow = Number.NaN;

const dayNowMs = () => dayNow;

function renderDayNow(): void {
  byId('day-now-label').textContent = `Now, for simulations (${zone.label} time)`;
  input('day-now').value = Number.isNaN(dayNow) ? '' : localInputValue(dayNow, zone);
}
// (setZone with the same zone redraws the Gantt, whose now line is the day's now.)
input('day-now').addEventListener('change', () => { dayNow = fromLocalInput(input('day-now').value, zone); gantt.setZone(zone); });

input('operator').value = operatorName.get();
input('operator').addEventListener('input', () => {
  const name = input('operator').value.trim();
  const problem = operatorProblem(name);
  const box = byId('operator-error');
  box.hidden = problem === null;
  box.textContent = problem ?? '';
  input('operator').setAttribute('aria-invalid', String(problem !== null));
  if (problem === null) operatorName.set(name);
});

/** The day buttons work with a key only (every /days route needs one). */
function renderDayButtons(): void {
  const has = apiKey.get() !== null;
  for (const id of ['watch-day', 'refresh-days', 'new-day']) button(id).disabled = !has;
  if (!has) replaceChildren(select('day-select'), el('option', { value: '' }, '(enter the key to list them)'));
}

/** Lists the environment's days, newest first, and selects `selected` (or keeps the selection). */
async function refreshDayList(selected?: string): Promise<void> {
  const list = select('day-select');
  const keep = selected ?? list.value;
  try {
    const { days } = await listDays();
    replaceChildren(list, ...(days.length
      ? days.map((d) => el('option', { value: d.id }, `${d.schedule_file}, revision ${d.revision}, opened ${dateTime(parseInstant(d.created_at), zone)} (${d.id.slice(0, 8)})`))
      : [el('option', { value: '' }, 'No day yet: open a new one')]));
    if (days.some((d) => d.id === keep)) list.value = keep;
    button('watch-day').disabled = days.length === 0;
    byId('day-list-state').hidden = true;
  } catch (error) {
    // Said here, not in the page's message: the schedule as planned works without the days (and a
    // refused key is said by the schedule's own request).
    const state = byId('day-list-state');
    state.hidden = false;
    state.textContent = `The days could not be listed: ${explainError(error).text}`;
  }
}

/** The snapshots of every airline of a schedule (the day's aircraft, their checks, seats and crews). */
async function snapshotsOf(scheduleFile: string): Promise<SnapshotResponse[]> {
  const path = (airline: string | null) => `snapshot?${new URLSearchParams({ schedule_file: scheduleFile, ...(airline ? { airline } : {}) })}`;
  const first = await getJson<SnapshotResponse>(path(null));
  const others = await Promise.all(first.schedule_airlines.filter((a) => a !== first.airline).map((a) => getJson<SnapshotResponse>(path(a))));
  return [first, ...others];
}

async function watchDay(id: string): Promise<void> {
  clearMessage();
  stopWatching();
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark('schedule-requested');
  try {
    const [current] = await Promise.all([readDay(id, null), readConfig(info)]);
    const snapshots = await snapshotsOf(current!.schedule_file);
    performance.mark('schedule-received');
    live = { id, current: current!, snapshots, watcher: new DayWatcher(id, current!.revision, DAY_POLL_MS, onNewRevision, onWatchError) };
    dropOptions();
    byId('schedule-note').hidden = true;
    // A replay of a past day starts at the day's first departure; a day under way at the clock.
    const [fromMs, toMs] = [parseInstant(current!.window.from), parseInstant(current!.window.to)];
    dayNow = Date.now() >= fromMs && Date.now() < toMs ? Math.floor(Date.now() / 60_000) * 60_000 : fromMs;
    showRevision(current!);
    fillFilters(day!);
    byId('day-picker').hidden = true;
    byId<HTMLDetailsElement>('live-day-details').open = true;
    byId('day-state').hidden = false;
    byId('day-banner').hidden = false;
    byId('day-panel').hidden = false;
    renderDayNow();
    gantt.resetZoom();
    gantt.scrollToTop();
    // Request to first frame, measured as for the schedule as planned (read by the large-schedule test).
    gantt.onDraw = firstPaint;
    layoutChanged();
    await refreshHistory();
  } catch (error) {
    showFailure(error, () => void watchDay(id));
  }
}

/** Draws a revision of the watched day (in the day view, or under the option on screen). */
function showRevision(revision: DayResponse): void {
  if (!live) return;
  live.current = revision;
  live.watcher.seen(revision.revision);
  day = liveDaySchedule(live.snapshots, revision);
  flagAlerts();
  if (!shownOption) byId('gantt-title').textContent = dayTitle();
  // An option on screen is now drawn against this revision: its per-aircraft summary follows.
  else renderOptionPanel(shownOption);
  redraw();
  if (!shownOption) gantt.setDisruptionTime(editor.earliestEffect((flight) => day?.flightsById.get(flight)?.flight.depMs));
}

/** Another controller (or a movement feed) wrote a revision: draw it, and say who did what. */
function onNewRevision(revision: DayResponse): void {
  if (!live || revision.revision <= live.current.revision) return;
  const seen = live.current.revision;
  showRevision(revision);
  void refreshHistory(seen);
}

function onWatchError(error: unknown): void {
  // A lost connection or a busy service is retried at the next poll; a refused key or a day gone
  // (another environment's, or deleted) is said once and the watching stops.
  if (!(error instanceof ApiError) || error.status === 429 || error.status >= 500) return;
  live?.watcher.stop();
  showFailure(error, () => undefined);
}

/**
 * Marks the watched day's rows with the alerts of the revision drawn (⚠ on the aircraft of the late
 * arrival that breaks a connection, or of the flight whose crew runs past its duty limit); true when
 * it did. Alerts of another revision mark nothing (the next read brings the right ones).
 */
function flagAlerts(): boolean {
  if (!live || !day || !dayAlerts || dayAlerts.revision !== live.current.revision) return false;
  const byTail = new Map<string, string[]>();
  for (const alert of dayAlerts.alerts) {
    const tail = day.flightsById.get(alert.type === 'connection' ? alert.arriving_flight : alert.flight)?.tail;
    if (tail) byTail.set(tail, [...(byTail.get(tail) ?? []), alert.detail]);
  }
  for (const row of day.rows) row.flags = byTail.get(row.tail) ?? [];
  return true;
}

/** Reads the history and the alerts; `seenBefore`: the revision the page showed before a new one arrived. */
async function refreshHistory(seenBefore?: number): Promise<void> {
  if (!live) return;
  const id = live.id;
  try {
    const [{ revisions }, alerts] = await Promise.all([readRevisions(id), readAlerts(id)]);
    if (live?.id !== id) return;
    const current = revisions.find((r) => r.number === live!.current.revision) ?? revisions[revisions.length - 1]!;
    historyView.renderHistory(byId('day-history'), revisions, live.current.revision);
    historyView.renderAlerts(byId('day-alerts'), alerts);
    dayAlerts = alerts;
    if (flagAlerts()) redraw();
    byId('day-alert-count').textContent = alerts.alerts.length
      ? `⚠ ${alerts.alerts.length} ${alerts.alerts.length === 1 ? 'alert' : 'alerts'} (connections, crew duty): see History and alerts.`
      : 'No alert.';
    const status = byId('day-status');
    const newer = seenBefore !== undefined && current.number > seenBefore;
    status.className = newer ? 'moved' : '';
    status.textContent = `${newer ? 'New: ' : ''}revision ${current.number} of ${live.current.schedule_file} (day ${id.slice(0, 8)}): ${revisionReason(current)}, by ${revisionAuthor(current)}, ${dateTime(parseInstant(current.created_at), zone)}.`;
    if (newer && applyDialog.isOpen) {
      applyDialog.warn(`Revision ${current.number} was written while you decided (${revisionReason(current)}, by ${revisionAuthor(current)}). This apply names the revision you saw; the service refuses it if the day has moved on.`);
    }
  } catch (error) {
    showFailure(error, () => void refreshHistory(seenBefore));
  }
}

async function showDiff(revision: number): Promise<void> {
  if (!live) return;
  try {
    historyView.renderDiff(byId('day-diff'), await readDiff(live.id, revision));
    byId('diff-title').textContent = `What revision ${revision} changed`;
    byId('diff-title').focus();
  } catch (error) {
    showFailure(error, () => void showDiff(revision));
  }
}

/** After a write of this page: the revision it wrote, drawn, with the history. */
async function reloadDay(): Promise<void> {
  if (!live) return;
  const current = await readDay(live.id, null);
  if (current && live) showRevision(current);
  await refreshHistory();
}

function confirmApply(): void {
  if (!live || !liveSimulation || !shownOption || !response || !day || applyDialog.isOpen) return;
  const option = shownOption;
  const simulation = liveSimulation;
  const revision = live.current.revision;
  const plan = distinctPlans(response).find((p) => p.options.includes(option));
  applyDialog.open({
    optionName: `option ${option.rank} (${(plan?.options ?? [option]).map((o) => strategyName(o.strategy)).join(' = ')})`,
    dayName: `the day ${live.current.schedule_file} (${live.id.slice(0, 8)})`,
    revision, simulatedOn: simulation.revision, operator: operatorName.get(), cost: money(option.summary.cost, info.currency),
    changes: changesInOrder(optionRows(day, response, option), response),
    passengers: optionPassengers(day, option),
  }, () => void apply(option, revision, simulation.jobId));
}

async function apply(option: RecoveryOption, revision: number, jobId: string): Promise<void> {
  if (!live) return;
  applyDialog.busy(true);
  try {
    const written = await applyOption(live.id, revision, jobId, option.option_id);
    applyDialog.close();
    // The options were for the revision before: the day view shows what was decided.
    dropOptions();
    showMessage(`Applied: revision ${written.number} written (${revisionReason(written)}, by ${revisionAuthor(written)}).`, 'info');
    await reloadDay();
    layoutChanged();
    byId('day-status').focus();
  } catch (error) {
    applyDialog.error(explainError(error).text);
  }
}

async function revert(toRevision: number): Promise<void> {
  if (!live) return;
  clearMessage();
  try {
    const written = await revertDay(live.id, live.current.revision, toRevision);
    showMessage(`Reverted: revision ${written.number} restores the plan of revision ${toRevision} (by ${revisionAuthor(written)}).`, 'info');
    await reloadDay();
  } catch (error) {
    showFailure(error, () => void revert(toRevision));
    await refreshHistory();
  }
}

function stopWatching(): void {
  live?.watcher.stop();
  live = null;
  dayAlerts = null;
  liveSimulation = null;
  applyDialog.close();
  byId('day-picker').hidden = false;
  byId('day-state').hidden = true;
  byId('day-banner').hidden = true;
  byId('day-panel').hidden = true;
  button('apply-option').hidden = true;
}

button('refresh-days').addEventListener('click', () => void refreshDayList());
// The days are listed when the controller opens the section (and again with Refresh the list).
byId('live-day-details').addEventListener('toggle', () => {
  if (byId<HTMLDetailsElement>('live-day-details').open && apiKey.get() && !live) void refreshDayList();
});
button('watch-day').addEventListener('click', () => { const id = select('day-select').value; if (id) void watchDay(id); });
button('new-day').addEventListener('click', async () => {
  clearMessage();
  try {
    const opened = await openDay(input('schedule-file').value.trim());
    await refreshDayList(opened.id);
    await watchDay(opened.id);
  } catch (error) {
    showFailure(error, () => undefined);
  }
});
button('leave-day').addEventListener('click', () => { stopWatching(); void loadSchedule(); });
button('day-history-button').addEventListener('click', () => { byId('day-panel').scrollIntoView({ block: 'start' }); byId('day-panel-title').focus(); });
button('apply-option').addEventListener('click', confirmApply);

// The browser tests read what the last frame drew (labels, connectors, bands, the axis); shown nowhere.
(window as unknown as { consoleInspect: object }).consoleInspect = { frame: () => gantt.frameReport() };

// --- start ------------------------------------------------------------------------------------------

renderKeyState();
void readOpenApi(info).then(() => {
  // The time limit field takes the service's bounds (config.solver.time_limit_ms, in seconds here).
  const { min, max } = info.timeLimitMs;
  if (min !== null) input('time-limit').min = String(min / 1000);
  if (max !== null) input('time-limit').max = String(max / 1000);
});
renderDayButtons();
if (apiKey.get()) void loadSchedule();
else {
  byId('row-count').textContent = 'No schedule loaded.';
  input('api-key').focus();
}
