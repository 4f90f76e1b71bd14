// Unit: our scorer against the calibration fixtures (spec 6.1) and the A01 probes (spec 6.3), to the cent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSolution } from '../../src/formats/roadef-2009/solution.ts';
import { formatScoreReport, scoreSolution, verdictLine, type ScoreReport } from '../../src/formats/roadef-2009/score/score.ts';
import { RoadefCostModel } from '../../src/recovery/model/cost-model.ts';
import { planCost } from '../../src/recovery/network/plan-cost.ts';
import { RoadefTranslation } from '../../src/recovery/roadef-adapter.ts';
import { INSTANCE_NAMES, calibration, calibrationDir, instance } from './support.ts';

interface Expected {
  feasible: boolean;
  violations: string[];
  costs: Record<string, number>;
  totals: Record<string, number>;
  printed: Record<string, string>;
}

describe('scorer on the calibration solutions (spec 6.1)', () => {
  for (const name of INSTANCE_NAMES) {
    it(`${name}: verdict, the ten components, the three groups and the total match expected.json to the cent`, () => {
      const expected = JSON.parse(readFileSync(join(calibrationDir(name), 'expected.json'), 'utf8')) as Expected;
      const report = scoreSolution(instance(name), readSolution(calibrationDir(name)));
      expect(report.feasible).toBe(expected.feasible);
      expect(report.violations.map((v) => v.rule)).toEqual(expected.violations);
      for (const [key, value] of Object.entries(expected.costs)) expect(Math.round(report.costs[key as keyof typeof report.costs] * 100), key).toBe(Math.round(value * 100));
      for (const [key, value] of Object.entries(expected.totals)) expect(Math.round(report.totals[key as keyof typeof report.totals] * 100), key).toBe(Math.round(value * 100));
      expect(report.printed).toEqual(expected.printed);
      expect(formatScoreReport(report).trimEnd().split('\n').at(-1)).toBe(`feasible: yes, cost: ${expected.printed['Total Cost']}`);
      expect(verdictLine(report)).toBe(`feasible: yes, cost: ${expected.printed['Total Cost']}`);
    });
  }

  it('the statistics match the last row of the table of spec 6.1 (legs cancelled / passengers not delivered)', () => {
    const table = { A01: [0, 276], A02: [2, 783], A03: [8, 1399], A04: [0, 764] };
    for (const name of INSTANCE_NAMES) {
      const { statistics } = scoreSolution(instance(name), readSolution(calibrationDir(name)));
      expect([statistics.legsCancelled, statistics.passengersNotDelivered], name).toEqual(table[name]);
    }
  });
});

describe('the network engine\'s cost model (RoadefCostModel) on the calibration solutions, imported into the engine\'s problem and plan', () => {
  for (const name of INSTANCE_NAMES) {
    it(`${name}: the engine prices the calibration solution at expected.json's total, to the cent`, () => {
      const expected = JSON.parse(readFileSync(join(calibrationDir(name), 'expected.json'), 'utf8')) as Expected;
      const inst = instance(name);
      const translation = new RoadefTranslation(inst);
      const cost = planCost(translation.problem, translation.toPlan(readSolution(calibrationDir(name))), new RoadefCostModel(inst.config));
      expect(Math.round(cost * 100)).toBe(Math.round(expected.totals.weightedTotal! * 100));
    });
  }
});

describe('scorer on the A01 probes of spec 6.3: each edit changes exactly the components the spec lists', () => {
  const base = calibration('A01').score();
  const changed = (report: ScoreReport) => Object.fromEntries(
    Object.entries(report.printed).filter(([label, value]) => label !== 'Total Cost' && value !== base.printed[label]),
  );
  const expectProbe = (report: ScoreReport, changes: Record<string, string>, total: string) => {
    expect(report.violations).toEqual([]);
    expect(changed(report)).toEqual(changes);
    expect(report.printed['Total Cost']).toBe(total);
  };

  it('P1 swap to a cheaper aircraft: swapped -800.00', () => {
    const report = calibration('A01').set('4594 07/01/06', { aircraft: 'A318#3' }).set('4591 07/01/06', { aircraft: 'A318#3' }).score();
    expectProbe(report, { 'Swapped Aircraft Flight Operating Cost': '-800.00' }, '514453.70');
  });

  it('P2 two A319s exchange their evening legs: position 2,000.00 (two configurations)', () => {
    const report = calibration('A01').set('4437 07/01/06', { aircraft: 'A319#6' }).set('4434 07/01/06', { aircraft: 'A319#6' })
      .set('4371 07/01/06', { aircraft: 'A319#4' }).score();
    expectProbe(report, { 'Penalties for non-compliant location of aircraft': '2000.00' }, '517253.70');
  });

  it('P3 swap and model: swapped -400.00, position 10,000.00', () => {
    const report = calibration('A01').set('4342 07/01/06', { aircraft: 'A318#8' }).score();
    expectProbe(report, { 'Swapped Aircraft Flight Operating Cost': '-400.00', 'Penalties for non-compliant location of aircraft': '10000.00' }, '524853.70');
  });

  it('P4 a new round trip: increase 7,200.00', () => {
    const report = calibration('A01').addRotation('9001 CFE CLY 18:20 19:35 0 07/01/06 A318#1').addRotation('9002 CLY CFE 20:05 21:20 0 07/01/06 A318#1').score();
    expectProbe(report, { 'Flight Operating Cost Increase': '7200.00' }, '522453.70');
  });

  it('P5 a one-way new flight: increase 1,800.00, position 20,000.00 (family)', () => {
    const report = calibration('A01').addRotation('9001 CFE LYS 18:20 19:00 0 07/01/06 A318#1').score();
    expectProbe(report, { 'Flight Operating Cost Increase': '1800.00', 'Penalties for non-compliant location of aircraft': '20000.00' }, '537053.70');
  });

  it('P6 downgrading: 150.00', () => {
    const report = calibration('A01').replaceLines(13, '13 A 563.8 1 4502 07/01/06 E 4601 07/01/06 E').score();
    expectProbe(report, { 'Downgrading cost': '150.00' }, '515403.70');
  });

  it('split line: one of two passengers stops after the fixed leg: total 516,714.70', () => {
    const report = calibration('A01').replaceLines(14, '14 A 312.5 1 4502 07/01/06 E 4601 07/01/06 E', '14 A 312.5 1 4502 07/01/06 E cancelled').score();
    expect(report.violations).toEqual([]);
    expect(report.printed['Total Cost']).toBe('516714.70');
  });
});
