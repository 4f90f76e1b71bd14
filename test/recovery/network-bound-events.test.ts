// The network bound's sweep order (src/recovery/bounds/network-bound.ts, docs/model.md 3.9 "Iteration
// cost"): an aircraft's events sorted by instant, then kind, then index, whichever way sortEvents takes
// (buckets per instant and kind, packed numbers, or tuples), the order that a plain sort of the
// (instant, kind, index) triples gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortEvents } from '../../src/recovery/bounds/network-bound.ts';

/** Kinds as the sweep numbers them: source 0, arrival 1, release 2, snapshot 3, deadline 4, departure 5. */
const ARRIVAL = 1, DEPARTURE = 5;

/** The order a plain sort gives: (instant, kind, index) ascending. */
function expected(others: [number, number, number][], dep: number[], ready: number[]): [number, number][] {
  const all: [number, number, number][] = [...others];
  dep.forEach((t, j) => all.push([ready[j]!, ARRIVAL, j], [t, DEPARTURE, j]));
  return all.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]).map(([, kind, index]) => [kind, index]);
}

/** An aircraft's events: a source, maybe a deadline, up to two checks, and copies leaving before they are ready. */
const events = (instant: fc.Arbitrary<number>) => fc.record({
  source: instant,
  deadline: fc.option(instant, { nil: undefined }),
  checks: fc.array(fc.tuple(instant, instant), { maxLength: 2 }),
  copies: fc.array(fc.tuple(instant, instant), { maxLength: 300 }),
});

function check({ source, deadline, checks, copies }: { source: number; deadline: number | undefined; checks: [number, number][]; copies: [number, number][] }): void {
  const others: [number, number, number][] = [[source, 0, -1]];
  if (deadline !== undefined) others.push([deadline, 4, -1]);
  checks.forEach(([snapshot, release], k) => others.push([snapshot, 3, k], [release, 2, k]));
  const dep = copies.map(([t]) => t);
  const ready = copies.map(([t, more]) => t + Math.abs(more) + 1);
  const { eventKind, eventIndex } = sortEvents(others, Float64Array.from(dep), Float64Array.from(ready));
  expect(Array.from(eventKind, (kind, e) => [kind, eventIndex[e]!])).toEqual(expected(others, dep, ready));
}

describe('network bound: the sweep\'s events', () => {
  it('property: whole minutes in a day (counted into buckets), ties by kind then index, as a plain sort', () => {
    fc.assert(fc.property(events(fc.integer({ min: 0, max: 200 })), check), { numRuns: 300, seed: 20261129 });
  });

  it('property: whole minutes far apart (sorted as packed numbers), as a plain sort', () => {
    fc.assert(fc.property(events(fc.integer({ min: -200_000, max: 200_000 })), check), { numRuns: 300, seed: 20261129 });
  });

  it('property: instants that are not whole minutes (sorted as tuples), as a plain sort', () => {
    fc.assert(fc.property(events(fc.double({ min: 0, max: 2000, noNaN: true, noDefaultInfinity: true })), check), { numRuns: 300, seed: 20261129 });
  });
});
