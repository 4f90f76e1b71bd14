// The disruption being built: a list of the API's disruption entries (contract.md "Several disruptions
// at once"), edited from the Gantt: a flight (delay or cancel), an aircraft (out of service for a
// period), an airport (capacity cap). Times are typed in the page's time zone and sent in UTC. The
// editor refuses what the service would refuse, with the service's own limits (its OpenAPI document):
// a delay or a cap outside the field's range, an empty period, an aircraft or airport given two
// overlapping periods. Anything else the service checks comes back as its 400/404 sentence.
import type { ServiceInfo } from '../api/service-info.ts';
import type { Disruption } from '../api/wire.ts';
import type { HourDemand } from '../model/capacity.ts';
import type { FlightBar, GanttRow } from '../model/gantt-model.ts';
import { clock, fromLocalInput, HOUR_MS, isoUtc, localInputValue, parseInstant, type DisplayZone, UTC_ZONE } from '../model/time-axis.ts';
import { el, replaceChildren } from './dom.ts';

export interface EditorContext {
  /** The page's time zone (inputs and lists use it). */
  zone(): DisplayZone;
  info: ServiceInfo;
  /** The planned movements at an airport in each UTC clock hour overlapping [fromMs, toMs). */
  demand(airport: string, fromMs: number, toMs: number): HourDemand[];
}

type Open =
  | { kind: 'flight'; bar: FlightBar; row: GanttRow }
  | { kind: 'aircraft'; row: GanttRow; fromMs: number; toMs: number }
  | { kind: 'airport'; airport: string; fromMs: number; toMs: number; departures: string; arrivals: string }
  | null;

export class DisruptionEditor {
  private entries: Disruption[] = [];
  private open: Open = null;

  constructor(private readonly form: HTMLElement, private readonly list: HTMLElement, private readonly context: EditorContext, private readonly onChange: (entries: readonly Disruption[]) => void) {
    this.renderList();
  }

  get disruptions(): readonly Disruption[] { return this.entries; }

  /** Instant each entry takes effect (a flight's scheduled departure, else `from`), for the line on the Gantt. */
  earliestEffect(scheduledDep: (flight: string) => number | undefined): number | null {
    const times = this.entries.map((d) => ('flight' in d ? scheduledDep(d.flight) : parseInstant(d.from))).filter((t): t is number => t !== undefined && !Number.isNaN(t));
    return times.length ? Math.min(...times) : null;
  }

  editFlight(bar: FlightBar, row: GanttRow): void {
    this.open = { kind: 'flight', bar, row };
    const { min, max } = this.context.info.delayMinutes;
    const minutes = el('input', { id: 'delay-minutes', type: 'number', step: 5, value: 60, required: true, inputmode: 'numeric', ...(min !== null ? { min } : {}), ...(max !== null ? { max } : {}) });
    const delay = button('Add delay', () => {
      const value = Number(minutes.value);
      const problem = outOfRange(minutes.value, value, this.context.info.delayMinutes, 'The delay', 'minutes');
      if (problem) return this.refuse(problem, minutes);
      this.add({ type: 'flight_delay', flight: bar.flight, min_delay_minutes: value });
    });
    const cancel = button('Cancel flight', () => this.add({ type: 'flight_cancellation', flight: bar.flight }));
    const aircraft = button(`Take ${row.tail} out of service…`, () => this.editAircraft(row, bar.depMs));
    const origin = button(`Cap ${bar.origin}…`, () => this.editAirport(bar.origin, bar.depMs));
    const dest = button(`Cap ${bar.dest}…`, () => this.editAirport(bar.dest, bar.arrMs));
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Flight ${bar.flight}`),
      el('p', {}, `${bar.origin} → ${bar.dest} on ${row.tail}`),
      el('div', { class: 'field' }, el('label', { for: 'delay-minutes' }, `Delay (minutes${rangeText(this.context.info.delayMinutes)})`), minutes),
      errorBox(),
      el('div', { class: 'buttons' }, delay, cancel),
      el('div', { class: 'buttons' }, aircraft, origin, dest));
    minutes.focus();
  }

  editAircraft(row: GanttRow, atMs: number, toMs = atMs + 4 * HOUR_MS, focus = true): void {
    this.open = { kind: 'aircraft', row, fromMs: atMs, toMs };
    const zone = this.context.zone();
    const from = timeInput('unavailable-from', atMs, zone);
    const to = timeInput('unavailable-to', toMs, zone);
    const track = () => { if (this.open?.kind === 'aircraft') { this.open.fromMs = fromLocalInput(from.value, zone); this.open.toMs = fromLocalInput(to.value, zone); } };
    from.addEventListener('input', track);
    to.addEventListener('input', track);
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Aircraft ${row.tail} out of service`),
      el('p', {}, `${row.fleet}, based at ${row.base}. It flies nothing that overlaps the period.`),
      labelled(`From (${zone.label} time)`, from), labelled(`To (${zone.label} time)`, to),
      errorBox(),
      el('div', { class: 'buttons' }, button('Add out of service', () => {
        const period = this.period(from, to);
        if (typeof period === 'string') return this.refuse(period, from);
        const clash = this.entries.find((e) => e.type === 'aircraft_unavailable' && e.tail === row.tail && overlaps(e, period));
        if (clash) return this.refuse(`${row.tail} is already out of service ${this.describe(clash).replace(/^.* out of service /, '')}: the service takes one period per aircraft at a time; remove that entry first or give a period that does not overlap it.`, from);
        this.add({ type: 'aircraft_unavailable', tail: row.tail, from: isoUtc(period.fromMs), to: isoUtc(period.toMs) });
      })));
    if (focus) from.focus();
  }

  editAirport(airport: string, atMs: number, toMs = atMs + 2 * HOUR_MS, departures = '', arrivals = '', focus = true): void {
    this.open = { kind: 'airport', airport, fromMs: atMs, toMs, departures, arrivals };
    const zone = this.context.zone();
    const { min, max } = this.context.info.capacityPerHour;
    const limits = { ...(min !== null ? { min } : {}), ...(max !== null ? { max } : {}) };
    const from = timeInput('capacity-from', atMs, zone);
    const to = timeInput('capacity-to', toMs, zone);
    const planned = this.context.demand(airport, atMs, toMs);
    const busiest = (key: 'departures' | 'arrivals') => Math.max(0, ...planned.map((h) => h[key]));
    const dep = el('input', { id: 'capacity-departures', type: 'number', step: 1, required: true, inputmode: 'numeric', value: departures || String(busiest('departures')), ...limits });
    const arr = el('input', { id: 'capacity-arrivals', type: 'number', step: 1, required: true, inputmode: 'numeric', value: arrivals || String(busiest('arrivals')), ...limits });
    const demand = el('div', { id: 'capacity-demand', 'aria-live': 'polite' });
    const track = () => {
      if (this.open?.kind !== 'airport') return;
      Object.assign(this.open, { fromMs: fromLocalInput(from.value, zone), toMs: fromLocalInput(to.value, zone), departures: dep.value, arrivals: arr.value });
      this.renderDemand(demand, airport, this.open.fromMs, this.open.toMs, Number(dep.value), Number(arr.value));
    };
    for (const input of [from, to, dep, arr]) input.addEventListener('input', track);
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Capacity of ${airport}`),
      el('p', {}, `At most this many of the airline's departures and arrivals at ${airport} in every clock hour (UTC hours, as the service counts) that overlaps the period.`),
      labelled(`From (${zone.label} time)`, from), labelled(`To (${zone.label} time)`, to),
      labelled(`Departures per hour${rangeText(this.context.info.capacityPerHour)}`, dep), labelled(`Arrivals per hour${rangeText(this.context.info.capacityPerHour)}`, arr),
      demand,
      errorBox(),
      el('div', { class: 'buttons' }, button('Add capacity cap', () => {
        const period = this.period(from, to);
        if (typeof period === 'string') return this.refuse(period, from);
        for (const [input, name] of [[dep, 'Departures per hour'], [arr, 'Arrivals per hour']] as const) {
          const problem = outOfRange(input.value, Number(input.value), this.context.info.capacityPerHour, name, 'movements');
          if (problem) return this.refuse(problem, input);
        }
        const clash = this.entries.find((e) => e.type === 'airport_capacity' && e.airport === airport && overlaps(e, period));
        if (clash) return this.refuse(`${airport} is already capped in an overlapping period (${this.describe(clash)}): the service takes one cap per airport and period; remove that entry first.`, from);
        this.add({ type: 'airport_capacity', airport, from: isoUtc(period.fromMs), to: isoUtc(period.toMs), max_departures_per_hour: Number(dep.value), max_arrivals_per_hour: Number(arr.value) });
      })));
    this.renderDemand(demand, airport, atMs, toMs, Number(dep.value), Number(arr.value));
    if (focus) from.focus();
  }

  /** The page's zone changed: the open form shows its times anew (same instants), the list too; focus stays where it is. */
  refresh(): void {
    const open = this.open;
    if (open?.kind === 'aircraft') this.editAircraft(open.row, open.fromMs, open.toMs, false);
    else if (open?.kind === 'airport') this.editAirport(open.airport, open.fromMs, open.toMs, open.departures, open.arrivals, false);
    this.renderList();
  }

  clear(): void {
    this.entries = [];
    this.open = null;
    replaceChildren(this.form);
    this.renderList();
  }

  describe(entry: Disruption): string {
    const zone = this.context.zone();
    const period = (from: string, to: string) => `${shortDateTime(parseInstant(from), zone)} – ${shortDateTime(parseInstant(to), zone)} ${zone.label}`;
    switch (entry.type) {
      case 'flight_delay': return `Delay ${entry.flight} by at least ${entry.min_delay_minutes} min`;
      case 'flight_cancellation': return `Cancel ${entry.flight}`;
      case 'aircraft_unavailable': return `${entry.tail} out of service ${period(entry.from, entry.to)}`;
      case 'airport_capacity': return `${entry.airport} capped at ${entry.max_departures_per_hour} dep / ${entry.max_arrivals_per_hour} arr per hour ${period(entry.from, entry.to)}`;
    }
  }

  private period(from: HTMLInputElement, to: HTMLInputElement): { fromMs: number; toMs: number } | string {
    const zone = this.context.zone();
    const fromMs = fromLocalInput(from.value, zone);
    const toMs = fromLocalInput(to.value, zone);
    if (Number.isNaN(fromMs) || Number.isNaN(toMs)) return `Give both times as a date and a time (${zone.label} time).`;
    if (toMs <= fromMs) return `'To' must be after 'From': the period is empty.`;
    return { fromMs, toMs };
  }

  private renderDemand(box: HTMLElement, airport: string, fromMs: number, toMs: number, maxDepartures: number, maxArrivals: number): void {
    if (Number.isNaN(fromMs) || Number.isNaN(toMs) || toMs <= fromMs) { replaceChildren(box); return; }
    const hours = this.context.demand(airport, fromMs, toMs).slice(0, 12);
    replaceChildren(box,
      el('p', { class: 'help' }, `Planned movements at ${airport} per UTC clock hour (departures / arrivals), against the cap:`),
      el('ul', { class: 'demand-list' }, ...hours.map((h) => {
        const over = h.departures > maxDepartures || h.arrivals > maxArrivals;
        return el('li', { 'data-hour': new Date(h.startMs).toISOString(), class: over ? 'over' : '' },
          `${clock(h.startMs, UTC_ZONE)}–${clock(h.startMs + HOUR_MS, UTC_ZONE)} UTC: ${h.departures} / ${h.arrivals}${over ? ' ⚠ over the cap: flights must move or be cancelled' : ''}`);
      })));
  }

  private refuse(sentence: string, field: HTMLInputElement): void {
    const box = this.form.querySelector<HTMLElement>('#editor-error');
    if (box) { box.textContent = sentence; box.hidden = false; }
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }

  private add(entry: Disruption): void {
    this.entries = [...this.entries.filter((e) => !sameFlight(e, entry)), entry];
    this.open = null;
    this.renderList();
    replaceChildren(this.form, el('p', { role: 'status' }, `Added: ${this.describe(entry)}. Pick another flight, aircraft or airport, or run the simulation.`));
  }

  private renderList(): void {
    replaceChildren(this.list, ...this.entries.map((entry, index) => {
      const remove = button('Remove', () => { this.entries = this.entries.filter((_, i) => i !== index); this.renderList(); });
      remove.setAttribute('aria-label', `Remove ${this.describe(entry)}`);
      return el('li', { 'data-type': entry.type }, this.describe(entry), ' ', remove);
    }));
    if (!this.entries.length) this.list.appendChild(el('li', { class: 'empty' }, 'None yet: click a flight, an aircraft row or an airport.'));
    this.onChange(this.entries);
  }
}

/** A flight is delayed or cancelled once: a new entry for it replaces the old (the service refuses both). */
function sameFlight(a: Disruption, b: Disruption): boolean {
  return 'flight' in a && 'flight' in b && a.flight === b.flight;
}

function overlaps(entry: { from: string; to: string }, period: { fromMs: number; toMs: number }): boolean {
  return parseInstant(entry.from) < period.toMs && period.fromMs < parseInstant(entry.to);
}

/** The sentence refusing a number outside the service's range, or null when it is a whole number within it. */
function outOfRange(text: string, value: number, range: { min: number | null; max: number | null }, name: string, unit: string): string | null {
  const within = text.trim() !== '' && Number.isInteger(value) && (range.min === null || value >= range.min) && (range.max === null || value <= range.max);
  if (within) return null;
  const bounds = range.min !== null && range.max !== null ? ` from ${range.min} to ${range.max}` : range.min !== null ? ` of at least ${range.min}` : range.max !== null ? ` of at most ${range.max}` : '';
  return `${name} must be a whole number of ${unit}${bounds} (the service's limit); ${text.trim() === '' ? 'nothing was entered' : `${text.trim()} is not`}.`;
}

function rangeText(range: { min: number | null; max: number | null }): string {
  return range.min !== null && range.max !== null ? `, ${range.min}–${range.max}` : '';
}

const shortDateTime = (ms: number, zone: DisplayZone) => {
  const text = localInputValue(ms, zone);
  return `${text.slice(8, 10)}/${text.slice(5, 7)} ${text.slice(11, 16)}`;
};

function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', { type: 'button' }, text);
  b.addEventListener('click', onClick);
  return b;
}

function errorBox(): HTMLElement {
  const box = el('p', { id: 'editor-error', class: 'editor-error', role: 'alert' });
  box.hidden = true;
  return box;
}

function timeInput(id: string, ms: number, zone: DisplayZone): HTMLInputElement {
  return el('input', { id, type: 'datetime-local', step: 60, value: Number.isNaN(ms) ? '' : localInputValue(ms, zone), required: true });
}

function labelled(text: string, input: HTMLInputElement): HTMLElement {
  return el('div', { class: 'field' }, el('label', { for: input.id }, text), input);
}
