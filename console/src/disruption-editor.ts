// The disruption being built: a list of the API's disruption entries (contract.md "Several disruptions
// at once"), edited from the Gantt: a flight (delay or cancel), an aircraft (out of service for a
// period), an airport (capacity cap). The page checks nothing the service checks: a wrong entry comes
// back as the service's 400/404 sentence.
import { el, replaceChildren } from './dom.ts';
import type { FlightBar, GanttRow } from './gantt-model.ts';
import { isoUtc, parseInstant } from './time-axis.ts';
import type { Disruption } from './wire.ts';

export class DisruptionEditor {
  private entries: Disruption[] = [];

  constructor(private readonly form: HTMLElement, private readonly list: HTMLElement, private readonly onChange: (entries: readonly Disruption[]) => void) {
    this.renderList();
  }

  get disruptions(): readonly Disruption[] { return this.entries; }

  /** Instant each entry takes effect (a flight's scheduled departure, else `from`), for the line on the Gantt. */
  earliestEffect(scheduledDep: (flight: string) => number | undefined): number | null {
    const times = this.entries.map((d) => ('flight' in d ? scheduledDep(d.flight) : parseInstant(d.from))).filter((t): t is number => t !== undefined && !Number.isNaN(t));
    return times.length ? Math.min(...times) : null;
  }

  editFlight(bar: FlightBar, row: GanttRow): void {
    const minutes = el('input', { id: 'delay-minutes', type: 'number', min: 0, max: 2880, step: 5, value: 60, required: true });
    const delay = button('Add delay', () => this.add({ type: 'flight_delay', flight: bar.flight, min_delay_minutes: Number(minutes.value) }));
    const cancel = button('Cancel flight', () => this.add({ type: 'flight_cancellation', flight: bar.flight }));
    const aircraft = button(`Take ${row.tail} out of service…`, () => this.editAircraft(row, bar.depMs));
    const origin = button(`Cap ${bar.origin}…`, () => this.editAirport(bar.origin, bar.depMs));
    const dest = button(`Cap ${bar.dest}…`, () => this.editAirport(bar.dest, bar.arrMs));
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Flight ${bar.flight}`),
      el('p', {}, `${bar.origin} → ${bar.dest} on ${row.tail}`),
      el('div', { class: 'field' }, el('label', { for: 'delay-minutes' }, 'Delay (minutes)'), minutes),
      el('div', { class: 'buttons' }, delay, cancel),
      el('div', { class: 'buttons' }, aircraft, origin, dest));
    minutes.focus();
  }

  editAircraft(row: GanttRow, atMs: number): void {
    const from = timeInput('unavailable-from', atMs);
    const to = timeInput('unavailable-to', atMs + 4 * 3_600_000);
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Aircraft ${row.tail} out of service`),
      el('p', {}, `${row.fleet}, based at ${row.base}. Times in ISO 8601 (Z = UTC, or with an offset).`),
      labelled('From', from), labelled('To', to),
      el('div', { class: 'buttons' }, button('Add out of service', () => this.add({ type: 'aircraft_unavailable', tail: row.tail, from: from.value, to: to.value }))));
    from.focus();
  }

  editAirport(airport: string, atMs: number): void {
    const from = timeInput('capacity-from', atMs);
    const to = timeInput('capacity-to', atMs + 2 * 3_600_000);
    const departures = el('input', { id: 'capacity-departures', type: 'number', min: 0, max: 1000, value: 2, required: true });
    const arrivals = el('input', { id: 'capacity-arrivals', type: 'number', min: 0, max: 1000, value: 2, required: true });
    replaceChildren(this.form,
      el('h3', { id: 'editor-title', tabindex: -1 }, `Capacity of ${airport}`),
      el('p', {}, 'At most this many of the airline\'s movements in every clock hour (UTC) of the period.'),
      labelled('From', from), labelled('To', to),
      labelled('Departures per hour', departures), labelled('Arrivals per hour', arrivals),
      el('div', { class: 'buttons' }, button('Add capacity cap', () => this.add({
        type: 'airport_capacity', airport, from: from.value, to: to.value,
        max_departures_per_hour: Number(departures.value), max_arrivals_per_hour: Number(arrivals.value),
      }))));
    from.focus();
  }

  clear(): void {
    this.entries = [];
    this.renderList();
  }

  private add(entry: Disruption): void {
    this.entries = [...this.entries.filter((e) => !sameTarget(e, entry)), entry];
    this.renderList();
    replaceChildren(this.form, el('p', { role: 'status' }, `Added: ${describe(entry)}. Pick another flight, aircraft or airport, or run the simulation.`));
  }

  private renderList(): void {
    replaceChildren(this.list, ...this.entries.map((entry, index) => {
      const remove = button('Remove', () => { this.entries = this.entries.filter((_, i) => i !== index); this.renderList(); });
      remove.setAttribute('aria-label', `Remove ${describe(entry)}`);
      return el('li', { 'data-type': entry.type }, describe(entry), ' ', remove);
    }));
    if (!this.entries.length) this.list.appendChild(el('li', { class: 'empty' }, 'None yet: click a flight, an aircraft row or an airport.'));
    this.onChange(this.entries);
  }
}

function sameTarget(a: Disruption, b: Disruption): boolean {
  if ('flight' in a && 'flight' in b) return a.flight === b.flight;
  return false;
}

export function describe(entry: Disruption): string {
  switch (entry.type) {
    case 'flight_delay': return `Delay ${entry.flight} by at least ${entry.min_delay_minutes} min`;
    case 'flight_cancellation': return `Cancel ${entry.flight}`;
    case 'aircraft_unavailable': return `${entry.tail} out of service ${entry.from} – ${entry.to}`;
    case 'airport_capacity': return `${entry.airport} capped at ${entry.max_departures_per_hour} dep / ${entry.max_arrivals_per_hour} arr per hour ${entry.from} – ${entry.to}`;
  }
}

function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', { type: 'button' }, text);
  b.addEventListener('click', onClick);
  return b;
}

function timeInput(id: string, ms: number): HTMLInputElement {
  return el('input', { id, type: 'text', value: isoUtc(ms), required: true, spellcheck: 'false', autocomplete: 'off' });
}

function labelled(text: string, input: HTMLInputElement): HTMLElement {
  return el('div', { class: 'field' }, el('label', { for: input.id }, text), input);
}
