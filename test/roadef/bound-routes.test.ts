// The aircraft routes of the ROADEF keeps-flights bound (src/recovery/bounds/roadef-routes.ts) on hand-made
// families whose least flying cost is known: unit, what the routes forbid or allow, the Lagrangian's value.
import { describe, expect, it } from 'vitest';
import { leastFlyingOnRoutes, type RouteFamily } from '../../src/recovery/bounds/roadef-routes.ts';

// Airports A=0, B=1, C=2, D=3. Leg 0 is A-B, leg 1 is C-D, both planned at minute 600 for 60 minutes,
// each with stretches of 10 minutes up to minute 900. Class 0 costs 100 a leg, class 1 costs 150.
const stretches = (from: number, last: number) => Array.from({ length: Math.floor((last - from) / 10) + 1 }, (_, k) => from + 10 * k);
const family = (teleport: { minutes: number; cost: number } | null): RouteFamily => ({
  airportCount: 4,
  outMinutes: new Float64Array(4).fill(teleport ? teleport.minutes / 2 : Number.POSITIVE_INFINITY),
  inMinutes: new Float64Array(4).fill(teleport ? teleport.minutes / 2 : Number.POSITIVE_INFINITY),
  outCost: [0, 1].map(() => new Float64Array(4).fill(teleport ? teleport.cost / 2 : Number.POSITIVE_INFINITY)),
  inCost: [0, 1].map(() => new Float64Array(4).fill(teleport ? teleport.cost / 2 : Number.POSITIVE_INFINITY)),
  legs: [
    { origin: 0, dest: 1, blockMinutes: 60, stretchStarts: stretches(600, 900), lastDeparture: 900, mustFly: true },
    { origin: 2, dest: 3, blockMinutes: 60, stretchStarts: stretches(600, 900), lastDeparture: 900, mustFly: true },
  ],
  aircraft: [
    { airport: 0, from: 0, turnMinutes: 30, cls: 0, blocked: [] },
    { airport: 2, from: 0, turnMinutes: 30, cls: 1, blocked: [] },
  ],
  copyCosts: () => [100, 150],
});

describe('ROADEF keeps-flights bound: aircraft routes', () => {
  it('unit, no new flights: the cheap aircraft cannot reach the dear one\'s leg, so each flies its own (250, where the cheapest class for both is 200)', () => {
    const value = leastFlyingOnRoutes(family(null));
    expect(value).toBeLessThanOrEqual(250);
    expect(value).toBeGreaterThan(249);
  });

  it('unit, a new flight of 120 minutes costing 20: the cheap aircraft flies A-B, then repositions and flies C-D later (220)', () => {
    const value = leastFlyingOnRoutes(family({ minutes: 120, cost: 20 }));
    expect(value).toBeLessThanOrEqual(220);
    expect(value).toBeGreaterThan(219);
  });

  it('unit, a blocked period over every departure of C-D for the cheap aircraft: back to 250', () => {
    const f = family({ minutes: 120, cost: 20 });
    const value = leastFlyingOnRoutes({ ...f, aircraft: [{ ...f.aircraft[0]!, blocked: [{ start: 0, end: 1000 }] }, f.aircraft[1]!] });
    // The cheap aircraft flies nothing at all now (A-B is blocked too): the dear one flies both, A-B after a new flight.
    expect(value).toBeLessThanOrEqual(150 + 20 + 150);
    expect(value).toBeGreaterThan(150 + 20 + 150 - 1);
  });

  it('unit, C-D may be cancelled: without a cost it is an arc nobody needs (100); cancelling at 60 beats flying at 150 (160); at 200 it is flown (250)', () => {
    const f = family(null);
    const mayGo = (cancelCost?: number): RouteFamily => ({ ...f, legs: [f.legs[0]!, { ...f.legs[1]!, mustFly: false, cancelCost }] });
    const free = leastFlyingOnRoutes(mayGo());
    expect(free).toBeLessThanOrEqual(100);
    expect(free).toBeGreaterThan(99);
    const cheap = leastFlyingOnRoutes(mayGo(60));
    expect(cheap).toBeLessThanOrEqual(160);
    expect(cheap).toBeGreaterThan(159);
    const dear = leastFlyingOnRoutes(mayGo(200));
    expect(dear).toBeLessThanOrEqual(250);
    expect(dear).toBeGreaterThan(249);
  });
});
