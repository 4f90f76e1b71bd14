// What the page learns from the service itself at start, so it copies none of it: the limits of the
// request fields its editors fill (GET /openapi.json, public), the definitions of the KPIs it shows
// (the same document's descriptions) and the currency of costs (GET /config, cost_weights.currency).
// A bound the document does not state is left to the service, whose 400 sentence the page shows.
import { getJson } from './api-client.ts';
import type { SolverConfig } from './wire.ts';

export interface Range { min: number | null; max: number | null }

export interface ServiceInfo {
  /** Bounds of flight_delay.min_delay_minutes. */
  delayMinutes: Range;
  /** Bounds of airport_capacity.max_departures_per_hour (and arrivals). */
  capacityPerHour: Range;
  /** Bounds of config.solver.time_limit_ms. */
  timeLimitMs: Range;
  /** The description of each field of an option's summary (otp, nps, passengers_disrupted, …). */
  summaryDefinitions: Record<string, string>;
  /** ISO 4217 code of costs; null until the key has read GET /config. */
  currency: string | null;
}

type Schema = {
  $ref?: string; oneOf?: Schema[]; anyOf?: Schema[]; allOf?: Schema[]; properties?: Record<string, Schema>;
  minimum?: number; maximum?: number; description?: string; enum?: unknown[]; const?: unknown;
};
interface OpenApiDocument { components?: { schemas?: Record<string, Schema> } }

const UNKNOWN: Range = { min: null, max: null };

export const emptyServiceInfo = (): ServiceInfo => ({ delayMinutes: UNKNOWN, capacityPerHour: UNKNOWN, timeLimitMs: UNKNOWN, summaryDefinitions: {}, currency: null });

/** Reads the public OpenAPI document; a document it cannot read leaves every limit to the service. */
export async function readOpenApi(info: ServiceInfo): Promise<void> {
  let doc: OpenApiDocument;
  try {
    doc = await getJson<OpenApiDocument>('openapi.json');
  } catch {
    return;
  }
  const walk = new SchemaWalker(doc);
  const disruption = walk.named('Disruption');
  info.delayMinutes = walk.range(walk.property(walk.variant(disruption, 'flight_delay'), 'min_delay_minutes'));
  info.capacityPerHour = walk.range(walk.property(walk.variant(disruption, 'airport_capacity'), 'max_departures_per_hour'));
  const solver = walk.property(walk.property(walk.named('SimulationRequest'), 'config'), 'solver');
  info.timeLimitMs = walk.range(walk.property(solver, 'time_limit_ms'));
  const summary = walk.property(walk.named('RecoveryOption'), 'summary');
  for (const [name, field] of Object.entries(walk.resolve(summary)?.properties ?? {})) {
    const description = walk.resolve(field)?.description;
    if (description) info.summaryDefinitions[name] = description;
  }
}

/** Reads the currency of costs from the default configuration (needs the key). */
export async function readConfig(info: ServiceInfo): Promise<void> {
  const config = await getJson<SolverConfig>('config');
  // A service older than cost_weights.currency has none: costs are then written in plain units.
  info.currency = config.cost_weights.currency ?? null;
}

/** Just enough of JSON Schema to find a field: $ref, allOf, oneOf/anyOf (variants and nullable forms). */
class SchemaWalker {
  constructor(private readonly doc: OpenApiDocument) {}

  named(name: string): Schema | undefined { return this.doc.components?.schemas?.[name]; }

  resolve(schema: Schema | undefined): Schema | undefined {
    for (let depth = 0; schema?.$ref && depth < 20; depth++) schema = this.named(schema.$ref.replace('#/components/schemas/', ''));
    return schema;
  }

  /** A property of an object schema, looking through allOf parts and the object branch of oneOf/anyOf. */
  property(schema: Schema | undefined, name: string): Schema | undefined {
    const s = this.resolve(schema);
    if (!s) return undefined;
    if (s.properties?.[name]) return s.properties[name];
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
      const found = this.property(part, name);
      if (found) return found;
    }
    return undefined;
  }

  /** The branch of a discriminated union whose `type` is `type`. */
  variant(schema: Schema | undefined, type: string): Schema | undefined {
    const s = this.resolve(schema);
    return [...(s?.oneOf ?? []), ...(s?.anyOf ?? [])].find((branch) => {
      const discriminator = this.resolve(this.property(branch, 'type'));
      return discriminator?.const === type || (discriminator?.enum?.length === 1 && discriminator.enum[0] === type);
    });
  }

  range(schema: Schema | undefined): Range {
    const s = this.resolve(schema);
    return { min: s?.minimum ?? null, max: s?.maximum ?? null };
  }
}
