// A solver worker thread: instantiates GLPK's WebAssembly module once for glpk.js's solve() and once
// for the warm-started relaxations (glpk-session.ts), warms it up (the first solve in a thread is up
// to twice as slow), then solves tasks sent by the pool.
import GLPK from 'glpk.js/node';
import { loadGlpkFunctions, RelaxationSessions } from './glpk-session.ts';
import { solvePacked, solveWithGlpk, type Glpk } from './glpk-solve.ts';
import type { PackedOutcome, PackedTask } from './packed-model.ts';
import { ModelBuilder } from '../src/recovery/model/linear-model.ts';
import { yieldToHttpThread } from './thread-priority.ts';

// Solves must yield the CPU to the HTTP thread: on Linux setpriority(PRIO_PROCESS, 0) renices the
// calling thread alone, so this worker runs at nice 10 while the event loop keeps nice 0.
yieldToHttpThread();

const glpk = (await (GLPK as unknown as () => Promise<Glpk>)()) as Glpk;
const sessions = new RelaxationSessions(await loadGlpkFunctions());

function warmUp(): void {
  const b = new ModelBuilder('warm_up');
  for (let i = 0; i < 30; i++) b.addVariable(`x${i}`, 'binary', (i * 7) % 11 + 1);
  for (let r = 0; r < 10; r++) {
    b.addConstraint(`r${r}`, [0, 1, 2].map((k) => ({ variable: `x${(r * 3 + k) % 30}`, coef: 1 })), '>=', 1);
  }
  solveWithGlpk(glpk, { model: b.build(), timeLimitMs: 5000, mipGap: 0 });
}
warmUp();

/** A task from the pool: its model packed, and its outcome by index (packed-model.ts). */
export default function solve(task: PackedTask): PackedOutcome {
  return solvePacked(glpk, task, sessions);
}
