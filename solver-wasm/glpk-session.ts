// Warm-started relaxations: the master LPs of one column generation solved in one GLPK problem kept
// between solves. Each master is the last one with routes (columns) and rows added, so the last
// optimal basis is a feasible start for the next one: GLPK's primal simplex goes on from it instead
// of starting from the slack basis every round, as glpk.js's solve() does (it builds and deletes a
// problem per call). Measured on the 34 masters of one single-delay column generation: 51 ms in all
// instead of 333 ms, the same optima.
//
// glpk.js keeps the Emscripten module it builds on private; expose-glpk-module.mjs exports it, and
// this calls GLPK's C functions through it, by number only (no names cross into WebAssembly).
import * as glpkNode from 'glpk.js/node';
import { columnBounds, GLP_FR, GLP_FX, rowBounds } from './glpk-solve.ts';
import type { PackedModel, PackedOutcome, PackedSession } from './packed-model.ts';

/** The part of the Emscripten module used here (the factory is exported by expose-glpk-module.mjs). */
interface EmscriptenGlpk {
  cwrap(name: string, returns: 'number' | null, args: 'number'[]): (...args: number[]) => number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  writeArrayToMemory(bytes: Uint8Array, pointer: number): void;
}

/** GLPK's C functions and constants this module calls (glpk.h). */
interface GlpkFunctions {
  module: EmscriptenGlpk;
  createProb(): number;
  deleteProb(p: number): void;
  addRows(p: number, n: number): number;
  addCols(p: number, n: number): number;
  setRowBnds(p: number, i: number, type: number, lb: number, ub: number): void;
  setColBnds(p: number, j: number, type: number, lb: number, ub: number): void;
  setObjCoef(p: number, j: number, coef: number): void;
  loadMatrix(p: number, ne: number, ia: number, ja: number, ar: number): void;
  /** glpk.js's solve_lp(P, msg_lev, tm_lim, presolve): glp_simplex with those parameters; its return code. */
  simplex(p: number, msgLev: number, tmLim: number, presolve: number): number;
  status(p: number): number;
  objective(p: number): number;
  colPrim(p: number, j: number): number;
  rowDual(p: number, i: number): number;
}

const GLP_INFEAS = 3, GLP_NOFEAS = 4, GLP_OPT = 5;
/** glp_smcp.tm_lim is a C int of milliseconds. */
const INT_MAX = 2_147_483_647;
/** glp_simplex's codes for a start basis it cannot use (invalid, singular, ill-conditioned) and for a failure on the way. */
const BAD_BASIS = new Set([0x01, 0x02, 0x03, 0x05]);

export async function loadGlpkFunctions(): Promise<GlpkFunctions> {
  const factory = (glpkNode as unknown as { glpkModule?: () => Promise<EmscriptenGlpk> }).glpkModule;
  if (!factory) throw new Error('glpk.js does not export its module: run `npm ci` (its postinstall, solver-wasm/expose-glpk-module.mjs, adds the export).');
  const module = await factory();
  const f = (name: string, returns: 'number' | null, arity: number) => module.cwrap(name, returns, Array<'number'>(arity).fill('number'));
  return {
    module,
    createProb: f('glp_create_prob', 'number', 0),
    deleteProb: f('glp_delete_prob', null, 1),
    addRows: f('glp_add_rows', 'number', 2),
    addCols: f('glp_add_cols', 'number', 2),
    setRowBnds: f('glp_set_row_bnds', null, 5),
    setColBnds: f('glp_set_col_bnds', null, 5),
    setObjCoef: f('glp_set_obj_coef', null, 3),
    loadMatrix: f('glp_load_matrix', null, 5),
    simplex: f('solve_lp', 'number', 4),
    status: f('glp_get_status', 'number', 1),
    objective: f('glp_get_obj_val', 'number', 1),
    colPrim: f('glp_get_col_prim', 'number', 2),
    rowDual: f('glp_get_row_dual', 'number', 2),
  };
}

/** One sequence's problem: GLPK's row and column (1-based) of each row and column number (PackedSession). */
interface Session { problem: number; rowAt: Map<number, number>; columnAt: Map<number, number> }

/**
 * The problems of the sequences this thread has solved lately. A sequence's relaxations may run on
 * any worker (the pool has no affinity): each keeps its own problem of the sequence, from the last
 * relaxation it solved, and one it no longer has (evicted, or a replaced worker) starts from scratch.
 */
export class RelaxationSessions {
  /** In order of use, the least recent first. */
  private readonly sessions = new Map<number, Session>();

  /** `messageLevel`: GLPK's terminal output (glp_smcp.msg_lev; 0 none, as the service runs it). */
  constructor(private readonly glpk: GlpkFunctions, private readonly options: { capacity?: number; messageLevel?: number } = {}) {}

  /**
   * The relaxation of `model` (its rows `rows`, those with terms: glpk-solve.ts), from the basis this
   * thread last left in its sequence's problem; a basis GLPK cannot start from is dropped and the
   * model solved from scratch.
   */
  solve(model: PackedModel, rows: readonly number[], session: PackedSession, timeLimitMs: number, started: number): PackedOutcome {
    let s = this.open(session.id, false);
    let code = this.run(s, model, rows, session, timeLimitMs);
    if (BAD_BASIS.has(code)) {
      s = this.open(session.id, true);
      code = this.run(s, model, rows, session, timeLimitMs);
    }
    const { glpk } = this;
    const solveMs = performance.now() - started;
    const status = glpk.status(s.problem);
    if (code === 0 && status === GLP_OPT) {
      const values = Float64Array.from(session.columnIds, (id) => glpk.colPrim(s.problem, s.columnAt.get(id)!));
      const duals = new Float64Array(model.senses.length);
      for (const r of rows) duals[r] = glpk.rowDual(s.problem, s.rowAt.get(session.rowIds[r]!)!);
      const objective = glpk.objective(s.problem);
      return { status: 'optimal', objective, values, lowerBound: objective, solveMs, detail: null, duals };
    }
    if (code === 0 && (status === GLP_NOFEAS || status === GLP_INFEAS)) {
      return { status: 'infeasible', objective: null, values: null, lowerBound: null, solveMs, detail: 'GLPK proved that the relaxation has no solution.' };
    }
    return { status: 'time_limit', objective: null, values: null, lowerBound: null, solveMs, detail: `GLPK did not solve the relaxation (status ${status}, code ${code}).` };
  }

  /** The sequence's problem, made the most recently used (a new one when `fresh` or unknown). */
  private open(id: number, fresh: boolean): Session {
    let s = this.sessions.get(id);
    this.sessions.delete(id);
    if (s && fresh) {
      this.glpk.deleteProb(s.problem);
      s = undefined;
    }
    s ??= { problem: this.glpk.createProb(), rowAt: new Map(), columnAt: new Map() };
    this.sessions.set(id, s);
    for (const [old, evicted] of this.sessions) {
      if (this.sessions.size <= (this.options.capacity ?? 8)) break;
      this.glpk.deleteProb(evicted.problem);
      this.sessions.delete(old);
    }
    return s;
  }

  /**
   * Brings the problem to `model` (new rows and columns added; rows and columns of earlier models
   * that this one lacks made free and fixed at 0; every bound, cost and coefficient set anew) and
   * runs the simplex from its basis. Returns glp_simplex's code.
   */
  private run(s: Session, model: PackedModel, rows: readonly number[], session: PackedSession, timeLimitMs: number): number {
    const { glpk } = this;
    const p = s.problem;
    const present = (ids: ArrayLike<number>, at: Map<number, number>, add: (n: number) => number) => {
      const fresh: number[] = [];
      for (let k = 0; k < ids.length; k++) if (!at.has(ids[k]!)) fresh.push(ids[k]!);
      if (fresh.length > 0) {
        const first = add(fresh.length);
        fresh.forEach((id, k) => at.set(id, first + k));
      }
      const inModel = new Uint8Array(at.size + 1);
      for (let k = 0; k < ids.length; k++) inModel[at.get(ids[k]!)!] = 1;
      return inModel;
    };
    const rowIds = rows.map((r) => session.rowIds[r]!);
    const rowsIn = present(rowIds, s.rowAt, (n) => glpk.addRows(p, n));
    const columnsIn = present(session.columnIds, s.columnAt, (n) => glpk.addCols(p, n));
    for (let i = 1; i < rowsIn.length; i++) if (!rowsIn[i]) glpk.setRowBnds(p, i, GLP_FR, 0, 0);
    for (let j = 1; j < columnsIn.length; j++) {
      if (columnsIn[j]) continue;
      glpk.setObjCoef(p, j, 0);
      glpk.setColBnds(p, j, GLP_FX, 0, 0);
    }
    for (const r of rows) {
      const { type, lb, ub } = rowBounds(model, r);
      glpk.setRowBnds(p, s.rowAt.get(session.rowIds[r]!)!, type, lb, ub);
    }
    for (let c = 0; c < model.kinds.length; c++) {
      const j = s.columnAt.get(session.columnIds[c]!)!;
      glpk.setObjCoef(p, j, model.cost[c]!);
      const { type, lb, ub } = columnBounds(model, c, true);
      glpk.setColBnds(p, j, type, lb, ub);
    }
    let nonzeros = 0;
    for (const r of rows) nonzeros += model.rowStarts[r + 1]! - model.rowStarts[r]!;
    const ia = new Int32Array(nonzeros + 1);
    const ja = new Int32Array(nonzeros + 1);
    const ar = new Float64Array(nonzeros + 1);
    let k = 1;
    for (const r of rows) {
      const i = s.rowAt.get(session.rowIds[r]!)!;
      for (let t = model.rowStarts[r]!; t < model.rowStarts[r + 1]!; t++) {
        ia[k] = i;
        ja[k] = s.columnAt.get(session.columnIds[model.termColumns[t]!]!)!;
        ar[k++] = model.termCoefs[t]!;
      }
    }
    const { module } = glpk;
    const pointers = [ia, ja, ar].map((array) => {
      const pointer = module._malloc(array.byteLength);
      module.writeArrayToMemory(new Uint8Array(array.buffer), pointer);
      return pointer;
    });
    try {
      glpk.loadMatrix(p, nonzeros, pointers[0]!, pointers[1]!, pointers[2]!);
    } finally {
      for (const pointer of pointers) module._free(pointer);
    }
    // Without the presolver, as the cold relaxation (it would also discard the basis).
    return glpk.simplex(p, this.options.messageLevel ?? 0, Math.min(INT_MAX, Math.max(1, Math.round(timeLimitMs))), 0);
  }
}
