// Translation of a model (packed, as it reaches a worker: packed-model.ts) to glpk.js and
// interpretation of GLPK's answer. The only modules that touch glpk.js: this one, worker.ts, and
// glpk-session.ts (the warm-started relaxations, which this hands their solves to).
import type { SolveOutcome, SolveTask } from '../src/recovery/model/solver-port.ts';
import type { RelaxationSessions } from './glpk-session.ts';
import { kindOf, packTask, senseOf, unpackOutcome, type PackedModel, type PackedOutcome, type PackedTask } from './packed-model.ts';

/** Share of a solve's time limit given to GLPK's own limit (see solvePacked). */
export const GLPK_SHARE_OF_TIME_LIMIT = 0.75;

/** The part of glpk.js we use: it has no usable type declarations for its node entry. */
export interface Glpk {
  GLP_MIN: number; GLP_FR: number; GLP_LO: number; GLP_UP: number; GLP_DB: number; GLP_FX: number; GLP_MSG_OFF: number;
  GLP_UNDEF: number; GLP_FEAS: number; GLP_INFEAS: number; GLP_NOFEAS: number; GLP_OPT: number; GLP_UNBND: number;
  solve(lp: unknown, options: Record<string, unknown>): { result: { status: number; z: number; vars: Record<string, number>; dual?: Record<string, number> } };
}

/** GLPK's bound types (glpk.h): glpk.js and the warm-started relaxations (glpk-session.ts) both take them. */
export const GLP_FR = 1, GLP_LO = 2, GLP_UP = 3, GLP_DB = 4, GLP_FX = 5;

export interface Bounds { type: number; lb: number; ub: number }

/** Row `r`'s bounds as GLPK takes them. */
export function rowBounds(model: PackedModel, r: number): Bounds {
  const rhs = model.rhs[r]!;
  const sense = senseOf(model, r);
  return sense === '=' ? { type: GLP_FX, lb: rhs, ub: rhs } : sense === '<=' ? { type: GLP_UP, lb: 0, ub: rhs } : { type: GLP_LO, lb: rhs, ub: 0 };
}

/**
 * Column `c`'s bounds as GLPK takes them. Relaxed, a binary keeps no upper bound of its own: in our
 * models each one sits in a row that bounds it (Σ routes of an aircraft = 1), and a bound of its own
 * would take part of the dual information away from the rows (a column at its bound may price
 * negative at the optimum).
 */
export function columnBounds(model: PackedModel, c: number, relax: boolean): Bounds {
  const lb = model.lb[c]!;
  const ub = kindOf(model, c) === 'binary' ? (relax ? Infinity : 1) : model.ub[c]!;
  return ub === Infinity ? { type: GLP_LO, lb, ub: 0 } : lb === ub ? { type: GLP_FX, lb, ub } : { type: GLP_DB, lb, ub };
}

/**
 * The glpk.js problem of `model` over its rows `rows` (those with terms: see solvePacked). GLPK knows
 * column i as `c<i>` and row r as `r<r>` (byIndex reads its answers back): the model's own names stay
 * with the caller (packed-model.ts).
 */
function toGlpk(glpk: Glpk, model: PackedModel, rows: readonly number[], relax: boolean) {
  const names = Array.from(model.kinds, (_, i) => `c${i}`);
  const columns = names.map((_, i) => i);
  return {
    name: model.name,
    objective: { direction: glpk.GLP_MIN, name: 'obj', vars: columns.map((i) => ({ name: names[i]!, coef: model.cost[i]! })) },
    subjectTo: rows.map((r) => {
      const vars: { name: string; coef: number }[] = [];
      for (let k = model.rowStarts[r]!; k < model.rowStarts[r + 1]!; k++) vars.push({ name: names[model.termColumns[k]!]!, coef: model.termCoefs[k]! });
      return { name: `r${r}`, vars, bnds: rowBounds(model, r) };
    }),
    bounds: columns.map((i) => ({ name: names[i]!, ...columnBounds(model, i, relax) })),
    binaries: relax ? [] : columns.filter((i) => kindOf(model, i) === 'binary').map((i) => names[i]!),
    generals: relax ? [] : columns.filter((i) => kindOf(model, i) === 'integer').map((i) => names[i]!),
  };
}

/** GLPK's answer by its names (`c<i>` or `r<r>`: toGlpk) as an array by index; what GLPK did not see stays 0. */
function byIndex(answer: Record<string, number>, size: number): Float64Array {
  const values = new Float64Array(size);
  for (const key in answer) values[Number(key.slice(1))] = answer[key]!;
  return values;
}

/** solvePacked for a model in objects (on the thread that built it: tests and benchmarks). */
export function solveWithGlpk(glpk: Glpk, task: SolveTask, sessions?: RelaxationSessions): SolveOutcome {
  return unpackOutcome(solvePacked(glpk, packTask(task), sessions), task.model);
}

/**
 * Solve synchronously (call it only on a worker thread). Outcomes are values, never exceptions:
 * GLPK status 1 (undefined) after the time limit means "no plan", never a free plan with z = 0.
 * A relaxation of a warm-started sequence goes to `sessions` when given (glpk-session.ts).
 */
export function solvePacked(glpk: Glpk, task: PackedTask, sessions?: RelaxationSessions): PackedOutcome {
  const started = performance.now();
  const { model } = task;
  // glpk.js aborts its WebAssembly instance (not a catchable status) on a row without columns, and an
  // aborted instance cannot be trusted again: decide such rows here. An unsatisfiable empty row
  // (e.g. an aircraft without any allowed route) means the model is infeasible.
  const rows: number[] = [];
  for (let r = 0; r < model.senses.length; r++) {
    if (model.rowStarts[r + 1]! > model.rowStarts[r]!) { rows.push(r); continue; }
    const sense = senseOf(model, r);
    const rhs = model.rhs[r]!;
    if (sense === '=' ? rhs !== 0 : sense === '<=' ? rhs < 0 : rhs > 0) {
      return { status: 'infeasible', objective: null, values: null, lowerBound: null, solveMs: performance.now() - started, detail: 'No plan satisfies {row}.', row: r };
    }
  }
  // Nothing to decide (an empty scope): glpk.js would abort on a problem without columns.
  if (model.kinds.length === 0) {
    return { status: 'optimal', objective: 0, values: new Float64Array(0), lowerBound: task.relaxation ? 0 : null, solveMs: performance.now() - started, detail: null, ...(task.relaxation ? { duals: new Float64Array(model.senses.length) } : {}) };
  }
  if (task.relaxation && task.session && sessions) return sessions.solve(model, rows, task.session, task.timeLimitMs, started);
  if (task.relaxation) return solveRelaxation(glpk, model, rows, task.timeLimitMs, started);
  // GLPK gets three quarters of the budget: it overshoots its own limit a little, and the rest pays
  // for the LP bound below, so that a plan found in time is not lost to the pool's hard stop.
  const glpkLimitMs = task.timeLimitMs * GLPK_SHARE_OF_TIME_LIMIT;
  const options = { msglev: glpk.GLP_MSG_OFF, presol: true, tmlim: glpkLimitMs / 1000, mipgap: task.mipGap };
  const { result } = glpk.solve(toGlpk(glpk, model, rows, false), options);
  const solveMs = performance.now() - started;
  const hitLimit = solveMs >= glpkLimitMs * 0.95;
  const plan = () => byIndex(result.vars, model.kinds.length);
  // When GLPK stops early, the LP relaxation's optimum bounds the unknown optimum from below.
  const lowerBound = () => {
    if (performance.now() - started > task.timeLimitMs * 0.9) return null; // no time left: gap unknown
    const remainingMs = task.timeLimitMs - (performance.now() - started);
    const lp = glpk.solve(toGlpk(glpk, model, rows, true), { msglev: glpk.GLP_MSG_OFF, presol: true, tmlim: remainingMs / 1000 }).result;
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
      return { status: 'infeasible', objective: null, values: null, lowerBound: null, solveMs, detail: 'GLPK proved that no plan satisfies the constraints.' };
    default:
      return hitLimit
        ? { status: 'time_limit', objective: null, values: null, lowerBound: null, solveMs, detail: 'The time limit was reached before GLPK found any plan.' }
        : { status: 'infeasible', objective: null, values: null, lowerBound: null, solveMs, detail: `GLPK found no plan (status ${result.status}).` };
  }
}

/** The LP relaxation with its row duals (the column generation's master problem). */
function solveRelaxation(glpk: Glpk, model: PackedModel, rows: readonly number[], timeLimitMs: number, started: number): PackedOutcome {
  // Without the presolver: with it, GLPK reports an infeasible LP as "undefined" (status 1), which
  // would read as a time limit. (Only MIP solves need the presolver in glpk.js.)
  const { result } = glpk.solve(toGlpk(glpk, model, rows, true), { msglev: glpk.GLP_MSG_OFF, presol: false, tmlim: timeLimitMs / 1000 });
  const solveMs = performance.now() - started;
  if (result.status === glpk.GLP_OPT) {
    return {
      status: 'optimal', objective: result.z, values: byIndex(result.vars, model.kinds.length), lowerBound: result.z, solveMs, detail: null,
      duals: byIndex(result.dual ?? {}, model.senses.length),
    };
  }
  if (result.status === glpk.GLP_NOFEAS || result.status === glpk.GLP_INFEAS) {
    return { status: 'infeasible', objective: null, values: null, lowerBound: null, solveMs, detail: 'GLPK proved that the relaxation has no solution.' };
  }
  return { status: 'time_limit', objective: null, values: null, lowerBound: null, solveMs, detail: `GLPK did not solve the relaxation (status ${result.status}).` };
}
