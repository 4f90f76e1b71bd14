// The network bound (src/recovery/bounds/network-bound.ts, docs/model.md 3.9): never above the
// optimum that the independent brute force of test/oracle/ finds on random small instances, never
// below the flight bound, on a hand-checked rotation above the flight bound, and below the proven
// optimum of the committed small hub storm (in its thread too: kept after a bound, also an aborted
// one; the flight bound's LP when no iteration ends); from its own start above the flight bound's LP; its
// routes, as the service's, make a plan at the small hub storm's optimum; a flight offers the seats
// of the aircraft that may fly it; on the storm of issue 23 the routes it tells the pipeline make a plan
// the independent checker (test/oracle/checker.ts) accepts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import type { Schedule } from '../../src/domain/schedule.ts';
import { iterateRelaxation, NetworkRelaxation, networkBound, relaxationRouteAsRoute, withLeastRebooking, type NetworkBound, type RelaxationRoute } from '../../src/recovery/bounds/network-bound.ts';
import { RouteEvaluator, type Route } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { idleBoundThreads, relaxationThread } from '../../src/recovery/bounds/network-bound-thread.ts';
import { prepareSimulation, rankOptions, readOptions } from '../../src/recovery/pipeline.ts';
import { RelaxationRoutes } from '../../src/recovery/bounds/relaxation-routes.ts';
import { chosenRoutes } from '../../src/recovery/neighbourhood/rows/strategy-model.ts';
import { JourneyFinder, type Journey } from '../../src/recovery/passengers/journeys.ts';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { loadScenarios, simulationRequest } from '../../benchmarks/lib/scenarios.ts';
import { loadSchedulesFor } from '../../benchmarks/lib/schedules.ts';
import { bruteForceOptimum } from '../oracle/brute-force.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { ISSUE_23_STORM_REQUEST as ISSUE_23_STORM, committedHubStorm } from '../support/storms.ts';
import { close } from '../oracle/model.ts';
import { randomInstanceArbitrary } from '../oracle/random-instance.ts';
import { at, config, fixture, flightBoundOf, fullRequest, id, inProcessSolver, simulateAsResponse, type DisruptionBody, type DisruptionsRequest } from './fixtures.ts';

const RUNS = 120;
const SEED = 20261128;
/** Random instances of the property with long delay limits (each brute force takes longer there). */
const TAIL_RUNS = 40;

/** The network bound of a simulation on the test's thread, `iterations` subgradient steps (no clock: the same on a loaded machine). */
async function networkBoundOf(schedule: Schedule, body: DisruptionsRequest, iterations = 300): Promise<NetworkBound | null> {
  const request = fullRequest(body);
  const prepared = prepareSimulation(schedule, request);
  return networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: body.config }, inProcessSolver, { maxIterations: iterations, deadline: performance.now() + 600_000 });
}


describe('network bound', () => {
  it(`property: on ${RUNS} random instances it is at most the brute-force optimum and at least the flight bound; so is the flight-level start's own bound`, async () => {
    const found: string[] = [];
    let above = 0;
    let compared = 0;
    let tight = 0;
    for (const instance of fc.sample(randomInstanceArbitrary(), { numRuns: RUNS, seed: SEED })) {
      const schedule = buildSchedule(instance.schedule);
      const solverConfig = config(instance.config);
      const body = { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline };
      const brute = bruteForceOptimum({ schedule: instance.schedule, disruptions: instance.disruptions, airline: instance.airline, config: solverConfig, strategy: 'integrated' });
      const bound = await networkBoundOf(schedule, body);
      const floor = await flightBoundOf(schedule, body);
      if (!brute.feasible) continue;
      // The flight-level start's own bound (a thread tells it before its networks are built).
      const prepared = prepareSimulation(schedule, fullRequest(body));
      const early = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: solverConfig }), { networksLater: true }).startFromFlights();
      if (early > brute.cost && !close(early, brute.cost, 1e-6)) found.push(`seed ${instance.seed}: flight-level bound ${early} above the optimum ${brute.cost}`);
      if (bound === null) { found.push(`seed ${instance.seed}: no network bound where a plan of cost ${brute.cost} exists`); continue; }
      compared++;
      if (bound.value > brute.cost && !close(bound.value, brute.cost, 1e-6)) found.push(`seed ${instance.seed}: network bound ${bound.value} above the optimum ${brute.cost}`);
      if (floor !== null && bound.value < floor && !close(bound.value, floor, 1e-6)) found.push(`seed ${instance.seed}: network bound ${bound.value} below the flight bound ${floor}`);
      if (floor !== null && bound.value > floor + 1e-6 * Math.max(1, floor)) above++;
      if (bound.value >= brute.cost - 1e-3 * Math.max(1, brute.cost)) tight++;
    }
    console.info(`network bound property: ${compared} compared, ${above} above the flight bound, ${tight} within 0.1 % of the optimum`);
    expect(found).toEqual([]);
    // It must say more than the flight bound often, or the comparison would prove little.
    expect(above).toBeGreaterThan(compared / 4);
  }, 600_000);

  it(`property: with delay limits of 300 minutes and no cancellation (stretches 90 minutes wide from 180 minutes past a flight's earliest departure), on ${TAIL_RUNS} random instances it is at most the brute-force optimum`, async () => {
    // The instances above allow 60-120 minutes of delay, so they never reach the widest stretches; here
    // no cancellation is allowed either, so that plans delay more.
    const found: string[] = [];
    let compared = 0;
    let withTail = 0;
    for (const instance of fc.sample(randomInstanceArbitrary(), { numRuns: TAIL_RUNS, seed: SEED + 1 })) {
      const schedule = buildSchedule(instance.schedule);
      const solverConfig = config({ ...instance.config, constraints: { ...instance.config.constraints, max_delay_minutes: 300, allow_cancellations: false } });
      const body = { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline };
      const brute = bruteForceOptimum({ schedule: instance.schedule, disruptions: instance.disruptions, airline: instance.airline, config: solverConfig, strategy: 'integrated' });
      if (!brute.feasible) continue;
      const prepared = prepareSimulation(schedule, fullRequest(body));
      const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: solverConfig }));
      if (relaxation.flights.some((d) => d.stretches.at(-1)!.from - d.stretches[0]!.from >= 180)) withTail++;
      const bound = await networkBoundOf(schedule, body);
      if (bound === null) { found.push(`seed ${instance.seed}: no network bound where a plan of cost ${brute.cost} exists`); continue; }
      compared++;
      if (bound.value > brute.cost && !close(bound.value, brute.cost, 1e-6)) found.push(`seed ${instance.seed}: network bound ${bound.value} above the optimum ${brute.cost}`);
    }
    console.info(`network bound property, delay limit 300: ${compared} compared, ${withTail} with stretches from 180 minutes on`);
    expect(found).toEqual([]);
    expect(withTail).toBeGreaterThan(compared / 2);
  }, 600_000);

  it('unit: a late first leg makes the aircraft\'s next leg late too; the flight bound sees only the first, the network bound both (the optimum)', async () => {
    // One A320, VIE-PRG 08:00-09:00 then PRG-VIE 09:45-10:45, 100 booked each; its turnaround is 40.
    // NV1 leaves 60 minutes late (09:00, lands 10:00), so NV2 leaves at 10:40 at the earliest: 55 minutes.
    // A minute costs 100 + 0.5 × 100 = 150: 9,000 + 8,250 = 17,250. Cancelling NV2 instead leaves the
    // aircraft at PRG (20,000 out of position) and costs 8,000 + 100 × 120: more.
    const schedule = fixture({
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
        { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '09:45', arr: '10:45' },
      ],
    });
    const body = { disruptions: [{ type: 'flight_delay' as const, flight: 'NV1_2026-11-21T08:00:00Z', min_delay_minutes: 60 }], config: config() };
    expect(await flightBoundOf(schedule, body)).toBeCloseTo(9_000, 6);
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.summary.cost).toBeCloseTo(17_250, 6);
    expect((await networkBoundOf(schedule, body))!.value).toBeCloseTo(17_250, 3);
  });

  it('unit: a leg that leaves 195 minutes past its earliest departure is charged from its stretch\'s first minute, 180 (below the optimum by 15 minutes)', async () => {
    // One A320, VIE-PRG 08:00-09:00 then PRG-VIE 09:45-10:45, 100 booked each; its turnaround is 40; no
    // cancellation allowed. NV1 leaves 200 minutes late (11:20, lands 12:20), so NV2 leaves at 13:00 at
    // the earliest, 195 minutes late. A minute costs 100 + 0.5 × 100 = 150: 30,000 + 29,250 = 59,250.
    // NV2's stretches from 180 minutes on are as wide as its block (60 minutes, below the 90 of the
    // grid): 13:00 lies in the one from 12:45, whose copy costs 180 minutes, 27,000: the bound 57,000.
    const schedule = fixture({
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
        { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '09:45', arr: '10:45' },
      ],
    });
    const body = { disruptions: [{ type: 'flight_delay' as const, flight: 'NV1_2026-11-21T08:00:00Z', min_delay_minutes: 200 }], config: config({ constraints: { allow_cancellations: false } }) };
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.solver.status).toBe('optimal');
    expect(integrated.summary.cost).toBeCloseTo(59_250, 6);
    expect((await networkBoundOf(schedule, body))!.value).toBeCloseTo(57_000, 3);
  });

  it('unit: a check that ends as the aircraft is ready for it (start plus turnaround) is performed by a route that waits there (the optimum)', async () => {
    // OE-AAA lands at VIE at 08:55 (NV2 10 minutes late: 10 × (100 + 0.5 × 100) = 1,500) and leaves at
    // 11:00; its daily check at VIE 09:05-09:45 ends exactly at its start plus the A320's 40-minute
    // turnaround. The plan performs it: 1,500. The check's release sorted before its snapshot at that
    // one instant, so every route of the network bound missed it: 50,000 (a bound above the optimum;
    // 5 of 500 random instances of seed 77 had this).
    const schedule = fixture({
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00' },
        { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '07:45', arr: '08:45' },
        { no: 'NV3', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '11:00', arr: '12:00' },
      ],
      maintenance: [{ tail: 'OE-AAA', type: 'daily_check', station: 'VIE', start: at('09:05'), end: at('09:45') }],
    });
    const body = { disruptions: [{ type: 'flight_delay' as const, flight: id('NV2', '07:45'), min_delay_minutes: 10 }], config: config() };
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.solver.status).toBe('optimal');
    expect(integrated.summary.cost).toBeCloseTo(1_500, 6);
    expect((await networkBoundOf(schedule, body))!.value).toBeCloseTo(1_500, 3);
  });

  it('unit: a cancelled leg breaks the itineraries through it; their passengers cost what they cost in the plan (the optimum)', async () => {
    // OE-AAA flies NV1 VIE-PRG 08:00-09:00 (100 booked) and is out of service all day: NV1 is cancelled
    // (OE-BBB starts at PRG). 20 of its passengers go on with NV3 PRG-BUD on OE-BBB (itinerary IT1), 80
    // are its own. No other flight leaves VIE, so none is re-accommodated: every passenger costs the
    // EU261 compensation of 250 (VIE-PRG and VIE-BUD are under 1,500 km). The optimum: the cancellation
    // 8,000, NV1's own 80 × 250 = 20,000, IT1's 20 × 250 = 5,000, and OE-AAA at VIE where PRG is
    // needed, 20,000: 53,000. Before the itinerary's rows, the network bound charged IT1's passengers
    // nothing for the cancelled leg (48,000).
    const schedule = fixture({
      aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB', base: 'PRG' }],
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
        { no: 'NV3', tail: 'OE-BBB', from: 'PRG', to: 'BUD', dep: '09:45', arr: '10:45' },
      ],
      itineraries: [{ id: 'IT1', passengers: 20, flights: [id('NV1', '08:00'), id('NV3', '09:45')] }],
    });
    const body = { disruptions: [{ type: 'aircraft_unavailable' as const, tail: 'OE-AAA', from: at('06:00'), to: at('23:00') }], config: config() };
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.solver.status).toBe('optimal');
    expect(integrated.summary.cost).toBeCloseTo(53_000, 6);
    expect((await networkBoundOf(schedule, body))!.value).toBeCloseTo(53_000, 3);
  });

  it('unit: the passengers of a cancelled flight take the seats of the flights of their journeys, not any seat at their airports (the optimum)', async () => {
    // OE-AAA's NV1 VIE-PRG 08:00-09:00 (100 booked) is cancelled, OE-AAA out of service all day. The one
    // journey to PRG is NV5 09:30-10:30 with 10 seats free (170 booked on an A320 of 180); NV6 VIE-BUD
    // and NV7 BUD-PRG have 160 free each but do not connect (NV7 leaves BUD before NV6 lands). So 10
    // are re-accommodated at 120 + 0.5 × 90 = 165 and 90 compensated at 250: the optimum is the
    // cancellation 8,000, 1,650 + 22,500, and OE-AAA at VIE where PRG is needed, 20,000: 52,150. Seat
    // rows by airport let all 100 take NV5 (VIE's departures and PRG's arrivals have 170 seats free):
    // 44,500 before the per-flight seat rows. The seat price the subgradient must find (85 a passenger)
    // it reaches within 0.2 % in 300 iterations.
    const schedule = fixture({
      aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-CCC' }, { tail: 'OE-DDD' }, { tail: 'OE-EEE', base: 'BUD' }],
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
        { no: 'NV5', tail: 'OE-CCC', from: 'VIE', to: 'PRG', dep: '09:30', arr: '10:30', booked: 170 },
        { no: 'NV6', tail: 'OE-DDD', from: 'VIE', to: 'BUD', dep: '09:00', arr: '10:00', booked: 20 },
        { no: 'NV7', tail: 'OE-EEE', from: 'BUD', to: 'PRG', dep: '09:30', arr: '10:30', booked: 20 },
      ],
    });
    const body = { disruptions: [{ type: 'aircraft_unavailable' as const, tail: 'OE-AAA', from: at('06:00'), to: at('23:00') }], config: config() };
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.solver.status).toBe('optimal');
    expect(integrated.summary.cost).toBeCloseTo(52_150, 6);
    const bound = (await networkBoundOf(schedule, body))!.value;
    expect(bound).toBeLessThanOrEqual(52_150 + 1e-6);
    expect(bound).toBeGreaterThan(52_150 * 0.998);
  });

  it('unit: a flight offers the seats of the aircraft that may fly it, not of the largest of the scope (the optimum)', async () => {
    // The test above with A319s (144 seats) for every aircraft but OE-AAA, an A320 (180) out of service
    // all day: NV5 (134 booked) has 10 seats free whoever of them flies it, so 10 of NV1's 100 are
    // re-accommodated at 165 and 90 compensated at 250, the optimum 52,150 again. Seats counted on the
    // largest aircraft of the scope let 46 take NV5 (180 − 134): 49,090 (the code before, 1,000 steps).
    const schedule = fixture({
      aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-CCC', fleet: 'A319' }, { tail: 'OE-DDD', fleet: 'A319' }, { tail: 'OE-EEE', fleet: 'A319', base: 'BUD' }],
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
        { no: 'NV5', tail: 'OE-CCC', from: 'VIE', to: 'PRG', dep: '09:30', arr: '10:30', booked: 134 },
        { no: 'NV6', tail: 'OE-DDD', from: 'VIE', to: 'BUD', dep: '09:00', arr: '10:00', booked: 20 },
        { no: 'NV7', tail: 'OE-EEE', from: 'BUD', to: 'PRG', dep: '09:30', arr: '10:30', booked: 20 },
      ],
    });
    const body = { disruptions: [{ type: 'aircraft_unavailable' as const, tail: 'OE-AAA', from: at('06:00'), to: at('23:00') }], config: config() };
    const integrated = (await simulateAsResponse(schedule, body)).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.solver.status).toBe('optimal');
    expect(integrated.summary.cost).toBeCloseTo(52_150, 6);
    // The seat price it must find takes more steps than the test above's: 51,746 after 300, 52,150.0 after 1,000.
    const bound = (await networkBoundOf(schedule, body, 1000))!.value;
    expect(bound).toBeLessThanOrEqual(52_150 + 1e-6);
    expect(bound).toBeGreaterThan(52_150 * 0.998);
  });

  it('scenario: a thread that kept another problem\'s relaxation builds this one\'s: the bound is the one found from scratch on this thread', async () => {
    // The small hub storm, then the same storm with swaps priced higher (another problem, the same
    // scope): 300 iterations without a target to aim at are deterministic, so the thread's bound must
    // be the one computed here from scratch, not one of the kept relaxation's (nor its prices').
    const { schedule, request, prepared } = committedHubStorm('small');
    const options = { maxIterations: 300, deadline: performance.now() + 600_000 };
    await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, { ...options, thread: relaxationThread });
    const other = { ...request.config, cost_weights: { ...request.config.cost_weights, swap_per_flight: request.config.cost_weights.swap_per_flight * 3 + 1000 } };
    const input = { schedule, scope: prepared.scope, groups: prepared.groups, config: other };
    const threaded = (await networkBound(input, inProcessSolver, { ...options, thread: relaxationThread }))!;
    const here = (await networkBound(input, inProcessSolver, options))!;
    expect(threaded.value).toBe(here.value);
  }, 120_000);

  it('unit: a bound asked again of the same relaxation goes on where the last left off: its first bound heard is the last one\'s best, and 40 then 40 iterations give what 80 in one call give', async () => {
    const { schedule, request, prepared } = committedHubStorm('small');
    const build = () => {
      const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }));
      relaxation.startFromFlights();
      return relaxation;
    };
    const options = { deadline: performance.now() + 600_000, target: () => 400_000 };
    const once = (await iterateRelaxation(build(), null, { ...options, maxIterations: 80 }))!;
    const twice = build();
    const first = (await iterateRelaxation(twice, null, { ...options, maxIterations: 40 }))!;
    const heard: number[] = [];
    const second = (await iterateRelaxation(twice, null, { ...options, maxIterations: 40, onBound: (value) => heard.push(value) }))!;
    expect(heard[0]).toBe(first.value);
    expect(second.value).toBe(once.value);
    expect(second.value).toBeGreaterThan(first.value);
  }, 120_000);

  it('scenario: on the committed small hub storm it lies between the flight bound and the proven optimum', async () => {
    const { schedule, request, prepared } = committedHubStorm('small');
    const bound = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, { maxIterations: 300, deadline: performance.now() + 600_000 }))!;
    const optimum = (await simulateAsResponse(schedule, request)).options.find((o) => o.strategy === 'integrated')!;
    expect(optimum.solver.status).toBe('optimal');
    expect(bound.flightBound).not.toBeNull();
    expect(bound.value).toBeGreaterThan(bound.flightBound! * 1.5);
    expect(bound.value).toBeLessThanOrEqual(optimum.summary.cost);
    // The same in a thread of its own, as the service runs it: between the two as well.
    const threaded = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, {
      maxIterations: 300, deadline: performance.now() + 60_000, thread: relaxationThread,
    }))!;
    expect(threaded.value).toBeGreaterThan(bound.flightBound! * 1.5);
    expect(threaded.value).toBeLessThanOrEqual(optimum.summary.cost);
    // Its thread, done in time, is kept for the next bound, which, the problem being the same, goes on
    // from the prices of the last one's best bound without a build: its first iteration is that bound.
    expect(idleBoundThreads()).toBeGreaterThanOrEqual(1);
    // (Asked for the routes it prices, it tells them, each once, also those the last bound priced.)
    const heardRoutes: RelaxationRoute[] = [];
    const heardBounds: number[] = [];
    const again = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, {
      maxIterations: 300, deadline: performance.now() + 60_000, thread: relaxationThread, onRoutes: (routes) => heardRoutes.push(...routes),
      onBound: (value, source) => { if (source === 'network_bound') heardBounds.push(value); },
    }))!;
    expect(heardBounds[0]).toBe(threaded.value);
    expect(again.value).toBeGreaterThanOrEqual(threaded.value);
    expect(again.value).toBeLessThanOrEqual(optimum.summary.cost);
    // (Going on from a nearly converged relaxation, it may price one route per aircraft only.)
    expect(heardRoutes.length).toBeGreaterThanOrEqual(prepared.scope.aircraft.length);
    expect(new Set(heardRoutes.map((r) => JSON.stringify(r))).size).toBe(heardRoutes.length);
    expect(new Set(heardRoutes.map((r) => r.tail))).toEqual(new Set(prepared.scope.aircraft.map((a) => a.aircraft.tail)));
    // Aborted while it iterates (no iteration limit), it answers at once with the best bound heard,
    // at least the flight bound, and its thread stops and is kept again. (Another problem, swaps
    // dearer, so that it builds and climbs from the flight-level prices: the same problem would go on
    // from a bound that had nearly converged, and might never be heard better five times.)
    const abort = new AbortController();
    let heard = 0;
    const dearerSwaps = { ...request.config, cost_weights: { ...request.config.cost_weights, swap_per_flight: request.config.cost_weights.swap_per_flight * 3 + 1000 } };
    const aborted = networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: dearerSwaps }, inProcessSolver, {
      deadline: performance.now() + 60_000, thread: relaxationThread, signal: abort.signal, target: () => optimum.summary.cost,
      onBound: (_, source) => { if (source === 'network_bound' && ++heard === 5) abort.abort(); },
    });
    const answer = (await aborted)!;
    expect(heard).toBeGreaterThanOrEqual(5);
    expect(answer.value).toBeGreaterThan(bound.flightBound!);
    // Answered before its thread has stopped, which is then idle again. (Not asserted busy meanwhile:
    // it starts at once from its own prices and, on a loaded host, may have converged before this
    // thread read its fifth bound: seen once in three runs at load average 15.)
    await expect.poll(() => idleBoundThreads(), { timeout: 10_000 }).toBe(1);
    // With no iteration by its deadline (here none allowed), the answer is the flight-level start's
    // own bound, which the thread tells before it builds the networks (this problem's again: it kept
    // the dearer swaps'), above the flight bound's LP, which the thread never saw; the thread is kept again.
    const early = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }), { networksLater: true }).startFromFlights();
    const none = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, {
      maxIterations: 0, deadline: performance.now() + 60_000, thread: relaxationThread,
    }))!;
    expect(early).toBeGreaterThan(bound.flightBound!);
    expect(none.value).toBe(early);
    expect(none.flightBound).toBe(bound.flightBound);
    await expect.poll(() => idleBoundThreads(), { timeout: 30_000 }).toBe(1);
  }, 120_000);

  it('scenario: the routes it prices, as routes of the service, make a plan of the committed small hub storm near its proven optimum', async () => {
    const { schedule, request, prepared } = committedHubStorm('small');
    const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }));
    relaxation.collectRoutes = true;
    relaxation.startFromFlights();
    // Steps aimed 50 % above each iteration's bound (no plan to aim at).
    for (let i = 0; i < 300; i++) {
      const value = relaxation.evaluate();
      relaxation.step(0.5 * Math.max(1, Math.abs(value)) / Math.max(1e-9, relaxation.direct(0.9)));
    }
    const ev = new RouteEvaluator(schedule, prepared.scope, request.config);
    const routes = new Map(prepared.scope.aircraft.map((a): [string, Route[]] => [a.aircraft.tail, []]));
    const priced = relaxation.drainRoutes();
    for (const r of priced) {
      const route = relaxationRouteAsRoute(ev, prepared.scope.aircraft.find((a) => a.aircraft.tail === r.tail)!, r);
      if (route && !routes.get(r.tail)!.some((x) => x.key === route.key)) routes.get(r.tail)!.push(route);
    }
    const model = buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups);
    const plan = await inProcessSolver.solve({ model: model.model, timeLimitMs: 120_000, mipGap: 0 });
    const optimum = (await simulateAsResponse(schedule, request)).options.find((o) => o.strategy === 'integrated')!;
    // (2026-11-28: 47 routes priced, all kept; the plan over them costs the optimum, 281,602.5.) A plan
    // of the service: no cheaper than the optimum, and its model (capacities, flights, seats) feasible.
    expect(optimum.solver.status).toBe('optimal');
    expect(priced.length).toBeGreaterThan(prepared.scope.aircraft.length);
    expect(plan.status).toBe('optimal');
    expect(plan.objective!).toBeGreaterThanOrEqual(optimum.summary.cost - 1e-6);
    expect(plan.objective!).toBeLessThanOrEqual(optimum.summary.cost * 1.01);
  });

  it('scenario: a plan of the storm of issue 23 over the routes the bound tells (RelaxationRoutes, as the pipeline hears them), its passengers re-accommodated exactly, is one the independent checker accepts', async () => {
    const schedule = buildSchedule(JSON.parse(readFileSync(fileURLToPath(new URL('../../schedules/default.json', import.meta.url)), 'utf8')) as ScheduleFile);
    const request = fullRequest({ disruptions: ISSUE_23_STORM as DisruptionBody[], config: config({ solver: { time_limit_ms: 10_000 } }) });
    const prepared = prepareSimulation(schedule, request);
    // The bound in its thread, as the service runs it, telling its routes to RelaxationRoutes (60 steps:
    // no clock, the same routes on a loaded machine).
    const told = new RelaxationRoutes(schedule, prepared.scope, request.config);
    await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, {
      maxIterations: 60, deadline: performance.now() + 600_000, thread: relaxationThread, onRoutes: told.hear,
    });
    const pool = new Map(prepared.scope.aircraft.map((a): [string, Route[]] => [a.aircraft.tail, []]));
    const keys = new Set<string>();
    for (const route of told.take()) if (!keys.has(route.key)) { keys.add(route.key); pool.get(route.tail)!.push(route); }
    expect(told.take()).toEqual([]);
    // The integrated model over them alone (direct flights, as the search's rounds), then its chosen
    // routes with every journey worth taking (as the search's exact stage).
    const rounds = buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', pool, prepared.groups);
    const chosen = await inProcessSolver.solve({ model: rounds.model, timeLimitMs: 300_000, mipGap: 0 });
    expect(chosen.objective).not.toBeNull();
    const routes = new Map([...chosenRoutes(rounds, chosen.values)].map(([tail, route]) => [tail, [route]]));
    const journeys = new Map<string, Journey[]>();
    for (const source of buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups).journeySources) {
      const list = new JourneyFinder(prepared.groups.network, request.config, source.search, source.usable, request.config.constraints.max_reaccommodation_legs).worthTaking();
      if (list.length > 0) journeys.set(source.key, list);
    }
    const exact = buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups, journeys);
    const outcome = await inProcessSolver.solve({ model: exact.model, timeLimitMs: 300_000, mipGap: 0 });
    expect(outcome.status).toBe('optimal');
    // As the search reports its plans: feasible, no bound of its own.
    const solve = { model: exact, iterations: 1, boundSource: null, facts: { kind: 'running' as const }, outcome: { ...outcome, status: 'feasible' as const, lowerBound: null } };
    const { options } = readOptions(schedule, prepared, request.config, [solve]);
    const response = presentSimulation(schedule, {
      scenarioId: 'storm', airline: 'NV', scheduleName: 'default', disruptedFlightId: null, disruptions: prepared.scope.disruptions,
      disruptionMinutes: prepared.scope.disruptionMinutes, windowEndMinutes: prepared.scope.windowEndMinutes,
      scope: { tails: prepared.scope.aircraft.map((a) => a.aircraft.tail), flights: prepared.scope.flights.length, itineraries: prepared.groups.misconnections.length },
      options: rankOptions(options, request.config), violations: prepared.violations, unsolved: [], timingsMs: { total: 0, build: 0, solve: 0 },
    });
    const option = response.options[0]!;
    // The option is the plan the model priced (its cost as read back), and every rule and figure holds.
    expect(option.summary.cost).toBeCloseTo(outcome.objective!, 3);
    const file = JSON.parse(readFileSync(fileURLToPath(new URL('../../schedules/default.json', import.meta.url)), 'utf8')) as ScheduleFile;
    expect(checkOption({ schedule: file, disruptions: ISSUE_23_STORM, airline: 'NV', config: oracleConfig({ solver: { time_limit_ms: 10_000 } }), option })).toEqual([]);
  }, 600_000);

  it('unit: from the flight-level duals it finds itself, its first iteration is already above the flight bound\'s LP', async () => {
    // The aircraft relaxed away, as in the LP, but a cancellation also pays its passengers' least
    // journey (docs/model.md 3.9): the small hub storm 77,952 against 71,500, the default one 382,687
    // against 318,857.5. Zero prices would give nothing of it.
    for (const name of ['small', 'default']) {
      const { schedule, request, prepared } = committedHubStorm(name);
      const lp = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, { maxIterations: 0 }))!;
      const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }), { networksLater: true });
      // The flight-level start's own bound, before any network (the default hub storm's 327,892: above
      // the LP, below the first iteration), which a thread tells first.
      const early = relaxation.startFromFlights();
      relaxation.buildNetworks();
      expect(lp.flightBound, name).not.toBeNull();
      expect(early, name).toBeGreaterThan(lp.flightBound!);
      const first = relaxation.evaluate();
      expect(first, name).toBeGreaterThan(lp.flightBound!);
      // (Each gives up its own share for the rounding of its sum.)
      expect(first, name).toBeGreaterThanOrEqual(early * (1 - 1e-6));
    }
  }, 120_000);

  it('scenario: on the committed default hub storm it is below every plan the service finds and well above the flight bound', async () => {
    const scenario = loadScenarios().find((s) => s.schedule === 'default' && s.id === 'hub-storm')!;
    const schedule = loadSchedulesFor([scenario]).get('default')!;
    // The plans' limit is the scenario's 10 s, not an interactive 2 s: the subject is the bound against
    // every plan, and on a loaded 2-core host a 2 s storm may end without one (then nothing is compared).
    const request = simulationRequest(scenario, { ...scenario.solverConfig, solver: { ...scenario.solverConfig.solver, time_limit_ms: 10_000 } });
    const prepared = prepareSimulation(schedule, request);
    const bound = (await networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }, inProcessSolver, { maxIterations: 150, deadline: performance.now() + 600_000 }))!;
    const plans = (await simulateAsResponse(schedule, request)).options;
    expect(plans.length).toBeGreaterThan(0);
    for (const option of plans) expect(bound.value, option.strategy).toBeLessThanOrEqual(option.summary.cost);
    // 318,857.5 is the flight bound (331,207.5 while a cancelled flight's passengers were all its own
    // group: an itinerary's now count once, a share on each of its legs); after 150 iterations the
    // network bound is above 700,000 (docs/model.md 3.9).
    expect(bound.flightBound).toBeCloseTo(318_857.5, 3);
    expect(bound.value).toBeGreaterThan(1.8 * bound.flightBound!);
  }, 300_000);
});
