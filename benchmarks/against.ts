// `npm run bench -- --against <git ref>`: this tree against another commit, as users meet them: both
// services started (each from its own tree, on a port of its own), the same single delays posted
// over HTTP to one and the other alternately (ABBA), and per scenario and overall the p50 / p95 of
// each, their ratios, and the integrated option's cost side by side. Each engine prices its plans by
// its own model, and the models change (docs/model.md 1.6's passenger fix), so both integrated plans
// are also re-priced by one scorer under this tree's model (lib/plan-scorer.ts, the oracle's reading
// of docs/model.md section 1, sharing no code with the engine); a cheaper or dearer plan is flagged by
// the re-priced costs, and a plan of this tree that the scorer finds infeasible, prices above what it
// reports, or (proven optimal) below it is a failure (exit 1): lib/plan-scorer.ts judgePlan. The ref is checked out in a temporary git worktree and installed there (npm ci when its
// lockfile differs). Absolute times on a shared machine are noise; the ratios of one run, taken
// moments apart under the same load, are what to judge a change by.
//
//   npm run bench -- --against <ref> [--only default,large] [--seeded 30] [--seed 24] [--reps 3] [--scenario KEYS] [--out file.json]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { readCommandLine, usageError } from '../src/cli/args.ts';
import type { ScheduleFile } from '../src/formats/schedule-json/schedule-file.ts';
import type { OracleConfig } from '../test/oracle/config.ts';
import type { OracleDisruption } from '../test/oracle/model.ts';
import { postJson, startServer, type RunningServer } from './lib/http.ts';
import { JOURNEY_LEGS, judgePlan, SAME_COST, scorePlan, type PlanActions, type PlanScore } from './lib/plan-scorer.ts';
import { announce, progress } from './lib/progress.ts';
import { BENCHMARKS_DIR, loadScenarios, SCHEDULE_NAMES, selectScenarios, simulateBody, type Scenario } from './lib/scenarios.ts';
import { loadSchedulesFor, schedulePath } from './lib/schedules.ts';
import { DEFAULT_SEED, seededSingleDelays } from './lib/seeded-delays.ts';
import { formatMs, formatRatio, median, percentile } from './lib/stats.ts';
import { table } from './lib/table.ts';
import { checkOutTree } from './lib/worktree.ts';

export function againstRequested(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--against' || a.startsWith('--against='));
}

interface Side {
  ms: number[];
  /** The reported cost of the cheapest integrated plan of the repetitions, and that plan. */
  cost: number | null;
  actions: PlanActions | null;
  /** That plan's status (what its cost is judged by). */
  planStatus: string | null;
  /** The weakest status of the repetitions: `optimal` only when every one was proven. */
  status: string | null;
  lowerBound: number | null;
  failures: string[];
  /** That plan re-priced under this tree's model, after the run. */
  score: PlanScore | null;
}
interface Row { scenario: Scenario; base: Side; cand: Side; disruptions: OracleDisruption[] | null }

const emptySide = (): Side => ({ ms: [], cost: null, actions: null, planStatus: null, status: null, lowerBound: null, failures: [], score: null });

/** What one answer says about its integrated option (the recommendation). */
function integratedOf(body: unknown): { cost: number | null; actions: PlanActions | null; status: string | null; lowerBound: number | null } {
  const options = (body as { options?: { strategy: string; summary?: { cost: number }; kpis?: { cost: number }; action_set?: PlanActions; solver?: { status: string; lower_bound: number | null } }[] }).options ?? [];
  const o = options.find((x) => x.strategy === 'integrated');
  return { cost: o?.summary?.cost ?? o?.kpis?.cost ?? null, actions: o?.action_set ?? null, status: o?.solver?.status ?? null, lowerBound: o?.solver?.lower_bound ?? null };
}

async function measureOne(server: RunningServer, row: Row, side: Side, mine: boolean): Promise<void> {
  const answer = await postJson(server, '/simulate', simulateBody(row.scenario));
  if (answer.status !== 200) {
    side.failures.push(`${answer.status}`);
    return;
  }
  side.ms.push(answer.ms);
  // This tree's normalised disruptions: the scorer reads both sides' plans against them.
  if (mine) row.disruptions = (answer.body as { disruptions: OracleDisruption[] }).disruptions;
  const integrated = integratedOf(answer.body);
  // The cheapest of the repetitions (a run cut short by load may answer a dearer plan).
  if (integrated.cost !== null && (side.cost === null || integrated.cost < side.cost)) {
    side.cost = integrated.cost;
    side.actions = integrated.actions;
    side.planStatus = integrated.status;
  }
  if (side.status === null || integrated.status !== 'optimal') side.status = integrated.status;
  if (side.lowerBound === null || (integrated.lowerBound ?? 0) <= 0) side.lowerBound = integrated.lowerBound;
}

export async function runAgainst(argv: readonly string[]): Promise<number> {
  const { values } = readCommandLine({
    command: 'npm run bench',
    usage: `Usage: npm run bench -- --against REF [--only default,large] [--seeded 30] [--seed ${DEFAULT_SEED}] [--reps 1] [--no-npm-ci] [--out FILE]

This tree against the commit REF over HTTP (both services started, the same single delays posted to
each alternately): p50 / p95 of each, their ratios, and the integrated option's costs side by side.
  --only LIST             schedules (default default,large)
  --seeded N              single delays drawn with the seed, besides the committed ones (default 30)
  --seed N                the seed of the drawn delays
  --reps N                repetitions per scenario and side (default 1)
  --scenario KEYS         only these scenarios (e.g. default/seeded-24-9,default/seeded-24-16)
  --no-npm-ci             do not install REF's worktree
  --out FILE              the JSON report
  --help                  this text`,
    args: [...argv],
    options: {
      against: { type: 'string' },
      only: { type: 'string', default: 'default,large' },
      seeded: { type: 'string', default: '30' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      reps: { type: 'string', default: '1' },
      scenario: { type: 'string' },
      'no-npm-ci': { type: 'boolean', default: false },
      out: { type: 'string' },
    },
    allowPositionals: false,
  });
  const ref = values.against!;
  const only = values.only.split(',').map((s) => s.trim());
  for (const name of only) if (!(SCHEDULE_NAMES as readonly string[]).includes(name)) usageError('npm run bench', `--only: unknown schedule '${name}'`);
  const seededCount = Number(values.seeded);
  const reps = Math.max(1, Number(values.reps));

  const committed = selectScenarios(loadScenarios(), { schedules: only }).filter((s) => s.disrupted_flight !== undefined);
  const schedules = loadSchedulesFor(committed);
  const scenarios: Scenario[] = [];
  for (const name of only) {
    const mine = committed.filter((s) => s.schedule === name);
    scenarios.push(...mine);
    if (seededCount > 0 && mine.length > 0) scenarios.push(...seededSingleDelays(schedules.get(name)!, name as Scenario['schedule'], mine[0]!, seededCount, Number(values.seed), mine));
  }
  if (values.scenario !== undefined) {
    const keys = values.scenario.split(',').map((s) => s.trim());
    for (const key of keys) if (!scenarios.some((s) => s.key === key)) usageError('npm run bench', `--scenario: no scenario '${key}' among the chosen ones`);
    scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => keys.includes(s.key)));
  }

  const tree = checkOutTree(ref, { npmCi: !values['no-npm-ci'], prefix: 'bench-against-' });
  if (!tree) return 2;
  let base: RunningServer | null = null;
  let cand: RunningServer | null = null;
  try {
    progress(`starting both services (${tree.label} and this tree)`);
    // Rate limits off on both sides: --reps 3 posts 234 simulations a side, past the default per-minute limits.
    const unlimited = { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' };
    [base, cand] = await Promise.all([startServer(unlimited, tree.root), startServer(unlimited)]);
    const load = loadavg()[0]!;
    const rows: Row[] = scenarios.map((scenario) => ({ scenario, base: emptySide(), cand: emptySide(), disruptions: null }));
    for (let rep = 0; rep < reps; rep++) {
      for (const [i, row] of rows.entries()) {
        progress(`repetition ${rep + 1}/${reps}, ${i + 1}/${rows.length} ${row.scenario.key}`);
        // One after the other, the older commit first or second in turn (ABBA): drift in the
        // machine's load falls on both.
        const order = (rep + i) % 2 === 0 ? ['base', 'cand'] as const : ['cand', 'base'] as const;
        for (const side of order) await measureOne(side === 'base' ? base : cand, row, row[side], side === 'cand');
      }
    }
    const loadAfter = loadavg()[0]!;

    // Both sides' plans on one yardstick: this tree's model, with the configuration this tree
    // completes each scenario's to.
    progress('re-pricing both sides\' plans under this tree\'s model');
    // Every configuration first: the scoring below blocks this thread for seconds at a time, long
    // enough for the service to close an idle kept-alive connection under a later request.
    const configs = new Map<string, OracleConfig | null>();
    for (const row of rows) {
      const key = JSON.stringify(row.scenario.config ?? {});
      if (configs.has(key)) continue;
      const validated = await postJson(cand, '/config/validate', row.scenario.config ?? {});
      configs.set(key, validated.status === 200 ? (validated.body as { config: OracleConfig | null }).config : null);
    }
    const scheduleFiles = new Map<string, ScheduleFile>();
    for (const row of rows) {
      const config = configs.get(JSON.stringify(row.scenario.config ?? {}));
      if (row.disruptions === null || !config) continue;
      const name = row.scenario.schedule;
      if (!scheduleFiles.has(name)) scheduleFiles.set(name, JSON.parse(readFileSync(schedulePath(name), 'utf8')) as ScheduleFile);
      for (const side of [row.base, row.cand]) {
        if (side.actions !== null) side.score = scorePlan({ schedule: scheduleFiles.get(name)!, disruptions: row.disruptions, config, airline: row.scenario.airline, actions: side.actions });
      }
    }

    const verdict = (r: Row) => {
      const [b, c] = [r.base.score?.cost ?? null, r.cand.score?.cost ?? null];
      if (b === null || c === null) return r.cand.cost === null && r.base.cost !== null ? 'NO PLAN' : '';
      const diff = (c - b) / Math.max(1, Math.abs(b));
      return diff < -SAME_COST ? 'cheaper' : diff > SAME_COST ? 'DEARER' : 'same';
    };
    const costs = (side: Side) => side.cost === null ? '-' : `${side.cost} / ${side.score?.cost ?? '?'}`;
    const lines = rows.map((r) => {
      const b = median(r.base.ms);
      const c = median(r.cand.ms);
      return [r.scenario.key, `${r.scenario.disrupted_flight} +${r.scenario.min_delay_minutes}`, formatMs(b), formatMs(c), b && c ? formatRatio(c / b) : '',
        costs(r.base), costs(r.cand), verdict(r), `${r.base.planStatus ?? '-'} / ${r.cand.planStatus ?? '-'}`];
    });
    process.stdout.write(table(['scenario', 'disruption', `${tree.label} ms`, 'this tree ms', 'ratio', `${ref} cost: reported / re-priced`, 'this tree cost: reported / re-priced', 'plan (re-priced)', 'status of those plans'], lines,
      `POST /simulate over HTTP, this tree against ${tree.label}, alternating, ${reps} repetition${reps === 1 ? '' : 's'} (median per scenario); integrated option's cost as each engine reports it and re-priced under this tree's model by one scorer (benchmarks/lib/plan-scorer.ts; journeys of at most ${JOURNEY_LEGS} flights where the configuration sets no limit); cheaper / dearer by the re-priced costs:`));
    // What the scorer found (judgePlan: the tool's rule): on this tree's plans a failure is a bug of
    // the engine or of the scorer and fails the run; on the other engine's, a note (its model, its scope).
    const scorerFailures: string[] = [];
    for (const r of rows) {
      for (const [side, who] of [[r.cand, 'this tree'], [r.base, ref]] as const) {
        if (side.cost === null) continue;
        const { failures, notes } = judgePlan(side.cost, side.planStatus, side.score, side === r.cand);
        for (const text of failures) {
          scorerFailures.push(`${r.scenario.key}, ${who}'s plan ${text}`);
          process.stdout.write(`SCORER FAILURE: ${scorerFailures.at(-1)}\n`);
        }
        for (const text of notes) process.stdout.write(`scorer note: ${r.scenario.key}, ${who}'s plan ${text}\n`);
      }
    }

    const summaryRows: string[][] = [];
    const summary: Record<string, unknown> = {};
    for (const group of [...only.map((name) => ({ name, rows: rows.filter((r) => r.scenario.schedule === name) })), { name: 'all', rows }]) {
      const bs = group.rows.flatMap((r) => r.base.ms);
      const cs = group.rows.flatMap((r) => r.cand.ms);
      const [b50, b95, c50, c95] = [median(bs), percentile(bs, 95), median(cs), percentile(cs, 95)];
      const counts = { cheaper: 0, dearer: 0, same: 0 };
      for (const r of group.rows) {
        const v = verdict(r);
        if (v === 'cheaper') counts.cheaper++; else if (v === 'DEARER') counts.dearer++; else if (v === 'same') counts.same++;
      }
      const proven = group.rows.filter((r) => r.cand.status === 'optimal').length;
      // This tree's plans that carry no proof: a dearer one among them may be the load's doing (cut short).
      const unproven = group.rows.filter((r) => r.cand.cost !== null && r.cand.planStatus !== 'optimal');
      const unprovenDearer = unproven.filter((r) => verdict(r) === 'DEARER').length;
      const unbounded = group.rows.filter((r) => r.cand.cost !== null && !((r.cand.lowerBound ?? 0) > 0)).length;
      summaryRows.push([group.name, String(group.rows.length), formatMs(b50), formatMs(b95), formatMs(c50), formatMs(c95),
        b50 && c50 ? formatRatio(c50 / b50) : '', b95 && c95 ? formatRatio(c95 / b95) : '',
        `${counts.cheaper} / ${counts.same} / ${counts.dearer}`, `${unproven.length} (${unprovenDearer} dearer)`, `${proven}/${group.rows.length}`, String(unbounded)]);
      summary[group.name] = { n: group.rows.length, base_p50_ms: b50, base_p95_ms: b95, p50_ms: c50, p95_ms: c95, p50_ratio: b50 && c50 ? c50 / b50 : null, p95_ratio: b95 && c95 ? c95 / b95 : null, ...counts, unproven: unproven.length, unproven_dearer: unprovenDearer, integrated_proven: proven, plans_without_bound: unbounded };
    }
    process.stdout.write(table(['schedule', 'n', `${ref} p50`, `${ref} p95`, 'this p50', 'this p95', 'p50 ratio', 'p95 ratio', 'cheaper / same / dearer (re-priced)', 'this tree\'s plans unproven (dearer among them)', 'integrated proven (every repetition)', 'plans without bound > 0'], summaryRows,
      `Overall (ms; ratio = this tree / ${tree.label}; load average ${load.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${availableParallelism()} cores):`));
    const failures = rows.flatMap((r) => [...r.base.failures.map((f) => `${r.scenario.key} at ${ref}: HTTP ${f}`), ...r.cand.failures.map((f) => `${r.scenario.key} here: HTTP ${f}`)]);
    for (const f of failures) process.stdout.write(`failed: ${f}\n`);

    const out = values.out ?? join(BENCHMARKS_DIR, 'reports', `against-${tree.sha.slice(0, 10)}.json`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ against: tree.label, reps, load_before: load, load_after: loadAfter, summary, scenarios: rows.map((r) => ({ key: r.scenario.key, disrupted_flight: r.scenario.disrupted_flight, min_delay_minutes: r.scenario.min_delay_minutes, base: r.base, candidate: r.cand })) }, null, 2)}\n`);
    announce(`report written to ${out}`);
    return scorerFailures.length > 0 ? 1 : 0;
  } finally {
    await Promise.all([base?.stop(), cand?.stop()]);
    tree.remove();
  }
}
