// A LinearModel in flat arrays, as it crosses to a solver worker, and the outcome as it comes back.
// The structured clone of a model's many small objects (a column-generation master of a single delay:
// ~1,000 columns, ~10,000 non-zeros) cost about 4 ms a solve, each of the ~30 solves of a strategy;
// typed arrays are moved to the worker instead (transferList). Names never cross: GLPK knows columns
// and rows by index, and the outcome comes back by index (PackedOutcome) for the caller, who has the
// model, to name (unpackOutcome).
import { termColumns, type LinearModel, type VariableKind } from '../src/recovery/model/linear-model.ts';
import type { SolveOutcome, SolveTask } from '../src/recovery/model/solver-port.ts';

const KINDS: readonly VariableKind[] = ['continuous', 'binary', 'integer'];
const SENSES = ['=', '<=', '>='] as const;

export interface PackedModel {
  name: string;
  /** Per column: its index in KINDS. */
  kinds: Uint8Array;
  lb: Float64Array;
  ub: Float64Array;
  cost: Float64Array;
  /** Per row: its index in SENSES. */
  senses: Uint8Array;
  rhs: Float64Array;
  /** Row i's terms are termColumns/termCoefs[rowStarts[i] .. rowStarts[i + 1]). */
  rowStarts: Int32Array;
  termColumns: Int32Array;
  termCoefs: Float64Array;
}

/**
 * A relaxation of a warm-started sequence (SolveTask.warmStart): the sequence's number, and every
 * column's and row's number within it, the same for the same name in every model of the sequence,
 * so that a worker can tell the rows and columns it already has from the new ones.
 */
export interface PackedSession { id: number; columnIds: Int32Array; rowIds: Int32Array }

export type PackedTask = Omit<SolveTask, 'model' | 'warmStart'> & { model: PackedModel; session?: PackedSession };

/** A SolveOutcome by column and row index (the model's order). */
export interface PackedOutcome extends Omit<SolveOutcome, 'values' | 'duals' | 'detail'> {
  /** Every column's value; null without a plan. */
  values: Float64Array | null;
  /** Every row's dual price (0 for a row without terms, which GLPK does not see); only for an optimal relaxation. */
  duals?: Float64Array;
  /** The sentence of SolveOutcome.detail, with `{row}` for the name of the row `row`. */
  detail: string | null;
  /** The row a detail names (an empty row no plan can satisfy). */
  row?: number;
}

/** The outcome by the names of `model`, the model that was packed: values only where not zero. */
export function unpackOutcome(outcome: PackedOutcome, model: LinearModel): SolveOutcome {
  const { values, duals, row, ...rest } = outcome;
  // Plain loops: a typed array's forEach cost about half as much again (every solve's answer comes through here).
  const named: Record<string, number> = {};
  if (values) {
    for (let i = 0; i < values.length; i++) if (Math.abs(values[i]!) > 1e-9) named[model.variables[i]!.name] = values[i]!;
  }
  const detail = rest.detail === null || row === undefined ? rest.detail : rest.detail.replace('{row}', model.constraints[row]!.name);
  const unpacked: SolveOutcome = { ...rest, values: named, detail };
  if (duals) {
    const byRow: Record<string, number> = {};
    for (let r = 0; r < duals.length; r++) byRow[model.constraints[r]!.name] = duals[r]!;
    unpacked.duals = byRow;
  }
  return unpacked;
}

export function packModel(model: LinearModel): PackedModel {
  const n = model.variables.length;
  const kinds = new Uint8Array(n);
  const lb = new Float64Array(n);
  const ub = new Float64Array(n);
  const cost = new Float64Array(n);
  model.variables.forEach((v, i) => {
    kinds[i] = KINDS.indexOf(v.kind);
    lb[i] = v.lb;
    ub[i] = v.ub;
    cost[i] = v.cost;
  });
  const rows = model.constraints.length;
  const senses = new Uint8Array(rows);
  const rhs = new Float64Array(rows);
  // The columns by place, found once per model (the Lagrangian bound reads them too): copies, as
  // these arrays are handed over to a worker (packedBuffers).
  const places = termColumns(model);
  const rowStarts = places.rowStarts.slice();
  const columns = places.columns.slice();
  const termCoefs = new Float64Array(columns.length);
  let at = 0;
  model.constraints.forEach((c, r) => {
    senses[r] = SENSES.indexOf(c.sense);
    rhs[r] = c.rhs;
    for (const t of c.terms) termCoefs[at++] = t.coef;
  });
  return { name: model.name, kinds, lb, ub, cost, senses, rhs, rowStarts, termColumns: columns, termCoefs };
}

/** Per warm-start key (SolveTask.warmStart): its sequence number and the numbers given to names so far. */
const sessions = new WeakMap<object, { id: number; columns: Map<string, number>; rows: Map<string, number> }>();
let lastSession = 0;

/** Each item's number by its name, a new name the next number. A plain loop: Int32Array.from with a mapping function cost about three times as much. */
function numbersOf(numbers: Map<string, number>, items: readonly { name: string }[]): Int32Array {
  const ids = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const name = items[i]!.name;
    let id = numbers.get(name);
    if (id === undefined) numbers.set(name, (id = numbers.size));
    ids[i] = id;
  }
  return ids;
}

/** The numbers of `model`'s columns and rows in the sequence of `key` (PackedSession). */
export function packSession(key: object, model: LinearModel): PackedSession {
  let known = sessions.get(key);
  if (!known) sessions.set(key, (known = { id: ++lastSession, columns: new Map(), rows: new Map() }));
  return { id: known.id, columnIds: numbersOf(known.columns, model.variables), rowIds: numbersOf(known.rows, model.constraints) };
}

/** A task packed: its model, and for a relaxation of a warm-started sequence the sequence's numbers. */
export function packTask(task: SolveTask): PackedTask {
  const { warmStart, ...rest } = task;
  const packed: PackedTask = { ...rest, model: packModel(task.model) };
  if (warmStart && task.relaxation) packed.session = packSession(warmStart, task.model);
  return packed;
}

/** The buffers a packed task can hand over to another thread instead of copying. */
export function packedBuffers(task: PackedTask): ArrayBuffer[] {
  const { model, session } = task;
  return [model.kinds, model.lb, model.ub, model.cost, model.senses, model.rhs, model.rowStarts, model.termColumns, model.termCoefs, ...(session ? [session.columnIds, session.rowIds] : [])]
    .map((array) => array.buffer as ArrayBuffer);
}

export function kindOf(model: PackedModel, column: number): VariableKind {
  return KINDS[model.kinds[column]!]!;
}

export function senseOf(model: PackedModel, row: number): (typeof SENSES)[number] {
  return SENSES[model.senses[row]!]!;
}
