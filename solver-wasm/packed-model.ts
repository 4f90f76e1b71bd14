// A LinearModel in flat arrays, as it crosses to a solver worker, and the outcome as it comes back.
// The structured clone of a model's many small objects (a column-generation master of a single delay:
// ~1,000 columns, ~10,000 non-zeros) cost about 4 ms a solve, each of the ~30 solves of a strategy;
// typed arrays are moved to the worker instead (transferList). Names never cross: GLPK knows columns
// and rows by index, and the outcome comes back by index (PackedOutcome) for the caller, who has the
// model, to name (unpackOutcome).
import type { Constraint, LinearModel, Variable, VariableKind } from '../src/recovery/model/linear-model.ts';
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
  const named: Record<string, number> = {};
  if (values) values.forEach((value, i) => { if (Math.abs(value) > 1e-9) named[model.variables[i]!.name] = value; });
  const detail = rest.detail === null || row === undefined ? rest.detail : rest.detail.replace('{row}', model.constraints[row]!.name);
  const unpacked: SolveOutcome = { ...rest, values: named, detail };
  if (duals) {
    unpacked.duals = {};
    duals.forEach((dual, r) => { unpacked.duals![model.constraints[r]!.name] = dual; });
  }
  return unpacked;
}

export function packModel(model: LinearModel): PackedModel {
  return packWithin(model, undefined, 0);
}

/** How many leading columns `model` shares (the same objects) with the sequence's last model. */
function sharedColumns(model: LinearModel, sequence: Sequence): number {
  const before = sequence.last?.variables ?? [];
  const most = Math.min(before.length, model.variables.length);
  let shared = 0;
  while (shared < most && model.variables[shared] === before[shared]) shared++;
  return shared;
}

/**
 * `model` packed; in a sequence, the `shared` leading columns are the last model's (a master only
 * grows: StrategyRun's extensions append columns), at the same places, so a row (the same object)
 * that uses only them is packed as it was.
 */
function packWithin(model: LinearModel, sequence: Sequence | undefined, shared: number): PackedModel {
  const n = model.variables.length;
  const last = sequence?.last;
  const index = shared > 0 ? last!.index : new Map<string, number>();
  const kinds = new Uint8Array(n);
  const lb = new Float64Array(n);
  const ub = new Float64Array(n);
  const cost = new Float64Array(n);
  model.variables.forEach((v, i) => {
    if (i >= shared) index.set(v.name, i);
    kinds[i] = KINDS.indexOf(v.kind);
    lb[i] = v.lb;
    ub[i] = v.ub;
    cost[i] = v.cost;
  });
  const rows = model.constraints.length;
  const senses = new Uint8Array(rows);
  const rhs = new Float64Array(rows);
  const rowStarts = new Int32Array(rows + 1);
  let nonzeros = 0;
  for (const c of model.constraints) nonzeros += c.terms.length;
  const termColumns = new Int32Array(nonzeros);
  const termCoefs = new Float64Array(nonzeros);
  const packedRows = new WeakMap<Constraint, PackedRow>();
  let at = 0;
  model.constraints.forEach((c, r) => {
    senses[r] = SENSES.indexOf(c.sense);
    rhs[r] = c.rhs;
    rowStarts[r] = at;
    const known = last?.rows.get(c);
    if (known && known.lastColumn < shared) {
      termColumns.set(known.columns, at);
      termCoefs.set(known.coefs, at);
      at += known.columns.length;
      if (sequence) packedRows.set(c, known);
      return;
    }
    const from = at;
    let lastColumn = -1;
    for (const t of c.terms) {
      const column = index.get(t.variable);
      if (column === undefined || column >= n) throw new Error(`row ${c.name} uses undeclared ${t.variable}`);
      termColumns[at] = column;
      termCoefs[at++] = t.coef;
      if (column > lastColumn) lastColumn = column;
    }
    if (sequence) packedRows.set(c, { columns: termColumns.slice(from, at), coefs: termCoefs.slice(from, at), lastColumn });
  });
  rowStarts[rows] = at;
  if (sequence) sequence.last = { variables: model.variables, index, rows: packedRows };
  return { name: model.name, kinds, lb, ub, cost, senses, rhs, rowStarts, termColumns, termCoefs };
}

/** A row's packed terms, and the greatest column it uses. */
interface PackedRow { columns: Int32Array; coefs: Float64Array; lastColumn: number }

/**
 * Per warm-start key (SolveTask.warmStart): its sequence number, the numbers given to names so far,
 * and the last model packed (its columns, their places by name, its rows packed).
 */
interface Sequence {
  id: number;
  columns: Map<string, number>;
  rows: Map<string, number>;
  last?: { variables: readonly Variable[]; index: Map<string, number>; rows: WeakMap<Constraint, PackedRow>; columnIds?: Int32Array };
}
const sequences = new WeakMap<object, Sequence>();
let lastSequence = 0;

function sequenceOf(key: object): Sequence {
  let known = sequences.get(key);
  if (!known) sequences.set(key, (known = { id: ++lastSequence, columns: new Map(), rows: new Map() }));
  return known;
}

/**
 * The numbers of `model`'s columns and rows in its sequence (PackedSession); its `shared` leading
 * columns are those of the sequence's last model, numbered `before`.
 */
function packSession(known: Sequence, model: LinearModel, shared: number, before: Int32Array | undefined): PackedSession {
  const number = (names: Map<string, number>, name: string) => {
    let id = names.get(name);
    if (id === undefined) names.set(name, (id = names.size));
    return id;
  };
  const { columns, rows } = known;
  const columnIds = Int32Array.from(model.variables, (v, i) => (before && i < shared ? before[i]! : number(columns, v.name)));
  // A copy: the task's arrays are moved to the worker (packedBuffers), which empties them here.
  if (known.last) known.last.columnIds = columnIds.slice();
  return { id: known.id, columnIds, rowIds: Int32Array.from(model.constraints, (c) => number(rows, c.name)) };
}

/** A task packed: its model, and for a relaxation of a warm-started sequence the sequence's numbers. */
export function packTask(task: SolveTask): PackedTask {
  const { warmStart, ...rest } = task;
  if (!warmStart || !task.relaxation) return { ...rest, model: packModel(task.model) };
  const sequence = sequenceOf(warmStart);
  const shared = sharedColumns(task.model, sequence);
  const before = sequence.last?.columnIds;
  const model = packWithin(task.model, sequence, shared);
  return { ...rest, model, session: packSession(sequence, task.model, shared, before) };
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
