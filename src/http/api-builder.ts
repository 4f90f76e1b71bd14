// One declaration per endpoint: the same zod schemas validate the request, document it in OpenAPI and
// (outside production) check the response. A route module is a function that declares its endpoints
// on an ApiBuilder (deps.ts); createApp runs every module. Authentication is not a per-route choice: the gate in
// auth.ts protects every path outside PUBLIC_PATHS, and `public: true` here only documents that and is
// refused for any other path.
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, Response, Router } from 'express';
import type { ZodObject, ZodType } from 'zod';
import { z } from './openapi-zod.ts';
import { API_KEY_HEADER, isPublicPath } from './auth.ts';
import { HttpError, quote } from './errors.ts';
import { ErrorSchema } from './schemas.ts';

export const API_KEY_SCHEME = 'ApiKeyAuth';

/** The interface label (spec: "version 1.0.0"); distinct from the package version in /health. */
export const INTERFACE_VERSION = '1.0.0';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Infer<T> = T extends ZodType ? z.infer<T> : undefined;

export interface RouteInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
}

export interface RouteSpec<P extends ZodObject | undefined, Q extends ZodObject | undefined, B extends ZodType | undefined> {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/flights/{schedule_file}`; turned into Express's `:schedule_file`. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** Documents the route as keyless. Allowed only for paths in PUBLIC_PATHS (checked at start). */
  public?: boolean;
  request?: {
    params?: P;
    /** Make it a z.strictObject so unknown query parameters are a 400. */
    query?: Q;
    /** JSON body; createApp has already enforced Content-Type and the size limit. */
    body?: B;
  };
  /** The success response: status (default 200), description and body schema. */
  response: { status?: number; description: string; schema: ZodType; contentType?: string };
  /** Route-specific error responses to document, e.g. { 404: 'Unknown schedule' }. */
  errors?: Record<number, string>;
  /** Returns the success body; throws HttpError for the caller's mistakes. */
  handler: (input: RouteInput<P, Q, B>, req: Request, res: Response) => unknown;
}

// Wording for the standard responses every route documents.
const STANDARD_ERRORS: Record<number, string> = {
  400: 'Malformed request: the detail names the parameter or field and the rule it breaks.',
  401: `Missing API key: the ${API_KEY_HEADER} header is absent or empty.`,
  403: 'Invalid API key: the key is not valid for this environment.',
  413: 'Request body larger than the configured limit.',
  414: 'Request URL longer than the limit.',
  415: 'Request body is not application/json.',
  429: 'Rate limit of this API key exceeded; retry after the Retry-After seconds. Counted responses carry the RateLimit and RateLimit-Policy headers.',
  500: 'Internal server error; the cause is logged with the request id (X-Request-Id).',
  503: 'Temporarily unavailable (the instance is shutting down, or a capacity limit was reached); retry after the Retry-After seconds.',
};

function toExpressPath(template: string): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return value;
}

/** A 400 whose sentence names each offending parameter or field and the rule it breaks. */
export function requestError(where: 'query' | 'path' | 'body', error: z.ZodError, data: unknown): HttpError {
  const noun = where === 'query' ? 'Query parameter' : where === 'path' ? 'Path parameter' : 'Field';
  const sentences = error.issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((key) => quote(key)).join(', ');
      return where === 'query'
        ? `Unknown query parameter ${names}; this endpoint accepts only the parameters it documents`
        : `Unknown field ${names}${issue.path.length ? ` in ${quote(issue.path.join('.'))}` : ''}`;
    }
    const name = issue.path.join('.');
    const subject = name ? `${noun} ${quote(name)}` : where === 'body' ? 'Request body' : noun;
    if (issue.code === 'invalid_type') {
      const value = valueAt(data, issue.path);
      if (value === undefined) return `${subject} is required`;
      if (Array.isArray(value) && where === 'query') return `${subject} must be given at most once`;
      return `${subject} must be of type ${issue.expected}`;
    }
    return `${subject} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
  });
  return new HttpError(400, `${sentences.join('; ')}.`);
}

export class ApiBuilder {
  readonly registry: OpenAPIRegistry;

  /**
   * `router` receives the handlers; `validateResponses` makes a response that breaks its own schema a
   * 500 (on outside production, so schema drift fails the tests rather than a client).
   */
  constructor(readonly router: Router, private readonly validateResponses: boolean) {
    this.registry = new OpenAPIRegistry();
    this.registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
      type: 'apiKey',
      in: 'header',
      name: API_KEY_HEADER,
      description: 'A key issued by the operator for this environment (development, staging or production).',
    });
    this.registry.register('Error', ErrorSchema);
  }

  /** Declare one endpoint: Express handler with request validation, plus its OpenAPI operation. */
  route<P extends ZodObject | undefined = undefined, Q extends ZodObject | undefined = undefined, B extends ZodType | undefined = undefined>(
    spec: RouteSpec<P, Q, B>,
  ): void {
    if (spec.public && !isPublicPath(spec.path)) {
      throw new Error(`Route ${spec.method.toUpperCase()} ${spec.path} is marked public but is not in PUBLIC_PATHS (auth.ts).`);
    }
    this.document(spec);
    const successStatus = spec.response.status ?? 200;
    const { params, query, body } = spec.request ?? {};
    this.router[spec.method](toExpressPath(spec.path), async (req, res) => {
      const input = {
        params: params ? parseOrThrow(params, req.params, 'path') : undefined,
        query: query ? parseOrThrow(query, req.query, 'query') : undefined,
        body: body ? parseOrThrow(body, req.body, 'body') : undefined,
      } as RouteInput<P, Q, B>;
      const result = await spec.handler(input, req, res);
      if (res.headersSent) return;
      if (this.validateResponses) {
        const check = spec.response.schema.safeParse(result);
        if (!check.success) {
          throw new Error(`Response of ${spec.method.toUpperCase()} ${spec.path} breaks its schema: ${z.prettifyError(check.error)}`);
        }
      }
      res.status(successStatus).json(result);
    });
  }

  /** Add an OpenAPI operation for a handler mounted by other means (e.g. the static /docs page). */
  document(spec: Pick<RouteSpec<ZodObject | undefined, ZodObject | undefined, ZodType | undefined>,
    'method' | 'path' | 'summary' | 'description' | 'tags' | 'public' | 'request' | 'errors'> & {
    response: { status?: number; description: string; schema?: ZodType; contentType?: string };
  }): void {
    const { params, query, body } = spec.request ?? {};
    const errorStatuses = new Set<number>([414, 500, 503]);
    if (!spec.public) { errorStatuses.add(401); errorStatuses.add(403); errorStatuses.add(429); }
    if (params || query || body) errorStatuses.add(400);
    if (body) { errorStatuses.add(413); errorStatuses.add(415); }
    const responses: Record<string, ResponseConfig> = {
      [String(spec.response.status ?? 200)]: {
        description: spec.response.description,
        ...(spec.response.schema
          ? { content: { [spec.response.contentType ?? 'application/json']: { schema: spec.response.schema } } }
          : {}),
      },
    };
    const described: Record<number, string> = { ...Object.fromEntries([...errorStatuses].map((s) => [s, STANDARD_ERRORS[s]!])), ...spec.errors };
    for (const [status, description] of Object.entries(described)) {
      responses[status] = { description, content: { 'application/json': { schema: ErrorSchema } } };
    }
    const route: RouteConfig = {
      method: spec.method,
      path: spec.path,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.tags ? { tags: spec.tags } : {}),
      security: spec.public ? [] : [{ [API_KEY_SCHEME]: [] }],
      request: {
        ...(params ? { params } : {}),
        ...(query ? { query } : {}),
        ...(body ? { body: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      },
      responses,
    };
    this.registry.registerPath(route);
  }

  /** The OpenAPI 3.1 document of everything declared so far. */
  openApiDocument(info: { title: string; description: string }): ReturnType<OpenApiGeneratorV31['generateDocument']> {
    return new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: { title: info.title, version: INTERFACE_VERSION, description: info.description },
    });
  }
}

function parseOrThrow(schema: ZodType, data: unknown, where: 'query' | 'path' | 'body'): unknown {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw requestError(where, parsed.error, data);
  return parsed.data;
}
