// The scorer: a verdict on any readable solution of an instance (spec sections 4 and 5), independent
// of every solver in the project — it imports only this format's reader and types, so that a bug in an
// engine cannot hide behind a shared helper.
import type { RoadefInstance } from '../instance.ts';
import type { ReadSolution } from '../solution.ts';
import { buildContext, recordsOfLine } from './context.ts';
import { COST_LABELS, TOTAL_LABEL, computeCosts, reaches, type CostComponents, type CostTotals } from './costs.ts';
import { checkFeasibility, type RuleId } from './rules.ts';

export interface Violation {
  rule: RuleId;
  /** The spec's rule number, e.g. R25. */
  ref: string;
  text: string;
  count: number;
  /** The first few occurrences, each naming the record, line or leg. */
  examples: string[];
}

export interface ScoreReport {
  instance: string;
  feasible: boolean;
  /** Violated rules in the order of spec section 4. */
  violations: Violation[];
  /** The ten components, in currency units, exact to the cent. */
  costs: CostComponents;
  totals: CostTotals;
  /** The ten components and the total as the official cost checker prints them (two decimals). */
  printed: Record<string, string>;
  /** The official cost checker's total when it would print another one (spec 5.7), else null. */
  officialCheckerTotal: number | null;
  statistics: {
    /** Planned legs flown / cancelled (or missing). */
    legsFlown: number;
    legsCancelled: number;
    newFlights: number;
    /** Passengers of lines that do not reach their destination. */
    passengersNotDelivered: number;
  };
}

export function formatAmount(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2);
}

/** Score a solution read by readSolution (malformed records are already findings of rule `format`). */
export function scoreSolution(instance: RoadefInstance, solution: ReadSolution): ScoreReport {
  const ctx = buildContext(instance, solution);
  const violations = checkFeasibility(ctx).list();
  const { costs, totals, officialCheckerTotal } = computeCosts(ctx);
  const printed: Record<string, string> = {};
  for (const [key, label] of COST_LABELS) printed[label] = formatAmount(costs[key]);
  printed[TOTAL_LABEL] = formatAmount(totals.weightedTotal);
  let legsFlown = 0;
  let legsCancelled = 0;
  for (const leg of instance.legs) {
    const r = ctx.recordByKey.get(leg.key);
    if (r?.aircraft) legsFlown += 1; else legsCancelled += 1;
  }
  const newFlights = [...ctx.recordByKey.keys()].filter((k) => !instance.legsByKey.has(k) && ctx.recordByKey.get(k)!.aircraft !== null).length;
  let passengersNotDelivered = 0;
  for (const s of solution.itineraries) {
    const booking = ctx.bookings.get(s.itinerary);
    if (booking && !reaches(s.legs.length > 0 ? recordsOfLine(ctx, s) : null, booking)) passengersNotDelivered += s.passengers;
  }
  return {
    instance: instance.name,
    feasible: violations.length === 0,
    violations,
    costs,
    totals,
    printed,
    officialCheckerTotal,
    statistics: { legsFlown, legsCancelled, newFlights, passengersNotDelivered },
  };
}

/** The last line of every score printout, for scripts: `feasible: yes|no, cost: <weighted total>`. */
export function verdictLine(report: ScoreReport): string {
  return `feasible: ${report.feasible ? 'yes' : 'no'}, cost: ${formatAmount(report.totals.weightedTotal)}`;
}

/** A person's printout: violations with examples, the ten components, the groups, then the verdict line. */
export function formatScoreReport(report: ScoreReport): string {
  const out: string[] = [`instance ${report.instance}`];
  if (report.violations.length === 0) out.push('violations: none');
  for (const v of report.violations) {
    out.push(`violation ${v.rule} (${v.ref}, ${v.text}): ${v.count}`);
    for (const e of v.examples) out.push(`  e.g. ${e}`);
  }
  const width = Math.max(...Object.keys(report.printed).map((k) => k.length));
  for (const [label, value] of Object.entries(report.printed)) {
    if (label === TOTAL_LABEL) {
      out.push(`${'Operating group'.padEnd(width)}  ${formatAmount(report.totals.operatingTotal)}`);
      out.push(`${'Passenger group'.padEnd(width)}  ${formatAmount(report.totals.passengerTotal)}`);
      out.push(`${'Position group'.padEnd(width)}  ${formatAmount(report.totals.positionTotal)}`);
    }
    out.push(`${label.padEnd(width)}  ${value}`);
  }
  if (report.officialCheckerTotal !== null) {
    out.push(`note: the official cost checker would print Total Cost ${formatAmount(report.officialCheckerTotal)} (it prices some outbound lines without legs as inbound cancellations, spec 5.7; write lines without legs first to agree)`);
  }
  out.push(verdictLine(report));
  return `${out.join('\n')}\n`;
}

/** The JSON of a score: the keys of the calibration expected.json files plus the examples and statistics. */
export function scoreJson(report: ScoreReport): Record<string, unknown> {
  return {
    instance: report.instance,
    feasible: report.feasible,
    violations: report.violations.map((v) => v.rule),
    violationDetails: report.violations,
    costs: report.costs,
    totals: report.totals,
    printed: report.printed,
    officialCheckerTotal: report.officialCheckerTotal,
    statistics: report.statistics,
  };
}
