// The incremental master (docs/model.md 3.1): a model extended by new route columns
// (extendStrategyModel) is the model a whole build over the larger pool gives, row for row and
// column for column, in the same order but for the new columns (last), and its LP has the same optimum; where new routes could change
// which rows exist, the extension declines and the model is built whole.
import { describe, expect, it } from 'vitest';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { LinearModel } from '../../src/recovery/model/linear-model.ts';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { withArtificials } from '../../src/recovery/neighbourhood/master.ts';
import { enumerateRoutes } from '../../src/recovery/neighbourhood/pricing.ts';
import { routeColumnName } from '../../src/recovery/neighbourhood/rows/row-families.ts';
import { buildStrategyModel, extendStrategyModel, inWholeBuildColumnOrder, type NewRoute, type StrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { config, inProcessSolver, request } from './fixtures.ts';

const free = { leg: () => 0, aircraft: () => 0, perSwap: 0 };

/** A model as sets: each column's kind, bounds and cost, each row's sense, right-hand side and coefficients, by name. */
function asSets(model: LinearModel) {
  return {
    columns: new Map(model.variables.map((v) => [v.name, [v.kind, v.lb, v.ub, v.cost]])),
    rows: new Map(model.constraints.map((c) => [c.name, { sense: c.sense, rhs: c.rhs, terms: new Map(c.terms.map((t) => [t.variable, t.coef])) }])),
  };
}

describe('incremental master', () => {
  // A default-schedule single delay whose integrated master has itinerary rows and cancellations:
  // NV644 04:30 +120 (benchmarks/scenarios.json, default/forces-cancellations).
  const network = loadScheduleFile(new URL('../../schedules/default.json', import.meta.url).pathname);
  const c = config({ strategies: { evaluate: ['integrated'] } });
  const prepared = prepareSimulation(network, request('NV644_2026-11-21T04:30:00Z', 120, c));
  const { scope, groups } = prepared;
  const ev = new RouteEvaluator(network, scope, c);
  // Each aircraft's routes at zero prices on an hourly grid: their planned sequence first, then others.
  const candidates = new Map(scope.aircraft.map((a) => [a.aircraft.tail, [
    ev.plannedRoute(a), ...enumerateRoutes(ev, a, 'any', free, { stepMinutes: 60, threshold: Number.POSITIVE_INFINITY, maxRoutes: 40 }).routes.map((r) => r.route),
  ].filter((r): r is Route => r !== null).filter((r, i, all) => all.findIndex((o) => o.key === r.key) === i)]));
  const build = (pool: Map<string, Route[]>) => buildStrategyModel(network, scope, c, 'integrated', pool, groups);

  /** One more candidate route for every aircraft that has one left, added to `pool`: the new columns. */
  const oneMoreRouteEach = (pool: Map<string, Route[]>): NewRoute[] => {
    const added: NewRoute[] = [];
    for (const [tail, routes] of candidates) {
      const list = pool.get(tail)!;
      if (list.length < routes.length) added.push({ route: routes[list.length]!, index: list.push(routes[list.length]!) - 1 });
    }
    return added;
  };

  it('adds routes a few at a time: every extension is the whole build over the same routes (some decline: rows could change)', async () => {
    const pool = new Map([...candidates].map(([tail, routes]) => [tail, routes.slice(0, 1)]));
    let model: StrategyModel = build(pool);
    let extended = 0;
    let declined = 0;
    for (let step = 1; step < 40; step++) {
      const added = oneMoreRouteEach(pool);
      if (added.length === 0) break;
      const whole = build(pool);
      const grown = extendStrategyModel(network, scope, groups, model, added);
      if (grown) {
        extended++;
        expect(asSets(grown.model)).toEqual(asSets(whole.model));
        // What GLPK is given in the same order as from a whole build: the rows and each row's terms;
        // the columns are the model's so far, then the new ones in the whole build's order among themselves.
        expect(grown.model.constraints).toEqual(whole.model.constraints);
        const fresh = new Set(added.map(({ route, index }) => routeColumnName(route, index)));
        expect(grown.model.variables).toEqual([...model.model.variables, ...whole.model.variables.filter((v) => fresh.has(v.name))]);
        expect([...grown.routeColumns.keys()].sort()).toEqual([...whole.routeColumns.keys()].sort());
        expect(grown.candidateRoutes).toBe(whole.candidateRoutes);
        model = grown;
      } else {
        // (A route of a connection flight at a new time: a whole build follows, as in StrategyRun.)
        declined++;
        model = whole;
      }
    }
    expect(extended).toBeGreaterThan(2);
    expect(declined).toBeGreaterThan(0);
  });

  it('puts an extended model in the whole build\'s order for the integer solves: the same columns, rows and terms, in the same order', () => {
    const pool = new Map([...candidates].map(([tail, routes]) => [tail, routes.slice(0, 1)]));
    let model: StrategyModel = build(pool);
    let compared = 0;
    expect(() => inWholeBuildColumnOrder(model)).toThrow(/not extended/);
    for (let step = 1; step < 40; step++) {
      const added = oneMoreRouteEach(pool);
      if (added.length === 0) break;
      const whole = build(pool);
      const grown = extendStrategyModel(network, scope, groups, model, added);
      if (!grown) {
        model = whole;
        continue;
      }
      const ordered = inWholeBuildColumnOrder(grown);
      expect(ordered.model).toEqual(whole.model);
      expect([...ordered.routeColumns.keys()]).toEqual([...whole.routeColumns.keys()]);
      compared++;
      // Every other step the next extension starts from the ordered model, as after an integer solve.
      model = step % 2 === 0 ? ordered : grown;
    }
    expect(compared).toBeGreaterThan(2);
  });

  it('gives the master LP the optimum of the whole build (GLPK, both solved from scratch)', async () => {
    const half = new Map([...candidates].map(([tail, routes]) => [tail, routes.slice(0, Math.ceil(routes.length / 2))]));
    // The second half added one route at a time, whole builds where the extension declines.
    let model = build(half);
    for (const [tail, routes] of candidates) {
      const list = half.get(tail)!;
      while (list.length < routes.length) {
        const route = routes[list.length]!;
        model = extendStrategyModel(network, scope, groups, model, [{ route, index: list.push(route) - 1 }]) ?? build(half);
      }
    }
    const whole = build(half);
    const lp = async (m: StrategyModel) => inProcessSolver.solve({ model: withArtificials(m.model, scope, c, 1), timeLimitMs: 60_000, mipGap: 0, relaxation: true });
    const [a, b] = [await lp(model), await lp(whole)];
    expect(a.status).toBe('optimal');
    expect(b.status).toBe('optimal');
    expect(a.objective!).toBeCloseTo(b.objective!, 6);
  });
});
