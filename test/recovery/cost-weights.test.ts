// Every service cost weight reaches the plans' costs through the one cost model (model/cost-model.ts,
// ServiceCostModel: docs/model.md 4.0). Per weight, a hand-checked oracle fixture whose optimum has that
// term and keeps its plan when the weight grows: the engine answers with the weight as is and scaled,
// both options pass the independent checker (test/oracle/, which prices the plan from docs/model.md
// section 1 and shares no code with the engine), the plans are the same, and the option's cost moves
// by exactly the scaled term: that term of cost_breakdown times the factor, every other term as it was.
// The flight bound (bounds/flight-bound.ts) prices through the same model: a forced delay and a forced
// cancellation move it by exactly their scaled terms, computed here by hand. The ROADEF objective
// states the coefficients it has and refuses the others.
import { describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { CostBreakdownView, RecoveryOptionView } from '../../src/http/recovery-schemas.ts';
import { RoadefCostModel, serviceTrip, type CostModel, type RoadefCostParameters } from '../../src/recovery/model/cost-model.ts';
import type { CostWeights, Strategy } from '../../src/recovery/model/solver-config.ts';
import { checkOption } from '../oracle/checker.ts';
import { cancel, delay, F1, F1_CREW, F2, F4, F5, fid, makeSchedule } from '../oracle/fixtures.ts';
import type { OracleDisruption } from '../oracle/model.ts';
import { config, flightBoundOf, simulateAsResponse } from './fixtures.ts';

/** F2 with a smaller spare (an E190, 100 seats) and 130 booked on the round trip it takes: the swap spills 30 a leg. */
const F2_SPILL = makeSchedule({
  name: 'f2-spill',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'E190', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
    ['NV103', 'OE-AAA', 'VIE', 'ZRH', '12:30', '13:45', 130],
    ['NV104', 'OE-AAA', 'ZRH', 'VIE', '14:30', '15:45', 130],
  ],
});

interface WeightCase {
  weight: Exclude<keyof CostWeights, 'currency'>;
  term: keyof CostBreakdownView;
  schedule: ScheduleFile;
  disruptions: OracleDisruption[];
  /** The other weights and rules of the case (a delay or rebooking term split in two sets the other part to 0). */
  patch?: { cost_weights?: Partial<CostWeights>; constraints?: Record<string, unknown> };
  strategy: Strategy;
  /** The term in the optimum with the weight as is (hand-checked: the fixtures' comments). */
  term0: number;
  /** Scale of the weight: small enough that the plan stays the cheapest. */
  factor: number;
}

const N101 = fid('NV101', '08:00');
const N102 = fid('NV102', '10:15');

const CASES: WeightCase[] = [
  // F1: NV101 60 and NV102 55 minutes late, 100 booked each.
  { weight: 'delay_per_minute', term: 'delay', schedule: F1, disruptions: [delay(N101, 60)], patch: { cost_weights: { delay_per_passenger_minute: 0 } }, strategy: 'integrated', term0: 115 * 100, factor: 1.5 },
  { weight: 'delay_per_passenger_minute', term: 'delay', schedule: F1, disruptions: [delay(N101, 60)], patch: { cost_weights: { delay_per_minute: 0 } }, strategy: 'integrated', term0: 115 * 100 * 0.5, factor: 1.5 },
  // F2: the spare flies NV103 and NV104: two swaps (18800 against 51750 for delaying all).
  { weight: 'swap_per_flight', term: 'swap', schedule: F2, disruptions: [delay(N102, 120)], strategy: 'integrated', term0: 2 * 400, factor: 1.5 },
  // F2_SPILL: the swap spills 2 x 30 (18000 + 800 + 24000 = 42800 against 55125 for delaying all).
  { weight: 'spill_per_passenger', term: 'spill', schedule: F2_SPILL, disruptions: [delay(N102, 120)], patch: { constraints: { swap_fleet_policy: 'any' } }, strategy: 'integrated', term0: 60 * 400, factor: 1.25 },
  // F1_CREW soft: one crew breach on NV102 (32250).
  { weight: 'crew_duty_violation', term: 'crew_duty', schedule: F1_CREW, disruptions: [delay(N101, 60)], strategy: 'integrated', term0: 15_000, factor: 1.5 },
  // F1_CREW hard: NV102 cancelled, its 100 passengers compensated (250 each), the aircraft out of position (62000 against 66000).
  { weight: 'cancellation_per_flight', term: 'cancellation', schedule: F1_CREW, disruptions: [delay(N101, 60)], patch: { constraints: { crew_duty: 'hard' } }, strategy: 'integrated', term0: 8000, factor: 1.25 },
  { weight: 'compensation_multiplier', term: 'compensation', schedule: F1_CREW, disruptions: [delay(N101, 60)], patch: { constraints: { crew_duty: 'hard' } }, strategy: 'integrated', term0: 25_000, factor: 1.5 },
  { weight: 'aircraft_out_of_position', term: 'aircraft_position', schedule: F1_CREW, disruptions: [delay(N101, 60)], patch: { constraints: { crew_duty: 'hard' } }, strategy: 'integrated', term0: 20_000, factor: 1.0625 },
  // F4: IT1's 20 passengers rebooked on NV203, 240 minutes later (120 + 0.5 x 240 each, below the 250 compensation).
  { weight: 'reaccommodation_per_passenger', term: 'reaccommodation', schedule: F4, disruptions: [delay(N101, 60)], patch: { cost_weights: { reaccommodation_delay_per_passenger_minute: 0 } }, strategy: 'integrated', term0: 20 * 120, factor: 1.5 },
  { weight: 'reaccommodation_delay_per_passenger_minute', term: 'reaccommodation', schedule: F4, disruptions: [delay(N101, 60)], patch: { cost_weights: { reaccommodation_per_passenger: 0 } }, strategy: 'integrated', term0: 20 * 0.5 * 240, factor: 1.5 },
  // F5: delay propagation flies all and misses the daily check (67250).
  { weight: 'maintenance_violation', term: 'maintenance', schedule: F5, disruptions: [delay(N101, 60)], strategy: 'delay_propagation', term0: 50_000, factor: 1.5 },
];

/** The case's configuration, its weight scaled by `factor`. */
function caseConfig(c: WeightCase, factor: number) {
  const base = config({ ...c.patch });
  return config({ ...c.patch, cost_weights: { ...c.patch?.cost_weights, [c.weight]: base.cost_weights[c.weight] * factor } });
}

/** The case's option, answered by the engine under the weight scaled by `factor`, with what the checker says of it. */
async function optionOf(c: WeightCase, factor: number): Promise<{ option: RecoveryOptionView; problems: string[] }> {
  const solverConfig = caseConfig(c, factor);
  const response = await simulateAsResponse(buildSchedule(c.schedule), { disruptions: c.disruptions, config: solverConfig });
  const option = response.options.find((o) => o.strategy === c.strategy);
  if (!option) throw new Error(`${c.weight}: no ${c.strategy} option`);
  return { option, problems: checkOption({ schedule: c.schedule, disruptions: c.disruptions, airline: 'NV', config: solverConfig, option }) };
}

describe('the service cost weights, each through the cost model', () => {
  it('covers every weight of the configuration', () => {
    expect(CASES.map((c) => c.weight).sort()).toEqual(Object.keys(config().cost_weights).filter((k) => k !== 'currency').sort());
  });

  for (const c of CASES) {
    it(`scenario: ${c.schedule.name}, ${c.weight} x ${c.factor}; expectation: the same plan, its ${c.term} x ${c.factor}, the other terms as they were, the checker agrees`, async () => {
      const before = await optionOf(c, 1);
      const after = await optionOf(c, c.factor);
      expect(before.problems).toEqual([]);
      expect(after.problems).toEqual([]);
      expect(after.option.action_set).toEqual(before.option.action_set);
      expect(before.option.cost_breakdown[c.term]).toBe(c.term0);
      expect(after.option.cost_breakdown).toEqual({ ...before.option.cost_breakdown, [c.term]: c.term0 * c.factor });
      expect(after.option.summary.cost).toBe(before.option.summary.cost + c.term0 * (c.factor - 1));
    });
  }

  it('the flight bound: a forced delay moves by its delay weights, a forced cancellation by the cancellation and the least of rebooking and compensation', async () => {
    const bound = (disruptions: OracleDisruption[], costWeights: Partial<CostWeights>) =>
      flightBoundOf(buildSchedule(F1), { disruptions, config: config({ cost_weights: costWeights }) });
    // NV101 60 minutes late at the least, 100 booked: 60 x (delay_per_minute + 100 x delay_per_passenger_minute).
    expect(await bound([delay(N101, 60)], {})).toBe(60 * (100 + 100 * 0.5));
    expect(await bound([delay(N101, 60)], { delay_per_minute: 150 })).toBe(60 * (150 + 100 * 0.5));
    expect(await bound([delay(N101, 60)], { delay_per_passenger_minute: 0.75 })).toBe(60 * (100 + 100 * 0.75));
    // NV101 cancelled: 8000, and its 100 passengers each rebooked at 120 at the least (below the 250 compensation).
    expect(await bound([cancel(N101)], {})).toBe(8000 + 100 * 120);
    expect(await bound([cancel(N101)], { cancellation_per_flight: 12_000 })).toBe(12_000 + 100 * 120);
    expect(await bound([cancel(N101)], { reaccommodation_per_passenger: 180 })).toBe(8000 + 100 * 180);
    // Rebooking dearer than the compensation: 250 x compensation_multiplier each.
    expect(await bound([cancel(N101)], { reaccommodation_per_passenger: 300, compensation_multiplier: 0.5 })).toBe(8000 + 100 * 125);
  });
});

describe('the ROADEF objective and the service\'s coefficients', () => {
  const byCabinAndHaul = { F: { D: 1, C: 2, I: 3 }, B: { D: 1, C: 2, I: 3 }, E: { D: 1, C: 2, I: 3 } };
  const parameters: RoadefCostParameters = {
    delayCost: byCabinAndHaul, outboundCancellationCost: byCabinAndHaul, inboundCancellationCost: byCabinAndHaul,
    downgradingCost: { FB: { D: 1, C: 1, I: 1 }, FE: { D: 1, C: 1, I: 1 }, BE: { D: 1, C: 1, I: 1 } },
    positionPenalty: { family: 1, model: 1, configuration: 1 }, weights: { alpha: 1, beta: 1, gamma: 1 },
  };
  const roadef: CostModel = new RoadefCostModel(parameters);

  it('states those its legs have (no delay, spill or crew cost on a leg) and refuses those that depend on an aircraft or a trip\'s duration', () => {
    expect([roadef.legDelayPerMinute(150), roadef.spill(150, 100), roadef.crewDuty(2)]).toEqual([0, 0, 0]);
    expect(() => roadef.swapPerLeg()).toThrow(/swap cost per leg/);
    expect(() => roadef.cancellationPerLeg()).toThrow(/cancellation cost per leg/);
    expect(() => roadef.compensation(500)).toThrow(/compensation by distance/);
    expect(() => roadef.rebookedPerMinute(serviceTrip(1, 250))).toThrow(/linear in the delay/);
  });
});
