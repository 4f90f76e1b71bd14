// The committed disruption scenarios (benchmarks/scenarios.json): loading, validation, and the
// properties each scenario's tags promise. The counter gate checks those properties on every run,
// so a scenario cannot silently stop meaning what its name says.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Disruption } from '../../src/domain/disruption.ts';
import type { Schedule } from '../../src/domain/schedule.ts';
import { localMinuteOfDay } from '../../src/domain/time.ts';
import type { SimulationRequest } from '../../src/recovery/pipeline.ts';
import { resolveSolverConfig, type SolverConfig } from '../../src/recovery/model/solver-config.ts';

export const BENCHMARKS_DIR = fileURLToPath(new URL('../', import.meta.url));
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const SCENARIOS_FILE = fileURLToPath(new URL('../scenarios.json', import.meta.url));
export const SCHEDULES_DIR = fileURLToPath(new URL('../../schedules/', import.meta.url));
export const SCHEDULE_NAMES = ['small', 'default', 'large'] as const;
export type ScheduleName = (typeof SCHEDULE_NAMES)[number];

/** What each tag promises, checked against the measured facts (see checkTags). */
export const TAG_MEANINGS = {
  hub: 'the disrupted flight departs from a hub',
  spoke: 'the disrupted flight departs from an airport that is not a hub',
  morning: 'the disrupted flight departs before 12:00 local time at its origin',
  evening: 'the disrupted flight departs at or after 17:00 local time at its origin',
  short_delay: 'the minimum delay is at most 60 minutes',
  long_delay: 'the minimum delay is at least 180 minutes',
  cancels: 'the integrated option cancels at least one flight',
  swaps: 'the integrated option flies at least one flight with another aircraft',
  maintenance_violation: 'propagating the minimum delay breaks a maintenance check (top-level violations include one)',
  crew_duty_violation: 'propagating the minimum delay breaks a crew flight-duty limit (top-level violations include one)',
} as const;
export type Tag = keyof typeof TAG_MEANINGS;
const TAGS = Object.keys(TAG_MEANINGS) as [Tag, ...Tag[]];

/** A disruption of a list scenario, in the contract's terms (the body of POST /simulate, timestamps in UTC). */
const ScenarioDisruptionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('flight_delay'), flight: z.string().min(1), min_delay_minutes: z.number().int().min(0).max(2880) }),
  z.strictObject({ type: z.literal('flight_cancellation'), flight: z.string().min(1) }),
  z.strictObject({ type: z.literal('aircraft_unavailable'), tail: z.string().min(1), from: z.iso.datetime(), to: z.iso.datetime() }),
  z.strictObject({
    type: z.literal('airport_capacity'), airport: z.string().regex(/^[A-Z]{3}$/), from: z.iso.datetime(), to: z.iso.datetime(),
    max_departures_per_hour: z.number().int().min(0), max_arrivals_per_hour: z.number().int().min(0),
  }),
]);
type ScenarioDisruption = z.infer<typeof ScenarioDisruptionSchema>;

const ScenarioSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  schedule: z.enum(SCHEDULE_NAMES),
  /** A single-delay scenario: the delayed flight and its delay ... */
  disrupted_flight: z.string().min(1).optional(),
  min_delay_minutes: z.number().int().min(0).max(2880).optional(),
  /** ... or a list scenario: several disruptions at once. */
  disruptions: z.array(ScenarioDisruptionSchema).min(1).optional(),
  airline: z.string().default('NV'),
  description: z.string().default(''),
  tags: z.array(z.enum(TAGS)).default([]),
  /** Fast scenarios are the ones the CI counter gate runs (bench:check without --all). */
  fast: z.boolean().default(true),
  /** Partial solver configuration, as in the body of POST /simulate. */
  config: z.record(z.string(), z.unknown()).optional(),
}).refine((s) => (s.disruptions === undefined) === (s.disrupted_flight !== undefined && s.min_delay_minutes !== undefined), {
  message: 'a scenario gives either disrupted_flight with min_delay_minutes, or disruptions',
});
const ScenarioFileSchema = z.object({
  scenarios: z.array(ScenarioSchema).min(1),
}).loose();
export type ScenarioSpec = z.infer<typeof ScenarioSchema>;

export interface Scenario extends ScenarioSpec {
  /** `<schedule>/<id>`, the name used in every table, report and gate message. */
  key: string;
  solverConfig: SolverConfig;
}

export function loadScenarios(file = SCENARIOS_FILE): Scenario[] {
  const parsed = ScenarioFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const seen = new Set<string>();
  return parsed.scenarios.map((spec) => {
    const key = `${spec.schedule}/${spec.id}`;
    if (seen.has(key)) throw new Error(`${file}: scenario ${key} appears twice`);
    seen.add(key);
    const resolved = resolveSolverConfig(spec.config ?? {});
    if (!resolved.valid) throw new Error(`${file}: scenario ${key} has an invalid config: ${resolved.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
    return { ...spec, key, solverConfig: resolved.config };
  });
}

export interface ScenarioFilter { schedules?: readonly string[]; fastOnly?: boolean; ids?: readonly string[] }

export function selectScenarios(all: Scenario[], filter: ScenarioFilter): Scenario[] {
  return all.filter((s) => (!filter.schedules?.length || filter.schedules.includes(s.schedule))
    && (!filter.fastOnly || s.fast)
    && (!filter.ids?.length || filter.ids.includes(s.id) || filter.ids.includes(s.key)));
}

const epochMinutes = (iso: string) => Date.parse(iso) / 60_000;

function toDisruption(d: ScenarioDisruption): Disruption {
  switch (d.type) {
    case 'flight_delay': return { type: 'flight_delay', flightId: d.flight, minDelayMinutes: d.min_delay_minutes };
    case 'flight_cancellation': return { type: 'flight_cancellation', flightId: d.flight };
    case 'aircraft_unavailable': return { type: 'aircraft_unavailable', tail: d.tail, fromMinutes: epochMinutes(d.from), toMinutes: epochMinutes(d.to) };
    case 'airport_capacity': return {
      type: 'airport_capacity', airport: d.airport, fromMinutes: epochMinutes(d.from), toMinutes: epochMinutes(d.to),
      maxDeparturesPerHour: d.max_departures_per_hour, maxArrivalsPerHour: d.max_arrivals_per_hour,
    };
  }
}

/** The scenario's disruptions in the contract's terms: a single-delay scenario as one flight_delay. */
export function scenarioDisruptions(scenario: ScenarioSpec): ScenarioDisruption[] {
  return scenario.disruptions ?? [{ type: 'flight_delay', flight: scenario.disrupted_flight!, min_delay_minutes: scenario.min_delay_minutes! }];
}

/** One line naming what a scenario disrupts, for tables and gate messages. */
export function describeDisruptions(scenario: Pick<ScenarioSpec, 'disrupted_flight' | 'min_delay_minutes' | 'disruptions'>): string {
  if (!scenario.disruptions) return `${scenario.disrupted_flight} +${scenario.min_delay_minutes} min`;
  const period = (from: string, to: string) => `${from}/${to}`;
  return scenario.disruptions.map((d) => {
    switch (d.type) {
      case 'flight_delay': return `${d.flight} +${d.min_delay_minutes} min`;
      case 'flight_cancellation': return `${d.flight} cancelled`;
      case 'aircraft_unavailable': return `${d.tail} out ${period(d.from, d.to)}`;
      case 'airport_capacity': return `${d.airport} ${d.max_departures_per_hour} departures and ${d.max_arrivals_per_hour} arrivals per hour ${period(d.from, d.to)}`;
    }
  }).join(', ');
}

export function simulationRequest(scenario: Scenario, config: SolverConfig = scenario.solverConfig): SimulationRequest {
  return {
    scenarioId: `bench:${scenario.key}`.replace(/\//g, ':'),
    disruptedFlightId: scenario.disrupted_flight ?? null,
    disruptions: scenarioDisruptions(scenario).map(toDisruption),
    airline: scenario.airline,
    scheduleName: scenario.schedule,
    config,
  };
}

/** The body of POST /simulate for a scenario (the contract's field names). */
export function simulateBody(scenario: Scenario): Record<string, unknown> {
  return {
    scenario_id: `bench:${scenario.key}`.replace(/\//g, ':'),
    ...(scenario.disruptions
      ? { disruptions: scenario.disruptions }
      : { disrupted_flight: scenario.disrupted_flight, min_delay_minutes: scenario.min_delay_minutes }),
    airline: scenario.airline,
    schedule_file: scenario.schedule,
    ...(scenario.config ? { config: scenario.config } : {}),
  };
}

/** What a scenario's tags are checked against; part of the counter report. */
export interface ScenarioFacts {
  origin: string;
  origin_is_hub: boolean;
  /** Scheduled departure, local wall-clock time at the origin, HH:MM. */
  local_departure: string;
  min_delay_minutes: number;
  /** Top-level violations (minimum delay propagated), counted by type. */
  violations: { crew_duty: number; maintenance: number };
  /** Actions of the integrated option; null when the integrated strategy found no plan. */
  integrated: { delayed: number; swapped: number; cancelled: number } | null;
}

/**
 * The facts known before solving. The tags about "the disrupted flight" (hub, spoke, morning, evening,
 * short or long delay) speak of the first delayed flight of a list scenario.
 */
export function staticFacts(schedule: Schedule, scenario: Scenario): Pick<ScenarioFacts, 'origin' | 'origin_is_hub' | 'local_departure' | 'min_delay_minutes'> {
  const delay = scenarioDisruptions(scenario).find((d) => d.type === 'flight_delay');
  if (!delay) throw new Error(`scenario ${scenario.key}: it delays no flight, so its tags have nothing to speak of`);
  const flight = schedule.flightsById.get(delay.flight);
  if (!flight) throw new Error(`scenario ${scenario.key}: flight ${delay.flight} is not in schedule ${scenario.schedule}`);
  const airport = schedule.airports.get(flight.origin)!;
  const minute = localMinuteOfDay(flight.depMinutes, airport.timeZone);
  return {
    origin: flight.origin,
    origin_is_hub: airport.hub,
    local_departure: `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`,
    min_delay_minutes: delay.min_delay_minutes,
  };
}

function localMinute(facts: ScenarioFacts): number {
  const [h, m] = facts.local_departure.split(':').map(Number);
  return h! * 60 + m!;
}

const TAG_HOLDS: Record<Tag, (f: ScenarioFacts) => boolean> = {
  hub: (f) => f.origin_is_hub,
  spoke: (f) => !f.origin_is_hub,
  morning: (f) => localMinute(f) < 12 * 60,
  evening: (f) => localMinute(f) >= 17 * 60,
  short_delay: (f) => f.min_delay_minutes <= 60,
  long_delay: (f) => f.min_delay_minutes >= 180,
  cancels: (f) => (f.integrated?.cancelled ?? 0) > 0,
  swaps: (f) => (f.integrated?.swapped ?? 0) > 0,
  maintenance_violation: (f) => f.violations.maintenance > 0,
  crew_duty_violation: (f) => f.violations.crew_duty > 0,
};

function observed(tag: Tag, f: ScenarioFacts): string {
  switch (tag) {
    case 'hub': case 'spoke': return `it departs from ${f.origin}, which is ${f.origin_is_hub ? '' : 'not '}a hub`;
    case 'morning': case 'evening': return `it departs at ${f.local_departure} local time`;
    case 'short_delay': case 'long_delay': return `the minimum delay is ${f.min_delay_minutes} minutes`;
    case 'cancels': return f.integrated ? `the integrated option cancels ${f.integrated.cancelled} flights` : 'the integrated strategy found no plan';
    case 'swaps': return f.integrated ? `the integrated option swaps ${f.integrated.swapped} flights` : 'the integrated strategy found no plan';
    case 'maintenance_violation': return `the top-level violations include ${f.violations.maintenance} maintenance ones`;
    case 'crew_duty_violation': return `the top-level violations include ${f.violations.crew_duty} crew_duty ones`;
  }
}

/** One sentence per tag whose promise the facts break; empty when the scenario means what it says. */
export function checkTags(key: string, tags: readonly Tag[], facts: ScenarioFacts): string[] {
  return tags.filter((tag) => !TAG_HOLDS[tag](facts))
    .map((tag) => `${key} no longer means what its tag '${tag}' says (${TAG_MEANINGS[tag]}): ${observed(tag, facts)}.`);
}

export function tagHolds(tag: Tag, facts: ScenarioFacts): boolean {
  return TAG_HOLDS[tag](facts);
}
