// Which engine answers a request (docs/model.md 4.6): the neighbourhood engine (column generation over
// the disrupted aircraft and a few candidates, which proves single delays optimal within the
// interactive budget) or the network engine (a search over whole-network operating plans beside the
// column generation over the whole scope, for the integrated strategy). The choice is returned as facts
// (the engine and its reason codes); the presenter words them.
import type { Disruption } from '../../domain/disruption.ts';
import type { RecoveryScope } from './scope.ts';

export const ENGINES = ['neighbourhood', 'network'] as const;
export type EngineName = (typeof ENGINES)[number];

/** Why a request went to the network engine. */
export const ENGINE_REASONS = ['several_disruptions', 'capacity_cut', 'aircraft_out_of_service', 'large_scope'] as const;
export type EngineReason = (typeof ENGINE_REASONS)[number];

export interface EngineChoice { engine: EngineName; reasons: EngineReason[] }

/**
 * Aircraft up to which the neighbourhood engine alone answers a single disruption: a single delay's
 * scope is its aircraft and max_candidate_aircraft (6 by default) others, whose integrated solve is
 * proven in 0.1-0.9 s of its 2 s (docs/model.md 3.5); the whole-network scopes of a storm (38-49
 * aircraft) end their 2 s without a proof.
 */
export const NEIGHBOURHOOD_MAX_AIRCRAFT = 12;

/** The engine for `disruptions` over `scope`, with every reason that applies (none for the neighbourhood engine). */
export function chooseEngine(scope: Pick<RecoveryScope, 'aircraft'>, disruptions: readonly Disruption[]): EngineChoice {
  const reasons: EngineReason[] = [];
  if (disruptions.length > 1) reasons.push('several_disruptions');
  if (disruptions.some((d) => d.type === 'airport_capacity')) reasons.push('capacity_cut');
  if (disruptions.some((d) => d.type === 'aircraft_unavailable')) reasons.push('aircraft_out_of_service');
  if (scope.aircraft.length > NEIGHBOURHOOD_MAX_AIRCRAFT) reasons.push('large_scope');
  return { engine: reasons.length > 0 ? 'network' : 'neighbourhood', reasons };
}
