// The column generation against the model it prices for (docs/model.md section 3): the pricing
// problem's reduced cost of a route is the reduced cost of its column in the master, round after
// round; at convergence no column of the master prices negative and the LP value is the bound; and
// the integer optimum it proves equals the optimum of the model over EVERY route of the scope
// (enumerated exhaustively on a small schedule).
import { describe, expect, it } from 'vitest';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { PRICING_MODES, solveStrategy } from '../../src/recovery/neighbourhood/column-generation.ts';
import { Budget } from '../../src/recovery/model/budget.ts';
import { lpName, type LinearModel } from '../../src/recovery/model/linear-model.ts';
import { legCoefficient } from '../../src/recovery/neighbourhood/rows/context.ts';
import { buildStrategyModel, type StrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { prepareSimulation, type PreparedSimulation } from '../../src/recovery/pipeline.ts';
import { enumerateRoutes, priceRoutes, type PricingDuals } from '../../src/recovery/neighbourhood/pricing.ts';
import type { SolverConfig, Strategy } from '../../src/recovery/model/solver-config.ts';
import type { Disruption } from '../../src/domain/disruption.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { config, fixture, id, inProcessSolver, request } from './fixtures.ts';

// Three A320s around VIE with connections, so that every row family takes part.
const schedule = fixture({
  flights: [
    { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00', booked: 150 },
    { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '07:40', arr: '08:40', booked: 160 },
    { no: 'NV3', tail: 'OE-AAA', from: 'VIE', to: 'BUD', dep: '09:30', arr: '10:30', booked: 120 },
    { no: 'NV4', tail: 'OE-AAA', from: 'BUD', to: 'VIE', dep: '11:10', arr: '12:10', booked: 110 },
    { no: 'NV5', tail: 'OE-BBB', from: 'VIE', to: 'BUD', dep: '07:00', arr: '08:00', booked: 140 },
    { no: 'NV6', tail: 'OE-BBB', from: 'BUD', to: 'VIE', dep: '08:40', arr: '09:40', booked: 130 },
    { no: 'NV7', tail: 'OE-BBB', from: 'VIE', to: 'PRG', dep: '10:30', arr: '11:30', booked: 100 },
    { no: 'NV8', tail: 'OE-BBB', from: 'PRG', to: 'VIE', dep: '12:10', arr: '13:10', booked: 90 },
    { no: 'NV9', tail: 'OE-CCC', from: 'VIE', to: 'PRG', dep: '13:00', arr: '14:00', booked: 80 },
  ],
  aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB' }, { tail: 'OE-CCC' }],
  itineraries: [
    { id: 'IT1', passengers: 30, flights: [id('NV2', '07:40'), id('NV3', '09:30')] },
    { id: 'IT2', passengers: 20, flights: [id('NV6', '08:40'), id('NV7', '10:30')] },
  ],
});

const disruptions: Disruption[] = [
  { type: 'flight_delay', flightId: id('NV1', '06:00'), minDelayMinutes: 75 },
  { type: 'airport_capacity', airport: 'VIE', fromMinutes: schedule.flightsById.get(id('NV3', '09:30'))!.depMinutes - 30, toMinutes: schedule.flightsById.get(id('NV3', '09:30'))!.depMinutes + 60, maxDeparturesPerHour: 1, maxArrivalsPerHour: 2 },
];

function prepare(cfg: SolverConfig): PreparedSimulation {
  return prepareSimulation(schedule, { scenarioId: 'cg', airline: 'NV', scheduleName: 'fixture', config: cfg, disruptions, disruptedFlightId: null });
}

function dualsOf(model: StrategyModel, duals: Record<string, number>): PricingDuals {
  return {
    leg(a, flight, depMinutes) {
      const leg = { flight, depMinutes, arrMinutes: depMinutes + flight.arrMinutes - flight.depMinutes, delayMinutes: depMinutes - flight.depMinutes };
      return (model.legRows.get(flight.id) ?? []).reduce((sum, spec) => sum + (duals[spec.row] ?? 0) * legCoefficient(spec, a.aircraft, leg), 0);
    },
    aircraft: (a) => duals[`aircraft__${lpName(a.aircraft.tail)}`] ?? 0,
    perSwap: duals.max_swaps ?? 0,
  };
}

/** A column's reduced cost read off the model itself: its cost less Σ dual × coefficient over the rows it is in. */
function modelReducedCost(model: LinearModel, column: string, duals: Record<string, number>): number {
  let rc = model.variables.find((v) => v.name === column)!.cost;
  for (const row of model.constraints) for (const t of row.terms) if (t.variable === column) rc -= (duals[row.name] ?? 0) * t.coef;
  return rc;
}

const step = 30;
const cfg = (strategy: Strategy) => config({ strategies: { evaluate: [strategy] }, solver: { time_step_minutes: step, time_limit_ms: 60_000 }, constraints: { max_delay_minutes: 150 } });

describe('column generation', () => {
  it('unit: round after round, the pricing problem\'s reduced cost of every new route is its column\'s reduced cost in the next master, and at convergence no column prices negative', async () => {
    const c = cfg('integrated');
    const prepared = prepare(c);
    const ev = new RouteEvaluator(schedule, prepared.scope, c);
    // The planned routes, and the empty ones (everything cancelled), so that the first master is feasible.
    const pool = new Map<string, Route[]>(prepared.scope.aircraft.map((a) => [a.aircraft.tail, [ev.plannedRoute(a)!, ev.finish(a, [], a.checks.map(() => null))!]]));
    const keys = new Set([...pool.values()].flat().map((r) => r.key));
    let converged = false;
    let checked = 0;
    for (let round = 0; round < 60 && !converged; round++) {
      const model = buildStrategyModel(schedule, prepared.scope, c, 'integrated', pool, prepared.groups);
      const lp = await inProcessSolver.solve({ model: model.model, timeLimitMs: 10_000, mipGap: 0, relaxation: true });
      expect(lp.status, lp.detail ?? '').toBe('optimal');
      const duals = lp.duals!;
      for (const column of model.routeColumns.keys()) expect(modelReducedCost(model.model, column, duals)).toBeGreaterThan(-1e-6);
      const fresh: Route[] = [];
      const priced = new Map<string, number>();
      for (const a of prepared.scope.aircraft) {
        for (const { route, reducedCost } of priceRoutes(ev, a, 'any', dualsOf(model, duals), { stepMinutes: step, threshold: -1e-6, maxRoutes: 8 }).routes) {
          if (keys.has(route.key)) continue;
          keys.add(route.key);
          pool.get(route.tail)!.push(route);
          fresh.push(route);
          priced.set(route.key, reducedCost);
        }
      }
      converged = fresh.length === 0;
      if (converged) break;
      const next = buildStrategyModel(schedule, prepared.scope, c, 'integrated', pool, prepared.groups);
      for (const [column, route] of next.routeColumns) {
        if (!priced.has(route.key)) continue;
        // Rows the new routes bring (a connection broken at a new time) had no price yet: 0.
        expect(modelReducedCost(next.model, column, duals)).toBeCloseTo(priced.get(route.key)!, 6);
        checked++;
      }
    }
    expect(converged).toBe(true);
    expect(checked).toBeGreaterThan(10);
  });

  for (const strategy of ['integrated', 'aircraft_swap', 'cancellation'] as const) {
    it(`scenario: ${strategy}: the proven optimum equals the optimum of the model over every route of the scope (exhaustive)`, async () => {
      const c = cfg(strategy);
      const prepared = prepare(c);
      const bounds: number[] = [];
      const solved = await solveStrategy({
        schedule, scope: prepared.scope, config: c, strategy, groups: prepared.groups, solver: inProcessSolver, budget: Budget.start(60_000),
        onProgress: (p) => { if (p.lowerBound !== null) bounds.push(p.lowerBound); },
      });
      expect(solved.outcome.status).toBe('optimal');
      const ev = new RouteEvaluator(schedule, prepared.scope, c);
      const zero: PricingDuals = { leg: () => 0, aircraft: () => 0, perSwap: 0 };
      const every = new Map(prepared.scope.aircraft.map((a) => {
        const { routes, complete } = enumerateRoutes(ev, a, PRICING_MODES[strategy], zero, { stepMinutes: step, threshold: Number.POSITIVE_INFINITY, maxRoutes: 50_000 });
        expect(complete).toBe(true);
        return [a.aircraft.tail, routes.map((r) => r.route)];
      }));
      const full = buildStrategyModel(schedule, prepared.scope, c, strategy, every, prepared.groups);
      const exhaustive = await inProcessSolver.solve({ model: full.model, timeLimitMs: 60_000, mipGap: 0 });
      expect(exhaustive.status).toBe('optimal');
      expect(solved.outcome.objective!).toBeCloseTo(exhaustive.objective!, 4);
      expect(solved.outcome.lowerBound!).toBeLessThanOrEqual(exhaustive.objective! + 1e-6);
      // Every bound the generation reported on the way (Lagrangian, at smoothed prices too) is at most
      // the LP relaxation over every route, and they never go down.
      const relaxation = await inProcessSolver.solve({ model: full.model, timeLimitMs: 60_000, mipGap: 0, relaxation: true });
      expect(relaxation.status).toBe('optimal');
      expect(bounds.length).toBeGreaterThan(0);
      for (const bound of bounds) expect(bound).toBeLessThanOrEqual(relaxation.objective! + 1e-6);
      bounds.forEach((bound, i) => { if (i > 0) expect(bound).toBeGreaterThanOrEqual(bounds[i - 1]!); });
      expect(full.candidateRoutes).toBeGreaterThan(solved.model.candidateRoutes);
    });
  }

  it('unit: a generation stopped far from convergence reports 0 as its lower bound (no cost is negative), and its Lagrangian value in the facts', async () => {
    // A single delay of the default schedule (7 aircraft), its solver slowed to 150 ms a solve: a
    // 1.5 s budget leaves the generation (60 % of it) three or four rounds, where the Lagrangian bound
    // is about −1 M; on a loaded machine, fewer, but at least one complete round.
    const network = loadScheduleFile(new URL('../../schedules/default.json', import.meta.url).pathname);
    const c = config({ strategies: { evaluate: ['integrated'] } });
    const simulation = request('NV662_2026-11-21T04:40:00Z', 60, c);
    const prepared = prepareSimulation(network, simulation);
    const slow: Solver = { solve: async (task) => { await new Promise((resolve) => setTimeout(resolve, 150)); return inProcessSolver.solve(task); } };
    const bounds: number[] = [];
    const solved = await solveStrategy({
      schedule: network, scope: prepared.scope, config: c, strategy: 'integrated', groups: prepared.groups, solver: slow, budget: Budget.start(1500),
      onProgress: (p) => { if (p.lowerBound !== null) bounds.push(p.lowerBound); },
    });
    expect(solved.outcome.status).not.toBe('optimal');
    expect(solved.outcome.lowerBound).toBe(0);
    expect(bounds.length).toBeGreaterThan(0);
    for (const bound of bounds) expect(bound).toBe(0);
    expect(solved.boundSource).toBe('no_negative_cost');
    expect(solved.facts).toMatchObject({ kind: 'generated', negativeLagrangian: expect.any(Number) as number });
    expect((solved.facts as { negativeLagrangian: number }).negativeLagrangian).toBeLessThan(0);
  });

  it('unit: the integrated solve takes up the routes the cancellation solve offers, and proves the same optimum', async () => {
    const offered: Route[] = [];
    const cancellation = cfg('cancellation');
    const prepared = prepare(cancellation);
    const cancelled = await solveStrategy({
      schedule, scope: prepared.scope, config: cancellation, strategy: 'cancellation', groups: prepared.groups, solver: inProcessSolver, budget: Budget.start(60_000), offer: offered,
    });
    expect(cancelled.outcome.status).toBe('optimal');
    expect(offered.length).toBe(cancelled.model.candidateRoutes);
    const integrated = cfg('integrated');
    const alone = await solveStrategy({ schedule, scope: prepared.scope, config: integrated, strategy: 'integrated', groups: prepared.groups, solver: inProcessSolver, budget: Budget.start(60_000) });
    const helped = await solveStrategy({ schedule, scope: prepared.scope, config: integrated, strategy: 'integrated', groups: prepared.groups, solver: inProcessSolver, budget: Budget.start(60_000), takeUp: offered });
    const columns = new Set([...helped.model.routeColumns.values()].map((r) => r.key));
    for (const route of offered) expect(columns.has(route.key), route.key).toBe(true);
    expect(alone.outcome.status).toBe('optimal');
    expect(helped.outcome.status).toBe('optimal');
    expect(helped.outcome.objective!).toBeCloseTo(alone.outcome.objective!, 4);
  });
});

