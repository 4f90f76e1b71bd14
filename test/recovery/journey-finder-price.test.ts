// The journey search under a price of its caller's (JourneyPrice) on flights of its caller's type: what
// the network engine's passenger model asks of it (passenger-plan.ts: the cheapest paths of up to three
// legs per booking, within the outbound delay limit, a return trip re-routed from its start back to it).
import { describe, expect, it } from 'vitest';
import { JourneyFinder, type JourneyNetwork, type JourneyPrice } from '../../src/recovery/passengers/journeys.ts';

interface Leg { id: string; origin: string; dest: string; depMinutes: number; arrMinutes: number; seats: number }

const leg = (id: string, origin: string, dest: string, depMinutes: number, arrMinutes: number): Leg => ({ id, origin, dest, depMinutes, arrMinutes, seats: 100 });
function network(legs: Leg[]): JourneyNetwork<Leg> {
  const flights = [...legs].sort((a, b) => a.depMinutes - b.depMinutes);
  const fromAirport = new Map<string, Leg[]>();
  for (const f of flights) fromAirport.set(f.origin, [...fromAirport.get(f.origin) ?? [], f]);
  return { flights, fromAirport, connectionMinutes: () => 30 };
}
/** 2 per minute late after `plannedArrival`, nothing landing after `latest`. */
const lateness = (plannedArrival: number, latest = Number.POSITIVE_INFINITY): JourneyPrice => ({
  cost: (arrival) => 2 * Math.max(0, arrival - plannedArrival),
  worth: (arrival) => arrival <= latest,
  lastDepartureMinutes: latest,
  key: `${plannedArrival}|${latest}`,
});
const ids = (found: { journey: readonly Leg[] }[]) => found.map((j) => j.journey.map((f) => f.id).join('>'));
const perLeg = (net: JourneyNetwork<Leg>) => new Float64Array(net.flights.length).fill(1e-6);

describe('the journey search under a caller\'s price', () => {
  const net = network([
    leg('AB1', 'A', 'B', 0, 60), leg('BC1', 'B', 'C', 100, 160), leg('AC1', 'A', 'C', 130, 200),
    leg('BA1', 'B', 'A', 120, 180), leg('AC2', 'A', 'C', 300, 400), leg('BC2', 'B', 'C', 80, 140),
  ]);
  const query = { origin: 'A', dest: 'C', earliestMinutes: 0, excluded: new Set<Leg>() };

  it('unit: the cheapest first by arrival, the fewer legs first at one cost; a connection shorter than 30 minutes is not one', () => {
    const finder = new JourneyFinder(net, lateness(200), query, () => true, 3);
    // AB1>BC2 leaves B 20 minutes after landing: no journey.
    expect(ids(finder.best(perLeg(net), Number.MAX_VALUE, 10, () => false))).toEqual(['AC1', 'AB1>BC1', 'AC2']);
    expect(ids(finder.best(perLeg(net), Number.MAX_VALUE, 1, () => false))).toEqual(['AC1']);
  });

  it('unit: a flight landing after the price\'s last worthwhile instant is on no journey', () => {
    const finder = new JourneyFinder(net, lateness(200, 300), query, () => true, 3);
    expect(ids(finder.best(perLeg(net), Number.MAX_VALUE, 10, () => false))).toEqual(['AC1', 'AB1>BC1']);
  });

  it('unit: a return trip may come back to where it began only when the query says so (the service\'s never do)', () => {
    const back = { origin: 'A', dest: 'A', earliestMinutes: 0, excluded: new Set<Leg>() };
    expect(new JourneyFinder(net, lateness(200), back, () => true, 3).best(perLeg(net), Number.MAX_VALUE, 10, () => false)).toEqual([]);
    const finder = new JourneyFinder(net, lateness(200), { ...back, returnsToOrigin: true }, () => true, 3);
    expect(ids(finder.best(perLeg(net), Number.MAX_VALUE, 10, () => false))).toEqual(['AB1>BA1']);
  });

  it('unit: the journeys worth taking stop at a deadline and say so (null), never a short list', () => {
    // A to ten hubs ten times, 40 flights from each hub to each other hub, Z reached from M0 only: a
    // walk of tens of thousands of steps, so the clock (read every 4,096 steps) is read.
    const hubs = Array.from({ length: 10 }, (_, i) => `M${i}`);
    const legs: Leg[] = [];
    hubs.forEach((m, i) => { for (let t = 0; t < 10; t++) legs.push(leg(`A${m}${t}`, 'A', m, 10 * t, 10 * t + 60)); });
    for (const m of hubs) for (const n of hubs) if (m !== n) for (let s = 0; s < 40; s++) legs.push(leg(`${m}${n}${s}`, m, n, 100 + 5 * s, 160 + 5 * s));
    for (let s = 0; s < 5; s++) legs.push(leg(`M0Z${s}`, 'M0', 'Z', 400 + 30 * s, 460 + 30 * s));
    const dense = network(legs);
    const finder = new JourneyFinder(dense, lateness(460), { origin: 'A', dest: 'Z', earliestMinutes: 0, excluded: new Set<Leg>() }, () => true, 3);
    const all = finder.worthTaking(Number.POSITIVE_INFINITY, 100_000);
    // 10 x 5 through M0 alone; through another hub then M0, its flights to M0 that leave 30 minutes
    // after the arrival from A (at 10t + 60: 40 - max(0, 2t - 2) of them), each then to Z 5 ways.
    const onToM0 = Array.from({ length: 10 }, (_, t) => 40 - Math.max(0, 2 * t - 2)).reduce((a, b) => a + b, 0);
    expect(all).toHaveLength(10 * 5 + 9 * onToM0 * 5);
    expect(finder.worthTaking(performance.now(), 100_000)).toBeNull();
  });
});
