// GET /openapi.json and GET /docs: the OpenAPI document generated from the route declarations, and
// swagger-ui rendering it. Both public.
import type { RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { ApiBuilder } from '../api-builder.ts';
import { HttpError } from '../errors.ts';
import { z } from '../openapi-zod.ts';
import { PreparedJson } from '../prepared-json.ts';

/** Paths below /docs that are served: the page, its init script and the swagger-ui assets it loads. */
const DOCS_FILES = new Set([
  '/', '/swagger-ui-init.js', '/swagger-ui.css', '/swagger-ui-bundle.js', '/swagger-ui-standalone-preset.js',
  '/favicon-16x16.png', '/favicon-32x32.png',
]);

/**
 * Declares both routes. `document` is read at the first request (createApp builds the document once,
 * after every module has declared its routes); it is serialised, gzipped and given its ETag then, once
 * (written out and compressed per request, 500 requests took 2.3 s of the fuzz test, now 1.4 s).
 */
export function docsEndpoints(api: ApiBuilder, document: () => object): void {
  let prepared: PreparedJson | undefined;
  api.route({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    public: true,
    tags: ['Service'],
    summary: 'OpenAPI 3.1 document of this interface',
    description: 'Needs no key. Generated from the same zod schemas that validate requests.',
    response: { description: 'The OpenAPI document.', schema: z.looseObject({ openapi: z.string() }).openapi({ type: 'object' }), etag: true },
    handler: () => (prepared ??= new PreparedJson(document())),
  });

  // swagger-ui-express serves its page relative to the mount point: at /docs (no slash) the page's
  // relative asset links would resolve against /, so send the browser to /docs/ first. The redirect
  // is relative too, so the page also works behind a path-prefixing proxy. Below /docs/ only the page
  // and the files it loads are served; anything else (swagger-ui-dist's own petstore index.html, its
  // package.json, source maps) is our JSON 404, not the package's.
  const onlyThePage: RequestHandler = (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/docs') res.redirect(301, 'docs/');
    else if (DOCS_FILES.has(req.path)) next();
    else next(new HttpError(404, 'Not found'));
  };
  const options = {
    customSiteTitle: 'Airline Disruption Recovery Service: API',
    swaggerUrl: '../openapi.json',
    swaggerOptions: { validatorUrl: null },
  };
  api.router.use('/docs', onlyThePage, ...swaggerUi.serveFiles(undefined, options), swaggerUi.setup(undefined, options));
  api.document({
    method: 'get',
    path: '/docs',
    operationId: 'getDocs',
    public: true,
    tags: ['Service'],
    summary: 'Interactive documentation (swagger-ui)',
    description: 'Needs no key. Renders /openapi.json; /docs redirects to /docs/.',
    response: { description: 'HTML page.', schema: z.string(), contentType: 'text/html' },
    moved: 'Redirect from /docs to /docs/ (relative), where the page\'s relative links resolve.',
  });
}
