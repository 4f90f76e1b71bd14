// glpk.js on the benchmark's main thread: timing a solve without worker-thread overhead, and a
// "counting" solve that turns GLPK's messages on and reads the work counters from them. Both go
// through the service's own translation (solver-wasm/glpk-solve.ts), so the model GLPK sees is
// exactly the production one.
import { solveWithGlpk, type Glpk } from '../../solver-wasm/glpk-solve.ts';
import type { SolveOutcome, SolveTask } from '../../src/recovery/solver-port.ts';
import { parseGlpkLog, type GlpkWork } from './glpk-log.ts';

// glpk.js prints GLPK's terminal output through console.log. A router installed before the module
// is created (and kept) sends it to the active capture, or to the real console when none is active.
const realLog = console.log;
let capture: string[] | null = null;
const router = (...args: unknown[]) => { if (capture) capture.push(args.join(' ')); else realLog(...args); };

let instance: Promise<Glpk> | undefined;

export function loadGlpk(): Promise<Glpk> {
  instance ??= (async () => {
    const saved = console.log;
    console.log = router;
    try {
      const factory = (await import('glpk.js/node')).default as unknown as () => Promise<Glpk>;
      return await factory();
    } finally {
      console.log = saved;
    }
  })();
  return instance;
}

export async function solveQuietly(task: SolveTask): Promise<SolveOutcome> {
  return solveWithGlpk(await loadGlpk(), task);
}

export interface CountedOutcome { outcome: SolveOutcome; work: GlpkWork; log: string }

/**
 * Solve with GLPK's messages at GLP_MSG_ALL and parse its work counters. Slower than a quiet solve
 * (the messages cost time), so never timed; the counts are those of the quiet solve, which runs
 * the same algorithm on the same model.
 */
export async function solveCounting(task: SolveTask): Promise<CountedOutcome> {
  const glpk = await loadGlpk();
  const loud = Object.create(glpk, { GLP_MSG_OFF: { value: (glpk as unknown as { GLP_MSG_ALL: number }).GLP_MSG_ALL } }) as Glpk;
  const lines: string[] = [];
  const saved = console.log;
  capture = lines;
  console.log = router;
  try {
    const outcome = solveWithGlpk(loud, task);
    const log = lines.join('\n');
    return { outcome, work: parseGlpkLog(log), log };
  } finally {
    capture = null;
    console.log = saved;
  }
}

export async function glpkVersion(): Promise<string> {
  const glpk = (await loadGlpk()) as unknown as { version?: string };
  return glpk.version ?? 'unknown';
}
