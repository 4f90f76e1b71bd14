// The journey finders' layouts are kept between requests on one schedule (journeys.ts, SEARCHES; the
// airline network per schedule: passengers.ts). A finder made from a kept layout must answer as the
// search itself does whatever scope it serves: checked against a brute force over the flights that
// shares no code with the finder, for the sources of two single delays whose scopes make some search
// usable on different flights, then under other cost weights and on a schedule loaded again.
import { describe, expect, it } from 'vitest';
import type { Flight } from '../../src/domain/schedule.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { SolverConfig } from '../../src/recovery/model/solver-config.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import type { JourneySource } from '../../src/recovery/neighbourhood/rows/context.ts';
import { JourneyFinder } from '../../src/recovery/passengers/journeys.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { config, request } from './fixtures.ts';

const path = new URL('../../schedules/default.json', import.meta.url).pathname;
const schedule = loadScheduleFile(path);
const cfg = config({ strategies: { evaluate: ['cancellation'] }, constraints: { max_reaccommodation_legs: 3 } });

/** The cancellation strategy's journey sources of a delay (its model over no routes: the sources do not depend on them). */
function sourcesOf(flightId: string, minutes: number, c: SolverConfig = cfg, on = schedule) {
  const prepared = prepareSimulation(on, request(flightId, minutes, c));
  const model = buildStrategyModel(on, prepared.scope, c, 'cancellation', new Map(), prepared.groups);
  return { network: prepared.groups.network, sources: model.journeySources };
}

/**
 * Every journey of several flights of `source` worth at most `threshold` at `prices` (by the flights'
 * place in `flights`), with its value: flights from the origin to the destination, each leaving at or
 * after the last one lands plus the airport's connection time, no airport twice, at most `maxLegs`,
 * none excluded or landing so late that compensating costs no more, each one the source may use.
 */
function bruteForce(flights: readonly Flight[], c: SolverConfig, source: JourneySource, prices: Float64Array, threshold: number, maxLegs: number) {
  const { search, usable } = source;
  const w = c.cost_weights;
  const cost = (arrival: number) => w.reaccommodation_per_passenger + w.reaccommodation_delay_per_passenger_minute * Math.max(0, arrival - search.originalArrivalMinutes);
  const may = (f: Flight) => !search.excluded.has(f) && cost(f.arrMinutes) < search.compensationPerPassenger && usable(f, false);
  const found = new Map<string, number>();
  const go = (path: number[], at: string, ready: number, seen: Set<string>, sum: number) => {
    flights.forEach((f, k) => {
      if (f.origin !== at || f.depMinutes < ready || !may(f) || seen.has(f.dest) || (path.length === 0 && !usable(f, true))) return;
      const next = [...path, k];
      if (f.dest === search.dest) {
        const value = sum + prices[k]! + cost(f.arrMinutes);
        if (next.length > 1 && value <= threshold) found.set(next.map((i) => flights[i]!.id).join('>'), value);
      } else if (next.length < maxLegs) {
        go(next, f.dest, f.arrMinutes + schedule.airports.get(f.dest)!.minConnectionMinutes, new Set([...seen, f.dest]), sum + prices[k]!);
      }
    });
  };
  go([], search.origin, search.earliestMinutes, new Set([search.origin]), 0);
  return found;
}

function finderAnswers(finder: JourneyFinder, prices: Float64Array, threshold: number) {
  const { journeys, complete } = finder.within(prices, threshold, 100_000, (journey) => journey.length === 1);
  expect(complete).toBe(true);
  return new Map(journeys.map((j) => [j.journey.map((f) => f.id).join('>'), j.value]));
}

/** Non-negative leg prices, the same for every run of the test. */
function pricesFor(count: number): Float64Array {
  let seed = 7;
  const next = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  return Float64Array.from({ length: count }, () => (next() < 0.3 ? 40 * next() : 0));
}

const searchOf = (s: JourneySource) => JSON.stringify({ ...s.search, excluded: [...s.search.excluded].map((f) => f.id).sort() });

describe('journey finders kept between requests', () => {
  // Two morning delays of the default schedule (benchmarks/scenarios.json: forces-cancellations, breaks-crew-duty).
  const first = sourcesOf('NV644_2026-11-21T04:30:00Z', 120);
  const second = sourcesOf('NV654_2026-11-21T04:30:00Z', 120);

  it('shares the airline network between requests on one schedule, not with a schedule loaded again', () => {
    expect(second.network).toBe(first.network);
    expect(sourcesOf('NV644_2026-11-21T04:30:00Z', 120, cfg, loadScheduleFile(path)).network).not.toBe(first.network);
  });

  it('answers as a brute force for searches the two scopes share but may use on different flights', () => {
    const shared = second.sources.filter((s) => first.sources.some((o) => searchOf(o) === searchOf(s)));
    // Some shared search may use a flight in one scope and not in the other (a full flight of one scope):
    // a layout kept for the first must not serve the second.
    const differs = new Set(shared.filter((s) => {
      const other = first.sources.find((o) => searchOf(o) === searchOf(s))!;
      return first.network.flights.some((f) => f.depMinutes >= s.search.earliestMinutes && s.usable(f, false) !== other.usable(f, false));
    }).map(searchOf));
    expect(shared.length).toBeGreaterThan(10);
    expect(differs.size).toBeGreaterThan(10);
    const prices = pricesFor(first.network.flights.length);
    for (const { sources } of [first, second, first]) {
      for (const source of [...sources.filter((s) => differs.has(searchOf(s))), ...sources.filter((s) => !differs.has(searchOf(s)))].slice(0, 60)) {
        const finder = new JourneyFinder(first.network, cfg, source.search, source.usable, 3);
        const threshold = source.search.compensationPerPassenger;
        const expected = bruteForce(first.network.flights, cfg, source, prices, threshold, 3);
        expect(finderAnswers(finder, prices, threshold)).toEqual(expected);
        const zero = bruteForce(first.network.flights, cfg, source, new Float64Array(prices.length), Number.POSITIVE_INFINITY, 3);
        expect(finder.cheapestOfSeveral).toBe(zero.size === 0 ? Number.POSITIVE_INFINITY : Math.min(...zero.values()));
      }
    }
  });

  it('answers as a brute force at prices after prices, equal on its flights or not (its completion bounds are reused only for equal ones)', () => {
    const base = pricesFor(first.network.flights.length);
    const other = Float64Array.from(base, (p, k) => (k % 3 === 0 ? p + 25 : p));
    let checked = 0;
    for (const source of first.sources.slice(0, 40)) {
      const threshold = source.search.compensationPerPassenger;
      const expected = bruteForce(first.network.flights, cfg, source, base, threshold, 3);
      // One flight of a journey it finds, dearer: another answer from prices equal everywhere else.
      const someLeg = [...expected.keys()][0]?.split('>')[0];
      const raised = Float64Array.from(base, (p, k) => (first.network.flights[k]!.id === someLeg ? p + 500 : p));
      const finder = new JourneyFinder(first.network, cfg, source.search, source.usable, 3);
      // Dearer prices first (bounds kept from them would cut cheaper journeys off), the same prices as
      // a new array, the first again after two others, one flight changed.
      for (const prices of [other, raised, base, Float64Array.from(base), other, raised, Float64Array.from(base)]) {
        expect(finderAnswers(finder, prices, threshold)).toEqual(bruteForce(first.network.flights, cfg, source, prices, threshold, 3));
        checked++;
      }
      if (someLeg !== undefined) expect(finderAnswers(finder, raised, threshold)).not.toEqual(expected);
    }
    expect(checked).toBe(280);
  });

  it("gives an asker's least again only for the same prices on its flights, threshold and columns (leastFor)", () => {
    const base = pricesFor(first.network.flights.length);
    const other = Float64Array.from(base, (p, k) => (k % 3 === 0 ? p + 25 : p));
    let changed = 0;
    for (const source of first.sources.slice(0, 40)) {
      const threshold = source.search.compensationPerPassenger;
      const finder = new JourneyFinder(first.network, cfg, source.search, source.usable, 3);
      const asker = {};
      const taken = new Set<string>();
      const key = (journey: readonly Flight[]) => journey.map((f) => f.id).join('>');
      const skip = (journey: readonly Flight[]) => journey.length === 1 || taken.has(key(journey));
      const leastOf = (prices: Float64Array) => {
        const values = [...bruteForce(first.network.flights, cfg, source, prices, threshold, 3)].filter(([k]) => !taken.has(k)).map(([, v]) => v);
        return Math.min(Number.POSITIVE_INFINITY, ...values);
      };
      const bestAt = (prices: Float64Array) => [...bruteForce(first.network.flights, cfg, source, prices, threshold, 3)].filter(([k]) => !taken.has(k)).sort((p, q) => p[1] - q[1])[0];
      const best = bestAt(base);
      const raised = Float64Array.from(base, (p, k) => (first.network.flights[k]!.id === best?.[0].split('>')[0] ? p + 500 : p));
      for (const [step, prices] of [other, base, Float64Array.from(base), raised, Float64Array.from(base), other, Float64Array.from(base)].entries()) {
        // Half-way the least journey gets a column: the asker's answers change with its version.
        if (step === 2 && best) taken.add(best[0]);
        const expected = leastOf(prices);
        expect(finder.leastFor(asker, taken.size, prices, threshold, skip)).toBe(expected);
      }
      if (best && leastOf(base) !== best[1]) changed++;
    }
    expect(changed).toBeGreaterThan(5);
  });

  it("gives an asker's answer that found no journey again only for the same prices on its flights, threshold and count (bestFor)", () => {
    const base = pricesFor(first.network.flights.length);
    const zero = new Float64Array(base.length);
    let found = 0;
    for (const source of first.sources.slice(0, 40)) {
      const finder = new JourneyFinder(first.network, cfg, source.search, source.usable, 3);
      const all = bruteForce(first.network.flights, cfg, source, base, source.search.compensationPerPassenger, 3);
      if (all.size === 0) continue;
      // Just below the least journey at `base`: none there, some at lower prices or a higher threshold.
      const below = Math.min(...all.values()) - 1e-6;
      const asker = {};
      const skip = (journey: readonly Flight[]) => journey.length === 1;
      for (const [prices, threshold, count] of [[base, below, 4], [Float64Array.from(base), below, 4], [zero, below, 4], [base, below, 4], [base, source.search.compensationPerPassenger, 4], [base, below, 4], [base, source.search.compensationPerPassenger, 2]] as const) {
        const expected = [...bruteForce(first.network.flights, cfg, source, prices, threshold, 3).values()].sort((p, q) => p - q).slice(0, count);
        expect(finder.bestFor(asker, 0, prices, threshold, count, skip).map((j) => j.value)).toEqual(expected);
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(40);
  });

  it('answers as a brute force under other cost weights and another leg limit', () => {
    const dearer = config({ ...cfg, cost_weights: { ...cfg.cost_weights, reaccommodation_delay_per_passenger_minute: 2 * cfg.cost_weights.reaccommodation_delay_per_passenger_minute } });
    const prices = pricesFor(first.network.flights.length);
    for (const source of first.sources.slice(0, 40)) {
      const threshold = source.search.compensationPerPassenger;
      for (const [c, legs] of [[cfg, 3], [dearer, 3], [cfg, 2]] as const) {
        const finder = new JourneyFinder(first.network, c, source.search, source.usable, legs);
        expect(finderAnswers(finder, prices, threshold)).toEqual(bruteForce(first.network.flights, c, source, prices, threshold, legs));
      }
    }
  });
});
