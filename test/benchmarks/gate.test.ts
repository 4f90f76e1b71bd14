// The counter gate must catch a planted regression and pass an unaltered run (small schedule only,
// so that it stays fast inside npm test).
import { beforeAll, describe, expect, it } from 'vitest';
import { measureCounters, type CounterReport } from '../../benchmarks/lib/counters.ts';
import { compareCounters, DEFAULT_TOLERANCES } from '../../benchmarks/lib/gate.ts';
import { extraRowPerFlight } from '../../benchmarks/lib/plant.ts';
import { loadScenarios, selectScenarios, type Scenario } from '../../benchmarks/lib/scenarios.ts';
import { loadSchedulesFor } from '../../benchmarks/lib/schedules.ts';

let scenarios: Scenario[];
let baseline: CounterReport;

beforeAll(async () => {
  scenarios = selectScenarios(loadScenarios(), { schedules: ['small'] });
  baseline = await measureCounters(loadSchedulesFor(scenarios), scenarios);
});

const asBaseline = (report: CounterReport) => ({ scenarios: report.scenarios, tolerances: DEFAULT_TOLERANCES });

describe('counter gate', () => {
  it('small schedule, unaltered engine measured twice: the gate passes (counters are deterministic)', async () => {
    const again = await measureCounters(loadSchedulesFor(scenarios), scenarios);
    const result = compareCounters(asBaseline(baseline), again, true);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
    // GLPK's log was read: the work counters are numbers, not null.
    const integrated = baseline.scenarios[scenarios[0]!.key]!.strategies.integrated!;
    expect(integrated.simplex_iterations).toBeGreaterThan(0);
    expect(integrated.bb_nodes).toBeGreaterThanOrEqual(1);
  });

  it('small schedule, a needless extra row per flight: the gate fails with a sentence naming the scenario and the figure', async () => {
    const planted = await measureCounters(loadSchedulesFor(scenarios), scenarios, { transform: extraRowPerFlight });
    const result = compareCounters(asBaseline(baseline), planted);
    expect(result.passed).toBe(false);
    const first = scenarios[0]!.key;
    const rows = baseline.scenarios[first]!.strategies.integrated!.rows;
    const flights = baseline.scenarios[first]!.scope.flights;
    expect(result.failures).toContain(
      `${first}: the integrated model has ${rows + flights} rows, baseline ${rows} (+${flights}, +${((flights / rows) * 100).toFixed(1)}%); tolerance: exact.`,
    );
    // Every scenario is caught, and objectives are untouched (the extra rows are redundant).
    for (const s of scenarios) expect(result.failures.some((f) => f.startsWith(`${s.key}: `) && f.includes(' rows, baseline '))).toBe(true);
    expect(result.failures.filter((f) => f.includes('objective'))).toEqual([]);
  });

  it('an objective that differs beyond floating-point noise fails; noise below 1e-9 relative passes', () => {
    const key = scenarios[0]!.key;
    const objective = baseline.scenarios[key]!.strategies.integrated!.objective!;
    const changed = (value: number): CounterReport => {
      const copy = structuredClone(baseline);
      copy.scenarios[key]!.strategies.integrated!.objective = value;
      return copy;
    };
    expect(compareCounters(asBaseline(baseline), changed(objective * (1 + 1e-12))).passed).toBe(true);
    const result = compareCounters(asBaseline(baseline), changed(objective + 0.5));
    expect(result.failures).toEqual([expect.stringMatching(new RegExp(`^${key}: the integrated model has objective .*; tolerance: ±1e-9 relative`))]);
  });

  it('a solve proven optimal in the baseline that no longer is fails, whatever its objective', () => {
    const key = scenarios[0]!.key;
    const copy = structuredClone(baseline);
    copy.scenarios[key]!.strategies.integrated!.status = 'time_limit';
    expect(compareCounters(asBaseline(baseline), copy).failures).toEqual([`${key}: the integrated solve ended time_limit, baseline optimal (proven).`]);
  });

  it('a scenario that stops meaning what its tag says fails, naming scenario and tag', () => {
    const key = scenarios.find((s) => s.tags.includes('cancels'))!.key;
    const copy = structuredClone(baseline);
    copy.scenarios[key]!.facts.integrated = { delayed: 3, swapped: 0, cancelled: 0 };
    const result = compareCounters(asBaseline(baseline), copy);
    expect(result.failures).toEqual([
      `${key} no longer means what its tag 'cancels' says (the integrated option cancels at least one flight): the integrated option cancels 0 flights.`,
    ]);
  });

  it('work counters within the stated tolerance pass, beyond it fail', () => {
    const key = scenarios[0]!.key;
    const iterations = baseline.scenarios[key]!.strategies.integrated!.simplex_iterations!;
    const withIterations = (value: number) => {
      const copy = structuredClone(baseline);
      copy.scenarios[key]!.strategies.integrated!.simplex_iterations = value;
      return copy;
    };
    const allowance = Math.max(DEFAULT_TOLERANCES.work.absolute, DEFAULT_TOLERANCES.work.relative * iterations);
    expect(compareCounters(asBaseline(baseline), withIterations(Math.floor(iterations + allowance))).passed).toBe(true);
    const result = compareCounters(asBaseline(baseline), withIterations(Math.ceil(iterations + allowance + 1)));
    expect(result.failures).toEqual([expect.stringContaining(`${key}: the integrated model took`)]);
    expect(result.failures[0]).toContain('simplex iterations');
  });

  it('a scenario missing from the baseline fails and says how to add it', () => {
    const key = scenarios[0]!.key;
    const partial = structuredClone(baseline);
    delete partial.scenarios[key];
    expect(compareCounters(asBaseline(partial), baseline).failures)
      .toEqual([`${key} is in scenarios.json but not in benchmarks/baseline.json; run npm run bench:baseline to add it.`]);
  });
});
