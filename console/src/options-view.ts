// The options side by side: cost with its breakdown as a stacked bar, the KPIs, the solver's report;
// the best one marked in words and with a star, the strategies that found no plan listed with why.
import { el, replaceChildren } from './dom.ts';
import type { CostBreakdownView, RecoveryOption, SimulationResponse } from './wire.ts';

/** Breakdown components in a fixed order, each with a colour and a pattern class (not colour alone). */
const COMPONENTS: ReadonlyArray<keyof CostBreakdownView> = [
  'delay', 'cancellation', 'swap', 'spill', 'reaccommodation', 'compensation', 'crew_duty', 'maintenance', 'aircraft_position',
];

const money = (value: number) => Math.round(value).toLocaleString('en-GB');
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

export interface OptionsViewEvents {
  onShow(option: RecoveryOption): void;
  onExport(option: RecoveryOption): void;
}

export function renderOptions(container: HTMLElement, response: SimulationResponse, events: OptionsViewEvents): void {
  const maxCost = Math.max(1, ...response.options.map((o) => o.summary.cost));
  const cards = response.options.map((option) => optionCard(option, option.option_id === response.best_option_id, maxCost, events));
  const unsolved = response.unsolved_strategies.length
    ? el('section', { class: 'unsolved', 'aria-labelledby': 'unsolved-title' },
      el('h3', { id: 'unsolved-title' }, 'Strategies without a plan'),
      el('ul', {}, ...response.unsolved_strategies.map((u) => el('li', { 'data-strategy': u.strategy }, el('strong', {}, u.strategy), ` (${u.status}): ${u.detail}`))))
    : el('p', { class: 'unsolved' }, 'Every evaluated strategy found a plan.');
  replaceChildren(container,
    el('h2', { id: 'options-title', tabindex: -1 }, `Options for ${response.scenario_id}`),
    el('p', {}, `Scope: ${response.scope.aircraft.length} aircraft, ${response.scope.flights} flights, ${response.scope.itineraries} connections. Solved in ${response.timings_ms.total} ms.`),
    response.options.length ? el('div', { class: 'option-grid', role: 'list' }, ...cards) : el('p', { role: 'status' }, 'No strategy found a plan.'),
    unsolved,
    el('ul', { class: 'legend cost-legend', 'aria-label': 'Cost components' }, ...COMPONENTS.map((c) => el('li', {}, el('span', { class: `swatch cost-${c}` }), c.replace('_', ' ')))));
}

function optionCard(option: RecoveryOption, best: boolean, maxCost: number, events: OptionsViewEvents): HTMLElement {
  const s = option.summary;
  const bar = el('div', { class: 'cost-bar', role: 'img', 'aria-label': `Cost ${money(s.cost)}: ${COMPONENTS.filter((c) => option.cost_breakdown[c] > 0).map((c) => `${c.replace('_', ' ')} ${money(option.cost_breakdown[c])}`).join(', ') || 'nothing'}` });
  bar.style.width = `${Math.max(2, (s.cost / maxCost) * 100)}%`;
  for (const component of COMPONENTS) {
    const value = option.cost_breakdown[component];
    if (value <= 0) continue;
    const segment = el('span', { class: `segment cost-${component}`, title: `${component}: ${money(value)}` });
    segment.style.width = `${(value / Math.max(1, s.cost)) * 100}%`;
    bar.appendChild(segment);
  }
  const gap = option.solver.mip_gap === null ? 'unknown' : percent(option.solver.mip_gap);
  const show = el('button', { type: 'button', class: 'primary' }, 'Show on Gantt');
  show.addEventListener('click', () => events.onShow(option));
  const exportButton = el('button', { type: 'button' }, 'Export JSON');
  exportButton.addEventListener('click', () => events.onExport(option));
  return el('article', { class: best ? 'option best' : 'option', role: 'listitem', 'data-option-id': option.option_id, 'aria-label': `${option.strategy}, rank ${option.rank}${best ? ', best option' : ''}` },
    el('h3', {}, `${option.rank}. ${option.strategy.replace('_', ' ')}`, best ? el('span', { class: 'best-badge' }, '★ Best') : null),
    el('p', { class: 'cost' }, `Cost ${money(s.cost)}`),
    el('div', { class: 'cost-track' }, bar),
    el('ul', { class: 'breakdown' }, ...COMPONENTS.filter((c) => option.cost_breakdown[c] > 0).map((c) => el('li', {}, `${c.replace('_', ' ')}: ${money(option.cost_breakdown[c])}`))),
    el('dl', { class: 'kpis' },
      el('dt', {}, 'OTP'), el('dd', { 'data-kpi': 'otp' }, percent(s.otp)),
      el('dt', {}, 'NPS'), el('dd', { 'data-kpi': 'nps' }, s.nps.toFixed(3)),
      el('dt', {}, 'Delayed'), el('dd', { 'data-kpi': 'flights_delayed' }, `${s.flights_delayed} (${s.total_delay_minutes} min)`),
      el('dt', {}, 'Swapped'), el('dd', { 'data-kpi': 'flights_swapped' }, String(s.flights_swapped)),
      el('dt', {}, 'Cancelled'), el('dd', { 'data-kpi': 'flights_cancelled' }, String(s.flights_cancelled)),
      el('dt', {}, 'Passengers disrupted'), el('dd', {}, `${s.passengers_disrupted} (${s.passengers_reaccommodated} rebooked)`),
      el('dt', {}, 'Violations'), el('dd', {}, String(option.violations.length)),
      el('dt', {}, 'Solver'), el('dd', { 'data-kpi': 'status' }, option.solver.status),
      el('dt', {}, 'Gap'), el('dd', {}, gap),
      el('dt', {}, 'Solve time'), el('dd', {}, `${Math.round(option.solver.solve_ms)} ms`)),
    el('div', { class: 'actions' }, show, exportButton));
}

/** Offers the option as a JSON file (a Blob URL: nothing leaves the browser). */
export function exportOption(response: SimulationResponse, option: RecoveryOption): void {
  const blob = new Blob([JSON.stringify({ scenario_id: response.scenario_id, schedule_file: response.schedule_file, disruptions: response.disruptions, option }, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: `${response.scenario_id}-${option.option_id}.json` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
