// The API's JSON as the page receives it: the service's own response types (type-only imports, erased
// by the build), so a field renamed on the server breaks `npm test`'s typecheck of the page.
export type { SnapshotResponse } from '../../../src/http/schemas.ts';
export type { SimulationResponse, RecoveryOptionView as RecoveryOption, ViolationView, CostBreakdownView } from '../../../src/http/recovery-schemas.ts';

import type { SimulationRequestSchema, DisruptionSchema, SolverConfigResponseSchema } from '../../../src/http/recovery-schemas.ts';
import type { z } from 'zod';

export type SimulationRequest = z.input<typeof SimulationRequestSchema>;
export type Disruption = z.input<typeof DisruptionSchema>;
/** GET /config: the default solver configuration. */
export type SolverConfig = z.infer<typeof SolverConfigResponseSchema>;
/** Operational days (GET /days/{day_id}, its revisions, diffs and alerts). */
export type { DayResponse, DaySummaryView as DaySummary, RevisionView as DayRevision, DiffView as RevisionDiff, AlertsView as DayAlerts } from '../../../src/http/day-schemas.ts';
