// Widening the scope never makes the integrated option dearer. With more candidate aircraft, a longer
// swap window or more time, every plan of the narrower solve is still a plan (the added aircraft fly
// their own flights as scheduled, docs/model.md 1.2-1.3), so when both solves prove optimality the
// wider optimum is at most the narrower one, and the wider scope holds every aircraft of the narrower.
// Random single delays and several-disruption requests on small.json, a sample of single delays on
// default.json, short time limits, only the integrated strategy solved (the same on both sides of a
// pair); only pairs where both solves report `optimal` compare.
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/domain/schedule.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { config, simulateAsResponse, type DisruptionBody } from './fixtures.ts';

const schedulePath = (name: string) => fileURLToPath(new URL(`../../schedules/${name}.json`, import.meta.url));
const SMALL_REQUESTS = 150;
const DEFAULT_REQUESTS = 30;
const TIME_LIMIT_MS = 800;
const SEED = 20261124;

interface Scope { max_candidate_aircraft: number; swap_window_hours: number; time_limit_ms: number }
type Widening = 'candidates' | 'window' | 'time';

const iso = (minutes: number) => new Date(minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Random disruptions of the airline's flights, aircraft and airports (every time on 5 minutes). */
function requestArbitrary(schedule: Schedule, airline: string, severalToo: boolean): fc.Arbitrary<DisruptionBody[]> {
  const flights = schedule.flightsByAirline.get(airline)!;
  const tails = [...new Set(flights.map((f) => f.tail))];
  const airports = [...new Set(flights.map((f) => f.origin))];
  const first = flights[0]!.depMinutes;
  const last = flights[flights.length - 1]!.depMinutes;
  const instant = fc.integer({ min: Math.ceil(first / 5), max: Math.floor(last / 5) }).map((k) => k * 5);
  const delay = fc.record({ f: fc.constantFrom(...flights), d: fc.integer({ min: 1, max: 48 }) })
    .map(({ f, d }): DisruptionBody => ({ type: 'flight_delay', flight: f.id, min_delay_minutes: d * 5 }));
  const cancellation = fc.constantFrom(...flights).map((f): DisruptionBody => ({ type: 'flight_cancellation', flight: f.id }));
  const unavailable = fc.record({ tail: fc.constantFrom(...tails), from: instant, hours: fc.integer({ min: 1, max: 4 }) })
    .map(({ tail, from, hours }): DisruptionBody => ({ type: 'aircraft_unavailable', tail, from: iso(from), to: iso(from + hours * 60) }));
  const capacity = fc.record({ airport: fc.constantFrom(...airports), from: instant, hours: fc.integer({ min: 1, max: 2 }), dep: fc.integer({ min: 0, max: 3 }), arr: fc.integer({ min: 0, max: 3 }) })
    .map(({ airport, from, hours, dep, arr }): DisruptionBody => ({
      type: 'airport_capacity', airport, from: iso(from), to: iso(from + hours * 60), max_departures_per_hour: dep, max_arrivals_per_hour: arr,
    }));
  const several = fc.array(fc.oneof(delay, cancellation, unavailable, capacity), { minLength: 2, maxLength: 3 });
  return (severalToo ? fc.oneof(delay.map((d) => [d]), several) : delay.map((d) => [d])).filter((list) => !contradictory(list));
}

/** The same flight disrupted twice, or one aircraft or airport given overlapping periods (a 400, not a plan). */
function contradictory(list: DisruptionBody[]): boolean {
  return list.some((d, i) => list.slice(0, i).some((e) => {
    if ('flight' in d && 'flight' in e) return d.flight === e.flight;
    if (d.type === 'aircraft_unavailable' && e.type === 'aircraft_unavailable' && d.tail === e.tail) return d.from < e.to && e.from < d.to;
    if (d.type === 'airport_capacity' && e.type === 'airport_capacity' && d.airport === e.airport) return d.from < e.to && e.from < d.to;
    return false;
  }));
}

function widen(scope: Scope, how: Widening): Scope {
  if (how === 'candidates') return { ...scope, max_candidate_aircraft: scope.max_candidate_aircraft + 2 };
  if (how === 'window') return { ...scope, swap_window_hours: scope.swap_window_hours + 3 };
  return { ...scope, time_limit_ms: scope.time_limit_ms * 4 };
}

async function integrated(schedule: Schedule, disruptions: DisruptionBody[], scope: Scope): Promise<{ response: SimulationResponse; status: string | null; cost: number | null; engine: string | null }> {
  const response = await simulateAsResponse(schedule, { disruptions, config: config({ solver: scope, strategies: { evaluate: ['integrated'] } }) });
  const option = response.options.find((o) => o.strategy === 'integrated');
  return {
    response, status: option?.solver.status ?? response.unsolved_strategies.find((u) => u.strategy === 'integrated')?.status ?? null, cost: option?.summary.cost ?? null,
    engine: option?.solver.engine ?? null,
  };
}

/** Single delays on default.json whose widened scope passes NEIGHBOURHOOD_MAX_AIRCRAFT (12): the pair crosses the switch of engines. */
const SWITCH_REQUESTS = 8;
/** Single delays given a second disruption that binds nothing: the pair crosses the switch of engines by the number of disruptions. */
const SECOND_DISRUPTION_REQUESTS = { small: 16, default: 6 } as const;

describe('monotonicity of the integrated optimum in the scope', () => {
  it(`property: on ${SMALL_REQUESTS} requests on small.json and ${DEFAULT_REQUESTS} on default.json, each solved narrow and widened three ways, a wider scope is never dearer when both solves are optimal`, async () => {
    const found: string[] = [];
    const tally = { requests: 0, solves: 0, pairs: 0, comparable: 0, strictlyBetter: 0, byWidening: { candidates: 0, window: 0, time: 0 }, ms: { small: 0, default: 0 } };
    for (const [name, runs] of [['small', SMALL_REQUESTS], ['default', DEFAULT_REQUESTS]] as const) {
      const started = performance.now();
      const schedule = loadScheduleFile(schedulePath(name));
      // default.json (96 aircraft): single delays and narrow scopes only, to keep the run short.
      const cases = fc.sample(fc.record({
        disruptions: requestArbitrary(schedule, 'NV', name === 'small'),
        scope: fc.record({
          max_candidate_aircraft: fc.integer({ min: 0, max: name === 'small' ? 2 : 1 }),
          swap_window_hours: fc.integer({ min: 1, max: name === 'small' ? 3 : 2 }),
          time_limit_ms: fc.constant(TIME_LIMIT_MS),
        }),
      }), { numRuns: runs, seed: SEED });
      for (const { disruptions, scope } of cases) {
        tally.requests++;
        const label = `${name} ${JSON.stringify(disruptions)} ${JSON.stringify(scope)}`;
        let narrow: Awaited<ReturnType<typeof integrated>>;
        try {
          narrow = await integrated(schedule, disruptions, scope);
          tally.solves++;
        } catch (error) {
          found.push(`${label}: the engine failed: ${(error as Error).message}`);
          continue;
        }
        for (const how of ['candidates', 'window', 'time'] as const) {
          let wide: Awaited<ReturnType<typeof integrated>>;
          try {
            wide = await integrated(schedule, disruptions, widen(scope, how));
            tally.solves++;
          } catch (error) {
            found.push(`${label} widened by ${how}: the engine failed: ${(error as Error).message}`);
            continue;
          }
          tally.pairs++;
          const missing = narrow.response.scope.aircraft.filter((t) => !wide.response.scope.aircraft.includes(t));
          if (missing.length > 0) found.push(`${label} widened by ${how}: the wider scope drops ${missing.join(', ')}`);
          if (narrow.status !== 'optimal' || wide.status !== 'optimal') continue;
          tally.comparable++;
          tally.byWidening[how]++;
          if (wide.cost! > narrow.cost! + 1e-6 * Math.max(1, narrow.cost!)) found.push(`${label} widened by ${how}: the integrated optimum rises from ${narrow.cost} to ${wide.cost}`);
          else if (wide.cost! < narrow.cost! - 1e-6 * Math.max(1, narrow.cost!)) tally.strictlyBetter++;
        }
      }
      tally.ms[name] = Math.round(performance.now() - started);
    }
    console.info(`monotonicity property: ${JSON.stringify(tally)}`);
    expect(found).toEqual([]);
    // Enough pairs compare, of every kind of widening.
    expect(tally.comparable).toBeGreaterThan(50);
    for (const how of ['candidates', 'window', 'time'] as const) expect(tally.byWidening[how], how).toBeGreaterThan(0);
  }, 300_000);

  it(`property: on ${SWITCH_REQUESTS} single delays on default.json, widened from 4 candidate aircraft (the neighbourhood engine) past 12 aircraft (the network engine), the wider optimum is never dearer`, async () => {
    const schedule = loadScheduleFile(schedulePath('default'));
    const found: string[] = [];
    const tally = { requests: 0, crossed: 0, comparable: 0, strictlyBetter: 0 };
    const narrowScope: Scope = { max_candidate_aircraft: 4, swap_window_hours: 6, time_limit_ms: 3_000 };
    const wideScope: Scope = { max_candidate_aircraft: 16, swap_window_hours: 12, time_limit_ms: 6_000 };
    for (const disruptions of fc.sample(requestArbitrary(schedule, 'NV', false), { numRuns: SWITCH_REQUESTS, seed: SEED })) {
      tally.requests++;
      const label = JSON.stringify(disruptions);
      const narrow = await integrated(schedule, disruptions, narrowScope);
      const wide = await integrated(schedule, disruptions, wideScope);
      const missing = narrow.response.scope.aircraft.filter((t) => !wide.response.scope.aircraft.includes(t));
      if (missing.length > 0) found.push(`${label}: the wider scope drops ${missing.join(', ')}`);
      if (narrow.engine !== 'neighbourhood' || wide.engine !== 'network') continue;
      tally.crossed++;
      if (narrow.status !== 'optimal' || wide.status !== 'optimal') continue;
      tally.comparable++;
      if (wide.cost! > narrow.cost! + 1e-6 * Math.max(1, narrow.cost!)) found.push(`${label}: across the switch the integrated optimum rises from ${narrow.cost} to ${wide.cost}`);
      else if (wide.cost! < narrow.cost! - 1e-6 * Math.max(1, narrow.cost!)) tally.strictlyBetter++;
    }
    console.info(`monotonicity across the engine switch: ${JSON.stringify(tally)}`);
    expect(found).toEqual([]);
    expect(tally.crossed).toBeGreaterThan(SWITCH_REQUESTS / 2);
    expect(tally.comparable).toBeGreaterThan(0);
  }, 300_000);

  it(`property: on ${SECOND_DISRUPTION_REQUESTS.small} single delays on small.json and ${SECOND_DISRUPTION_REQUESTS.default} on default.json, a second disruption that binds nothing (the network engine) over more candidates never makes the optimum dearer`, async () => {
    // One disruption → two crosses the engine choice (src/recovery/model/engine-choice.ts: several
    // disruptions, a capacity cut). The second is a capacity of 1000 an hour at the delayed flight's
    // origin for the hour it leaves: it starts no earlier than the delay (the same disruption time),
    // caps nothing, and brings in every aircraft that moves there in that hour, flying its own flights
    // as scheduled in every plan of the narrow solve. So every narrow plan is a wide plan of the same
    // cost whenever the wide scope holds the narrow one; pairs where it does not (more disrupted
    // aircraft can take the nearer candidates) prove nothing and are counted apart.
    const found: string[] = [];
    const tally = { requests: 0, crossed: 0, nested: 0, comparable: 0, strictlyBetter: 0 };
    for (const [name, runs] of Object.entries(SECOND_DISRUPTION_REQUESTS)) {
      const schedule = loadScheduleFile(schedulePath(name));
      const narrowScope: Scope = { max_candidate_aircraft: 2, swap_window_hours: 3, time_limit_ms: 3_000 };
      const wideScope: Scope = { max_candidate_aircraft: 6, swap_window_hours: 3, time_limit_ms: 8_000 };
      for (const [delay] of fc.sample(requestArbitrary(schedule, 'NV', false), { numRuns: runs, seed: SEED + 1 })) {
        tally.requests++;
        if (delay!.type !== 'flight_delay') continue;
        const flight = schedule.flightsById.get(delay!.flight)!;
        const unbinding: DisruptionBody = {
          type: 'airport_capacity', airport: flight.origin, from: iso(flight.depMinutes), to: iso(flight.depMinutes + 60), max_departures_per_hour: 1000, max_arrivals_per_hour: 1000,
        };
        const label = `${name} ${JSON.stringify(delay)} and ${JSON.stringify(unbinding)}`;
        const narrow = await integrated(schedule, [delay!], narrowScope);
        const wide = await integrated(schedule, [delay!, unbinding], wideScope);
        if (narrow.engine !== 'neighbourhood' || wide.engine !== 'network') {
          found.push(`${label}: engines ${narrow.engine} and ${wide.engine}, not neighbourhood then network`);
          continue;
        }
        tally.crossed++;
        if (narrow.response.scope.aircraft.some((t) => !wide.response.scope.aircraft.includes(t))) continue;
        tally.nested++;
        if (narrow.status !== 'optimal' || wide.status !== 'optimal') continue;
        tally.comparable++;
        if (wide.cost! > narrow.cost! + 1e-6 * Math.max(1, narrow.cost!)) found.push(`${label}: with the second disruption the integrated optimum rises from ${narrow.cost} to ${wide.cost}`);
        else if (wide.cost! < narrow.cost! - 1e-6 * Math.max(1, narrow.cost!)) tally.strictlyBetter++;
      }
    }
    console.info(`monotonicity from one disruption to two: ${JSON.stringify(tally)}`);
    expect(found).toEqual([]);
    expect(tally.comparable).toBeGreaterThan(tally.requests / 3);
  }, 300_000);
});
