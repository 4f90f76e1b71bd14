// Progress of long runs, on stderr so that stdout stays the table. On a terminal one line is
// rewritten in place; otherwise (CI logs, pipes) each step is its own line.
const started = performance.now();
const tty = process.stderr.isTTY === true;
let open = false;

function elapsed(): string {
  return `${((performance.now() - started) / 1000).toFixed(0)}s`;
}

export function progress(message: string): void {
  const line = `[bench ${elapsed()}] ${message}`;
  if (tty) {
    const width = process.stderr.columns ?? 100;
    process.stderr.write(`\r${line.slice(0, width - 1).padEnd(width - 1)}`);
    open = true;
  } else {
    process.stderr.write(`${line}\n`);
  }
}

/** A line that stays (a finished part, a skipped column and why). */
export function announce(message: string): void {
  if (open) process.stderr.write('\n');
  open = false;
  process.stderr.write(`[bench ${elapsed()}] ${message}\n`);
}
