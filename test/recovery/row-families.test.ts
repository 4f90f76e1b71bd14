// One test per row family of the recovery model (src/recovery/neighbourhood/rows/row-families.ts): on a small
// hand-written schedule, each family's rows are exactly the ones docs/model.md section 2 asks for,
// with coefficients worked out by hand; and for the families that guard a plan's feasibility, the
// model solved without them (a family dropped on purpose) returns a plan that breaks what they guard.
import { describe, expect, it } from 'vitest';
import type { Constraint, LinearModel } from '../../src/recovery/model/linear-model.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { JourneyFinder, type Journey } from '../../src/recovery/passengers/journeys.ts';
import { PRICING_MODES } from '../../src/recovery/neighbourhood/column-generation.ts';
import { buildStrategyModel, type StrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { prepareSimulation, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import { enumerateRoutes } from '../../src/recovery/neighbourhood/pricing.ts';
import type { Strategy } from '../../src/recovery/model/solver-config.ts';
import type { Schedule } from '../../src/domain/schedule.ts';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { bruteForceOptimum } from '../oracle/brute-force.ts';
import { checkOption } from '../oracle/checker.ts';
import { at, cancel, delay, makeSchedule } from '../oracle/fixtures.ts';
import { config, fixture, id, inProcessSolver, request, simulateAsResponse } from './fixtures.ts';

// Three A320s (180 seats). OE-AAA: VIE-PRG 06:00, PRG-VIE 07:50 (170 booked). OE-BBB: VIE-BUD-VIE.
// OE-DDD: VIE-BUD-VIE, then VIE-PRG 13:00, PRG-VIE 15:00 (100 booked: 80 free seats) and VIE-BUD 17:00. Itinerary
// IT1: 20 passengers connect in VIE from NV2 (arrives 08:50) to NV7 (VIE-BUD 09:30).
const schedule = fixture({
  flights: [
    { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00', booked: 120 },
    { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '07:50', arr: '08:50', booked: 170 },
    { no: 'NV5', tail: 'OE-BBB', from: 'VIE', to: 'BUD', dep: '07:45', arr: '08:45', booked: 150 },
    { no: 'NV6', tail: 'OE-BBB', from: 'BUD', to: 'VIE', dep: '09:30', arr: '10:30', booked: 90 },
    { no: 'NV7', tail: 'OE-DDD', from: 'VIE', to: 'BUD', dep: '09:30', arr: '10:30', booked: 60 },
    { no: 'NV8', tail: 'OE-DDD', from: 'BUD', to: 'VIE', dep: '11:15', arr: '12:15', booked: 60 },
    { no: 'NV9', tail: 'OE-DDD', from: 'VIE', to: 'PRG', dep: '13:00', arr: '14:00', booked: 100 },
    { no: 'NV10', tail: 'OE-DDD', from: 'PRG', to: 'VIE', dep: '15:00', arr: '16:00', booked: 100 },
    { no: 'NV11', tail: 'OE-DDD', from: 'VIE', to: 'BUD', dep: '17:00', arr: '18:00', booked: 100 },
  ],
  itineraries: [{ id: 'IT1', passengers: 20, flights: [id('NV2', '07:50'), id('NV7', '09:30')] }],
});

const free = { leg: () => 0, aircraft: () => 0, perSwap: 0 };

type Journeys = ReadonlyMap<string, readonly Journey[]>;

/**
 * The strategy's model of `simulation` over EVERY route of the scope (on a 60-minute departure grid),
 * built by the row families, with the journeys of several flights `withJourneys` ('all': every one,
 * as the sources of a first build find them at zero prices).
 */
function fullModel(on: Schedule, strategy: Strategy, simulation: SimulationRequest, withJourneys: Journeys | 'all' = 'all') {
  const prepared = prepareSimulation(on, simulation);
  const ev = new RouteEvaluator(on, prepared.scope, simulation.config);
  const routes = new Map(prepared.scope.aircraft.map((a) => [a.aircraft.tail, strategy === 'delay_propagation'
    ? [ev.plannedRoute(a)!]
    : enumerateRoutes(ev, a, PRICING_MODES[strategy], free, { stepMinutes: 60, threshold: Number.POSITIVE_INFINITY, maxRoutes: 20_000 }).routes.map((r) => r.route)]));
  const model = (journeys: Journeys) => buildStrategyModel(on, prepared.scope, simulation.config, strategy, routes, prepared.groups, journeys);
  if (withJourneys !== 'all') return { prepared, m: model(withJourneys) };
  const every = new Map<string, Journey[]>();
  for (const source of model(new Map()).journeySources) {
    const finder = new JourneyFinder(prepared.groups.network, simulation.config, source.search, source.usable, simulation.config.constraints.max_reaccommodation_legs);
    const found = finder.within(new Float64Array(prepared.groups.network.flights.length), Number.POSITIVE_INFINITY, 100_000, (journey) => journey.length === 1);
    every.set(source.key, found.journeys.map((j) => j.journey));
  }
  return { prepared, m: model(every) };
}

/** The strategy's model of NV1 `minDelay` minutes late, on the schedule above. */
function build(strategy: Strategy, minDelay: number, partial: Record<string, unknown> = {}): StrategyModel {
  const cfg = config({ strategies: { evaluate: [strategy] }, ...partial, solver: { time_step_minutes: 60, ...(partial.solver as object) } });
  return fullModel(schedule, strategy, request(id('NV1', '06:00'), minDelay, cfg)).m;
}
const rows = (model: LinearModel, prefix: string): Constraint[] => model.constraints.filter((c) => c.name.startsWith(prefix));
const coef = (row: Constraint, variable: string) => row.terms.find((t) => t.variable === variable)?.coef;
const solve = (model: LinearModel) => inProcessSolver.solve({ model, timeLimitMs: 10_000, mipGap: 0 });
const without = (model: LinearModel, prefix: string): LinearModel => ({ ...model, constraints: model.constraints.filter((c) => !c.name.startsWith(prefix)) });

/** The integrated model of `on` over every route of the scope (60-minute grid), under `disruptions`. */
function integratedModel(
  on: Schedule, someFlight: string, disruptions: SimulationRequest['disruptions'], partial: Record<string, unknown> = {},
  withJourneys: Journeys | 'all' = 'all',
) {
  const cfg = config({ strategies: { evaluate: ['integrated'] }, ...partial, solver: { time_step_minutes: 60 } });
  return fullModel(on, 'integrated', { ...request(someFlight, 0, cfg), disruptions, disruptedFlightId: null }, withJourneys);
}

describe('row families', () => {
  it('unit: "aircraft" rows: one per aircraft of the scope, Σ of its route columns = 1; dropped, an aircraft flies several routes at once', async () => {
    const m = build('integrated', 120);
    const aircraftRows = rows(m.model, 'aircraft__');
    expect(aircraftRows.map((r) => r.name).sort()).toEqual(['aircraft__OE_AAA', 'aircraft__OE_BBB', 'aircraft__OE_DDD']);
    for (const row of aircraftRows) {
      const tail = row.name.slice('aircraft__'.length).replace('_', '-');
      const columns = [...m.routeColumns].filter(([, r]) => r.tail === tail).map(([c]) => c).sort();
      expect(row).toMatchObject({ sense: '=', rhs: 1 });
      expect(row.terms.map((t) => t.variable).sort()).toEqual(columns);
      expect(row.terms.every((t) => t.coef === 1)).toBe(true);
    }
    // Priced so that every route is worth taking, the rows still give each aircraft exactly one;
    // dropped, an aircraft takes several (its empty route beside a flying one, flights still once each).
    const eager = { ...m.model, variables: m.model.variables.map((v) => (m.routeColumns.has(v.name) ? { ...v, cost: -1 } : v)) };
    const routesPerTail = (values: Record<string, number>) => {
      const count = new Map<string, number>();
      for (const [c, route] of m.routeColumns) if ((values[c] ?? 0) > 0.5) count.set(route.tail, (count.get(route.tail) ?? 0) + 1);
      return [...count.values()];
    };
    expect(routesPerTail((await solve(eager)).values)).toEqual([1, 1, 1]);
    expect(Math.max(...routesPerTail((await solve(without(eager, 'aircraft__'))).values))).toBeGreaterThan(1);
    // Two integer solves over every route of the scope, with a row family per itinerary whose leg may
    // be cancelled: 25 s on the shared 2-core machine (13 s before those), near the default 30.
  }, 120_000);

  it('unit: "flight" rows: one per flight of the scope, flown once or cancelled; no cancel column where the strategy cannot cancel', () => {
    const integrated = build('integrated', 120);
    const flightRows = rows(integrated.model, 'flight__');
    expect(flightRows).toHaveLength(9);
    const nv2 = flightRows.find((r) => r.name === 'flight__NV2_20261121T0750Z')!;
    expect(nv2).toMatchObject({ sense: '=', rhs: 1 });
    expect(coef(nv2, 'cancel__NV2_20261121T0750Z')).toBe(1);
    const flying = [...integrated.routeColumns].filter(([, r]) => r.legs.some((l) => l.flight.id === id('NV2', '07:50'))).map(([c]) => c).sort();
    expect(nv2.terms.filter((t) => t.variable.startsWith('x__')).map((t) => t.variable).sort()).toEqual(flying);
    const delayOnly = build('delay_propagation', 120);
    expect(delayOnly.model.variables.some((v) => v.name.startsWith('cancel__'))).toBe(false);
    expect(rows(delayOnly.model, 'flight__').every((r) => r.terms.every((t) => t.variable.startsWith('x__')))).toBe(true);
  });

  it('unit: "max_swaps" row: Σ swaps of each route column ≤ max_swaps, only when it can bind; dropped, the plan swaps more', async () => {
    expect(rows(build('aircraft_swap', 240).model, 'max_swaps')).toEqual([]); // default 20 ≥ 8 flights
    const m = build('aircraft_swap', 240, { constraints: { max_swaps: 1 } });
    const [row] = rows(m.model, 'max_swaps');
    expect(row).toMatchObject({ sense: '<=', rhs: 1 });
    for (const t of row!.terms) expect(t.coef).toBe(m.routeColumns.get(t.variable)!.swaps);
    expect(row!.terms.length).toBe([...m.routeColumns.values()].filter((r) => r.swaps > 0).length);
    // Priced so that every swap pays, the row still holds the plan to one; dropped, it swaps more.
    const eager = { ...m.model, variables: m.model.variables.map((v) => (m.routeColumns.has(v.name) ? { ...v, cost: -1000 * m.routeColumns.get(v.name)!.swaps } : v)) };
    const swapsOf = (values: Record<string, number>) => [...m.routeColumns].filter(([c]) => (values[c] ?? 0) > 0.5).reduce((sum, [, r]) => sum + r.swaps, 0);
    expect(swapsOf((await solve(eager)).values)).toBeLessThanOrEqual(1);
    expect(swapsOf((await solve(without(eager, 'max_swaps'))).values)).toBeGreaterThan(1);
  });

  it('unit: "max_cancellations" row: Σ cancel columns ≤ max_cancellations; dropped, the plan cancels more', async () => {
    expect(rows(build('cancellation', 300).model, 'max_cancellations')).toEqual([]); // default: no limit
    const m = build('cancellation', 300, { constraints: { max_cancellations: 1 } });
    const [row] = rows(m.model, 'max_cancellations');
    expect(row).toMatchObject({ sense: '<=', rhs: 1 });
    expect(row!.terms.map((t) => t.variable).sort()).toEqual([...m.cancelColumns.keys()].sort());
    const cancelled = (values: Record<string, number>) => [...m.cancelColumns.keys()].filter((c) => (values[c] ?? 0) > 0.5).length;
    const cheap = config({ cost_weights: { cancellation_per_flight: 0, compensation_multiplier: 0, reaccommodation_per_passenger: 0, reaccommodation_delay_per_passenger_minute: 0 } }).cost_weights;
    const free = { ...m.model, variables: m.model.variables.map((v) => (v.name.startsWith('cancel__') || v.name.startsWith('stranded__') ? { ...v, cost: cheap.cancellation_per_flight } : v)) };
    expect(cancelled((await solve(free)).values)).toBeLessThanOrEqual(1);
    expect(cancelled((await solve(without(free, 'max_cancellations'))).values)).toBeGreaterThan(1);
  });

  it('unit: "passengers" rows of a cancelled flight: Σ rebooked + stranded − booked × cancel = 0; no journey that costs the compensation', () => {
    const m = build('cancellation', 300, { cost_weights: { compensation_multiplier: 100 } });
    const row = m.model.constraints.find((c) => c.name === 'passengers__NV2_20261121T0750Z')!;
    expect(row).toMatchObject({ sense: '=', rhs: 0 });
    // Its own passengers: 170 booked less IT1's 20, who continue beyond it (their itinerary's group).
    expect(coef(row, 'cancel__NV2_20261121T0750Z')).toBe(-150);
    expect(coef(row, 'stranded__NV2_20261121T0750Z')).toBe(1);
    // The only later PRG-VIE flight is NV10 (15:00); PRG has no other flight to a place that reaches VIE.
    expect(coef(row, 'rebook__NV2_20261121T0750Z__to__NV10_20261121T1500Z')).toBe(1);
    expect(row.terms).toHaveLength(3);
    // At the default weights NV10 lands 430 min after NV2 would have: 120 + 0.5 × 430 = 335 per
    // passenger, above the 250 of compensation (PRG-VIE is under 1,500 km): not offered.
    const row2 = build('cancellation', 300).model.constraints.find((c) => c.name === 'passengers__NV2_20261121T0750Z')!;
    expect(row2.terms.map((t) => t.variable).sort()).toEqual(['cancel__NV2_20261121T0750Z', 'stranded__NV2_20261121T0750Z']);
  });

  it('unit: "missed" rows of a connection: missed ≥ [NV2 arrives too late for v] + [NV7 leaves by v] − 1; dropped, a broken connection costs nothing', async () => {
    const m = build('delay_propagation', 60); // NV2 arrives 09:50 at best, NV7 leaves 09:30: missed
    const missedRows = rows(m.model, 'missed__IT1__');
    expect(missedRows.length).toBeGreaterThan(0);
    for (const row of missedRows) expect(coef(row, 'missed__IT1')).toBe(1);
    const passengers = m.model.constraints.find((c) => c.name === 'passengers__missed_IT1')!;
    expect(coef(passengers, 'missed__IT1')).toBe(-20);
    const withRows = await solve(m.model);
    expect(withRows.values['missed__IT1']).toBeCloseTo(1, 6);
    const dropped = await solve(without(m.model, 'missed__IT1__'));
    expect(dropped.values['missed__IT1'] ?? 0).toBeCloseTo(0, 6);
    expect(dropped.objective!).toBeLessThan(withRows.objective!);
  });

  it('unit: "seats" rows: re-accommodated passengers fit the free seats of the flight that takes them; dropped, more than fit are moved', async () => {
    const m = build('cancellation', 300, { cost_weights: { compensation_multiplier: 100 } });
    // NV10 is in the scope (OE-DDD is a candidate), so its free seats are those of whichever route flies it.
    const seats = m.model.constraints.find((c) => c.name === 'seats__NV10_20261121T1500Z')!;
    expect(seats).toMatchObject({ sense: '<=', rhs: 0 });
    const flyers = seats.terms.filter((t) => t.variable.startsWith('x__'));
    expect(flyers.length).toBeGreaterThan(0);
    for (const t of flyers) expect(t.coef).toBe(-(180 - 100));
    const moved = (values: Record<string, number>) => [...m.rebookColumns].filter(([, r]) => r.journey.some((leg) => leg.id === id('NV10', '15:00'))).reduce((s, [c]) => s + (values[c] ?? 0), 0);
    const cancelNV2 = { ...m.model, constraints: [...m.model.constraints, { name: 'force_cancel', terms: [{ variable: 'cancel__NV2_20261121T0750Z', coef: 1 }], sense: '=' as const, rhs: 1 }] };
    expect(moved((await solve(cancelNV2)).values)).toBeLessThanOrEqual(80 + 1e-6);
    // (journey_seats rows bound the same journeys by the seats they can offer at most: dropped too.)
    expect(moved((await solve(without(without(cancelNV2, 'seats__'), 'journey_seats__'))).values)).toBeGreaterThan(80);
  });

  it('unit: "journey_seats" rows: rebooked ≤ min(passengers, seats the journey can offer) × cancelled, only where the seats fall short', () => {
    const m = build('integrated', 240, { cost_weights: { compensation_multiplier: 100 } });
    // NV2 (170 booked) onto NV10 (in the scope: at most 180 − 100 = 80 seats, whichever A320 flies it).
    const row = m.model.constraints.find((c) => c.name === 'journey_seats__NV2_20261121T0750Z__to__NV10_20261121T1500Z')!;
    expect(row).toMatchObject({ sense: '<=', rhs: 0 });
    expect(row.terms).toEqual([{ variable: 'rebook__NV2_20261121T0750Z__to__NV10_20261121T1500Z', coef: 1 }, { variable: 'cancel__NV2_20261121T0750Z', coef: -80 }]);
    // NV1's 120 passengers fit NV9's 80 free seats no better; IT1's 20 fit NV11's 80: no row.
    expect(rows(m.model, 'journey_seats__').map((r) => r.name)).not.toContain('journey_seats__missed_IT1__to__NV11_20261121T1700Z');
    expect(m.model.constraints.find((c) => c.name === 'journey_seats__NV1_20261121T0600Z__to__NV9_20261121T1300Z')?.terms[1]).toEqual({ variable: 'cancel__NV1_20261121T0600Z', coef: -80 });
  });

  it('unit: "reach" rows: passengers of a missed connection take a later flight only on a route whose inbound arrives in time', () => {
    // NV11 (VIE-BUD 17:00) lands 450 min late: offered only where compensation is dear.
    const m = build('integrated', 60, { cost_weights: { compensation_multiplier: 100 } });
    const reach = rows(m.model, 'reach__missed_IT1__to__');
    expect(reach.length).toBeGreaterThan(0);
    for (const row of reach) {
      expect(row).toMatchObject({ sense: '<=', rhs: 0 });
      const rebook = row.terms.find((t) => t.variable.startsWith('rebook__'))!;
      expect(rebook.coef).toBe(1);
      for (const t of row.terms.filter((t) => t.variable.startsWith('x__'))) expect(t.coef).toBe(-20);
    }
  });
});

// Passengers of the cancelled NV2 (PRG-VIE 07:50-08:50, 170 booked) have no later direct flight, but a
// journey of two: NV3 PRG-FRA 08:30-09:30 (OE-BBB) then NV4 FRA-VIE 10:15-11:15 (OE-CCC), 45 min of
// connection in FRA, 80 free seats on each. It lands 145 min after NV2 would have: 120 + 0.5 × 145 =
// 192.5 per passenger, below the 250 of compensation (PRG-VIE is under 1,500 km).
describe('re-accommodation over a journey of two flights', () => {
  const journeysFile = makeSchedule({
    name: 'two-flight-journey',
    aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'PRG' }, { tail: 'OE-BBB', fleet: 'A320', base: 'PRG' }, { tail: 'OE-CCC', fleet: 'A320', base: 'FRA' }],
    flights: [
      ['NV2', 'OE-AAA', 'PRG', 'VIE', '07:50', '08:50', 170],
      ['NV3', 'OE-BBB', 'PRG', 'FRA', '08:30', '09:30', 100],
      ['NV4', 'OE-CCC', 'FRA', 'VIE', '10:15', '11:15', 100],
    ],
  });
  const journeys = buildSchedule(journeysFile);
  const NV2 = id('NV2', '07:50');
  const NV3 = id('NV3', '08:30');
  const NV4 = id('NV4', '10:15');
  const column = 'rebook__NV2_20261121T0750Z__to__NV3_20261121T0830Z__then__NV4_20261121T1015Z';
  const cancelNV2 = (partial: Record<string, unknown> = {}, delayNV3 = 0) => ({
    disruptions: [cancel(NV2), ...(delayNV3 > 0 ? [delay(NV3, delayNV3)] : [])],
    config: config({ strategies: { evaluate: ['integrated'] }, ...partial }),
  });

  const journeyModel = (disruptions: SimulationRequest['disruptions'], partial: Record<string, unknown> = {}, withJourneys: Journeys | 'all' = 'all') =>
    integratedModel(journeys, NV2, disruptions, partial, withJourneys);

  it('unit: the journey is one integer column with a seat on each flight, and a "reach" row on its first flight, which the plan may delay', () => {
    const { prepared, m } = journeyModel([{ type: 'flight_cancellation', flightId: NV2 }]);
    expect(m.model.variables.find((v) => v.name === column)).toMatchObject({ kind: 'integer', cost: 192.5, lb: 0, ub: 170 });
    const passengers = m.model.constraints.find((c) => c.name === 'passengers__NV2_20261121T0750Z')!;
    expect(passengers.terms.map((t) => t.variable).sort()).toEqual(['cancel__NV2_20261121T0750Z', column, 'stranded__NV2_20261121T0750Z']);
    // The scope holds OE-AAA and OE-BBB: NV3's free seats are those of whichever route flies it, NV4's are fixed.
    expect(prepared.scope.aircraft.map((a) => a.aircraft.tail).sort()).toEqual(['OE-AAA', 'OE-BBB']);
    const seatsNV3 = m.model.constraints.find((c) => c.name === 'seats__NV3_20261121T0830Z')!;
    expect(seatsNV3).toMatchObject({ sense: '<=', rhs: 0 });
    expect(coef(seatsNV3, column)).toBe(1);
    const flyers = seatsNV3.terms.filter((t) => t.variable.startsWith('x__'));
    expect(flyers.length).toBeGreaterThan(0);
    for (const t of flyers) expect(t.coef).toBe(-80);
    const seatsNV4 = m.model.constraints.find((c) => c.name === 'seats__NV4_20261121T1015Z')!;
    expect(seatsNV4).toMatchObject({ sense: '<=', rhs: 80 });
    expect(seatsNV4.terms).toEqual([{ variable: column, coef: 1 }]);
    // −170 on exactly the routes that land NV3 in FRA by 09:30 (45 min before NV4's 10:15).
    const reach = m.model.constraints.find((c) => c.name === `reach__NV2_20261121T0750Z__to__NV3_20261121T0830Z__then__NV4_20261121T1015Z`)!;
    expect(reach).toMatchObject({ sense: '<=', rhs: 0 });
    expect(coef(reach, column)).toBe(1);
    const inTime = [...m.routeColumns].filter(([, r]) => r.legs.some((l) => l.flight.id === NV3 && l.arrMinutes <= Date.parse(at('09:30')) / 60_000)).map(([c]) => c);
    const late = [...m.routeColumns].filter(([, r]) => r.legs.some((l) => l.flight.id === NV3 && l.arrMinutes > Date.parse(at('09:30')) / 60_000)).map(([c]) => c);
    expect(inTime.length).toBeGreaterThan(0);
    expect(late.length).toBeGreaterThan(0);
    for (const c of inTime) expect(coef(reach, c)).toBe(-170);
    for (const c of late) expect(coef(reach, c) ?? 0).toBe(0);
    // 80 seats at most for 170 passengers: in proportion to the cancellation.
    expect(m.model.constraints.find((c) => c.name === `journey_seats__NV2_20261121T0750Z__to__NV3_20261121T0830Z__then__NV4_20261121T1015Z`)!.terms)
      .toEqual([{ variable: column, coef: 1 }, { variable: 'cancel__NV2_20261121T0750Z', coef: -80 }]);
  });

  it('unit: without a column, the journey is found by its source\'s search at its value (cost + leg prices), and has none of its rows', () => {
    const { prepared, m } = journeyModel([{ type: 'flight_cancellation', flightId: NV2 }], {}, new Map());
    expect(m.model.variables.some((v) => v.name === column)).toBe(false);
    expect(m.model.constraints.some((c) => c.name.includes('__then__') || c.name === 'seats__NV4_20261121T1015Z')).toBe(false);
    // One source per cancellation group (NV2's, and NV3's, which the integrated strategy may cancel).
    const source = m.journeySources.find((s) => s.key === 'NV2_20261121T0750Z')!;
    expect(source.rows).toEqual(['passengers__NV2_20261121T0750Z']);
    // Each flight priced 10 (a seat row's price of −10): 192.5 + 20.
    const finder = (legs: number | null) => new JourneyFinder(prepared.groups.network, config({}), source.search, source.usable, legs);
    const tens = new Float64Array(prepared.groups.network.flights.length).fill(10);
    const found = finder(null).within(tens, 212.5, 10);
    expect(found.journeys.map((j) => [j.journey.map((f) => f.id), j.value])).toEqual([[[NV3, NV4], 212.5]]);
    expect(found.complete).toBe(true);
    expect(finder(null).least(tens, 1e9, () => false)).toBe(212.5);
    expect(finder(null).best(tens, 1e9, 3, () => false).map((j) => j.value)).toEqual([212.5]);
    expect(finder(null).within(tens, 212.4, 10).journeys).toEqual([]);
    expect(finder(1).within(tens, 1e9, 10).journeys).toEqual([]);
    expect(finder(1).cheapestOfSeveral).toBe(Number.POSITIVE_INFINITY);
    expect(finder(null).cheapestOfSeveral).toBe(192.5);
    const given = journeyModel([{ type: 'flight_cancellation', flightId: NV2 }], {}, new Map([[source.key, found.journeys.map((j) => j.journey)]])).m;
    expect(given.model.variables.some((v) => v.name === column)).toBe(true);
  });

  // NV2 240 min late: flying it costs 240 × (100 + 0.5 × 170) = 44,400; cancelling it (positions free)
  // 8,000 + 80 × 192.5 + 90 × 250 = 45,900. Without the journey_seats row the LP relaxation cancels
  // NV2 by θ = 80/170, so that its 170θ passengers all fit the journey: 44,400 + θ × (8,000 + 170 ×
  // 192.5 − 44,400) = 42,670.59. With it, a share θ of cancellation offers 80θ seats: θ = 0, 44,400.
  it('unit: the journey_seats row takes the LP relaxation from 42,670.59 to the optimum 44,400, which it leaves alone', async () => {
    const { m } = journeyModel([{ type: 'flight_delay', flightId: NV2, minDelayMinutes: 240 }], { cost_weights: { aircraft_out_of_position: 0 } });
    const relaxed = (model: LinearModel): LinearModel => ({ ...model, variables: model.variables.map((v) => ({ ...v, kind: 'continuous' as const })) });
    const lp = async (model: LinearModel) => (await solve(relaxed(model))).objective!;
    expect(await lp(without(m.model, 'journey_seats__'))).toBeCloseTo(44_400 - 3_675 * 80 / 170, 6);
    expect(await lp(m.model)).toBeCloseTo(44_400, 6);
    expect((await solve(m.model)).objective!).toBeCloseTo(44_400, 6);
    expect((await solve(without(m.model, 'journey_seats__'))).objective!).toBeCloseTo(44_400, 6);
  });

  it('scenario: 80 of NV2\'s passengers go PRG-FRA-VIE (80 × 192.5), 90 are compensated (90 × 250); the oracle agrees', async () => {
    const body = cancelNV2();
    const option = (await simulateAsResponse(journeys, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(option.solver.status).toBe('optimal');
    expect(option.action_set.reaccommodations).toEqual([
      { from_flight: NV2, to_flights: [NV3, NV4], passengers: 80, reason: 'cancellation', itinerary_id: null },
      { from_flight: NV2, to_flights: [], passengers: 90, reason: 'cancellation', itinerary_id: null },
    ]);
    expect(option.cost_breakdown).toMatchObject({ reaccommodation: 80 * 192.5, compensation: 90 * 250 });
    const input = { schedule: journeysFile, disruptions: body.disruptions, airline: 'NV', config: body.config };
    expect(checkOption({ ...input, option })).toEqual([]);
    expect(option.summary.cost).toBeCloseTo(bruteForceOptimum({ ...input, strategy: 'integrated' }).cost, 9);
  });

  it('scenario: with NV3 an hour late (10:30 in FRA) or journeys limited to one flight, all 170 are compensated', async () => {
    for (const body of [cancelNV2({}, 60), cancelNV2({ constraints: { max_reaccommodation_legs: 1 } })]) {
      const option = (await simulateAsResponse(journeys, body)).options.find((o) => o.strategy === 'integrated')!;
      expect(option.action_set.reaccommodations).toEqual([{ from_flight: NV2, to_flights: [], passengers: 170, reason: 'cancellation', itinerary_id: null }]);
      expect(option.cost_breakdown).toMatchObject({ reaccommodation: 0, compensation: 170 * 250 });
    }
  });
});

// IT3: 20 passengers PRG-VIE-FRA-ZRH on NV1 (07:00-08:00), NV2 (08:45-10:15) and NV3 (11:00-12:00).
// NV1 an hour late breaks the connection in VIE; they may leave from VIE (NV5 VIE-ZRH 13:00) or
// from FRA (NV6 FRA-ZRH 14:00), each rebooking also in its hub's `from` row.
describe('re-accommodation of an itinerary of three flights', () => {
  const NV1 = id('NV1', '07:00');
  const threeLegs = buildSchedule(makeSchedule({
    name: 'three-flight-itinerary',
    aircraft: [
      { tail: 'OE-AAA', fleet: 'A320', base: 'PRG' }, { tail: 'OE-BBB', fleet: 'A320', base: 'VIE' }, { tail: 'OE-CCC', fleet: 'A320', base: 'FRA' },
      { tail: 'OE-DDD', fleet: 'A320', base: 'VIE' }, { tail: 'OE-EEE', fleet: 'A320', base: 'FRA' },
    ],
    flights: [
      ['NV1', 'OE-AAA', 'PRG', 'VIE', '07:00', '08:00', 100],
      ['NV2', 'OE-BBB', 'VIE', 'FRA', '08:45', '10:15', 100],
      ['NV3', 'OE-CCC', 'FRA', 'ZRH', '11:00', '12:00', 100],
      ['NV5', 'OE-DDD', 'VIE', 'ZRH', '13:00', '14:30', 100],
      ['NV6', 'OE-EEE', 'FRA', 'ZRH', '14:00', '15:00', 100],
    ],
    itineraries: [{ itinerary_id: 'IT3', passengers: 20, flights: [NV1, id('NV2', '08:45'), id('NV3', '11:00')] }],
  }));

  it('unit: its rebookings are integer columns (a hub\'s share is free, so a vertex could split a passenger between hubs); a two-flight itinerary\'s stay continuous', () => {
    const { m } = integratedModel(threeLegs, NV1, [{ type: 'flight_delay', flightId: NV1, minDelayMinutes: 60 }], { cost_weights: { compensation_multiplier: 100 } });
    const rebook = m.model.variables.filter((v) => v.name.startsWith('rebook__missed_IT3__'));
    expect(rebook.map((v) => v.name).sort()).toEqual(['rebook__missed_IT3__c1__to__NV5_20261121T1300Z', 'rebook__missed_IT3__c2__to__NV6_20261121T1400Z']);
    for (const v of rebook) expect(v.kind).toBe('integer');
    expect(coef(m.model.constraints.find((c) => c.name === 'from__missed_IT3__c1')!, 'rebook__missed_IT3__c1__to__NV5_20261121T1300Z')).toBe(1);
    const two = build('integrated', 60, { cost_weights: { compensation_multiplier: 100 } });
    // Its direct journeys (from its hub; PRG, its origin, where NV2 cancelled leaves them, has none to
    // BUD): the origin's share is NV2's cancellation and the hub's needs NV2 flown, so no vertex
    // splits a passenger between them (row-families.ts). Journeys of several flights are integer.
    const direct = two.model.variables.filter((v) => v.name.startsWith('rebook__missed_IT1__') && !v.name.includes('__then__'));
    expect(direct.length).toBeGreaterThan(0);
    for (const v of direct) expect([v.name, v.kind]).toEqual([v.name, 'continuous']);
    expect(two.model.variables.some((v) => v.name.startsWith('rebook__missed_IT1__c0__to__NV10_'))).toBe(true);
  });
});

