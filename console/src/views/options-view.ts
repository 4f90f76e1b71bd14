// The options side by side, compact enough to stand above the Gantt: one card per distinct plan
// (strategies that found the same plan named together), its cost in the service's currency with the
// breakdown as a stacked bar, the KPIs with their definitions (the service's own, from its OpenAPI
// document), and what the solver proved in words with its note; the best one marked in words and with
// a star, the strategies that found no plan listed with why, and for capacity caps no plan can meet,
// the least cap that could be met.
import type { ServiceInfo } from '../api/service-info.ts';
import type { CostBreakdownView, RecoveryOption, SimulationResponse } from '../api/wire.ts';
import type { CapacityHint } from '../model/capacity.ts';
import { distinctPlans, proofSentence, samePlanSentence, strategyName, type DistinctPlan } from '../model/plans.ts';
import { clock, UTC_ZONE } from '../model/time-axis.ts';
import { el, replaceChildren } from './dom.ts';

/** Breakdown components in a fixed order, each with a colour and a pattern class (not colour alone). */
const COMPONENTS: ReadonlyArray<keyof CostBreakdownView> = [
  'delay', 'cancellation', 'swap', 'spill', 'reaccommodation', 'compensation', 'crew_duty', 'maintenance', 'aircraft_position',
];

/** A cost in the service's currency (`€92,125`), or in plain units while the currency is unknown. */
export function money(value: number, currency: string | null): string {
  if (currency === null) return `${Math.round(value).toLocaleString('en-GB')} units`;
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);
}
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

export interface OptionsViewEvents {
  onShow(option: RecoveryOption): void;
  onPassengers(option: RecoveryOption): void;
  onExport(option: RecoveryOption): void;
}

export function renderOptions(container: HTMLElement, response: SimulationResponse, info: ServiceInfo, hints: readonly CapacityHint[], events: OptionsViewEvents): void {
  const plans = distinctPlans(response);
  const maxCost = Math.max(1, ...plans.map((p) => p.option.summary.cost));
  const cards = plans.map((plan) => optionCard(plan, plan.option.option_id === response.best_option_id, maxCost, info, events));
  // A strategy without a plan is a card too, beside the plans (a list under them pushed the Gantt down).
  const unsolved = response.unsolved_strategies.map((u) => el('article', { class: 'unsolved', role: 'listitem', 'data-strategy': u.strategy },
    el('h3', {}, strategyName(u.strategy)),
    el('p', {}, el('strong', {}, `No plan (${u.status.replace('_', ' ')}). `), u.detail)));
  const distinct = plans.length === response.options.length ? '' : `, ${plans.length} distinct ${plans.length === 1 ? 'plan' : 'plans'}`;
  replaceChildren(container,
    el('h2', { id: 'options-title', tabindex: -1 }, `Options for ${response.scenario_id}`),
    el('p', { class: 'help' }, `${response.options.length} ${response.options.length === 1 ? 'strategy' : 'strategies'} with a plan${distinct}. Scope: ${response.scope.aircraft.length} aircraft, ${response.scope.flights} flights, ${response.scope.itineraries} connections; solved in ${response.timings_ms.total} ms.`),
    response.options.length ? null : el('p', { role: 'status', class: 'no-plan' }, 'No strategy found a plan.'),
    hints.length ? capacityHintList(hints) : null,
    el('div', { class: 'option-grid', role: 'list' }, ...cards, ...unsolved),
    response.options.length ? el('ul', { class: 'legend cost-legend', 'aria-label': 'Cost components' }, ...COMPONENTS.map((c) => el('li', {}, el('span', { class: `swatch cost-${c}` }), c.replace('_', ' ')))) : null);
}

function capacityHintList(hints: readonly CapacityHint[]): HTMLElement {
  return el('section', { class: 'capacity-hints', 'aria-labelledby': 'capacity-hints-title' },
    el('h3', { id: 'capacity-hints-title' }, 'Caps no plan can meet'),
    el('ul', {}, ...hints.map((h) => el('li', { 'data-airport': h.airport, 'data-kind': h.kind },
      `${h.airport} ${clock(h.hourStartMs, UTC_ZONE)}–${clock(h.hourStartMs + 3_600_000, UTC_ZONE)} UTC: ${h.fixed} ${h.kind} of aircraft the plan cannot move (outside the scope, or before the disruption) already exceed the cap of ${h.cap}. A cap of at least ${h.fixed} ${h.kind} per hour there could be met (needed, not sufficient).`))));
}

let helpCount = 0;

/** A KPI's name with a help button whose tooltip is the service's definition of the figure. */
function kpiTerm(name: string, kpi: string, info: ServiceInfo): HTMLElement {
  const definition = info.summaryDefinitions[kpi] ?? 'The service did not publish a definition of this figure (GET /openapi.json could not be read).';
  const id = `kpi-help-${++helpCount}`;
  return el('dt', {}, name, ' ',
    el('button', { type: 'button', class: 'kpi-help', 'data-kpi-help': kpi, 'aria-label': `How ${name} is computed`, 'aria-describedby': id }, '?'),
    el('span', { class: 'tip', role: 'tooltip', id }, definition));
}

function optionCard(plan: DistinctPlan, best: boolean, maxCost: number, info: ServiceInfo, events: OptionsViewEvents): HTMLElement {
  const option = plan.option;
  const s = option.summary;
  const currency = info.currency;
  const bar = el('div', { class: 'cost-bar', role: 'img', 'aria-label': `Cost ${money(s.cost, currency)}: ${COMPONENTS.filter((c) => option.cost_breakdown[c] > 0).map((c) => `${c.replace('_', ' ')} ${money(option.cost_breakdown[c], currency)}`).join(', ') || 'nothing'}` });
  bar.style.width = `${Math.max(2, (s.cost / maxCost) * 100)}%`;
  for (const component of COMPONENTS) {
    const value = option.cost_breakdown[component];
    if (value <= 0) continue;
    const segment = el('span', { class: `segment cost-${component}`, title: `${component.replace('_', ' ')}: ${money(value, currency)}` });
    segment.style.width = `${(value / Math.max(1, s.cost)) * 100}%`;
    bar.appendChild(segment);
  }
  const names = plan.options.map((o) => strategyName(o.strategy)).join(' = ');
  const show = el('button', { type: 'button', class: 'primary', 'data-action': 'show' }, 'Show on Gantt');
  show.addEventListener('click', () => events.onShow(option));
  const passengers = el('button', { type: 'button', 'data-action': 'passengers' }, `Passengers (${s.passengers_disrupted})`);
  passengers.addEventListener('click', () => events.onPassengers(option));
  const exportButton = el('button', { type: 'button', 'data-action': 'export' }, 'Export JSON');
  exportButton.addEventListener('click', () => events.onExport(option));
  const same = samePlanSentence(plan);
  const solver = option.solver;
  return el('article', {
    class: best ? 'option best' : 'option', role: 'listitem', 'data-option-id': option.option_id,
    'data-option-ids': plan.options.map((o) => o.option_id).join(' '), 'aria-label': `${names}, rank ${option.rank}${best ? ', best option' : ''}`,
  },
  el('h3', {}, `${option.rank}. ${names}`, best ? el('span', { class: 'best-badge' }, '★ Best') : null),
  same ? el('p', { class: 'same-plan' }, same) : null,
  el('p', { class: 'cost', 'data-kpi': 'cost' }, `Cost ${money(s.cost, currency)}`),
  el('div', { class: 'cost-track' }, bar),
  el('dl', { class: 'kpis' },
    kpiTerm('OTP', 'otp', info), el('dd', { 'data-kpi': 'otp' }, percent(s.otp)),
    kpiTerm('NPS', 'nps', info), el('dd', { 'data-kpi': 'nps' }, s.nps.toFixed(3)),
    el('dt', {}, 'Flights'), el('dd', { 'data-kpi': 'flights' }, `${s.flights_cancelled} cancelled, ${s.flights_delayed} delayed (${s.total_delay_minutes} min), ${s.flights_swapped} swapped`),
    kpiTerm('Passengers', 'passengers_disrupted', info),
    el('dd', { 'data-kpi': 'passengers' }, `${s.passengers_disrupted} disrupted: ${s.passengers_reaccommodated} rebooked, ${s.passengers_not_reaccommodated} compensated`),
    el('dt', {}, 'Violations'), el('dd', { 'data-kpi': 'violations' }, String(option.violations.length))),
  el('p', { class: `proof proof-${solver.status}`, 'data-kpi': 'status', 'data-status': solver.status }, proofSentence(option)),
  el('details', { class: 'solver-details' },
    el('summary', {}, 'How the solver got there'),
    solver.note ? el('p', { class: 'solver-note' }, solver.note) : el('p', { class: 'solver-note' }, 'The solver left no note.'),
    el('p', {}, `Status ${solver.status}; cost ${money(solver.objective ?? s.cost, currency)}; lower bound ${solver.lower_bound === null ? 'none' : money(solver.lower_bound, currency)}; gap ${solver.mip_gap === null ? 'unknown' : percent(solver.mip_gap)}; ${Math.round(solver.solve_ms)} ms, ${solver.iterations} rounds, ${solver.candidate_routes} routes.`),
    el('ul', { class: 'breakdown' }, ...COMPONENTS.filter((c) => option.cost_breakdown[c] > 0).map((c) => el('li', {}, `${c.replace('_', ' ')}: ${money(option.cost_breakdown[c], currency)}`)))),
  el('div', { class: 'buttons' }, show, passengers, exportButton));
}

/** Offers the option as a JSON file (a Blob URL: nothing leaves the browser). */
export function downloadJson(fileName: string, content: object): void {
  const blob = new Blob([JSON.stringify(content, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: fileName });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
