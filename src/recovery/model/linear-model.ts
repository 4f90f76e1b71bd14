// A solver-agnostic mixed-integer linear model. The recovery model is built in this form; the solver
// room (solver-wasm/) translates it for GLPK and writes it in CPLEX LP format for people and for
// other solvers. Names are deterministic and readable (see lpName), so the same disruption always
// gives the same file.

export type VariableKind = 'binary' | 'integer' | 'continuous';

export interface Variable { name: string; kind: VariableKind; lb: number; ub: number; cost: number }

export interface Term { variable: string; coef: number }

export interface Constraint { name: string; terms: Term[]; sense: '=' | '<=' | '>='; rhs: number }

export interface LinearModel { name: string; variables: Variable[]; constraints: Constraint[] }

export interface ModelSize { rows: number; columns: number; nonzeros: number; integers: number }

export function modelSize(model: LinearModel): ModelSize {
  return {
    rows: model.constraints.length,
    columns: model.variables.length,
    nonzeros: model.constraints.reduce((sum, c) => sum + c.terms.length, 0),
    integers: model.variables.filter((v) => v.kind !== 'continuous').length,
  };
}

/**
 * A name that the CPLEX LP format accepts (letters, digits and a few symbols; no '-', ':', '+',
 * spaces), kept readable: NV101_2026-11-21T05:30:00Z becomes NV101_20261121T0530Z, OE-NVA OE_NVA.
 */
export function lpName(text: string): string {
  let name = lpNames.get(text);
  if (name === undefined) {
    name = text
      .replace(/(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):00Z/g, '$1$2$3T$4$5Z')
      .replace(/[^A-Za-z0-9_.]/g, '_');
    // Ids repeat in every model of a solve (each pricing round rebuilds its model): remember them, up to a point.
    if (lpNames.size >= LP_NAMES_KEPT) lpNames.clear();
    lpNames.set(text, name);
  }
  return name;
}

const lpNames = new Map<string, string>();
/** Enough for the ids of the largest schedules' models (flights, itineraries, tails) several times over. */
const LP_NAMES_KEPT = 200_000;

/** Builds a model row by row; variables are declared once, in order. */
export class ModelBuilder {
  private readonly variables = new Map<string, Variable>();
  /** Column name -> its place in declaration order, and per place the last row that listed it (merging repeats). */
  private readonly places = new Map<string, number>();
  private lastRowOf = new Int32Array(64);
  private readonly constraints: Constraint[] = [];

  constructor(private readonly name: string) {}

  addVariable(name: string, kind: VariableKind, cost: number, lb = 0, ub = kind === 'binary' ? 1 : Infinity): string {
    if (this.variables.has(name)) throw new Error(`variable ${name} declared twice`);
    this.variables.set(name, { name, kind, lb, ub, cost });
    this.places.set(name, this.places.size);
    return name;
  }

  /**
   * `checked`: the terms from this place on are known to be of declared columns, non-zero, and each
   * of a column no other term of the row has (the route terms of a strategy model's rows, merged per
   * column where they are made: row-families.ts, addRouteTerms), so they are not looked up.
   */
  addConstraint(name: string, terms: Term[], sense: Constraint['sense'], rhs: number, checked = terms.length): void {
    // Merge repeated variables so that every row lists a column once (GLPK requires it). Models are
    // rebuilt every pricing round, so this runs over every non-zero each round: one map lookup per
    // term, and repeats found by the row stamp of the column's place.
    if (this.lastRowOf.length < this.places.size) {
      const grown = new Int32Array(2 * this.places.size);
      grown.set(this.lastRowOf);
      this.lastRowOf = grown;
    }
    const stamp = this.constraints.length + 1;
    // The row keeps `terms` itself unless a term must go (a zero) or merge (a repeat): most rows
    // have neither, and a copy of every row each round was much of a rebuild's garbage.
    let clean: Term[] | null = null;
    let repeated = false;
    for (let i = 0; i < checked; i++) {
      const t = terms[i]!;
      const place = this.places.get(t.variable);
      if (place === undefined) throw new Error(`row ${name} uses undeclared ${t.variable}`);
      if (this.lastRowOf[place] === stamp) repeated = true;
      else {
        this.lastRowOf[place] = stamp;
        if (t.coef === 0) clean ??= terms.slice(0, i);
        else clean?.push(t);
      }
    }
    if (clean) for (let i = checked; i < terms.length; i++) clean.push(terms[i]!);
    if (repeated) {
      const merged = new Map<string, number>();
      for (const t of terms) merged.set(t.variable, (merged.get(t.variable) ?? 0) + t.coef);
      clean = [];
      for (const [variable, coef] of merged) if (coef !== 0) clean.push({ variable, coef });
    }
    this.constraints.push({ name, terms: clean ?? terms, sense, rhs });
  }

  build(): LinearModel {
    return { name: this.name, variables: [...this.variables.values()], constraints: this.constraints };
  }
}

/** A model's terms by column place (index in `variables`): row r's are `columns[rowStarts[r] .. rowStarts[r + 1])`. */
export interface TermColumns { rowStarts: Int32Array; columns: Int32Array }

/**
 * The places of every row's columns, for the solver's packing and the Lagrangian bound's sums: made
 * once per model (a master is packed for its solve, then its bound read at one or two prices).
 */
export function termColumns(model: LinearModel): TermColumns {
  let known = MODEL_COLUMNS.get(model);
  if (known) return known;
  const { variables, constraints } = model;
  const index = new Map<string, number>();
  for (let j = 0; j < variables.length; j++) index.set(variables[j]!.name, j);
  let nonzeros = 0;
  for (const c of constraints) nonzeros += c.terms.length;
  const rowStarts = new Int32Array(constraints.length + 1);
  const columns = new Int32Array(nonzeros);
  let at = 0;
  for (let r = 0; r < constraints.length; r++) {
    const { terms, name } = constraints[r]!;
    rowStarts[r] = at;
    for (let k = 0; k < terms.length; k++) {
      const place = index.get(terms[k]!.variable);
      if (place === undefined) throw new Error(`row ${name} uses undeclared ${terms[k]!.variable}`);
      columns[at++] = place;
    }
  }
  rowStarts[constraints.length] = at;
  MODEL_COLUMNS.set(model, (known = { rowStarts, columns }));
  return known;
}
const MODEL_COLUMNS = new WeakMap<LinearModel, TermColumns>();
