// The engine against the independent oracle (test/oracle/, which shares no code with it): on random
// small instances with 1-3 disruptions of all four kinds, each strategy's option is proven optimal and
// costs exactly the optimum found by exhaustive enumeration, every option passes the plan checker,
// the engine finds no plan where none exists, its lower bound never exceeds the optimum (the network
// engine's too: it answers the integrated strategy of every instance with several disruptions), the scope
// and the top-level violations agree. Half the instances state standing hourly capacities (1.1), which
// change the optimum of about a quarter of those, met by both engines. Every disagreement of the run
// is listed, not only the first.
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSchedule, loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { STRATEGIES } from '../../src/recovery/model/solver-config.ts';
import { bruteForceOptimum, topLevelViolations } from '../oracle/brute-force.ts';
import { checkOption, optionHolds } from '../oracle/checker.ts';
import { capacity, delay, F1, F7, F10, fid, makeSchedule, unavailable } from '../oracle/fixtures.ts';
import { close, violationKey, type OracleDisruption } from '../oracle/model.ts';
import { randomInstance, randomInstanceArbitrary, type RandomInstance } from '../oracle/random-instance.ts';
import { config, flightBoundOf, simulateAsResponse } from './fixtures.ts';

const RUNS = 200;
const SEED = 20261123;
const DETOUR_RUNS = 100;

/** What the instances exercised, counted on the optima both sides agree on. */
interface Coverage {
  instances: number;
  kinds: Record<'flight_delay' | 'flight_cancellation' | 'aircraft_unavailable' | 'airport_capacity', number>;
  optionsCompared: number;
  noPlanAgreed: number;
  withHold: number;
  withSwap: number;
  withCancellation: number;
  propagatedPlanAsIntegrated: number;
  /** Options whose passengers of a three-flight itinerary are disrupted, and of those, at its second connection. */
  longItineraryMissed: number;
  longItinerarySecondHub: number;
  /** Options whose itinerary passengers lose their journey to a cancelled leg, and of those, re-accommodated from the itinerary's origin (its first leg cancelled). */
  itineraryLegCancelled: number;
  itineraryFromOrigin: number;
  /** Options that re-accommodate passengers on a journey of several flights. */
  multiFlightJourney: number;
  /** ... and of those, on a journey of three flights or more. */
  journeyOfThreeOrMore: number;
  /** Instances whose flight bound is above 0 (a capacity or a forced delay or cancellation costs something in every plan). */
  flightBoundAboveZero: number;
  /** Integrated options answered by the network engine (several disruptions, a capacity cut, an aircraft out of service) and equal to the optimum. */
  networkEngine: number;
  /** Instances whose schedule states standing hourly capacities (docs/model.md 1.1), and of those, where they bind: some strategy's optimum differs without them. */
  standingCapacities: number;
  standingBinds: number;
  /** Options equal to an optimum that the standing capacities change, by the engine that answered. */
  standingBoundOptions: { neighbourhood: number; network: number };
}

/** The disagreements of one instance with the oracle, one sentence each. */
async function disagreements(instance: RandomInstance, coverage: Coverage): Promise<string[]> {
  const out: string[] = [];
  const schedule = buildSchedule(instance.schedule);
  // The engine's own resolution of the instance's configuration, handed unchanged to the oracle.
  const solverConfig = config(instance.config);
  let result: SimulationResponse;
  try {
    result = await simulateAsResponse(schedule, { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline, scenarioId: `seed-${instance.seed}` });
  } catch (error) {
    return [`the engine failed: ${(error as Error).message}`];
  }
  const input = { schedule: instance.schedule, disruptions: instance.disruptions, airline: instance.airline, config: solverConfig };
  for (const d of instance.disruptions) coverage.kinds[d.type]++;
  // The flight bound bounds every strategy's plans (src/recovery/bounds/flight-bound.ts).
  const floor = await flightBoundOf(schedule, { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline });
  if (floor !== null && floor > 0) coverage.flightBoundAboveZero++;

  const standing = instance.schedule.airports.some((a) => (a.hourly_capacity ?? []).length > 0);
  if (standing) coverage.standingCapacities++;
  const withoutStanding = { ...input, schedule: { ...instance.schedule, airports: instance.schedule.airports.map(({ hourly_capacity: _, ...a }) => a) } };
  let standingBinds = false;
  for (const strategy of STRATEGIES) {
    const brute = bruteForceOptimum({ ...input, strategy });
    const free = standing ? bruteForceOptimum({ ...withoutStanding, strategy }) : brute;
    const bound = brute.feasible !== free.feasible || (brute.feasible && !close(brute.cost, free.cost, 1e-9));
    standingBinds ||= bound;
    if (strategy === 'integrated' && [...result.scope.aircraft].sort().join() !== [...brute.scope.aircraft].sort().join()) {
      out.push(`scope: the engine takes aircraft ${result.scope.aircraft.join(', ')}, the oracle ${brute.scope.aircraft.join(', ')}`);
    }
    const option = result.options.find((o) => o.strategy === strategy);
    const unsolved = result.unsolved_strategies.find((u) => u.strategy === strategy);
    if (!brute.feasible) {
      if (option) {
        out.push(`${strategy}: the engine returns a plan of cost ${option.summary.cost} (${option.solver.status}) where brute force proves none exists`);
        for (const p of checkOption({ ...input, option })) out.push(`${strategy}: checker: ${p}`);
      }
      else if (unsolved?.status !== 'infeasible') out.push(`${strategy}: no plan exists, but the engine reports ${unsolved?.status ?? 'nothing'} rather than infeasible`);
      else coverage.noPlanAgreed++;
      continue;
    }
    if (floor !== null && floor > brute.cost && !close(floor, brute.cost, 1e-9)) out.push(`${strategy}: the flight bound ${floor} is above the optimum ${brute.cost}`);
    if (!option) {
      out.push(`${strategy}: brute force finds a plan of cost ${brute.cost}, the engine none (${unsolved?.status}: ${unsolved?.detail})`);
      continue;
    }
    const problems = checkOption({ ...input, option });
    for (const p of problems) out.push(`${strategy}: checker: ${p}`);
    if (option.solver.status !== 'optimal') out.push(`${strategy}: the engine reports ${option.solver.status}, not optimal, on an instance this small (cost ${option.summary.cost}, optimum ${brute.cost}; ${option.solver.note})`);
    else if (!close(option.summary.cost, brute.cost, 1e-9)) out.push(`${strategy}: the engine's optimal option costs ${option.summary.cost}, the brute-force optimum is ${brute.cost}`);
    const lb = option.solver.lower_bound;
    if (lb !== null && lb > brute.cost && !close(lb, brute.cost, 1e-9)) out.push(`${strategy}: solver.lower_bound ${lb} is above the optimum ${brute.cost}`);
    if (problems.length === 0 && close(option.summary.cost, brute.cost, 1e-9)) {
      coverage.optionsCompared++;
      if (optionHolds(input, option) > 0) coverage.withHold++;
      if (option.summary.flights_swapped > 0) coverage.withSwap++;
      if (option.action_set.cancellations.length > instance.disruptions.filter((d) => d.type === 'flight_cancellation').length) coverage.withCancellation++;
      if (strategy === 'integrated' && brute.plan!.source === 'delay_propagation') coverage.propagatedPlanAsIntegrated++;
      if (strategy === 'integrated' && option.solver.engine === 'network') coverage.networkEngine++;
      if (bound) coverage.standingBoundOptions[option.solver.engine]++;
      const missedLegs = option.action_set.reaccommodations.flatMap((r) => {
        const legs = instance.schedule.itineraries.find((it) => it.itinerary_id === r.itinerary_id)?.flights ?? [];
        return legs.length > 2 ? [legs.indexOf(r.from_flight)] : [];
      });
      if (missedLegs.length > 0) coverage.longItineraryMissed++;
      if (missedLegs.includes(2)) coverage.longItinerarySecondHub++;
      const byCancelledLeg = option.action_set.reaccommodations.filter((r) => r.itinerary_id !== null && r.reason === 'cancellation');
      if (byCancelledLeg.length > 0) coverage.itineraryLegCancelled++;
      if (byCancelledLeg.some((r) => r.to_flights.length > 0 && instance.schedule.itineraries.find((it) => it.itinerary_id === r.itinerary_id)?.flights[0] === r.from_flight)) coverage.itineraryFromOrigin++;
      if (option.action_set.reaccommodations.some((r) => r.to_flights.length > 1)) coverage.multiFlightJourney++;
      if (option.action_set.reaccommodations.some((r) => r.to_flights.length > 2)) coverage.journeyOfThreeOrMore++;
    }
  }
  if (standingBinds) coverage.standingBinds++;
  const engineViolations = result.violations.map(violationKey).sort();
  const oracleViolations = topLevelViolations(input).map(violationKey).sort();
  if (engineViolations.join() !== oracleViolations.join()) out.push(`top-level violations: the engine reports [${engineViolations.join('; ')}], the oracle [${oracleViolations.join('; ')}]`);
  return out;
}

const emptyCoverage = (): Coverage => ({
  instances: 0, kinds: { flight_delay: 0, flight_cancellation: 0, aircraft_unavailable: 0, airport_capacity: 0 },
  optionsCompared: 0, noPlanAgreed: 0, withHold: 0, withSwap: 0, withCancellation: 0, propagatedPlanAsIntegrated: 0,
  longItineraryMissed: 0, longItinerarySecondHub: 0, itineraryLegCancelled: 0, itineraryFromOrigin: 0, multiFlightJourney: 0, journeyOfThreeOrMore: 0, flightBoundAboveZero: 0, networkEngine: 0,
  standingCapacities: 0, standingBinds: 0, standingBoundOptions: { neighbourhood: 0, network: 0 },
});

/** The disagreements of `runs` instances drawn from `instances` with `seed`, and what they exercised. */
async function property(instances: fc.Arbitrary<RandomInstance>, runs: number, seed: number): Promise<{ found: string[]; coverage: Coverage }> {
  const coverage = emptyCoverage();
  const found: string[] = [];
  for (const instance of fc.sample(instances, { numRuns: runs, seed })) {
    coverage.instances++;
    for (const d of await disagreements(instance, coverage)) found.push(`seed ${instance.seed}: ${d}`);
  }
  return { found, coverage };
}

describe('optimality against exhaustive enumeration', () => {
  it(`property: on ${RUNS} random instances each strategy is proven optimal at the brute-force optimum, and every option checks out`, async () => {
    const { found, coverage } = await property(randomInstanceArbitrary(), RUNS, SEED);
    console.info(`optimality property: ${JSON.stringify(coverage)}`);
    expect(found).toEqual([]);
    // The instances must exercise every disruption and every action, or equality would prove little.
    for (const kind of Object.keys(coverage.kinds) as (keyof Coverage['kinds'])[]) expect(coverage.kinds[kind], kind).toBeGreaterThan(0);
    expect(coverage.withHold).toBeGreaterThan(0);
    expect(coverage.withSwap).toBeGreaterThan(0);
    expect(coverage.withCancellation).toBeGreaterThan(0);
    expect(coverage.noPlanAgreed).toBeGreaterThan(0);
    // ... and the integrated option that is the propagated plan itself, off the grid (1.8).
    expect(coverage.propagatedPlanAsIntegrated).toBeGreaterThan(0);
    // ... and itineraries of three flights broken at either connection.
    expect(coverage.longItineraryMissed).toBeGreaterThan(0);
    expect(coverage.longItinerarySecondHub).toBeGreaterThan(0);
    // ... and itineraries broken by a cancelled leg, their passengers re-accommodated to the final
    // destination, some from the origin (docs/model.md 1.6).
    expect(coverage.itineraryLegCancelled).toBeGreaterThan(0);
    expect(coverage.itineraryFromOrigin).toBeGreaterThan(0);
    // ... and flight bounds that say something.
    expect(coverage.flightBoundAboveZero).toBeGreaterThan(coverage.instances / 4);
    // ... and the network engine: its integrated options proven optimal at the brute-force optimum.
    expect(coverage.networkEngine).toBeGreaterThan(coverage.instances / 4);
    // ... and standing capacities that change the optimum, met by both engines.
    expect(coverage.standingBinds).toBeGreaterThan(coverage.standingCapacities / 5);
    expect(coverage.standingBoundOptions.neighbourhood).toBeGreaterThan(0);
    expect(coverage.standingBoundOptions.network).toBeGreaterThan(0);
  }, 600_000);

  it(`property: on ${DETOUR_RUNS} random instances with a cancelled flight and a detour of two to four flights beside it, the same holds`, async () => {
    const { found, coverage } = await property(randomInstanceArbitrary({ detour: true }), DETOUR_RUNS, SEED);
    console.info(`optimality property with detours: ${JSON.stringify(coverage)}`);
    expect(found).toEqual([]);
    // Passengers went over journeys of several flights in a good share of the optima compared.
    expect(coverage.multiFlightJourney).toBeGreaterThan(coverage.optionsCompared / 10);
    // ... some of them of three flights or more (the leg limit is often none).
    expect(coverage.journeyOfThreeOrMore).toBeGreaterThan(0);
  }, 600_000);
});

// The smallest cases of the disagreements the property found, each against the oracle (hand-checked
// in test/oracle/fixtures.ts and test/oracle/oracle.test.ts), so that a fix is seen at once.
describe('the smallest cases of the disagreements found', () => {
  const smallest = async (schedule: ScheduleFile, disruptions: OracleDisruption[], partial: unknown) => {
    const solverConfig = config(partial);
    const input = { schedule, disruptions, airline: 'NV', config: solverConfig };
    const result = await simulateAsResponse(buildSchedule(schedule), { disruptions, config: solverConfig });
    return STRATEGIES.map((strategy) => {
      const option = result.options.find((o) => o.strategy === strategy);
      return { strategy, oracle: bruteForceOptimum({ ...input, strategy }).cost, engine: option?.summary.cost ?? null, problems: option ? checkOption({ ...input, option }) : [] };
    });
  };

  it('unit: on a 15-minute grid, aircraft_swap and cancellation plans leave on the grid (F1, NV101 delayed 60: NV102 at 11:15, not the propagated 11:10)', async () => {
    const found = await smallest(F1, [delay(fid('NV101', '08:00'), 60)], { solver: { time_step_minutes: 15 } });
    expect(found.map((x) => [x.strategy, x.engine, x.problems])).toEqual([
      ['delay_propagation', 17250, []], ['aircraft_swap', 18000, []], ['cancellation', 18000, []], ['integrated', 17250, []],
    ]);
    expect(found.map((x) => x.oracle)).toEqual([17250, 18000, 18000, 17250]);
  });

  it('unit: two capacities of one airport whose periods share a clock hour are two limits, not one doubled row (NV101 at 10:10 fits both: cost 0)', async () => {
    const schedule = makeSchedule({ name: 'two-caps', aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }], flights: [['NV101', 'OE-AAA', 'VIE', 'FRA', '10:10', '11:40', 100]] });
    const found = await smallest(schedule, [capacity('VIE', '10:00', '10:30', 1, 1), capacity('VIE', '10:30', '11:00', 1, 1)], {});
    expect(found.map((x) => [x.strategy, x.oracle, x.engine])).toEqual(STRATEGIES.map((s) => [s, 0, 0]));
  });

  it('unit: a capacity where the airline moves nothing leaves an empty scope and plans of cost 0, not a solver crash', async () => {
    const schedule = makeSchedule({ name: 'empty-scope', aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }], flights: [['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100]] });
    const found = await smallest(schedule, [capacity('ZRH', '10:00', '11:00', 1, 1)], {});
    expect(found.map((x) => [x.strategy, x.oracle, x.engine])).toEqual(STRATEGIES.map((s) => [s, 0, 0]));
  });

  it('unit: delay_propagation pushes a flight past every unavailability it overlaps, whatever their order (F7, periods 13:50-15:00 then 12:00-12:40: NV103 at 15:00)', async () => {
    const found = await smallest(F7, [unavailable('OE-AAA', '13:50', '15:00'), unavailable('OE-AAA', '12:00', '12:40')], {});
    expect(found.map((x) => [x.strategy, x.oracle, x.engine, x.problems])).toEqual([
      ['delay_propagation', 44250, 44250, []], ['aircraft_swap', 800, 800, []], ['cancellation', 44250, 44250, []], ['integrated', 800, 800, []],
    ]);
  });

  // The instances as they were found, before the random instances carried standing capacities.
  const coverageOf = async (seed: number): Promise<Coverage> => {
    const coverage = { ...emptyCoverage(), instances: 1 };
    expect(await disagreements(randomInstance(seed, { standingShare: 0 }), coverage)).toEqual([]);
    return coverage;
  };

  it('unit: an integrated solve proven to have no plan of its own is optimal with the propagated plan standing in (random seed 131751762: 19020)', async () => {
    expect((await coverageOf(131751762)).propagatedPlanAsIntegrated).toBe(1);
  });

  it('unit: a capacity that flights outside the scope already exceed is proven infeasible in every strategy (random seed 213436544: an arrival into a closed hour)', async () => {
    expect((await coverageOf(213436544)).noPlanAgreed).toBe(4);
  });

  it('unit: an itinerary of three flights broken at its second hub is re-accommodated from its first when that is cheaper (F10: 6825, 8100, 8125)', async () => {
    const withoutNV401 = structuredClone(F10);
    withoutNV401.flights = withoutNV401.flights.filter((f) => f.flight_number !== 'NV401');
    const delayed = [delay(fid('NV201', '10:30'), 45)];
    const cases = [
      { schedule: F10, partial: {}, cost: 6825 },
      { schedule: withoutNV401, partial: {}, cost: 8100 },
      { schedule: withoutNV401, partial: { cost_weights: { reaccommodation_delay_per_passenger_minute: 1 } }, cost: 8125 },
    ];
    for (const c of cases) {
      const found = await smallest(c.schedule, delayed, c.partial);
      expect(found.map((x) => [x.strategy, x.oracle, x.engine, x.problems])).toEqual(STRATEGIES.map((s) => [s, c.cost, c.cost, []]));
    }
  });

  it('unit: one aircraft and four flights are proven optimal within the default 500 routes (small.json, NV100 delayed 30, no candidates)', async () => {
    const schedule = loadScheduleFile(fileURLToPath(new URL('../../schedules/small.json', import.meta.url)));
    const flight = schedule.flightsByAirline.get('NV')![0]!;
    const result = await simulateAsResponse(schedule, {
      disruptions: [{ type: 'flight_delay', flight: flight.id, min_delay_minutes: 30 }],
      config: config({ solver: { time_limit_ms: 5000, max_candidate_aircraft: 0 }, strategies: { evaluate: ['integrated'] } }),
    });
    const option = result.options[0]!;
    expect(option.solver.lower_bound, option.solver.note ?? '').toBeLessThanOrEqual(option.summary.cost);
    expect(option.solver.status, option.solver.note ?? '').toBe('optimal');
  });
});
