// GET /config and POST /config/validate: the solver configuration's defaults, and a check of a
// candidate configuration (200 with valid: false when it is wrong, so clients can show the errors).
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { ConfigValidateRequestSchema, ConfigValidateResponseSchema, SolverConfigResponseSchema } from '../recovery-schemas.ts';
import { DEFAULT_SOLVER_CONFIG, resolveSolverConfig } from '../../recovery/model/solver-config.ts';

export function solverConfigEndpoints(api: ApiBuilder, _deps: EndpointDeps): void {
  api.route({
    method: 'get',
    path: '/config',
    operationId: 'getSolverConfig',
    tags: ['Solver configuration'],
    summary: 'The effective default solver configuration',
    description: 'Every field with its default. A `config` in POST /simulate may override any subset. Turnaround precedence: airport+fleet over fleet over airport over default.',
    response: { etag: true, description: 'The default configuration.', schema: SolverConfigResponseSchema },
    handler: () => DEFAULT_SOLVER_CONFIG,
  });

  api.route({
    method: 'post',
    path: '/config/validate',
    operationId: 'validateSolverConfig',
    tags: ['Solver configuration'],
    summary: 'Validate a solver configuration',
    description: 'Validates a complete or partial configuration: errors name the field and the rule; warnings flag legal but suspicious values. Answers 200 even when `valid` is false; `config` is the complete configuration after defaults (null when invalid).',
    request: { body: ConfigValidateRequestSchema },
    response: { description: 'The validation result.', schema: ConfigValidateResponseSchema },
    handler: ({ body }) => resolveSolverConfig(body),
  });
}
