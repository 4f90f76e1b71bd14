// The live day's history and alerts, as the service gives them: each revision with who (the operator's
// name and the key's id), when, why (the option applied, the revision restored, movement messages)
// and what it changed in counts, with buttons for its per-aircraft diff and for reverting to it; the
// diff of one revision, aircraft by aircraft; the alerts of the current revision in the service's
// own sentences. Times are written in the page's zone.
import type { DayAlerts, DayRevision, RevisionDiff } from '../api/wire.ts';
import { dateTime, parseInstant, type DisplayZone } from '../model/time-axis.ts';
import { el, replaceChildren } from './dom.ts';

const numberOf = (flight: string) => flight.split('_')[0] ?? flight;

export interface DayHistoryEvents {
  onDiff(revision: number): void;
  onRevert(revision: number): void;
  /** A flight named in a diff: bring it into view on the Gantt. */
  onFlight(flight: string): void;
}

/** `apply of opt_cancellation (simulation 1a2b3c4d)`, `revert to revision 1`, `movement messages`, `opened`. */
export function revisionReason(revision: DayRevision): string {
  switch (revision.kind) {
    case 'open': return 'opened from the schedule';
    case 'apply': return `applied ${revision.reason.option_id ?? 'an option'} (simulation ${(revision.reason.simulation_id ?? '?').slice(0, 8)})`;
    case 'revert': return `reverted to revision ${revision.reason.reverted_to}`;
    case 'movements': return 'movement messages (actual times)';
  }
}

/** `Anna (key 5e78863ed1ffb9fc)` or `key 5e78863ed1ffb9fc` when no name was given. */
export const revisionAuthor = (revision: DayRevision) => (revision.operator ? `${revision.operator} (key ${revision.key_id})` : `key ${revision.key_id}, no name given`);

/** `2 cancelled, 3 retimed, 208 passengers moved` (the non-zero counts), or `no change`. */
export function changeCounts(revision: DayRevision): string {
  const c = revision.changes;
  const parts = [
    [c.flights_cancelled, 'cancelled'], [c.flights_retimed, 'retimed'], [c.flights_moved, 'moved to another aircraft'],
    [c.flights_reinstated, 'reinstated'], [c.passengers_moved, 'passengers moved'], [c.movements, c.movements === 1 ? 'flight with actual times' : 'flights with actual times'],
  ].filter(([n]) => (n as number) > 0).map(([n, text]) => `${n} ${text}`);
  return parts.length ? parts.join(', ') : 'no change';
}

export class DayHistoryView {
  constructor(private readonly zone: () => DisplayZone, private readonly events: DayHistoryEvents) {}

  renderHistory(list: HTMLElement, revisions: readonly DayRevision[], current: number): void {
    replaceChildren(list, ...[...revisions].reverse().map((r) => {
      const diff = el('button', { type: 'button', 'data-diff': r.number }, 'What changed');
      diff.addEventListener('click', () => this.events.onDiff(r.number));
      diff.disabled = r.number === 1;
      const revert = r.number === current ? null : el('button', { type: 'button', 'data-revert': r.number }, `Revert to revision ${r.number}…`);
      const buttons = el('div', { class: 'buttons' }, diff, revert);
      revert?.addEventListener('click', () => this.confirmRevert(buttons, r.number, current));
      return el('li', { 'data-revision': r.number, 'data-kind': r.kind, class: r.number === current ? 'current' : '' },
        el('strong', {}, `Revision ${r.number}${r.number === current ? ' (current)' : ''}: `), revisionReason(r),
        el('br'), el('span', { 'data-field': 'who' }, `by ${revisionAuthor(r)}`), ', ', el('span', { 'data-field': 'when' }, dateTime(parseInstant(r.created_at), this.zone())),
        el('br'), el('span', { 'data-field': 'changes' }, changeCounts(r)),
        buttons);
    }));
  }

  /** A revert is a decision too: the revision's buttons become a sentence and a confirm button. */
  private confirmRevert(buttons: HTMLElement, revision: number, current: number): void {
    const confirm = el('button', { type: 'button', class: 'primary', 'data-confirm-revert': revision }, `Revert as revision ${current + 1}`);
    const cancel = el('button', { type: 'button' }, 'Cancel');
    const previous = [...buttons.childNodes];
    confirm.addEventListener('click', () => { confirm.disabled = true; this.events.onRevert(revision); });
    cancel.addEventListener('click', () => { replaceChildren(buttons, ...previous); (previous.find((n) => n instanceof HTMLElement && n.dataset.revert) as HTMLElement | undefined)?.focus(); });
    replaceChildren(buttons,
      el('p', { class: 'revert-note' }, `Restore the tails, times, cancellations and bookings of revision ${revision} as revision ${current + 1}, written on revision ${current}? Actual times stay as reported.`),
      confirm, cancel);
    confirm.focus();
  }

  renderDiff(container: HTMLElement, diff: RevisionDiff): void {
    const zone = this.zone();
    const time = (text: string) => dateTime(parseInstant(text), zone).slice(11);
    const flightButton = (flight: string, text: string) => {
      const b = el('button', { type: 'button', class: 'action', 'data-flight': flight }, text);
      b.addEventListener('click', () => this.events.onFlight(flight));
      return b;
    };
    const tails = diff.tails.map((t) => {
      const parts = [
        ...t.cancelled.map((f) => `${numberOf(f)} cancelled`),
        ...t.retimed.map((r) => `${numberOf(r.flight)} ${time(r.from_dep)} → ${time(r.to_dep)}`),
        ...t.moved_in.map((m) => `flies ${numberOf(m.flight)} (from ${m.from_tail})`),
        ...t.moved_out.map((m) => `${numberOf(m.flight)} to ${m.to_tail}`),
        ...t.reinstated.map((f) => `${numberOf(f)} reinstated`),
      ];
      const first = t.cancelled[0] ?? t.retimed[0]?.flight ?? t.moved_in[0]?.flight ?? t.moved_out[0]?.flight ?? t.reinstated[0];
      return el('li', { 'data-tail': t.tail }, first ? flightButton(first, `${t.tail}: ${parts.join('; ')}`) : `${t.tail}: ${parts.join('; ')}`);
    });
    const moved = diff.passengers_moved.filter((p) => !p.stranded).reduce((sum, p) => sum + p.passengers, 0);
    const stranded = diff.passengers_moved.filter((p) => p.stranded).reduce((sum, p) => sum + p.passengers, 0);
    const movements = diff.movements.map((m) => {
      const reported = (['off_block', 'airborne', 'landed', 'on_block'] as const).filter((field) => m.actual[field] !== null)
        .map((field) => `${field.replace('_', ' ')} ${time(m.actual[field]!)}`);
      return el('li', { 'data-movement': m.flight }, flightButton(m.flight, `${numberOf(m.flight)}: ${reported.join(', ') || 'actual times cleared'}`));
    });
    replaceChildren(container,
      el('p', { 'data-summary': 'diff' }, `Revision ${diff.to_revision} against ${diff.from_revision}: ${diff.tails.length} ${diff.tails.length === 1 ? 'aircraft' : 'aircraft'} changed; ${moved} passengers rebooked, ${stranded} left without a journey; ${diff.movements.length} flights with new actual times.`),
      tails.length ? el('ul', { class: 'diff-tails', 'aria-label': `Aircraft changed by revision ${diff.to_revision}` }, ...tails) : null,
      movements.length ? el('ul', { class: 'diff-tails', 'aria-label': `Actual times reported in revision ${diff.to_revision}` }, ...movements) : null);
  }

  renderAlerts(list: HTMLElement, alerts: DayAlerts): void {
    replaceChildren(list, ...(alerts.alerts.length
      ? alerts.alerts.map((a) => el('li', { 'data-alert': a.type }, `⚠ ${a.detail}`))
      : [el('li', { class: 'empty' }, `No alert: revision ${alerts.revision} breaks no connection and no crew duty limit.`)]));
  }
}
