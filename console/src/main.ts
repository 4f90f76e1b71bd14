// The console's wiring: key form, schedule loading, filters and time zone, the Gantt, the disruption
// editor, running a simulation, the options and one option on the Gantt. Every number it shows comes
// from an API answer (GET /snapshot, POST /simulate or the jobs API).
import { apiKey, explainError, getJson } from './api-client.ts';
import { DisruptionEditor } from './disruption-editor.ts';
import { byId, el, replaceChildren } from './dom.ts';
import { Gantt, barLabel } from './gantt.ts';
import { daySchedule, filterRows, optionRows, type DaySchedule, type FlightBar, type GanttRow } from './gantt-model.ts';
import { runJob } from './jobs-client.ts';
import { exportOption, renderOptions } from './options-view.ts';
import { dateTime, parseInstant, UTC_ZONE, type DisplayZone } from './time-axis.ts';
import type { RecoveryOption, SimulationResponse, SnapshotResponse } from './wire.ts';

const input = (id: string) => byId<HTMLInputElement>(id);
const select = (id: string) => byId<HTMLSelectElement>(id);
const button = (id: string) => byId<HTMLButtonElement>(id);

let day: DaySchedule | null = null;
let response: SimulationResponse | null = null;
let shownOption: RecoveryOption | null = null;
let zone: DisplayZone = UTC_ZONE;
let running: AbortController | null = null;

const gantt = new Gantt(byId('gantt-scroll'), byId<HTMLCanvasElement>('gantt'), byId('gantt-spacer'), {
  onFlightActivate: (bar, row) => { if (!shownOption) editor.editFlight(bar, row); else highlightAction(bar.flight); },
  onRowActivate: (row, atMs) => { if (!shownOption) editor.editAircraft(row, atMs); },
  onFocusChange: (bar, row, hovered) => { showDetails(bar, row); showTooltip(hovered ? bar : null); },
});

const editor = new DisruptionEditor(byId('editor-form'), byId('disruption-list'), (entries) => {
  button('simulate').disabled = entries.length === 0 || running !== null || day === null;
  if (day && !shownOption) gantt.setDisruptionTime(editor.earliestEffect((flight) => {
    const planned = day!.flightsById.get(flight)?.flight;
    return planned ? planned.depMs : undefined;
  }));
});

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
}

// --- key --------------------------------------------------------------------------------------------

function renderKeyState(): void {
  const has = apiKey.get() !== null;
  byId('key-state').textContent = has ? 'Key set for this tab.' : 'No key yet.';
  button('forget-key').disabled = !has;
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const field = input('api-key');
  if (field.value.trim() === '') return;
  apiKey.set(field.value.trim());
  field.value = '';
  renderKeyState();
  void loadSchedule().then(() => { if (day) byId('gantt').focus(); });
});

button('forget-key').addEventListener('click', () => {
  apiKey.forget();
  renderKeyState();
  input('api-key').focus();
});

// --- schedule ---------------------------------------------------------------------------------------

async function loadSchedule(): Promise<void> {
  clearMessage();
  const scheduleFile = input('schedule-file').value.trim();
  const airlines = input('airlines').value.split(',').map((a) => a.trim().toUpperCase()).filter((a) => a !== '');
  performance.clearMarks();
  performance.clearMeasures();
  performance.mark('schedule-requested');
  try {
    const snapshots = await Promise.all((airlines.length ? airlines : ['']).map((airline) => {
      const query = new URLSearchParams();
      if (scheduleFile) query.set('schedule_file', scheduleFile);
      if (airline) query.set('airline', airline);
      return getJson<SnapshotResponse>(`snapshot${query.size ? `?${query}` : ''}`);
    }));
    performance.mark('schedule-received');
    day = daySchedule(snapshots);
    response = null;
    shownOption = null;
    editor.clear();
    byId('options').hidden = true;
    byId('option-panel').hidden = true;
    fillFilters(day);
    byId('gantt-title').textContent = `The day: ${day.scheduleFile}, ${day.airlines.join(', ')} (${day.rows.length} aircraft, ${day.flightsById.size} flights)`;
    redraw();
    gantt.resetZoom();
    gantt.onDraw = firstPaint;
  } catch (error) {
    showFailure(error, () => void loadSchedule());
  }
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

function currentRows(): GanttRow[] {
  if (!day) return [];
  let rows: GanttRow[] = day.rows;
  if (response && shownOption) {
    rows = optionRows(day, response, shownOption);
    // The aircraft the option re-plans come first, in the response's scope order.
    const order = new Map(response.scope.aircraft.map((tail, i) => [tail, i]));
    rows = [...rows].sort((a, b) => (order.get(a.tail) ?? Infinity) - (order.get(b.tail) ?? Infinity));
  }
  return filterRows(rows, { fleet: select('filter-fleet').value, base: select('filter-base').value, airport: select('filter-airport').value });
}

function redraw(): void {
  if (!day) return;
  const rows = currentRows();
  byId('row-count').textContent = `Showing ${rows.length} of ${day.rows.length} aircraft.`;
  gantt.setRows(rows, shownOption !== null, [day.startMs, day.endMs]);
}

function updateZone(): void {
  const label = select('zone').value;
  zone = label === 'UTC' || !day ? UTC_ZONE : { label, offsetMinutes: day.airportOffsets.get(label) ?? 0 };
  gantt.setZone(zone);
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
  const status = bar.kind === 'planned' ? 'as planned' : barLabel(bar);
  replaceChildren(body, el('dl', { class: 'details' },
    el('dt', {}, 'Flight'), el('dd', { 'data-field': 'flight' }, bar.flight),
    el('dt', {}, 'Route'), el('dd', { 'data-field': 'route' }, `${bar.origin} → ${bar.dest}`),
    el('dt', {}, 'Departs'), el('dd', { 'data-field': 'dep' }, dateTime(bar.depMs, zone)),
    el('dt', {}, 'Arrives'), el('dd', { 'data-field': 'arr' }, dateTime(bar.arrMs, zone)),
    el('dt', {}, 'Aircraft'), el('dd', {}, `${row.tail} (${row.fleet})`),
    el('dt', {}, 'Passengers'), el('dd', { 'data-field': 'passengers' }, bar.passengers === null ? 'unknown' : String(bar.passengers)),
    el('dt', {}, 'Crew'), el('dd', { 'data-field': 'crew' }, bar.crew.join(', ') || 'none listed'),
    el('dt', {}, 'State'), el('dd', {}, status)));
}

/** A short line beside the pointer (the details panel says it all, for every way of pointing). */
function showTooltip(bar: FlightBar | null): void {
  const tip = byId('tooltip');
  tip.hidden = bar === null;
  if (bar) tip.textContent = `${barLabel(bar)} · ${dateTimeShort(bar.depMs)}–${dateTimeShort(bar.arrMs)} ${zone.label} · ${bar.passengers ?? '?'} pax`;
}

const dateTimeShort = (ms: number) => dateTime(ms, zone).slice(11, 16);

byId('gantt').addEventListener('mousemove', (event) => {
  const tip = byId('tooltip');
  const panel = byId('gantt-scroll').getBoundingClientRect();
  // Beside the pointer, on its left near the right edge so that it stays inside the Gantt.
  const x = event.clientX - panel.left;
  tip.style.left = `${x > panel.width - tip.offsetWidth - 24 ? x - tip.offsetWidth - 10 : x + 14}px`;
  tip.style.top = `${event.clientY - panel.top + 14}px`;
});

// --- running ----------------------------------------------------------------------------------------

function airlineOf(): string | undefined {
  const first = editor.disruptions[0];
  if (!first || !day) return undefined;
  if ('flight' in first) return day.flightsById.get(first.flight)?.airline;
  if (first.type === 'aircraft_unavailable') return day.rows.find((r) => r.tail === first.tail)?.airline;
  return day.airlines.length === 1 ? day.airlines[0] : undefined;
}

async function simulate(): Promise<void> {
  if (!day || running) return;
  clearMessage();
  const controller = new AbortController();
  running = controller;
  byId('run').hidden = false;
  button('simulate').disabled = true;
  button('cancel-run').hidden = false;
  const progress = byId<HTMLProgressElement>('progress');
  progress.removeAttribute('value');
  const status = byId('run-status');
  status.textContent = 'Submitted as a job…';
  const started = performance.now();
  const body = {
    scenario_id: `console-${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`,
    disruptions: [...editor.disruptions],
    ...(day.scheduleFile ? { schedule_file: day.scheduleFile } : {}),
    ...(airlineOf() ? { airline: airlineOf()! } : {}),
    // A longer limit lets every strategy finish on a busy service; the service bounds it (400 beyond).
    ...(input('time-limit').value !== '' ? { config: { solver: { time_limit_ms: Math.round(Number(input('time-limit').value) * 1000) } } } : {}),
  };
  try {
    const outcome = await runJob(body, ({ status: jobStatus, progress: p }) => {
      const seconds = ((p?.elapsed_ms ?? performance.now() - started) / 1000).toFixed(1);
      if (p?.mip_gap !== null && p?.mip_gap !== undefined) progress.value = Math.max(0, 1 - Math.min(1, p.mip_gap));
      status.textContent = `${jobStatus}${p?.phase ? `, ${p.phase}` : ''}, ${seconds} s${p?.best_cost !== null && p?.best_cost !== undefined ? `, best cost so far ${Math.round(p.best_cost)}` : ''}`;
    }, controller.signal);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome.status === 'succeeded') {
      progress.value = 1;
      status.textContent = `Done in ${seconds} s: ${outcome.result.options.length} options.`;
    } else {
      status.textContent = outcome.result
        ? `Cancelled after ${seconds} s: the best plans found so far (${outcome.result.options.length} options).`
        : `Cancelled after ${seconds} s, before any plan was found.`;
    }
    if (outcome.result) showResponse(outcome.result);
  } catch (error) {
    progress.value = 0;
    status.textContent = 'Failed.';
    showFailure(error, () => void simulate());
  } finally {
    running = null;
    button('cancel-run').hidden = true;
    button('simulate').disabled = editor.disruptions.length === 0;
  }
}

button('simulate').addEventListener('click', () => void simulate());
button('cancel-run').addEventListener('click', () => running?.abort());
button('clear-disruptions').addEventListener('click', () => editor.clear());

// --- options ----------------------------------------------------------------------------------------

function showResponse(result: SimulationResponse): void {
  response = result;
  const section = byId('options');
  section.hidden = false;
  renderOptions(section, result, {
    onShow: (option) => showOption(option),
    onExport: (option) => exportOption(result, option),
  });
  byId('options-title').focus();
}

function showOption(option: RecoveryOption): void {
  if (!response || !day) return;
  shownOption = option;
  byId('option-panel').hidden = false;
  byId('editor').hidden = true;
  button('cap-airport').disabled = true;
  byId('option-title').textContent = `Option ${option.rank}: ${option.strategy.replace('_', ' ')}${option.option_id === response.best_option_id ? ' (best)' : ''}`;
  byId('gantt-title').textContent = `Option ${option.option_id} on the day: before (faded) and after on the same axis`;
  for (const card of document.querySelectorAll<HTMLElement>('#options [data-option-id]')) card.classList.toggle('shown', card.dataset.optionId === option.option_id);
  renderActions(option);
  gantt.setHighlighted([]);
  gantt.setDisruptionTime(parseInstant(response.disruption.disruption_time));
  redraw();
  byId('option-title').focus();
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

button('back-to-day').addEventListener('click', () => {
  shownOption = null;
  byId('option-panel').hidden = true;
  byId('editor').hidden = false;
  gantt.setHighlighted([]);
  for (const card of document.querySelectorAll<HTMLElement>('#options [data-option-id]')) card.classList.remove('shown');
  byId('gantt-title').textContent = day ? `The day: ${day.scheduleFile}` : 'The day';
  redraw();
  gantt.setDisruptionTime(editor.earliestEffect((flight) => day?.flightsById.get(flight)?.flight.depMs));
});
button('export-option').addEventListener('click', () => { if (response && shownOption) exportOption(response, shownOption); });

// --- start ------------------------------------------------------------------------------------------

renderKeyState();
if (apiKey.get()) void loadSchedule();
else input('api-key').focus();
