// Warm-started relaxations (solver-wasm/glpk-session.ts): a column generation's master LPs solved in
// one GLPK problem kept between solves. Each warm answer is checked against a cold solve of the same
// model (glpk.js's solve(), a problem built anew) and against an optimality certificate computed here
// from the model alone: the values satisfy every row and bound, the duals have the signs of their
// rows, no column prices below what its bounds allow, and the dual objective equals the primal one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import GLPK from 'glpk.js/node';
import { solveStrategy } from '../../src/recovery/neighbourhood/column-generation.ts';
import { Budget } from '../../src/recovery/model/budget.ts';
import type { LinearModel } from '../../src/recovery/model/linear-model.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import type { SolveOutcome, Solver } from '../../src/recovery/model/solver-port.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { loadGlpkFunctions, RelaxationSessions } from '../../solver-wasm/glpk-session.ts';
import { solveWithGlpk, type Glpk } from '../../solver-wasm/glpk-solve.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { config, request } from '../recovery/fixtures.ts';

const TOLERANCE = 1e-6;

/** Checks that `outcome` is an optimal solution of the relaxation of `model` (binaries without their bound 1, as the master is solved), with duals that prove it. */
function expectCertificate(model: LinearModel, outcome: SolveOutcome): void {
  expect(outcome.status).toBe('optimal');
  const scale = (x: number) => TOLERANCE * Math.max(1, Math.abs(x));
  const value = (name: string) => outcome.values[name] ?? 0;
  const reduced = new Map(model.variables.map((v) => [v.name, v.cost]));
  let primal = 0;
  for (const v of model.variables) {
    const ub = v.kind === 'binary' ? Number.POSITIVE_INFINITY : v.ub;
    expect(value(v.name)).toBeGreaterThanOrEqual(v.lb - TOLERANCE);
    expect(value(v.name)).toBeLessThanOrEqual(ub + TOLERANCE);
    primal += v.cost * value(v.name);
  }
  expect(primal).toBeCloseTo(outcome.objective!, 4);
  let dualObjective = 0;
  for (const c of model.constraints) {
    const activity = c.terms.reduce((sum, t) => sum + t.coef * value(t.variable), 0);
    const pi = outcome.duals![c.name]!;
    if (c.sense !== '>=') expect(activity).toBeLessThanOrEqual(c.rhs + scale(c.rhs));
    if (c.sense !== '<=') expect(activity).toBeGreaterThanOrEqual(c.rhs - scale(c.rhs));
    // Minimisation: a ≤ row's price is never positive, a ≥ row's never negative.
    if (c.sense === '<=') expect(pi).toBeLessThanOrEqual(TOLERANCE);
    if (c.sense === '>=') expect(pi).toBeGreaterThanOrEqual(-TOLERANCE);
    dualObjective += pi * c.rhs;
    for (const t of c.terms) reduced.set(t.variable, reduced.get(t.variable)! - pi * t.coef);
  }
  for (const v of model.variables) {
    const rc = reduced.get(v.name)!;
    const ub = v.kind === 'binary' ? Number.POSITIVE_INFINITY : v.ub;
    // A column prices negative only where it sits at a finite upper bound.
    if (ub === Number.POSITIVE_INFINITY) expect(rc, v.name).toBeGreaterThanOrEqual(-scale(v.cost));
    dualObjective += rc >= 0 || ub === Number.POSITIVE_INFINITY ? rc * v.lb : rc * ub;
  }
  expect(dualObjective).toBeCloseTo(outcome.objective!, 3);
}

let glpk: Glpk;
const cold = (model: LinearModel) => solveWithGlpk(glpk, { model, timeLimitMs: 60_000, mipGap: 0, relaxation: true });

/** The master LPs of the integrated strategy's column generation of one single delay, in the order it solved them. */
async function recordMasters(): Promise<LinearModel[]> {
  const schedule = loadScheduleFile(new URL('../../schedules/default.json', import.meta.url).pathname);
  const cfg = config({ strategies: { evaluate: ['integrated'] }, solver: { time_limit_ms: 60_000 } });
  const simulation = request('NV662_2026-11-21T04:40:00Z', 60, cfg);
  simulation.scheduleName = 'default';
  const prepared = prepareSimulation(schedule, simulation);
  const masters: LinearModel[] = [];
  const recorder: Solver = {
    async solve(task) {
      if (task.relaxation) masters.push(task.model);
      return solveWithGlpk(glpk, task);
    },
  };
  const solved = await solveStrategy({ schedule, scope: prepared.scope, config: cfg, strategy: 'integrated', groups: prepared.groups, solver: recorder, budget: Budget.start(60_000) });
  expect(solved.outcome.status).toBe('optimal');
  return masters;
}

// Each test solves every master of the sequence warm and cold and checks a certificate of each: about
// 4 s beside one other test file (load average 3-5), but 28-30 s in a fresh-clone CI beside a CPU hog (load average 15), where the pool's one
// timed out at the default 30 s; 120 s each leaves that 4x (the subject is the optima, not the time).
describe('warm-started relaxations', { timeout: 120_000 }, () => {
  let masters: LinearModel[];
  let pool: SolverPool;
  beforeAll(async () => {
    glpk = await (GLPK as unknown as () => Promise<Glpk>)();
    masters = await recordMasters();
    pool = createSolverPool({ threads: 2 });
    await pool.ready();
  }, 120_000);
  afterAll(() => pool.close());

  it('unit: a column generation\'s masters solved one after the other in one problem have the optima of cold solves, and duals that prove them', async () => {
    expect(masters.length).toBeGreaterThan(5);
    const sessions = new RelaxationSessions(await loadGlpkFunctions());
    const key = {};
    for (const model of masters) {
      const warm = solveWithGlpk(glpk, { model, timeLimitMs: 60_000, mipGap: 0, relaxation: true, warmStart: key }, sessions);
      expect(warm.objective).toBeCloseTo(cold(model).objective!, 4);
      expectCertificate(model, warm);
    }
  });

  it('unit: a sequence whose problem this thread no longer keeps starts again from scratch, with the same optima', async () => {
    // Room for one problem: two sequences interleaved evict each other at every solve.
    const sessions = new RelaxationSessions(await loadGlpkFunctions(), { capacity: 1 });
    const [first, second] = [{}, {}];
    for (const model of masters) {
      for (const key of [first, second]) {
        const warm = solveWithGlpk(glpk, { model, timeLimitMs: 60_000, mipGap: 0, relaxation: true, warmStart: key }, sessions);
        expect(warm.objective).toBeCloseTo(cold(model).objective!, 4);
      }
    }
  });

  it('unit: rows and columns of an earlier model that a later one lacks no longer count', async () => {
    const sessions = new RelaxationSessions(await loadGlpkFunctions());
    const key = {};
    const last = masters.at(-1)!;
    solveWithGlpk(glpk, { model: last, timeLimitMs: 60_000, mipGap: 0, relaxation: true, warmStart: key }, sessions);
    // An earlier, smaller master after the last one: the last one's extra routes and rows drop out.
    const earlier = masters[Math.floor(masters.length / 2)]!;
    expect(earlier.variables.length).toBeLessThan(last.variables.length);
    const warm = solveWithGlpk(glpk, { model: earlier, timeLimitMs: 60_000, mipGap: 0, relaxation: true, warmStart: key }, sessions);
    expect(warm.objective).toBeCloseTo(cold(earlier).objective!, 4);
    expectCertificate(earlier, warm);
  });

  it('integration: the worker pool warm-starts a sequence on whichever worker takes each relaxation, with the optima of cold solves', async () => {
    const key = {};
    // Two solves at a time, so that both workers take part of the sequence.
    for (let i = 0; i < masters.length; i += 2) {
      const batch = masters.slice(i, i + 2);
      const outcomes = await Promise.all(batch.map((model) => pool.solve({ model, timeLimitMs: 60_000, mipGap: 0, relaxation: true, warmStart: key })));
      outcomes.forEach((outcome, k) => {
        expect(outcome.objective).toBeCloseTo(cold(batch[k]!).objective!, 4);
        expectCertificate(batch[k]!, outcome);
      });
    }
  });
});
