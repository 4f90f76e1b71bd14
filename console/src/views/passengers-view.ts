// The passengers of the option on the Gantt: the groups moved to other flights (from → to, how many,
// when they now arrive and how late), and the groups left without a journey (compensated) with why;
// one search field filters both tables by flight number, airport or reason.
import type { MovedGroup, OptionPassengers, StrandedGroup } from '../model/passengers.ts';
import { dateTime, duration, type DisplayZone } from '../model/time-axis.ts';
import { el, replaceChildren } from './dom.ts';

const numberOf = (flight: string) => flight.split('_')[0] ?? flight;
const WHY: Record<StrandedGroup['why'], string> = { no_flight: 'no flight', no_seat: 'no seat', too_late: 'too late' };

export class PassengersView {
  private passengers: OptionPassengers | null = null;
  private title = '';

  constructor(private readonly section: HTMLElement, private readonly zone: () => DisplayZone) {}

  show(title: string, passengers: OptionPassengers): void {
    this.title = title;
    this.passengers = passengers;
    this.section.hidden = false;
    this.render('');
  }

  hide(): void {
    this.passengers = null;
    this.section.hidden = true;
    replaceChildren(this.section);
  }

  /** Redraws the times in the page's zone, keeping the search. */
  refresh(): void {
    if (!this.passengers) return;
    const search = this.section.querySelector<HTMLInputElement>('#passenger-search');
    this.render(search?.value ?? '');
  }

  focus(): void { this.section.querySelector<HTMLElement>('#passengers-title')?.focus(); }

  private render(query: string): void {
    const p = this.passengers!;
    const movedCount = p.moved.reduce((sum, g) => sum + g.passengers, 0);
    const strandedCount = p.stranded.reduce((sum, g) => sum + g.passengers, 0);
    const search = el('input', { id: 'passenger-search', type: 'search', value: query, spellcheck: 'false', autocomplete: 'off', 'aria-controls': 'moved-groups stranded-groups' });
    const counter = el('p', { id: 'passenger-matches', class: 'help', role: 'status' });
    const moved = el('tbody', {});
    const stranded = el('tbody', {});
    const fill = () => {
      const words = search.value.trim().toUpperCase().split(/\s+/).filter((w) => w !== '');
      const matches = (text: string) => words.every((w) => text.toUpperCase().includes(w));
      const movedRows = p.moved.filter((g) => matches(movedText(g)));
      const strandedRows = p.stranded.filter((g) => matches(strandedText(g)));
      replaceChildren(moved, ...movedRows.map((g) => this.movedRow(g)));
      replaceChildren(stranded, ...strandedRows.map((g) => this.strandedRow(g)));
      if (!movedRows.length) moved.appendChild(emptyRow(5, p.moved.length ? 'No moved group matches the search.' : 'No passenger is moved to another flight.'));
      if (!strandedRows.length) stranded.appendChild(emptyRow(4, p.stranded.length ? 'No stranded group matches the search.' : 'Every disrupted passenger has a new journey.'));
      counter.textContent = words.length ? `${movedRows.length + strandedRows.length} of ${p.moved.length + p.stranded.length} groups match.` : '';
    };
    search.addEventListener('input', fill);
    replaceChildren(this.section,
      el('h2', { id: 'passengers-title', tabindex: -1 }, `Passengers of ${this.title}`),
      el('p', { 'data-summary': 'passengers' }, `${movedCount} moved to other flights in ${p.moved.length} ${p.moved.length === 1 ? 'group' : 'groups'}; ${strandedCount} left without a journey (compensated) in ${p.stranded.length} ${p.stranded.length === 1 ? 'group' : 'groups'}${p.spilled ? `; ${p.spilled} spilled (a smaller aircraft has no seat for them)` : ''}.`),
      el('div', { class: 'field search' }, el('label', { for: 'passenger-search' }, 'Search groups (flight, airport, reason)'), search),
      counter,
      el('h3', { id: 'moved-title' }, `Moved (${movedCount})`),
      el('table', { id: 'moved-groups', class: 'groups', 'aria-labelledby': 'moved-title' },
        el('thead', {}, el('tr', {}, ...['Did not take', 'New journey', 'Passengers', 'Now arrive', 'Arrival delay'].map((h) => el('th', { scope: 'col' }, h)))),
        moved),
      el('h3', { id: 'stranded-title' }, `Stranded or compensated (${strandedCount})`),
      el('table', { id: 'stranded-groups', class: 'groups', 'aria-labelledby': 'stranded-title' },
        el('thead', {}, el('tr', {}, ...['Did not take', 'Why disrupted', 'Passengers', 'Why no new journey'].map((h) => el('th', { scope: 'col' }, h)))),
        stranded));
    fill();
  }

  private movedRow(g: MovedGroup): HTMLElement {
    const zone = this.zone();
    return el('tr', { 'data-from': g.fromFlight.flight, 'data-to': g.toFlights.map((f) => f.flight).join(' ') },
      el('td', {}, fromText(g.fromFlight.flight, g.fromFlight.origin, g.fromFlight.dest, g.reason)),
      el('td', {}, g.toFlights.map((f) => `${numberOf(f.flight)} ${f.origin}→${f.dest}`).join(', then ')),
      el('td', { class: 'number' }, String(g.passengers)),
      el('td', {}, dateTime(g.newArrivalMs, zone)),
      el('td', { 'data-delay-minutes': g.arrivalDelayMinutes === null ? '' : String(g.arrivalDelayMinutes) }, g.arrivalDelayMinutes === null ? 'unknown (the journey ends beyond this flight)' : `+${duration(g.arrivalDelayMinutes)}`));
  }

  private strandedRow(g: StrandedGroup): HTMLElement {
    return el('tr', { 'data-from': g.fromFlight.flight, 'data-why': g.why },
      el('td', {}, fromText(g.fromFlight.flight, g.fromFlight.origin, g.fromFlight.dest, g.reason)),
      el('td', {}, g.reason === 'cancellation' ? 'flight cancelled' : 'connection missed'),
      el('td', { class: 'number' }, String(g.passengers)),
      el('td', {}, el('strong', {}, WHY[g.why]), `: ${g.whyDetail}`));
  }
}

function fromText(flight: string, origin: string, dest: string, reason: string): string {
  return `${numberOf(flight)} ${origin}→${dest}${reason === 'misconnection' ? ' (connection)' : ''}`;
}

const movedText = (g: MovedGroup) => [g.fromFlight.flight, g.fromFlight.origin, g.fromFlight.dest, g.reason, ...g.toFlights.flatMap((f) => [f.flight, f.origin, f.dest])].join(' ');
const strandedText = (g: StrandedGroup) => [g.fromFlight.flight, g.fromFlight.origin, g.fromFlight.dest, g.reason, WHY[g.why], g.whyDetail].join(' ');

function emptyRow(columns: number, text: string): HTMLElement {
  return el('tr', { class: 'empty' }, el('td', { colspan: columns }, text));
}
