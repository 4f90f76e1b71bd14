// The network bound's routes as routes of the service (docs/model.md 3.9, "Its routes as plans"). The
// relaxation's own solution is nearly a plan, and its timing (each flight at its stretch's first minute)
// makes plans far cheaper than the network search's first come, first served walks; so the pipeline
// hands the routes the bound prices (its `onRoutes`) to the network search, whose integrated model
// (GLPK) may choose them beside its own (service-search.ts, its bound round). Kept here, not in the
// search: the network engine imports no bound.
//
// What a search found from them is kept per problem too (`keep`, `earlier`): the same storm asked again
// (a 2 s what-if after a 10 s one, the console's retry) starts from the last answer's routes and the
// routes its dives valued, as the bound's thread starts from its kept relaxation (docs/model.md 4.6).
import type { Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from '../neighbourhood/aircraft-routes.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { EarlierSearch } from '../network/service-search.ts';
import { relaxationRouteAsRoute, type RelaxationRoute } from './network-bound.ts';
import { problemHint } from './network-bound-thread.ts';

/** Problems whose search results are kept (the most recently kept; a storm's is a few hundred routes). */
const KEPT_PROBLEMS = 4;
/** Most routes the dives valued kept per problem (the newest): a dive's support on the storms is 44-84 routes. */
const KEPT_SUPPORT = 400;
/** Per problem (problemHint), the last search's answer and the routes its dives valued, as plain data. */
const kept = new Map<string, { plan: RelaxationRoute[]; cost: number; support: RelaxationRoute[] }>();

/**
 * The routes a network bound tells (`hear`, its onRoutes), handed out as routes of the service (`take`);
 * and what a search of this problem kept (`earlier`, `keep`).
 */
export class RelaxationRoutes {
  private heard: RelaxationRoute[] = [];
  private readonly ev: RouteEvaluator;
  private readonly aircraft: ReadonlyMap<string, AircraftInScope>;
  private readonly problem: string;

  constructor(schedule: Schedule, scope: RecoveryScope, config: SolverConfig) {
    this.ev = new RouteEvaluator(schedule, scope, config);
    this.aircraft = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a]));
    this.problem = problemHint({ schedule, scope, config });
  }

  /** The bound's onRoutes: keeps them as told (plain data), read only when taken, on the taker's time. */
  readonly hear = (routes: readonly RelaxationRoute[]): void => {
    for (const r of routes) this.heard.push(r);
  };

  /** The routes heard since the last call, as routes of the service; those a leg or route rule forbids are left out (relaxationRouteAsRoute). */
  readonly take = (): Route[] => {
    const heard = this.heard;
    this.heard = [];
    return this.asRoutes(heard);
  };

  /**
   * What the last search of this problem kept, as routes of this request's scope (each checked again
   * by relaxationRouteAsRoute; the search's model then decides, as for any route): null when none was
   * kept, or when its plan no longer gives every aircraft a route.
   */
  readonly earlier = (): EarlierSearch | null => {
    const found = kept.get(this.problem);
    if (!found) return null;
    const plan = new Map(this.asRoutes(found.plan).map((r) => [r.tail, r]));
    if (plan.size !== this.aircraft.size) return null;
    return { plan, cost: found.cost, support: this.asRoutes(found.support) };
  };

  /** Keeps a search's answer (when cheaper than the one kept) and the routes its dives valued, for the next search of this problem. */
  readonly keep = (found: EarlierSearch): void => {
    const before = kept.get(this.problem);
    const plain = (r: Route): RelaxationRoute => ({ tail: r.tail, legs: r.legs.map((l) => ({ flightId: l.flight.id, depMinutes: l.depMinutes })) });
    const better = !before || found.cost < before.cost;
    const support = new Map((before?.support ?? []).map((r) => [JSON.stringify(r), r]));
    for (const r of found.support) { const p = plain(r); const key = JSON.stringify(p); support.delete(key); support.set(key, p); }
    kept.delete(this.problem);
    kept.set(this.problem, { plan: better ? [...found.plan.values()].map(plain) : before.plan, cost: better ? found.cost : before.cost, support: [...support.values()].slice(-KEPT_SUPPORT) });
    for (const problem of kept.keys()) if (kept.size > KEPT_PROBLEMS) kept.delete(problem);
  };

  private asRoutes(list: readonly RelaxationRoute[]): Route[] {
    const routes: Route[] = [];
    for (const r of list) {
      const a = this.aircraft.get(r.tail);
      const route = a ? relaxationRouteAsRoute(this.ev, a, r) : null;
      if (route) routes.push(route);
    }
    return routes;
  }
}
