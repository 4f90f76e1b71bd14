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
import { answeredNotModified, strongETag } from './conditional.ts';
import { HttpError, PROBLEM_CONTENT_TYPE, quote, type FieldError } from './errors.ts';
import { PreparedJson } from './prepared-json.ts';
import examplesJson from './openapi-examples.json' with { type: 'json' };
import { ErrorSchema, ProblemSchema } from './schemas.ts';

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
  /** The operation's name in generated clients (camelCase verb first, e.g. `listFlights`); unique, never changed. */
  operationId: string;
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
    /**
     * The body as the document shows it, when the validating schema says in code what a schema can
     * say only as `oneOf` (the either/or of a simulation request). Must accept exactly what `body` does.
     */
    documentedBody?: ZodType;
    /** Request headers the route reads (X-Request-Id is declared on every operation). */
    headers?: readonly RequestHeader[];
  };
  /** The success response: status (default 200), description, body schema and the headers it sets. */
  response: {
    status?: number; description: string; schema: ZodType; contentType?: string; headers?: readonly ResponseHeader[];
    /** The route answers 304 to If-None-Match itself (documents it). */
    notModified?: boolean;
    /** The builder gives the answer a strong ETag (a hash of its JSON) and answers 304 to If-None-Match naming it. */
    etag?: boolean;
  };
  /** Route-specific error responses to document, e.g. { 404: 'Unknown schedule' }. */
  errors?: Record<number, string>;
  /** Returns the success body; throws HttpError for the caller's mistakes. */
  handler: (input: RouteInput<P, Q, B>, req: Request, res: Response) => unknown;
}

/** Request headers an operation may declare; each is a named parameter component. */
const REQUEST_HEADERS = {
  'X-Request-Id': 'An id for this request in the service\'s logs (1-128 characters of A-Z a-z 0-9 . _ : -); the answer echoes it, or a new UUID when absent or unsafe.',
  'Idempotency-Key': 'Makes a retried submission safe: the same key (with the same API key) returns the job the first submission created; the same key with another body is 422. 1-128 visible ASCII characters, e.g. a UUID.',
  'Last-Event-ID': 'The id of the last event received: a reconnecting client gets the events after it.',
  'If-None-Match': 'An ETag of an earlier answer: 304 without a body when it is still current.',
  'If-Match': 'The ETag of the day (its revision in quotes, e.g. "3"), or *: the change is refused with 412 when the day has moved on.',
  'X-Operator': 'The controller\'s name, recorded with the revision written (1-100 printable ASCII characters).',
} as const;
export type RequestHeader = Exclude<keyof typeof REQUEST_HEADERS, 'X-Request-Id'>;

/** Response headers, each a named header component. */
const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'The id of this request in the service\'s logs: the caller\'s X-Request-Id when safe, else a new UUID.', schema: { type: 'string' } },
  RateLimit: { description: 'IETF draft-8 RateLimit: per limit of this API key, the requests left (r) and the seconds until the window resets (t), e.g. `"requests";r=119;t=42`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF draft-8 RateLimit-Policy: per limit, the quota (q) per window of w seconds.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The scheme to authenticate with: an API key in the X-API-Key header.', schema: { type: 'string', example: 'ApiKey header="X-API-Key"' } },
  Location: { description: 'Where the created resource can be read.', schema: { type: 'string' } },
  ETag: { description: 'The version of the answer; send it back in If-None-Match (or If-Match for a day).', schema: { type: 'string' } },
} as const;
export type ResponseHeader = 'Location' | 'ETag';

const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** One example request body and success body per operation, taken from real answers (test/http/examples.test.ts keeps them true). */
type Examples = Record<string, { request?: unknown; response?: unknown }>;
const EXAMPLES = examplesJson as Examples;

// Wording for the standard responses every route documents.
const STANDARD_ERRORS: Record<number, string> = {
  400: 'Malformed request: the detail names the parameter or field and the rule it breaks (problem details: `errors`, one per field).',
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

/**
 * A 400 whose sentence names each offending parameter or field and the rule it breaks; the same,
 * field by field, for problem details (`errors`, as POST /config/validate reports them).
 */
export function requestError(where: 'query' | 'path' | 'body', error: z.ZodError, data: unknown): HttpError {
  const noun = where === 'query' ? 'Query parameter' : where === 'path' ? 'Path parameter' : 'Field';
  const sentences: string[] = [];
  const fieldErrors: FieldError[] = [];
  for (const issue of error.issues.slice(0, 5)) {
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((key) => quote(key)).join(', ');
      sentences.push(where === 'query'
        ? `Unknown query parameter ${names}; this endpoint accepts only the parameters it documents`
        : `Unknown field ${names}${issue.path.length ? ` in ${quote(issue.path.join('.'))}` : ''}`);
      for (const key of issue.keys) {
        fieldErrors.push({ field: [...issue.path, key].join('.'), message: where === 'query' ? 'is not a parameter of this endpoint' : 'is not a field of this request' });
      }
      continue;
    }
    const name = issue.path.join('.');
    const subject = name ? `${noun} ${quote(name)}` : where === 'body' ? 'Request body' : noun;
    let rule: string;
    if (issue.code === 'invalid_type') {
      const value = valueAt(data, issue.path);
      rule = value === undefined ? 'is required'
        : Array.isArray(value) && where === 'query' ? 'must be given at most once'
          : `must be of type ${issue.expected}`;
    } else {
      rule = `${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
    }
    sentences.push(`${subject} ${rule}`);
    fieldErrors.push({ field: name, message: rule });
  }
  return new HttpError(400, `${sentences.join('; ')}.`, {}, { fieldErrors });
}

export class ApiBuilder {
  readonly registry: OpenAPIRegistry;
  /** Prepared answers already checked against their schema (each is checked once). */
  private readonly checkedAnswers = new WeakSet<PreparedJson>();

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
    this.registry.register('Problem', ProblemSchema);
    for (const [name, description] of Object.entries(REQUEST_HEADERS)) {
      this.registry.registerComponent('parameters', name, { name, in: 'header', required: false, description, schema: { type: 'string', maxLength: 128 } });
    }
    for (const [name, header] of Object.entries(RESPONSE_HEADERS)) this.registry.registerComponent('headers', name, header);
  }

  /** Declare one endpoint: Express handler with request validation, plus its OpenAPI operation. */
  route<P extends ZodObject | undefined = undefined, Q extends ZodObject | undefined = undefined, B extends ZodType | undefined = undefined>(
    spec: RouteSpec<P, Q, B>,
  ): void {
    if (spec.public && !isPublicPath(spec.path)) {
      throw new Error(`Route ${spec.method.toUpperCase()} ${spec.path} is marked public but is not in PUBLIC_PATHS (auth.ts).`);
    }
    this.document(spec.response.etag
      ? { ...spec, request: { ...spec.request, headers: [...(spec.request?.headers ?? []), 'If-None-Match'] }, response: { ...spec.response, headers: [...(spec.response.headers ?? []), 'ETag'], notModified: true } }
      : spec);
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
      const check = (value: unknown) => {
        const checked = spec.response.schema.safeParse(value);
        if (!checked.success) {
          throw new Error(`Response of ${spec.method.toUpperCase()} ${spec.path} breaks its schema: ${z.prettifyError(checked.error)}`);
        }
      };
      if (result instanceof PreparedJson) {
        if (this.validateResponses && !this.checkedAnswers.has(result)) {
          check(result.value);
          this.checkedAnswers.add(result);
        }
        result.send(req, res, successStatus);
        return;
      }
      if (this.validateResponses) check(result);
      if (spec.response.etag) {
        const json = JSON.stringify(result);
        if (!answeredNotModified(res, strongETag(json))) res.status(successStatus).type('application/json').send(json);
        return;
      }
      res.status(successStatus).json(result);
    });
  }

  /** Add an OpenAPI operation for a handler mounted by other means (e.g. the static /docs page). */
  document(spec: Pick<RouteSpec<ZodObject | undefined, ZodObject | undefined, ZodType | undefined>,
    'method' | 'path' | 'operationId' | 'summary' | 'description' | 'tags' | 'public' | 'request' | 'errors'> & {
    response: { status?: number; description: string; schema?: ZodType; contentType?: string; headers?: readonly ResponseHeader[]; notModified?: boolean };
    /** A 301 the handler answers (a page's address without its trailing slash): its description. */
    moved?: string;
  }): void {
    const { params, query, body, documentedBody, headers = [] } = spec.request ?? {};
    const errorStatuses = new Set<number>([414, 500, 503]);
    if (!spec.public) { errorStatuses.add(401); errorStatuses.add(403); errorStatuses.add(429); }
    if (params || query || body) errorStatuses.add(400);
    if (body) { errorStatuses.add(413); errorStatuses.add(415); }
    const keyed = !spec.public;
    const example = EXAMPLES[spec.operationId];
    const successHeaders: Record<string, ReturnType<typeof headerRef>> = {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...(keyed ? { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimit-Policy') } : {}),
      ...Object.fromEntries((spec.response.headers ?? []).map((name) => [name, headerRef(name)])),
    };
    const responses: Record<string, ResponseConfig> = {
      [String(spec.response.status ?? 200)]: {
        description: spec.response.description,
        headers: successHeaders,
        ...(spec.response.schema
          ? { content: { [spec.response.contentType ?? 'application/json']: { schema: spec.response.schema, ...(example?.response !== undefined ? { example: example.response } : {}) } } }
          : {}),
      },
    };
    if (spec.moved) {
      responses['301'] = { description: spec.moved, headers: { 'X-Request-Id': headerRef('X-Request-Id'), Location: headerRef('Location') } };
    }
    if (spec.response.notModified) {
      responses['304'] = { description: 'Not modified: If-None-Match names the current ETag. No body.', headers: { 'X-Request-Id': headerRef('X-Request-Id'), ETag: headerRef('ETag') } };
    }
    const described: Record<number, string> = { ...Object.fromEntries([...errorStatuses].map((s) => [s, STANDARD_ERRORS[s]!])), ...spec.errors };
    for (const [status, description] of Object.entries(described)) {
      responses[status] = {
        description,
        headers: {
          'X-Request-Id': headerRef('X-Request-Id'),
          ...(status === '401' ? { 'WWW-Authenticate': headerRef('WWW-Authenticate') } : {}),
          ...(status === '429' || status === '503' ? { 'Retry-After': headerRef('Retry-After') } : {}),
        },
        content: { 'application/json': { schema: ErrorSchema }, [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      };
    }
    const bodySchema = documentedBody ?? body;
    const route: RouteConfig = {
      method: spec.method,
      path: spec.path,
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.tags ? { tags: spec.tags } : {}),
      security: spec.public ? [] : [{ [API_KEY_SCHEME]: [] }],
      parameters: ['X-Request-Id', ...headers].map((name) => ({ $ref: `#/components/parameters/${name}` })),
      request: {
        ...(params ? { params } : {}),
        ...(query ? { query } : {}),
        ...(bodySchema ? {
          body: { required: true, content: { 'application/json': { schema: bodySchema, ...(example?.request !== undefined ? { example: example.request } : {}) } } },
        } : {}),
      },
      responses,
    };
    this.registry.registerPath(route);
  }

  /** The OpenAPI 3.1 document of everything declared so far. */
  openApiDocument(info: { title: string; description: string }): ReturnType<OpenApiGeneratorV31['generateDocument']> {
    const document = new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: info.title,
        version: INTERFACE_VERSION,
        description: info.description,
        license: { name: 'Proprietary: for the operator\'s clients', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'The instance that serves this document.' }],
    });
    return tidyRefs(document);
  }
}

/**
 * zod-to-openapi writes a described (or nullable) reference as `allOf: [{$ref}, {description}]`, and
 * a nullable one as `allOf: [{$ref}, {type: [object, null]}]`, which generated clients read as an
 * intersection with `Record<string, never> | null`. OpenAPI 3.1 allows siblings of `$ref`: write a
 * described reference as `{$ref, description}` and a nullable one as `oneOf: [{$ref}, {type: null}]`.
 */
function tidyRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(tidyRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, tidyRefs(value)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const allOf = object.allOf;
  if (Array.isArray(allOf) && allOf.length === 2 && typeof (allOf[0] as { $ref?: unknown }).$ref === 'string') {
    const { type, ...annotations } = allOf[1] as Record<string, unknown>;
    const onlyAnnotations = Object.keys(annotations).every((key) => ['description', 'example', 'default', 'deprecated'].includes(key));
    if (onlyAnnotations && (type === undefined || (Array.isArray(type) && type.includes('null')))) {
      const { allOf: _allOf, ...rest } = object;
      const ref = allOf[0] as { $ref: string };
      return (type === undefined ? { ...rest, ...annotations, $ref: ref.$ref } : { ...rest, ...annotations, oneOf: [ref, { type: 'null' }] }) as T;
    }
  }
  return object as T;
}

function parseOrThrow(schema: ZodType, data: unknown, where: 'query' | 'path' | 'body'): unknown {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw requestError(where, parsed.error, data);
  return parsed.data;
}
