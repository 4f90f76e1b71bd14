// The end-position count of plan-cost.ts (spec 5.4) over end airports, as the position ferries of the
// network search (search.ts) use it: counted at some airports only, it is the whole count's share of
// them, so two ends are compared at the airports they differ in. On A03, whose reference plan ends
// every aircraft where position.csv needs it, trading the ends of A318#7 (BIQ) and A319#1 (BES), as an
// exchange of their last legs does, leaves BIQ without its A318 and BES without its A319 0/28/51:
// two aircraft missing at the model level, 2 x 5,000.
import { describe, expect, it } from 'vitest';
import { RoadefCostModel } from '../../src/recovery/model/cost-model.ts';
import { ROADEF_WALK_RULES } from '../../src/recovery/model/roadef-rules.ts';
import { solveReferencePlan } from '../../src/recovery/network/operating-plan.ts';
import { endAirports, missingPositions } from '../../src/recovery/network/plan-cost.ts';
import { RoadefTranslation } from '../../src/recovery/roadef-adapter.ts';
import { instance } from './support.ts';

describe('end positions over end airports', () => {
  const inst = instance('A03');
  const { problem } = new RoadefTranslation(inst);
  const cost = new RoadefCostModel(inst.config);
  const ends = endAirports(problem, solveReferencePlan(problem, {}, ROADEF_WALK_RULES).legs);
  const traded = new Map([...ends, ['A318#7', ends.get('A319#1')!], ['A319#1', ends.get('A318#7')!]]);
  const airports = [...new Set(problem.requiredPositions.map((p) => p.airport))];

  it('A03\'s reference plan meets every position; the two ends traded miss an A318 at BIQ and an A319 0/28/51 at BES (10,000)', () => {
    expect([ends.get('A318#7'), ends.get('A319#1')]).toEqual(['BIQ', 'BES']);
    expect(missingPositions(problem, ends)).toEqual({ family: 0, model: 0, configuration: 0 });
    expect(missingPositions(problem, traded)).toEqual({ family: 0, model: 2, configuration: 2 });
    expect(cost.positions(missingPositions(problem, traded))).toBe(10_000);
  });

  it('counted airport by airport, the parts add up to the whole count, and the airports the trade leaves alone count nothing', () => {
    for (const at of [ends, traded]) {
      const parts = airports.map((a) => missingPositions(problem, at, new Set([a])));
      const sum = parts.reduce((s, p) => ({ family: s.family + p.family, model: s.model + p.model, configuration: s.configuration + p.configuration }), { family: 0, model: 0, configuration: 0 });
      expect(sum).toEqual(missingPositions(problem, at));
    }
    expect(missingPositions(problem, traded, new Set(['BIQ', 'BES']))).toEqual(missingPositions(problem, traded));
    expect(missingPositions(problem, traded, new Set(airports.filter((a) => a !== 'BIQ' && a !== 'BES')))).toEqual({ family: 0, model: 0, configuration: 0 });
  });
});
