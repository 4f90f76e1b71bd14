// The one time budget of a simulation, from the endpoint to GLPK (docs/architecture.md): when it
// started, how long it may take, and the one signal that cancels it. Every hop passes it down as
// it is; what a stage may use is a part of it (`within`), never a fresh number of milliseconds.
//
// Instants are performance.now() values of the thread that holds the budget. performance.now()
// counts from each thread's own start, so a budget crosses a thread as BudgetData (an epoch instant,
// performance.timeOrigin + performance.now(), which every thread of the process reads alike) and
// becomes a Budget again on the other side.

/** A budget as plain data, to cross a thread: its start as an epoch instant (ms, sub-ms precision) and its limit. */
export interface BudgetData {
  startedAtEpochMs: number;
  limitMs: number;
}

export class Budget {
  /** Where the budget ends, a performance.now() instant of this thread; `cutTo` may bring it forward. */
  private end: number;
  private cutShort = false;

  private constructor(
    /** performance.now() instant at which the simulation started (the request arrived). */
    readonly startedAt: number,
    /** The time limit asked for, milliseconds (config.solver.time_limit_ms). */
    readonly limitMs: number,
    /** The one cancellation signal (the client went away, a job was cancelled, a solve failed). */
    readonly signal: AbortSignal,
    end: number,
    private readonly parent: Budget | null,
  ) {
    this.end = end;
  }

  /** A budget of `limitMs` starting now. */
  static start(limitMs: number, signal: AbortSignal = new AbortController().signal): Budget {
    const now = performance.now();
    return new Budget(now, limitMs, signal, now + limitMs, null);
  }

  /** The budget `data` describes, on this thread, cancelled by `signal`. */
  static fromData(data: BudgetData, signal: AbortSignal): Budget {
    const startedAt = data.startedAtEpochMs - performance.timeOrigin;
    return new Budget(startedAt, data.limitMs, signal, startedAt + data.limitMs, null);
  }

  toData(): BudgetData {
    return { startedAtEpochMs: performance.timeOrigin + this.startedAt, limitMs: this.limitMs };
  }

  /** The performance.now() instant by which its holder must have answered. */
  get deadline(): number {
    return this.parent ? Math.min(this.end, this.parent.deadline) : this.end;
  }

  /** Milliseconds left, at least 0. */
  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  get expired(): boolean {
    return performance.now() >= this.deadline;
  }

  /** The instant `share` (0..1) of the way from its start to its deadline, as the deadline stands now. */
  at(share: number): number {
    return this.startedAt + share * (this.deadline - this.startedAt);
  }

  /**
   * A part of this budget: the same start, limit and signal, ending at `end` or at this budget's
   * deadline, whichever is first (also when this one is cut later). `signal`, when given, replaces
   * the signal (one that also follows this budget's).
   */
  within(end: number = Number.POSITIVE_INFINITY, signal: AbortSignal = this.signal): Budget {
    return new Budget(this.startedAt, this.limitMs, signal, end, this);
  }

  /** Brings the deadline forward to `at` (never back): the holder's search is then cut short (`cut`). */
  cutTo(at: number): void {
    if (at < this.end) this.cutShort = true;
    this.end = Math.min(this.end, at);
  }

  /** Whether `cutTo` brought this budget's (or a parent's) deadline forward: its holder may say it was cut short. */
  get cut(): boolean {
    return this.cutShort || (this.parent?.cut ?? false);
  }

  /** Elapsed since the start, milliseconds. */
  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
}
