// glpk.js on the benchmark's main thread: timing a solve without worker-thread overhead, and a
// "counting" solve that turns GLPK's messages on and reads the work counters from them. Both go
// through the service's own translation (solver-wasm/glpk-solve.ts), so the model GLPK sees is
// exactly the production one.
import { loadGlpkFunctions, RelaxationSessions } from '../../solver-wasm/glpk-session.ts';
import { solveWithGlpk, type Glpk } from '../../solver-wasm/glpk-solve.ts';
import type { SolveOutcome, SolveTask } from '../../src/recovery/model/solver-port.ts';
import { parseGlpkLog, type GlpkWork } from './glpk-log.ts';

// glpk.js prints GLPK's terminal output through console.log. A router installed before the module
// is created (and kept) sends it to the active capture, or to the real console when none is active.
const realLog = console.log;
/** GLPK's message level with every line (glpk.h GLP_MSG_ALL): the counting solves read their work from it. */
const GLP_MSG_ALL = 3;
let capture: string[] | null = null;
const router = (...args: unknown[]) => { if (capture) capture.push(args.join(' ')); else realLog(...args); };

interface MainThreadGlpk {
  glpk: Glpk;
  /** The warm-started relaxations (solver-wasm/glpk-session.ts), quiet and with GLPK's messages. */
  quiet: RelaxationSessions;
  loud: RelaxationSessions;
}

let instance: Promise<MainThreadGlpk> | undefined;

function loadMainThreadGlpk(): Promise<MainThreadGlpk> {
  instance ??= (async () => {
    const saved = console.log;
    console.log = router;
    try {
      const factory = (await import('glpk.js/node')).default as unknown as () => Promise<Glpk>;
      const functions = await loadGlpkFunctions();
      return { glpk: await factory(), quiet: new RelaxationSessions(functions), loud: new RelaxationSessions(functions, { messageLevel: GLP_MSG_ALL }) };
    } finally {
      console.log = saved;
    }
  })();
  return instance;
}

export async function loadGlpk(): Promise<Glpk> {
  return (await loadMainThreadGlpk()).glpk;
}

/** A solve as a worker does it (relaxations of a sequence warm-started), without a worker. */
export async function solveQuietly(task: SolveTask): Promise<SolveOutcome> {
  const { glpk, quiet } = await loadMainThreadGlpk();
  return solveWithGlpk(glpk, task, quiet);
}

export interface CountedOutcome { outcome: SolveOutcome; work: GlpkWork; log: string }

/**
 * Solve with GLPK's messages at GLP_MSG_ALL and parse its work counters. Slower than a quiet solve
 * (the messages cost time), so never timed; the counts are those of the quiet solve, which runs
 * the same algorithm on the same model.
 */
export async function solveCounting(task: SolveTask): Promise<CountedOutcome> {
  const { glpk, loud: loudSessions } = await loadMainThreadGlpk();
  const loud = Object.create(glpk, { GLP_MSG_OFF: { value: GLP_MSG_ALL } }) as Glpk;
  const lines: string[] = [];
  const saved = console.log;
  capture = lines;
  console.log = router;
  try {
    const outcome = solveWithGlpk(loud, task, loudSessions);
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
