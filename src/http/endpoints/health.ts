// GET /health: public liveness answer with the running version.
import packageJson from '../../../package.json' with { type: 'json' };
import type { ApiBuilder } from '../api-builder.ts';
import { HealthResponseSchema } from '../schemas.ts';

export const SERVICE_NAME = 'Airline Disruption Recovery Service';

export function healthEndpoints(api: ApiBuilder): void {
  api.route({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    public: true,
    tags: ['Service'],
    summary: 'Health check',
    description: 'Needs no key. `version` is the version of the running service (the package version), not the interface label 1.0.0.',
    response: { description: 'The service is up.', schema: HealthResponseSchema },
    handler: () => ({
      status: 'healthy' as const,
      service: SERVICE_NAME,
      timestamp: new Date().toISOString().replace(/Z$/, '+00:00'),
      version: packageJson.version,
    }),
  });
}
