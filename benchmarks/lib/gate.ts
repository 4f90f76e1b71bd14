// The counter gate: compare a fresh counter report with the committed baseline. Pure functions, so
// the test suite can feed it a planted regression and watch it fail.
import type { Strategy } from '../../src/recovery/model/solver-config.ts';
import type { CounterReport, ScenarioCounters, StrategyCounters } from './counters.ts';
import { checkTags } from './scenarios.ts';

export interface Tolerance {
  /** Allowed difference as a share of the baseline value (0.1 = 10%). */
  relative: number;
  /** Allowed difference in absolute units; the larger of the two allowances applies. */
  absolute: number;
}

export interface Tolerances {
  /** rows, columns, non-zeros, integers, candidate routes, scope sizes. */
  model_size: Tolerance;
  /** simplex iterations, branch-and-bound subproblems. */
  work: Tolerance;
  /** The objective: any difference beyond floating-point noise fails. */
  objective: Tolerance;
}

/**
 * The stated tolerances. Model sizes are exact: the model is a deterministic function of the
 * scenario, so any change is a model change and must come with a reviewed baseline. GLPK's work
 * counters are deterministic too, but a solver-side change (a glpk.js release, an option) may move
 * them a little without anything being wrong, hence 10% or 5 units. Objectives must not change:
 * the only allowance is 1e-9 relative, for floating-point noise (GLPK sums the objective in a
 * different order when rows are added or reordered, e.g. 16225 becomes 16225.000000000005).
 */
export const DEFAULT_TOLERANCES: Tolerances = {
  model_size: { relative: 0, absolute: 0 },
  work: { relative: 0.1, absolute: 5 },
  objective: { relative: 1e-9, absolute: 0 },
};

export interface Baseline extends CounterReport {
  format: 1;
  about: string;
  tolerances: Tolerances;
  glpk_js: string;
  counter_time_limit_ms: number;
}

export interface GateResult { passed: boolean; failures: string[]; notes: string[] }

const SIZE_FIGURES = ['rows', 'columns', 'nonzeros', 'integers', 'candidate_routes'] as const;
const WORK_FIGURES = ['simplex_iterations', 'bb_nodes'] as const;
const FIGURE_NAMES: Record<string, string> = {
  rows: 'rows', columns: 'columns', nonzeros: 'non-zeros', integers: 'integer columns', candidate_routes: 'candidate routes',
  simplex_iterations: 'simplex iterations', bb_nodes: 'branch-and-bound subproblems', objective: 'objective',
};

function describeTolerance(t: Tolerance): string {
  if (t.relative === 0 && t.absolute === 0) return 'exact';
  const parts = [];
  if (t.relative >= 1e-4) parts.push(`${+(t.relative * 100).toFixed(4)}%`);
  else if (t.relative > 0) parts.push(`${t.relative} relative`);
  if (t.absolute > 0) parts.push(`${t.absolute}`);
  return `±${parts.join(' or ±')}, whichever is larger`;
}

function outside(candidate: number, baseline: number, t: Tolerance): boolean {
  return Math.abs(candidate - baseline) > Math.max(t.absolute, t.relative * Math.abs(baseline));
}

function change(candidate: number, baseline: number): string {
  const diff = candidate - baseline;
  const pct = baseline !== 0 ? `, ${diff > 0 ? '+' : ''}${((diff / Math.abs(baseline)) * 100).toFixed(1)}%` : '';
  return `${diff > 0 ? '+' : ''}${+diff.toPrecision(12)}${pct}`;
}

function compareStrategy(key: string, strategy: Strategy, c: StrategyCounters, b: StrategyCounters, tol: Tolerances, failures: string[]): void {
  const where = `${key}: the ${strategy} model`;
  if (c.status !== b.status) failures.push(`${where} solved with status ${c.status}, baseline ${b.status}.`);
  if (c.objective === null || b.objective === null) {
    if (c.objective !== b.objective) failures.push(`${where} has objective ${c.objective ?? 'none'}, baseline ${b.objective ?? 'none'}.`);
  } else if (outside(c.objective, b.objective, tol.objective)) {
    failures.push(`${where} has objective ${c.objective}, baseline ${b.objective} (${change(c.objective, b.objective)}); tolerance: ${describeTolerance(tol.objective)}.`);
  }
  for (const figure of SIZE_FIGURES) {
    if (outside(c[figure], b[figure], tol.model_size)) {
      failures.push(`${where} has ${c[figure]} ${FIGURE_NAMES[figure]}, baseline ${b[figure]} (${change(c[figure], b[figure])}); tolerance: ${describeTolerance(tol.model_size)}.`);
    }
  }
  for (const figure of WORK_FIGURES) {
    const cv = c[figure];
    const bv = b[figure];
    if (cv === null || bv === null) {
      if (cv !== bv) failures.push(`${where} reports ${cv ?? 'no'} ${FIGURE_NAMES[figure]}, baseline ${bv ?? 'none'} (GLPK's log changed shape).`);
    } else if (outside(cv, bv, tol.work)) {
      failures.push(`${where} took ${cv} ${FIGURE_NAMES[figure]}, baseline ${bv} (${change(cv, bv)}); tolerance: ${describeTolerance(tol.work)}.`);
    }
  }
}

function compareScenario(key: string, c: ScenarioCounters, b: ScenarioCounters, tol: Tolerances, failures: string[]): void {
  if (c.disruptions !== b.disruptions) {
    failures.push(`${key} is now ${c.disruptions} but the baseline measured ${b.disruptions}; run npm run bench:baseline after changing scenarios.json.`);
    return;
  }
  for (const figure of ['aircraft', 'flights', 'itineraries'] as const) {
    if (outside(c.scope[figure], b.scope[figure], tol.model_size)) {
      failures.push(`${key}: the recovery scope has ${c.scope[figure]} ${figure}, baseline ${b.scope[figure]} (${change(c.scope[figure], b.scope[figure])}); tolerance: ${describeTolerance(tol.model_size)}.`);
    }
  }
  for (const type of ['crew_duty', 'maintenance'] as const) {
    if (c.facts.violations[type] !== b.facts.violations[type]) {
      failures.push(`${key}: the minimum delay now causes ${c.facts.violations[type]} ${type} violations, baseline ${b.facts.violations[type]}.`);
    }
  }
  const strategies = new Set([...Object.keys(b.strategies), ...Object.keys(c.strategies)] as Strategy[]);
  for (const strategy of strategies) {
    const cs = c.strategies[strategy];
    const bs = b.strategies[strategy];
    if (!cs) failures.push(`${key}: the ${strategy} model was not solved, but the baseline has it.`);
    else if (!bs) failures.push(`${key}: the ${strategy} model is new (not in the baseline); run npm run bench:baseline if intended.`);
    // A solve stopped by its time limit (in the baseline or now) ends where the clock says: its
    // counters are not a machine-independent figure, so only optimal solves are compared (noted above).
    // But the counting solves' limit is far above any benchmark solve: a baseline optimum that is no
    // longer proven is a regression, not the clock.
    else if (bs.status === 'optimal' && cs.status !== 'optimal') failures.push(`${key}: the ${strategy} solve ended ${cs.status}, baseline optimal (proven).`);
    else if (cs.status === 'optimal' && bs.status === 'optimal') compareStrategy(key, strategy, cs, bs, tol, failures);
  }
}

/**
 * Compare `candidate` with `baseline` for the scenarios the candidate measured. Every failure is a
 * sentence naming the scenario and the figure. `complete` says the candidate measured every
 * scenario of scenarios.json, so baseline entries it lacks are stale.
 */
export function compareCounters(baseline: Pick<Baseline, 'scenarios' | 'tolerances'>, candidate: CounterReport, complete = false): GateResult {
  const tol = { ...DEFAULT_TOLERANCES, ...baseline.tolerances };
  const failures: string[] = [];
  const notes: string[] = [];
  for (const [key, c] of Object.entries(candidate.scenarios)) {
    failures.push(...checkTags(key, c.tags, c.facts));
    for (const [strategy, s] of Object.entries(c.strategies)) {
      if (s.status !== 'optimal') notes.push(`${key}: the ${strategy} solve ended ${s.status}; its counters depend on where GLPK stopped.`);
    }
    const b = baseline.scenarios[key];
    if (!b) {
      failures.push(`${key} is in scenarios.json but not in benchmarks/baseline.json; run npm run bench:baseline to add it.`);
      continue;
    }
    compareScenario(key, c, b, tol, failures);
  }
  if (complete) {
    for (const key of Object.keys(baseline.scenarios)) {
      if (!candidate.scenarios[key]) failures.push(`${key} is in benchmarks/baseline.json but no longer in scenarios.json; run npm run bench:baseline to drop it.`);
    }
  }
  return { passed: failures.length === 0, failures, notes };
}
