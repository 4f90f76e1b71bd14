// The page's calls to the operational-day routes (/days): open or list days, read the current revision
// (its ETag is the revision number), watch it by polling with If-None-Match (the service's choice over
// SSE: a 304 is one small database read), read the history, a revision's diff and the alerts, and
// write: apply an option (If-Match: the revision the controller decided on) or revert. The
// controller's name travels as X-Operator on writes, so the history says who.
import { callApi, callApiAccepting, getJson } from './api-client.ts';
import type { DayAlerts, DayResponse, DayRevision, DaySummary, RevisionDiff } from './wire.ts';

const OPERATOR_STORAGE_NAME = 'drs-console-operator';
/** What the service accepts in X-Operator (1-100 printable ASCII characters). */
const OPERATOR_PATTERN = /^[\x20-\x7e]{1,100}$/;

/** The controller's name, kept for the tab like the key (it is no secret, but it is the tab's user). */
export const operatorName = {
  get: (): string => sessionStorage.getItem(OPERATOR_STORAGE_NAME) ?? '',
  set: (name: string): void => sessionStorage.setItem(OPERATOR_STORAGE_NAME, name),
};

/** A sentence refusing a name the service would refuse, or null when it is fine (blank is allowed). */
export function operatorProblem(name: string): string | null {
  if (name === '' || OPERATOR_PATTERN.test(name)) return null;
  return 'Your name goes to the service in a header: use 1 to 100 plain ASCII letters, digits, spaces or punctuation (no accents).';
}

const dayPath = (dayId: string) => `days/${encodeURIComponent(dayId)}`;
const operatorHeader = (): Record<string, string> => (operatorName.get() ? { 'X-Operator': operatorName.get() } : {});
const etagOf = (revision: number) => `"${revision}"`;

export const listDays = (limit = 20): Promise<{ days: DaySummary[] }> => getJson(`days?limit=${limit}`);

export async function openDay(scheduleFile: string): Promise<DaySummary> {
  const response = await callApi('days', { method: 'POST', body: JSON.stringify(scheduleFile ? { schedule_file: scheduleFile } : {}), headers: operatorHeader() });
  return (await response.json()) as DaySummary;
}

/**
 * The day's current revision, or null when it is still `knownRevision` (a 304 to If-None-Match).
 * Rejects with ApiError (404 for a day of another environment or none).
 */
export async function readDay(dayId: string, knownRevision: number | null, signal?: AbortSignal): Promise<DayResponse | null> {
  const headers: Record<string, string> = knownRevision === null ? {} : { 'If-None-Match': etagOf(knownRevision) };
  const response = await callApiAccepting(dayPath(dayId), [304], { headers, ...(signal ? { signal } : {}) });
  if (response.status === 304) return null;
  return (await response.json()) as DayResponse;
}

export const readRevisions = (dayId: string): Promise<{ revisions: DayRevision[] }> => getJson(`${dayPath(dayId)}/revisions`);
export const readDiff = (dayId: string, revision: number): Promise<RevisionDiff> => getJson(`${dayPath(dayId)}/revisions/${revision}/diff`);
export const readAlerts = (dayId: string): Promise<DayAlerts> => getJson(`${dayPath(dayId)}/alerts`);

/**
 * Applies an option of a simulation of the day (its job id) on `revision`, the one the controller saw:
 * a 412 (ApiError) when another change was written since, 409 when a flight it changes has departed.
 */
export async function applyOption(dayId: string, revision: number, simulationId: string, optionId: string): Promise<DayRevision> {
  const response = await callApi(`${dayPath(dayId)}/apply`, {
    method: 'POST', body: JSON.stringify({ simulation_id: simulationId, option_id: optionId }), headers: { 'If-Match': etagOf(revision), ...operatorHeader() },
  });
  return (await response.json()) as DayRevision;
}

/** Restores the plan of `toRevision` in a new revision, written on `revision` (If-Match). */
export async function revertDay(dayId: string, revision: number, toRevision: number): Promise<DayRevision> {
  const response = await callApi(`${dayPath(dayId)}/revert`, {
    method: 'POST', body: JSON.stringify({ revision: toRevision }), headers: { 'If-Match': etagOf(revision), ...operatorHeader() },
  });
  return (await response.json()) as DayRevision;
}

/** Polls the day every `intervalMs` and calls `onRevision` with each new revision (never twice the same). */
export class DayWatcher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly abort = new AbortController();

  constructor(
    private readonly dayId: string,
    private revision: number,
    private readonly intervalMs: number,
    private readonly onRevision: (day: DayResponse) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.schedule();
  }

  /** The page wrote or read a revision itself: poll from there. */
  seen(revision: number): void { this.revision = Math.max(this.revision, revision); }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
  }

  private async poll(): Promise<void> {
    try {
      const day = await readDay(this.dayId, this.revision, this.abort.signal);
      if (this.abort.signal.aborted) return;
      if (day && day.revision !== this.revision) {
        this.revision = day.revision;
        this.onRevision(day);
      }
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.onError(error);
    }
    if (!this.abort.signal.aborted) this.schedule();
  }
}

