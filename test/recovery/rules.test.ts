// One test per feasibility rule (src/recovery/model/rules.ts), in the style of the Timefold quickstarts'
// one test per constraint: a leg or route that keeps every rule, then the same with exactly one rule
// broken on purpose, which that rule (and only it) must refuse. A second test per rule shows route
// generation drops the routes that break it.
import { describe, expect, it } from 'vitest';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { enumerateRoutes } from '../../src/recovery/neighbourhood/pricing.ts';
import { brokenLegRule, brokenRouteRule, LEG_RULES, ROUTE_RULES, type LegContext, type RouteContext } from '../../src/recovery/model/rules.ts';
import { selectScope } from '../../src/recovery/model/scope.ts';
import type { Disruption } from '../../src/domain/disruption.ts';
import { config, fixture, id } from './fixtures.ts';

// OE-AAA flies VIE-PRG-VIE-BUD-VIE; OE-BBB (A320 too) and OE-CCC (an A330, another family) stand by in VIE.
const schedule = fixture({
  flights: [
    { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00' },
    { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '07:50', arr: '08:50' },
    { no: 'NV3', tail: 'OE-AAA', from: 'VIE', to: 'BUD', dep: '09:40', arr: '10:40' },
    { no: 'NV4', tail: 'OE-AAA', from: 'BUD', to: 'VIE', dep: '11:30', arr: '12:30' },
  ],
  aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB' }],
  crew: [{ id: 'NV-FC1', start: '05:00', maxMinutes: 480, flights: [id('NV1', '06:00'), id('NV2', '07:50')] }], // limit 13:00Z
  maintenance: [{ tail: 'OE-AAA', type: 'daily_check', station: 'VIE', start: '2026-11-21T13:00:00Z', end: '2026-11-21T15:00:00Z' }],
});
const flight = (no: string, hhmm: string) => schedule.flightsById.get(id(no, hhmm))!;
const NV1 = flight('NV1', '06:00');

function legKeepingEveryRule(): LegContext {
  return {
    schedule, config: config(), aircraft: schedule.aircraft.get('OE-AAA')!, flight: NV1, station: 'VIE',
    depMinutes: NV1.depMinutes, arrMinutes: NV1.arrMinutes, delayMinutes: 0, earliestDepMinutes: NV1.depMinutes, delayLimitMinutes: 360, swaps: 0,
    pendingChecks: schedule.maintenanceByTail.get('OE-AAA')!, unavailable: [], cancelledByDisruption: false,
  };
}

function routeKeepingEveryRule(): RouteContext {
  return {
    config: config(), endStation: 'VIE', readyMinutes: NV1.depMinutes + 600, missedChecks: 0,
    requiredEndStation: 'VIE', nextDepartureAfterWindow: null,
  };
}

/** Each leg rule, broken on purpose by one edit of a leg that keeps every rule. */
const brokenLegs: Record<string, (leg: LegContext) => LegContext> = {
  continuity: (leg) => ({ ...leg, station: 'BUD' }),
  flight_cancelled: (leg) => ({ ...leg, cancelledByDisruption: true }),
  earliest_departure: (leg) => ({ ...leg, earliestDepMinutes: leg.depMinutes + 30 }),
  aircraft_unavailable: (leg) => ({ ...leg, unavailable: [{ fromMinutes: leg.depMinutes + 10, toMinutes: leg.depMinutes + 600 }] }),
  fleet_policy: (leg) => ({
    ...leg, aircraft: { ...schedule.aircraft.get('OE-BBB')!, fleet: 'A332', family: 'A330' }, swaps: 1,
  }),
  max_delay: (leg) => ({ ...leg, depMinutes: leg.depMinutes + 361, arrMinutes: leg.arrMinutes + 361, delayMinutes: 361 }),
  max_swaps: (leg) => ({ ...leg, config: config({ constraints: { max_swaps: 1 } }), swaps: 2 }),
  crew_duty_hard: (leg) => ({
    ...leg, config: config({ constraints: { crew_duty: 'hard' } }), delayMinutes: 361, delayLimitMinutes: 720,
    depMinutes: leg.depMinutes + 361, arrMinutes: leg.arrMinutes + 361, // 13:01Z, one minute past the crew's limit
  }),
  maintenance_reachable: (leg) => ({
    ...leg, config: config({ constraints: { maintenance: 'hard' } }), delayMinutes: 361, delayLimitMinutes: 720,
    depMinutes: leg.depMinutes + 361, arrMinutes: leg.arrMinutes + 361, // lands 13:01Z, after the check's start
  }),
};

/** Each route rule, broken on purpose by one edit of a route that keeps every rule. */
const brokenRoutes: Record<string, (route: RouteContext) => RouteContext> = {
  maintenance_hard: (route) => ({ ...route, config: config({ constraints: { maintenance: 'hard' } }), missedChecks: 1 }),
  window_end_position: (route) => ({ ...route, nextDepartureAfterWindow: NV1.depMinutes + 600, endStation: 'PRG' }),
};

describe('leg rules', () => {
  it('unit: a leg that keeps every rule is allowed, and every leg rule has its broken-on-purpose case here', () => {
    expect(brokenLegRule(legKeepingEveryRule())).toBeNull();
    expect(Object.keys(brokenLegs).sort()).toEqual(LEG_RULES.map((r) => r.name).sort());
  });
  for (const rule of LEG_RULES) {
    it(`unit: rule "${rule.name}" refuses the leg that breaks it, and no other rule does`, () => {
      const leg = brokenLegs[rule.name]!(legKeepingEveryRule());
      expect(LEG_RULES.filter((r) => !r.allows(leg)).map((r) => r.name)).toEqual([rule.name]);
    });
  }
});

describe('route rules', () => {
  it('unit: a route that keeps every rule is allowed, and every route rule has its broken-on-purpose case here', () => {
    expect(brokenRouteRule(routeKeepingEveryRule())).toBeNull();
    expect(Object.keys(brokenRoutes).sort()).toEqual(ROUTE_RULES.map((r) => r.name).sort());
  });
  for (const rule of ROUTE_RULES) {
    it(`unit: rule "${rule.name}" refuses the route that breaks it, and no other rule does`, () => {
      const route = brokenRoutes[rule.name]!(routeKeepingEveryRule());
      expect(ROUTE_RULES.filter((r) => !r.allows(route)).map((r) => r.name)).toEqual([rule.name]);
    });
  }
});

describe('route generation applies the rules', () => {
  const free = { leg: () => 0, aircraft: () => 0, perSwap: 0 };
  /** Every route of `tail` (all priced at their cost; the threshold admits them all). */
  const routesOf = (tail: string, minDelay: number, partial: unknown = {}, disruptions: Disruption[] = []) => {
    const cfg = config({ solver: { time_step_minutes: 30 }, ...(partial as object) });
    const scope = selectScope(schedule, 'NV', [{ type: 'flight_delay', flightId: NV1.id, minDelayMinutes: minDelay }, ...disruptions], cfg);
    const a = scope.aircraft.find((s) => s.aircraft.tail === tail)!;
    const { routes, complete } = enumerateRoutes(new RouteEvaluator(schedule, scope, cfg), a, 'any', free, { stepMinutes: 30, threshold: Number.POSITIVE_INFINITY, maxRoutes: 100_000 });
    expect(complete).toBe(true);
    return routes.map((r) => r.route);
  };

  it('unit: "continuity": every generated route leaves each airport from where the aircraft is', () => {
    for (const route of routesOf('OE-BBB', 0)) {
      route.legs.forEach((leg, i) => expect(leg.flight.origin).toBe(i === 0 ? 'VIE' : route.legs[i - 1]!.flight.dest));
    }
  });

  it('unit: "max_delay": with max_delay_minutes 30, no route delays a flight other than the disrupted one by more', () => {
    const routes = routesOf('OE-AAA', 120, { constraints: { max_delay_minutes: 30 } });
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) for (const leg of route.legs) if (leg.flight !== NV1) expect(leg.delayMinutes).toBeLessThanOrEqual(30);
  });

  it('unit: "max_swaps": with max_swaps 1, no route flies two flights planned for another aircraft', () => {
    const routes = routesOf('OE-BBB', 0, { constraints: { max_swaps: 1 } });
    expect(routes.some((r) => r.swaps === 1)).toBe(true);
    for (const route of routes) expect(route.swaps).toBeLessThanOrEqual(1);
  });

  it('unit: "crew_duty_hard": with hard crew duty, no route lands NV2 after its crew\'s limit (13:00Z)', () => {
    const soft = routesOf('OE-AAA', 300);
    const hard = routesOf('OE-AAA', 300, { constraints: { crew_duty: 'hard' } });
    const landsLate = (r: (typeof soft)[number]) => r.crewBreaches.length > 0;
    expect(soft.some(landsLate)).toBe(true);
    expect(hard.some(landsLate)).toBe(false);
  });

  it('unit: "maintenance_reachable" and "maintenance_hard": with hard maintenance, every route performs the 13:00Z check in VIE', () => {
    const soft = routesOf('OE-AAA', 300);
    const hard = routesOf('OE-AAA', 300, { constraints: { maintenance: 'hard' } });
    expect(soft.some((r) => r.missedChecks.length > 0)).toBe(true);
    expect(hard.length).toBeGreaterThan(0);
    for (const route of hard) expect(route.missedChecks).toEqual([]);
  });

  it('unit: "window_end_position": with a 4-hour window, OE-AAA ends where and when its first flight after the window needs it', () => {
    const routes = routesOf('OE-AAA', 0, { constraints: { recovery_window_hours: 4 } });
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route.endStation).toBe('BUD'); // NV4 (11:30 BUD) is the first flight after 10:00Z
  });

  it('unit: "fleet_policy": an aircraft of another family gets no route with a swapped flight', () => {
    const mixed = fixture({
      flights: [{ no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00' }],
      aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB', fleet: 'A319' }],
    });
    const nv1 = mixed.flightsById.get(id('NV1', '06:00'))!;
    for (const [policy, swapsAllowed] of [['same_family', true], ['same_fleet', false]] as const) {
      const cfg = config({ constraints: { swap_fleet_policy: policy } });
      // OE-BBB is asked for as a disrupted aircraft (out of service after the day) so that it is in scope whatever the policy.
      const scope = selectScope(mixed, 'NV', [
        { type: 'flight_delay', flightId: nv1.id, minDelayMinutes: 0 },
        { type: 'aircraft_unavailable', tail: 'OE-BBB', fromMinutes: nv1.depMinutes + 2000, toMinutes: nv1.depMinutes + 2100 },
      ], cfg);
      const candidate = scope.aircraft.find((s) => s.aircraft.tail === 'OE-BBB')!;
      const { routes } = enumerateRoutes(new RouteEvaluator(mixed, scope, cfg), candidate, 'any', free, { stepMinutes: 5, threshold: Number.POSITIVE_INFINITY, maxRoutes: 1000 });
      expect(routes.some((r) => r.route.swaps > 0), policy).toBe(swapsAllowed);
    }
  });

  it('unit: "aircraft_unavailable" and "flight_cancelled": no route flies into an unavailability, none flies a cancelled flight', () => {
    const nv3 = flight('NV3', '09:40');
    const routes = routesOf('OE-AAA', 0, {}, [
      { type: 'aircraft_unavailable', tail: 'OE-AAA', fromMinutes: nv3.depMinutes, toMinutes: nv3.depMinutes + 120 },
      { type: 'flight_cancellation', flightId: id('NV2', '07:50') },
    ]);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      for (const leg of route.legs) {
        expect(leg.flight.id).not.toBe(id('NV2', '07:50'));
        expect(leg.arrMinutes <= nv3.depMinutes || leg.depMinutes >= nv3.depMinutes + 120).toBe(true);
      }
    }
  });

  it('unit: "earliest_departure": no route flies the delayed flight before its minimum delay', () => {
    for (const route of routesOf('OE-AAA', 45)) for (const leg of route.legs) if (leg.flight === NV1) expect(leg.delayMinutes).toBeGreaterThanOrEqual(45);
  });
});
