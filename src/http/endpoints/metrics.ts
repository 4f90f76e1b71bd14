// GET /metrics: Prometheus text format. Not public: the key gate protects it like every path outside
// PUBLIC_PATHS, so a scraper needs a key of this environment (Prometheus: `authorization` is not
// used; set the X-API-Key header with `http_headers` in the scrape config).
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { z } from '../openapi-zod.ts';

export function metricsEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  const { registry } = deps.metrics;
  api.router.get('/metrics', async (_req, res) => {
    const text = await registry.metrics();
    res.type(registry.contentType).send(text);
  });
  api.document({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tags: ['Service'],
    summary: 'Prometheus metrics',
    description: 'Request durations by route template and status, simulations, rate-limit rejections, solver pool levels and outcomes, and process metrics (resident memory, event loop lag, GC), in the Prometheus text format.',
    response: { description: 'Prometheus text exposition format 0.0.4.', schema: z.string(), contentType: 'text/plain' },
  });
}
