// Regenerates benchmarks/scenarios.json: for each schedule, one disruption per scenario kind that
// really does what the kind's name says. Deterministic (same schedules, same engine: same file).
// Run it only when the schedules or the engine changed so much that a scenario lost its meaning;
// then review the diff and run `npm run bench:baseline`.
//
//   npx tsx benchmarks/pick-scenarios.ts [--only small,default,large]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Flight, type Schedule } from '../src/domain/schedule.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { DEFAULT_SOLVER_CONFIG } from '../src/recovery/model/solver-config.ts';
import { measureScenarioCounters, type ScenarioCounters } from './lib/counters.ts';
import { SCENARIOS_FILE, SCHEDULE_NAMES, SCHEDULES_DIR, TAG_MEANINGS, staticFacts, tagHolds, type Scenario, type ScenarioSpec, type Tag } from './lib/scenarios.ts';
import { loadScenarios } from './lib/scenarios.ts';

interface Kind {
  id: string;
  tags: Tag[];
  delays: number[];
  /** Tags that, when they do not hold, make a candidate better (e.g. a maintenance break without crew breaks). */
  preferNot?: Tag[];
  description: string;
}

const KINDS: Kind[] = [
  { id: 'hub-morning-short', tags: ['hub', 'morning', 'short_delay'], delays: [30, 45, 60], description: 'Hub departure in the morning, short delay: the day\'s busiest recovery.' },
  { id: 'hub-morning-90', tags: ['hub', 'morning'], delays: [90], description: 'The interactive target: a 90-minute delay of a hub departure in the morning (median /simulate ≤ 300 ms on default, ≤ 1.5 s on large).' },
  { id: 'hub-evening-long', tags: ['hub', 'evening', 'long_delay'], delays: [180, 240, 300], description: 'Hub departure in the evening, long delay.' },
  { id: 'spoke-morning-long', tags: ['spoke', 'morning', 'long_delay'], delays: [180, 240, 300], description: 'Spoke departure in the morning, long delay.' },
  { id: 'spoke-evening-short', tags: ['spoke', 'evening', 'short_delay'], delays: [30, 45, 60], description: 'Spoke departure in the evening, short delay.' },
  { id: 'forces-cancellations', tags: ['cancels'], delays: [120, 180, 240, 300], description: 'A delay the integrated optimum answers with cancellations.' },
  { id: 'breaks-maintenance', tags: ['maintenance_violation'], preferNot: ['crew_duty_violation'], delays: [60, 90, 120, 180], description: 'Propagating the delay makes an aircraft miss a maintenance check.' },
  { id: 'breaks-crew-duty', tags: ['crew_duty_violation'], preferNot: ['maintenance_violation'], delays: [30, 60, 90, 120], description: 'Propagating the delay pushes a crew past its flight-duty limit.' },
  { id: 'swaps-aircraft', tags: ['swaps'], delays: [60, 90, 120, 180], description: 'A delay the integrated optimum answers with aircraft swaps.' },
];

const STATIC_TAGS = new Set<Tag>(['hub', 'spoke', 'morning', 'evening', 'short_delay', 'long_delay']);
const MAX_TRIES_PER_KIND = 80;
const MIN_SCOPE_FLIGHTS = 1;

function asScenario(spec: ScenarioSpec): Scenario {
  return { ...spec, key: `${spec.schedule}/${spec.id}`, solverConfig: DEFAULT_SOLVER_CONFIG };
}

function remainingFlights(schedule: Schedule, flight: Flight): number {
  const rotation = schedule.rotations.get(flight.tail) ?? [];
  return rotation.length - rotation.indexOf(flight);
}

async function pick(schedule: Schedule, name: string, kind: Kind, used: Set<string>): Promise<ScenarioSpec | null> {
  const flights = [...(schedule.flightsByAirline.get('NV') ?? [])]
    .filter((f) => !used.has(f.id))
    .sort((p, q) => remainingFlights(schedule, q) - remainingFlights(schedule, p) || p.depMinutes - q.depMinutes || (p.id < q.id ? -1 : 1));
  let fallback: ScenarioSpec | null = null;
  let tries = 0;
  for (const flight of flights) {
    for (const delay of kind.delays) {
      const spec: ScenarioSpec = {
        id: kind.id, schedule: name as ScenarioSpec['schedule'], disrupted_flight: flight.id, min_delay_minutes: delay,
        airline: 'NV', description: kind.description, tags: kind.tags, fast: true,
      };
      const scenario = asScenario(spec);
      // Tags about the flight and the delay need no solve: check them first.
      const known = { ...staticFacts(schedule, scenario), violations: { crew_duty: 0, maintenance: 0 }, integrated: null };
      const staticTags = kind.tags.filter((t) => STATIC_TAGS.has(t));
      if (staticTags.some((t) => !t.endsWith('_delay') && !tagHolds(t, known))) break; // wrong airport or time: next flight
      if (staticTags.some((t) => !tagHolds(t, known))) continue;
      let counters: ScenarioCounters;
      if (tries++ >= MAX_TRIES_PER_KIND) return fallback;
      try {
        counters = await measureScenarioCounters(schedule, scenario);
      } catch (error) {
        process.stderr.write(`  ${scenario.key} ${flight.id} +${delay}: ${(error as Error).message}\n`);
        continue;
      }
      const allOptimal = Object.values(counters.strategies).every((s) => s.status === 'optimal');
      if (!allOptimal || !kind.tags.every((t) => tagHolds(t, counters.facts))) continue;
      if (counters.scope.flights < MIN_SCOPE_FLIGHTS) continue; // too small to say anything about performance
      if ((kind.preferNot ?? []).some((t) => tagHolds(t, counters.facts))) {
        fallback ??= spec;
        continue;
      }
      return spec;
    }
  }
  return fallback;
}

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? values.only.split(',') : [...SCHEDULE_NAMES];

// Keep the scenarios of schedules not regenerated now.
let kept: ScenarioSpec[] = [];
try {
  // List scenarios (several disruptions) are written by hand: always kept.
  kept = loadScenarios().filter((s) => !only.includes(s.schedule) || s.disruptions).map(({ key: _key, solverConfig: _config, ...spec }) => spec);
} catch { /* no file yet */ }

const picked: ScenarioSpec[] = [];
for (const name of only) {
  const schedule = loadScheduleFile(join(SCHEDULES_DIR, `${name}.json`));
  const used = new Set<string>();
  for (const kind of KINDS) {
    const started = performance.now();
    const spec = await pick(schedule, name, kind, used);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (!spec) {
      process.stderr.write(`${name}/${kind.id}: no flight of ${name} qualifies (${seconds} s); left out.\n`);
      continue;
    }
    used.add(spec.disrupted_flight!);
    picked.push(spec);
    process.stderr.write(`${name}/${kind.id}: ${spec.disrupted_flight} +${spec.min_delay_minutes} min (${seconds} s)\n`);
  }
}

// The picked kinds in their order, then the hand-written list scenarios, per schedule.
const order = (s: ScenarioSpec) => SCHEDULE_NAMES.indexOf(s.schedule) * 100 + (s.disruptions ? 99 : KINDS.findIndex((k) => k.id === s.id));
const scenarios = [...kept, ...picked].sort((p, q) => order(p) - order(q));
const file = {
  about: 'Fixed disruption scenarios of the benchmarks and the counter gate. Regenerate with `npx tsx benchmarks/pick-scenarios.ts`, then `npm run bench:baseline`. Tags are checked on every gate run.',
  tags: TAG_MEANINGS,
  scenarios: scenarios.map((s) => ({
    id: s.id, schedule: s.schedule,
    ...(s.disruptions ? { disruptions: s.disruptions } : { disrupted_flight: s.disrupted_flight, min_delay_minutes: s.min_delay_minutes }),
    airline: s.airline, tags: s.tags, fast: s.fast, description: s.description, ...(s.config ? { config: s.config } : {}),
  })),
};
writeFileSync(SCENARIOS_FILE, `${JSON.stringify(file, null, 2)}\n`);
process.stderr.write(`Wrote ${scenarios.length} scenarios to ${SCENARIOS_FILE}\n`);
