// Translation of a LinearModel to glpk.js and interpretation of GLPK's answer. The only module,
// with worker.ts, that touches glpk.js.
import type { LinearModel } from '../src/recovery/linear-model.ts';
import type { SolveOutcome, SolveTask } from '../src/recovery/solver-port.ts';

/** Share of a solve's time limit given to GLPK's own limit (see solveWithGlpk). */
export const GLPK_SHARE_OF_TIME_LIMIT = 0.75;

/** The part of glpk.js we use: it has no usable type declarations for its node entry. */
export interface Glpk {
  GLP_MIN: number; GLP_FR: number; GLP_LO: number; GLP_UP: number; GLP_DB: number; GLP_FX: number; GLP_MSG_OFF: number;
  GLP_UNDEF: number; GLP_FEAS: number; GLP_INFEAS: number; GLP_NOFEAS: number; GLP_OPT: number; GLP_UNBND: number;
  solve(lp: unknown, options: Record<string, unknown>): { result: { status: number; z: number; vars: Record<string, number>; dual?: Record<string, number> } };
}

function toGlpk(glpk: Glpk, model: LinearModel, relax: boolean) {
  const bound = (lb: number, ub: number) =>
    ub === Infinity ? { type: glpk.GLP_LO, lb, ub: 0 } : lb === ub ? { type: glpk.GLP_FX, lb, ub } : { type: glpk.GLP_DB, lb, ub };
  return {
    name: model.name,
    objective: { direction: glpk.GLP_MIN, name: 'obj', vars: model.variables.map((v) => ({ name: v.name, coef: v.cost })) },
    subjectTo: model.constraints.map((c) => ({
      name: c.name,
      vars: c.terms.map((t) => ({ name: t.variable, coef: t.coef })),
      bnds: c.sense === '=' ? { type: glpk.GLP_FX, lb: c.rhs, ub: c.rhs }
        : c.sense === '<=' ? { type: glpk.GLP_UP, lb: 0, ub: c.rhs } : { type: glpk.GLP_LO, lb: c.rhs, ub: 0 },
    })),
    // Relaxed, a binary keeps no upper bound of its own: in our models each one sits in a row that
    // bounds it (Σ routes of an aircraft = 1), and a bound of its own would take part of the dual
    // information away from the rows (a column at its bound may price negative at the optimum).
    bounds: model.variables.map((v) => ({ name: v.name, ...bound(v.lb, v.kind === 'binary' ? (relax ? Infinity : 1) : v.ub) })),
    binaries: relax ? [] : model.variables.filter((v) => v.kind === 'binary').map((v) => v.name),
    generals: relax ? [] : model.variables.filter((v) => v.kind === 'integer').map((v) => v.name),
  };
}

/**
 * Solve synchronously (call it only on a worker thread). Outcomes are values, never exceptions:
 * GLPK status 1 (undefined) after the time limit means "no plan", never a free plan with z = 0.
 */
export function solveWithGlpk(glpk: Glpk, task: SolveTask): SolveOutcome {
  const started = performance.now();
  // glpk.js aborts its WebAssembly instance (not a catchable status) on a row without columns, and an
  // aborted instance cannot be trusted again: decide such rows here. An unsatisfiable empty row
  // (e.g. an aircraft without any allowed route) means the model is infeasible.
  const empty = task.model.constraints.filter((c) => c.terms.length === 0);
  const violated = empty.find((c) => (c.sense === '=' ? c.rhs !== 0 : c.sense === '<=' ? c.rhs < 0 : c.rhs > 0));
  if (violated) {
    return { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs: performance.now() - started, detail: `No plan satisfies ${violated.name}.` };
  }
  if (empty.length) task = { ...task, model: { ...task.model, constraints: task.model.constraints.filter((c) => c.terms.length > 0) } };
  // Nothing to decide (an empty scope): glpk.js would abort on a problem without columns.
  if (task.model.variables.length === 0) {
    return { status: 'optimal', objective: 0, values: {}, lowerBound: task.relaxation ? 0 : null, solveMs: performance.now() - started, detail: null, ...(task.relaxation ? { duals: {} } : {}) };
  }
  if (task.relaxation) return solveRelaxation(glpk, task, started);
  // GLPK gets three quarters of the budget: it overshoots its own limit a little, and the rest pays
  // for the LP bound below, so that a plan found in time is not lost to the pool's hard stop.
  const glpkLimitMs = task.timeLimitMs * GLPK_SHARE_OF_TIME_LIMIT;
  const options = { msglev: glpk.GLP_MSG_OFF, presol: true, tmlim: glpkLimitMs / 1000, mipgap: task.mipGap };
  const { result } = glpk.solve(toGlpk(glpk, task.model, false), options);
  const solveMs = performance.now() - started;
  const hitLimit = solveMs >= glpkLimitMs * 0.95;
  const plan = () => Object.fromEntries(Object.entries(result.vars).filter(([, value]) => Math.abs(value) > 1e-9));
  // When GLPK stops early, the LP relaxation's optimum bounds the unknown optimum from below.
  const lowerBound = () => {
    if (performance.now() - started > task.timeLimitMs * 0.9) return null; // no time left: gap unknown
    const remainingMs = task.timeLimitMs - (performance.now() - started);
    const lp = glpk.solve(toGlpk(glpk, task.model, true), { msglev: glpk.GLP_MSG_OFF, presol: true, tmlim: remainingMs / 1000 }).result;
    return lp.status === glpk.GLP_OPT ? lp.z : null;
  };
  switch (result.status) {
    case glpk.GLP_OPT:
      return { status: 'optimal', objective: result.z, values: plan(), lowerBound: null, solveMs, detail: null };
    case glpk.GLP_FEAS:
      // GLPK reports FEAS both when the MIP gap was reached and when time ran out with a plan.
      return { status: hitLimit ? 'time_limit' : 'feasible', objective: result.z, values: plan(), lowerBound: lowerBound(), solveMs, detail: null };
    case glpk.GLP_NOFEAS:
    case glpk.GLP_INFEAS:
      return { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs, detail: 'GLPK proved that no plan satisfies the constraints.' };
    default:
      return hitLimit
        ? { status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs, detail: 'The time limit was reached before GLPK found any plan.' }
        : { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs, detail: `GLPK found no plan (status ${result.status}).` };
  }
}

/** The LP relaxation with its row duals (the column generation's master problem). */
function solveRelaxation(glpk: Glpk, task: SolveTask, started: number): SolveOutcome {
  // Without the presolver: with it, GLPK reports an infeasible LP as "undefined" (status 1), which
  // would read as a time limit. (Only MIP solves need the presolver in glpk.js.)
  const { result } = glpk.solve(toGlpk(glpk, task.model, true), { msglev: glpk.GLP_MSG_OFF, presol: false, tmlim: task.timeLimitMs / 1000 });
  const solveMs = performance.now() - started;
  if (result.status === glpk.GLP_OPT) {
    const values = Object.fromEntries(Object.entries(result.vars).filter(([, value]) => Math.abs(value) > 1e-9));
    return { status: 'optimal', objective: result.z, values, lowerBound: result.z, solveMs, detail: null, duals: result.dual ?? {} };
  }
  if (result.status === glpk.GLP_NOFEAS || result.status === glpk.GLP_INFEAS) {
    return { status: 'infeasible', objective: null, values: {}, lowerBound: null, solveMs, detail: 'GLPK proved that the relaxation has no solution.' };
  }
  return { status: 'time_limit', objective: null, values: {}, lowerBound: null, solveMs, detail: `GLPK did not solve the relaxation (status ${result.status}).` };
}
