// The confirmation before an option is applied to the live day: a modal dialog (the browser keeps the
// keyboard inside it; Escape cancels) that says which revision the option will be written on, by whom,
// what changes aircraft by aircraft (the option view's per-tail diff) and what happens to the
// passengers. The revision it names is the one the controller saw: the page sends it as If-Match, so a
// change written meanwhile by someone else is refused (412) rather than overwritten, and the service's
// sentence is shown here.
import type { TailChange } from '../model/option-diff.ts';
import type { OptionPassengers } from '../model/passengers.ts';
import { byId, el, replaceChildren } from './dom.ts';

export interface ApplyConfirmation {
  /** `option 1 (cancellation = integrated)` */
  optionName: string;
  dayName: string;
  /** The revision on screen, which the apply is written on (If-Match). */
  revision: number;
  /** The revision the simulation was solved on. */
  simulatedOn: number;
  operator: string;
  cost: string;
  changes: readonly TailChange[];
  passengers: OptionPassengers;
}

export class ApplyDialog {
  private readonly dialog = byId<HTMLDialogElement>('apply-dialog');
  private onConfirm: (() => void) | null = null;

  constructor() {
    byId('confirm-apply').addEventListener('click', () => this.onConfirm?.());
    byId('cancel-apply').addEventListener('click', () => this.close());
    // Escape closes the dialog without our Cancel: nothing may be applied after that.
    this.dialog.addEventListener('close', () => { this.onConfirm = null; });
  }

  get isOpen(): boolean { return this.dialog.open; }

  open(what: ApplyConfirmation, onConfirm: () => void): void {
    this.onConfirm = onConfirm;
    byId('apply-title').textContent = `Apply ${what.optionName} to the day?`;
    byId('apply-what').textContent = `It becomes revision ${what.revision + 1} of ${what.dayName}, written on revision ${what.revision} (the one on screen), by ${what.operator || 'you (no name given: the history will show the key id only)'}. Cost of the option: ${what.cost}.`;
    this.warn(what.simulatedOn === what.revision ? null
      : `The options were simulated on revision ${what.simulatedOn}; the day is at revision ${what.revision}. The service applies the option only if nothing it changes was changed since.`);
    replaceChildren(byId('apply-tails'), ...(what.changes.length
      ? what.changes.map((c) => el('li', { 'data-tail': c.tail }, el('strong', {}, c.tail), `: ${c.summary}`))
      : [el('li', {}, 'No aircraft changes.')]));
    const p = what.passengers;
    const moved = p.moved.reduce((sum, g) => sum + g.passengers, 0);
    const stranded = p.stranded.reduce((sum, g) => sum + g.passengers, 0);
    byId('apply-passengers').textContent = `${moved} moved to other flights in ${p.moved.length} ${p.moved.length === 1 ? 'group' : 'groups'}; ${stranded} left without a journey (compensated) in ${p.stranded.length} ${p.stranded.length === 1 ? 'group' : 'groups'}${p.spilled ? `; ${p.spilled} spilled` : ''}. The Passengers list under the Gantt names every group.`;
    byId('confirm-apply').textContent = `Apply as revision ${what.revision + 1}`;
    this.busy(false);
    this.error(null);
    if (!this.dialog.open) this.dialog.showModal();
    byId('confirm-apply').focus();
  }

  /** A line above the diff (the day moved on while the dialog was open, or since the simulation). */
  warn(text: string | null): void {
    const box = byId('apply-warning');
    box.hidden = text === null;
    box.textContent = text ?? '';
  }

  /** The service's refusal (412, 409, …) in the dialog; Apply stays off, Cancel takes the focus. */
  error(text: string | null): void {
    const box = byId('apply-error');
    box.hidden = text === null;
    box.textContent = text ?? '';
    if (text !== null) {
      byId<HTMLButtonElement>('confirm-apply').disabled = true;
      byId('cancel-apply').textContent = 'Close';
      byId('cancel-apply').focus();
    } else {
      byId('cancel-apply').textContent = 'Cancel';
    }
  }

  busy(on: boolean): void {
    byId<HTMLButtonElement>('confirm-apply').disabled = on;
  }

  close(): void {
    this.onConfirm = null;
    if (this.dialog.open) this.dialog.close();
  }
}
