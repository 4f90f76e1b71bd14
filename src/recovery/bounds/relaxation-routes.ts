// The network bound's routes as routes of the service (docs/model.md 3.9, "Its routes as plans"). The
// relaxation's own solution is nearly a plan, and its timing (each flight at its stretch's first minute)
// makes plans far cheaper than the network search's first come, first served walks; so the pipeline
// hands the routes the bound prices (its `onRoutes`) to the network search, whose integrated model
// (GLPK) may choose them beside its own (service-search.ts, its bound round). Kept here, not in the
// search: the network engine imports no bound.
import type { Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from '../neighbourhood/aircraft-routes.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import { relaxationRouteAsRoute, type RelaxationRoute } from './network-bound.ts';

/** The routes a network bound tells (`hear`, its onRoutes), handed out as routes of the service (`take`). */
export class RelaxationRoutes {
  private heard: RelaxationRoute[] = [];
  private readonly ev: RouteEvaluator;
  private readonly aircraft: ReadonlyMap<string, AircraftInScope>;

  constructor(schedule: Schedule, scope: RecoveryScope, config: SolverConfig) {
    this.ev = new RouteEvaluator(schedule, scope, config);
    this.aircraft = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a]));
  }

  /** The bound's onRoutes: keeps them as told (plain data), read only when taken, on the taker's time. */
  readonly hear = (routes: readonly RelaxationRoute[]): void => {
    for (const r of routes) this.heard.push(r);
  };

  /** The routes heard since the last call, as routes of the service; those a leg or route rule forbids are left out (relaxationRouteAsRoute). */
  readonly take = (): Route[] => {
    const heard = this.heard;
    this.heard = [];
    const routes: Route[] = [];
    for (const r of heard) {
      const a = this.aircraft.get(r.tail);
      const route = a ? relaxationRouteAsRoute(this.ev, a, r) : null;
      if (route) routes.push(route);
    }
    return routes;
  };
}
