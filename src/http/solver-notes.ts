// The option's `solver.note`: the facts a strategy's solve returns (recovery/model/solve-facts.ts),
// worded for the API's users. The engine speaks numbers and codes; only this module writes them as
// sentences.
import type { ProofOutcome, SimulationBound, SolverFacts, StrategyFacts } from '../recovery/model/solve-facts.ts';

const round2 = (value: number) => Math.round(value * 100) / 100;

const PROOF: Record<ProofOutcome, (maxRoutes: number) => string> = {
  proven: () => 'proven optimal',
  proven_by_bound: () => 'proven optimal: the plan costs that lower bound',
  glpk_stopped: () => 'GLPK stopped before proving the plan optimal over the priced routes',
  routes_capped: (cap) => `the optimality proof needs more than solver.max_routes_per_aircraft (${cap}) routes for an aircraft`,
  journeys_capped: (cap) => `the optimality proof needs more than solver.max_routes_per_aircraft (${cap}) journeys for a group's passengers from one place`,
  time_limit: () => 'the time limit came during the optimality proof',
  cut_short: () => 'the search was cut short: the integrated strategy was proven, and the answer waits for the other strategies only a little longer (a longer time_limit_ms gives them more)',
  no_bound: () => 'the time limit came before a first bound',
};

const FLOOR: Record<SimulationBound['source'], string> = {
  flight_bound: 'the flight bound: aircraft relaxed, each flight flown at its own cheapest departure under the capacities or cancelled',
  network_bound: 'the network bound: the Lagrangian relaxation of every aircraft\'s time-space network, docs/model.md 3.9',
};

function generatedNote(f: Extract<StrategyFacts, { kind: 'generated' }>): string {
  const start = f.inheritedRoutes === null ? '' : `, starting from the integrated strategy's ${f.inheritedRoutes} routes and its bound (every plan of this strategy is one of its plans)`;
  const generated = f.fixedRoutes ? `the planned routes with propagated delays, their passengers' journeys generated in ${f.rounds} rounds`
    : `${f.rounds} rounds, ${f.routes} routes${start}`;
  const stop = { converged: ' (the converged LP)', close: ` (Lagrangian, within ${f.closeWithin * 100} % of the LP)`, time: ' (Lagrangian, the time limit stopped the generation)' }[f.stop];
  const bound = f.floorBound !== null
    ? `lower bound ${round2(f.floorBound.value)} (${FLOOR[f.floorBound.source]}; ${f.generationBound === null ? 'no bound from the generation yet' : `the generation's, ${round2(f.generationBound)}, is below it`})`
    : f.generationBound === null ? 'no lower bound is known'
      : f.negativeLagrangian !== null ? `lower bound 0 (no cost is negative; the best Lagrangian bound so far, ${round2(f.negativeLagrangian)}, is below it)`
        : `lower bound ${round2(f.generationBound)} over every ${f.fixedRoutes ? 'journey of the passengers' : 'route of the scope'}${stop}`;
  return `Column generation: ${generated}; ${bound}; ${PROOF[f.proof](f.maxRoutesPerAircraft)}.`;
}

function strategyNote(f: StrategyFacts): string {
  switch (f.kind) {
    case 'capacity_exceeded': {
      const hour = new Date(f.hourStartMinutes * 60_000).toISOString().slice(0, 16);
      const movement = f.movement === 'arrivals' ? 'arrival' : 'departure';
      return `No plan of this strategy satisfies the rules and the disruptions: ${f.fixed} ${movement}${f.fixed === 1 ? '' : 's'} of flights outside the scope at ${f.airport} in the hour from ${hour}Z already exceed its capacity of ${f.max}.`;
    }
    case 'planned_routes_break_rules': return 'The planned routes with propagated delays break a rule or a disruption: no plan of this strategy exists.';
    case 'no_plan_exists': return `Column generation over the full route space (${f.rounds} rounds) proves that no plan of this strategy exists.`;
    case 'at_integrated_bound': return `Column generation: none needed; ${f.routes} routes, starting from the integrated strategy's routes and its bound (every plan of this strategy is one of its plans): a plan over them costs the integrated strategy's lower bound ${round2(f.bound)}; proven optimal.`;
    case 'no_time_for_generation': return `Column generation: none, the time limit came first; ${f.routes} routes, starting from the integrated strategy's routes${f.bound === null ? '' : `; lower bound ${round2(f.bound)} (the integrated strategy's)`}.`;
    case 'generated': return generatedNote(f);
    case 'network_search_plan': {
      const generation = f.generationObjective === null ? 'which has no plan' : `whose best plan costs ${round2(f.generationObjective)}`;
      const passengers = f.passengers === 'exact' ? ''
        : f.passengers === 'direct_flights' ? ' Its passengers are re-accommodated over direct flights only: the time limit came before the search re-accommodated them over every journey.'
          : ' No solve of the search ended with a plan in time: its passengers are compensated, or moved onto free seats of direct flights one group at a time without a solver, not necessarily the cheapest way.';
      return `The network engine's search over whole-network operating plans found this plan, cheaper than the column generation's (${generation}).${passengers} ${strategyNote(f.generation)}`;
    }
    case 'running': return 'The best plan so far: the solve of this strategy is still running.';
  }
}

/** Why a strategy has no plan: what its facts prove, else the solver's sentence (`detail`). */
export function unsolvedDetail(facts: StrategyFacts, detail: string | null): string {
  switch (facts.kind) {
    case 'capacity_exceeded': case 'planned_routes_break_rules': return strategyNote(facts);
    case 'no_plan_exists': return 'No plan of this strategy satisfies the rules and the disruptions: proven by column generation over every route of the scope.';
    case 'no_time_for_generation': return facts.noPlanAmongThem ? 'No plan was found among the integrated strategy\'s routes before the time limit.' : detail ?? 'No plan was found.';
    case 'generated': return facts.noPlanAmongPriced ? 'No plan was found among the routes priced; that none exists is not proven.' : detail ?? 'No plan was found.';
    default: return detail ?? 'No plan was found.';
  }
}

/** The note of an option's solver report. */
export function solverNote(facts: SolverFacts): string {
  if (facts.kind !== 'restricted_plan_used') return strategyNote(facts);
  const own = facts.ownStatus === 'infeasible' ? 'The integrated solve proved that no plan of its own exists'
    : `The integrated solve ended with status ${facts.ownStatus}${facts.ownObjective === null ? '' : ` at ${facts.ownObjective}`}`;
  return `${own}; the ${facts.plan} plan, also a plan of all actions, is cheaper and is used.`;
}
