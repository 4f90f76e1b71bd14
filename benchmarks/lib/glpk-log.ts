// Work counters from GLPK's terminal output. glpk.js exposes no counters through its API, but the
// same GLPK 5.0 prints them when its message level is GLP_MSG_ALL (glpk.js) or into `glpsol --log`:
//   "*   182: obj = ..."        simplex iteration count while solving an LP (cumulative over the
//                               problem's life: a warm-started relaxation, solver-wasm/glpk-session.ts,
//                               starts from the count its problem had, so a solve's work is the last
//                               count less the first)
//   "+   205: mip = ... (0; 5)" branch-and-bound progress: cumulative simplex iterations, then
//                               (active subproblems; subproblems completely explored)
// The last progress line of a finished search has "tree is empty" and (0; n): n subproblems explored.

export interface GlpkWork {
  /** Simplex iterations over the whole solve (root LP and every subproblem); null if the log shows none. */
  simplexIterations: number | null;
  /** Branch-and-bound subproblems completely explored; 0 when the MIP presolver or root solved it; null if unknown. */
  bbNodes: number | null;
}

const ITERATION_LINE = /^[ *+]\s*(\d+):\s+(?:obj|mip|>>>>>)/;
const PROGRESS_LINE = /^\+\s*\d+:.*\((\d+); (\d+)\)\s*$/;

export function parseGlpkLog(text: string): GlpkWork {
  let first: number | null = null;
  let last: number | null = null;
  let nodes: number | null = null;
  for (const line of text.split(/\r?\n/)) {
    const it = ITERATION_LINE.exec(line);
    if (it) {
      first = Math.min(first ?? Number(it[1]), Number(it[1]));
      last = Math.max(last ?? 0, Number(it[1]));
    }
    const progress = PROGRESS_LINE.exec(line);
    if (progress) nodes = Number(progress[2]);
  }
  let iterations = last === null ? null : last - first!;
  // The MIP presolver can settle a model without any simplex iteration or search tree.
  const solvedWithoutSearch = /SOLUTION FOUND BY MIP PREPROCESSOR|PROBLEM HAS NO (PRIMAL|INTEGER) FEASIBLE SOLUTION/.test(text);
  if (solvedWithoutSearch) {
    iterations ??= 0;
    nodes ??= 0;
  }
  if (iterations !== null && nodes === null && /INTEGER OPTIMAL SOLUTION FOUND/.test(text)) nodes = 0;
  return { simplexIterations: iterations, bbNodes: nodes };
}
