// The recovery MIP of one strategy: route-based set partitioning with passenger re-accommodation
// (docs/model.md section 2). Every route column carries its aircraft-side costs; passengers are
// integrated as flows whose availability and capacity depend on the chosen routes. The rows come
// from the named families of row-families.ts, in a fixed order (names and order make the model file
// the same for the same disruption).
import type { Flight, Schedule } from '../../../domain/schedule.ts';
import type { Route } from '../aircraft-routes.ts';
import { lpName, ModelBuilder, type LinearModel } from '../../model/linear-model.ts';
import type { PassengerGroup, PassengerGroups } from '../../passengers/passengers.ts';
import type { RecoveryScope } from '../../model/scope.ts';
import type { SolverConfig, Strategy } from '../../model/solver-config.ts';
import type { Journey } from '../../passengers/journeys.ts';
import type { JourneySource, LegRow, ModelContext, RebookColumn } from './context.ts';
import {
  addAircraftRows, addCancelledPassengerRows, addCapacityRows, addFlightRows, addMaxCancellationsRow, addMaxSwapsRow, addMisconnectionRows,
  addRouteTerms, addSeatRows,
} from './row-families.ts';

export interface StrategyModel {
  strategy: Strategy;
  model: LinearModel;
  routeColumns: Map<string, Route>;
  cancelColumns: Map<string, Flight>;
  rebookColumns: Map<string, RebookColumn>;
  strandedColumns: Map<string, PassengerGroup>;
  candidateRoutes: number;
  /** Flight id -> the rows its legs have a coefficient in (the pricing problem prices legs with them). */
  legRows: Map<string, LegRow[]>;
  /** Where the journeys of several flights come from, which the column generation searches (docs/model.md 3.3). */
  journeySources: JourneySource[];
  /** Itinerary ids whose rows the model holds. */
  itineraryRows: ReadonlySet<string>;
}

/**
 * Build the model of one strategy over the given candidate routes (per tail, in scope order), the
 * passengers' direct flights, and the journeys of several flights in `journeys` (by their source's
 * key: JourneySource). Flights of the scope that no route covers and that cannot be cancelled make the model
 * infeasible, which GLPK reports as such.
 */
export function buildStrategyModel(
  schedule: Schedule, scope: RecoveryScope, config: SolverConfig, strategy: Strategy,
  routesByTail: Map<string, Route[]>, groups: PassengerGroups, journeys: ReadonlyMap<string, readonly Journey[]> = new Map(),
  cancelledItineraries: ReadonlySet<string> | null = null,
): StrategyModel {
  const ctx: ModelContext = {
    b: new ModelBuilder(`recovery__${lpName(scope.label)}__${strategy}`),
    schedule, scope, config, strategy, groups,
    routeColumns: new Map(), routesWith: new Map(), cancelColumns: new Map(), cancelColumnOf: new Map(),
    rebookColumns: new Map(), strandedColumns: new Map(), journeys, journeySources: [], seatRowOf: new Map(), rows: [], legRows: new Map(),
    cancelledItineraries, itineraryRows: new Set(),
  };
  addAircraftRows(ctx, routesByTail);
  addFlightRows(ctx);
  addMaxSwapsRow(ctx);
  addMaxCancellationsRow(ctx);
  addCancelledPassengerRows(ctx);
  addMisconnectionRows(ctx);
  addCapacityRows(ctx);
  addSeatRows(ctx);
  addRouteTerms(ctx);
  return {
    strategy, model: ctx.b.build(), routeColumns: ctx.routeColumns, cancelColumns: ctx.cancelColumns,
    rebookColumns: ctx.rebookColumns, strandedColumns: ctx.strandedColumns, candidateRoutes: ctx.routeColumns.size, legRows: ctx.legRows,
    journeySources: ctx.journeySources, itineraryRows: ctx.itineraryRows,
  };
}
