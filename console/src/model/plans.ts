// Options as a controller compares them: strategies that found the same plan shown once, and what the
// solver proved about each plan said in words.
import type { RecoveryOption, SimulationResponse } from '../api/wire.ts';

export interface DistinctPlan {
  /** The best-ranked option with this plan (the one shown and exported). */
  option: RecoveryOption;
  /** Every option with this plan, by rank (the first is `option`). */
  options: RecoveryOption[];
}

/**
 * What makes two options the same plan: every aircraft's timed flights and checks, the cancellations,
 * the passengers' new journeys and the added flights (cost and KPIs follow from these).
 */
function planKey(option: RecoveryOption): string {
  const a = option.action_set;
  const sorted = <T>(items: T[], key: (item: T) => string) => items.map(key).sort();
  return JSON.stringify({
    rotations: sorted(option.rotations, (r) => JSON.stringify([r.tail, r.legs.map((l) => [l.flight, Date.parse(l.dep), Date.parse(l.arr)]), r.maintenance.map((m) => [m.type, m.station, Date.parse(m.start), Date.parse(m.end)])])),
    cancellations: sorted(a.cancellations, (c) => c.flight),
    reaccommodations: sorted(a.reaccommodations, (r) => JSON.stringify([r.from_flight, r.to_flights, r.passengers, r.reason, r.itinerary_id])),
    newFlights: sorted(a.new_flights, (n) => JSON.stringify(n)),
  });
}

/** The response's options grouped by plan, in rank order of each group's best option. */
export function distinctPlans(response: SimulationResponse): DistinctPlan[] {
  const groups = new Map<string, RecoveryOption[]>();
  for (const option of [...response.options].sort((x, y) => x.rank - y.rank)) {
    const key = planKey(option);
    groups.set(key, [...(groups.get(key) ?? []), option]);
  }
  return [...groups.values()].map((options) => ({ option: options[0]!, options }));
}

export const strategyName = (strategy: string) => strategy.replace(/_/g, ' ');

/** `cancellation and integrated found the same plan`, or null for a plan one strategy found. */
export function samePlanSentence(plan: DistinctPlan): string | null {
  if (plan.options.length < 2) return null;
  const names = plan.options.map((o) => strategyName(o.strategy));
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} found the same plan.`;
}

const percent = (value: number) => `${(value * 100).toFixed(value < 0.001 && value > 0 ? 2 : 1)} %`;

/**
 * What the solver proved about an option, in one sentence: proven optimal, or how much cheaper the best
 * possible plan of its strategy could be (the proven gap), or that nothing useful was proven.
 */
export function proofSentence(option: RecoveryOption): string {
  const { status, mip_gap: gap } = option.solver;
  const bound = gap === null ? 'no lower bound was proven, so it may be far from the best possible'
    : gap >= 0.995 ? 'the lower bound proven says nothing useful (gap 100 %): it may be far from the best possible'
      : `it costs at most ${percent(gap)} more than the best possible plan of its strategy (the proven gap)`;
  switch (status) {
    case 'optimal': return 'Proven optimal: no plan of this strategy costs less.';
    case 'feasible': return `Not proven optimal: ${bound}.`;
    case 'time_limit': return `Stopped by the time limit: ${bound}.`;
    default: return `Solver status ${status}: ${bound}.`;
  }
}

/** Proof of a plan as a fraction for a progress bar: 1 when optimal, else 1 − gap (0 with no bound). */
export function proofFraction(option: RecoveryOption): number {
  if (option.solver.status === 'optimal') return 1;
  return option.solver.mip_gap === null ? 0 : Math.max(0, 1 - Math.min(1, option.solver.mip_gap));
}
