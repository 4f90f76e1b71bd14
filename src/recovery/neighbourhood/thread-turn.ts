// The simulation thread's JavaScript, the integrated strategy's first (docs/model.md 3.6, eighth round).
// A single delay's strategies share one thread: the integrated solve's chain (its JavaScript, then its
// GLPK solve, in turn) is the answer's critical path, and the restricted solves' pricing and builds,
// interleaved with it aircraft by aircraft, held it up. With a ThreadTurn the integrated solve holds
// the thread while its JavaScript runs and lends it while it waits for GLPK (or once it has ended);
// the restricted solves run their JavaScript only then, filling the integrated solve's waits instead
// of lengthening its chain. Their GLPK solves are never held. From `until` on nobody is held: an
// integrated solve still running then may end without a plan, and the restricted plans stand in for it.
export class ThreadTurn {
  private held = false;
  private waiting: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;

  /** `until`: the performance.now() instant from which the turn holds nobody. */
  constructor(private readonly until: number) {
    this.timer = setTimeout(() => this.resume(), Math.max(0, until - performance.now()));
    this.timer.unref();
  }

  /** The integrated solve's JavaScript runs (until `lend`). */
  hold(): void {
    this.held = true;
  }

  /** The integrated solve waits for GLPK, or has ended: the restricted solves held go on. */
  lend(): void {
    this.held = false;
    this.resume();
  }

  /** Resolves when the integrated solve's JavaScript does not hold the thread; null when it does not now. */
  free(): Promise<void> | null {
    if (!this.held || performance.now() >= this.until) return null;
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The simulation's solves have ended: nobody is held any more. */
  close(): void {
    clearTimeout(this.timer);
    this.lend();
  }

  private resume(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }
}
