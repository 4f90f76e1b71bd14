// The one place that turns failures into responses. By default every error body is exactly
// {"detail": "<sentence>"} (the specification's one field): a 4xx names what the caller got wrong;
// anything unexpected is a 500 "Internal server error", logged with the request id and never echoed.
// A client that asks for it with `Accept: application/problem+json` gets the same sentence as an RFC
// 9457 problem: a stable `type` URI per cause (PROBLEM_TYPES), `title`, `status`, `detail`, and for
// validation failures `errors: [{field, message}]`.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { recoveryFailureOf, type RecoveryFailure } from '../recovery/model/failure.ts';
import { JobQueueFullError, JobStoreUnavailableError } from '../runtime/jobs/job.ts';
import { DatabaseError } from '../store/database.ts';
import { PROBLEM_TYPE_BASE, PROBLEM_TYPES, type ProblemKind } from './problem-types.ts';
import { isMethodRouted, routedMethodsFor } from './route-table.ts';

export { PROBLEM_TYPE_BASE, PROBLEM_TYPES, type ProblemKind };

/** One field of a request that breaks a rule: as POST /config/validate reports them. */
export interface FieldError { field: string; message: string }

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The kind of a failure when its thrower names none: by status. */
const KIND_BY_STATUS: Record<number, ProblemKind> = {
  400: 'invalid-request', 401: 'missing-api-key', 403: 'invalid-api-key', 404: 'not-found', 405: 'method-not-allowed',
  409: 'conflict', 412: 'precondition-failed', 413: 'body-too-large', 414: 'url-too-long', 415: 'unsupported-media-type',
  422: 'idempotency-key-reused', 428: 'precondition-required', 429: 'rate-limited', 499: 'client-closed-request', 500: 'internal-error',
};

/** A failure the caller can act on: status, the sentence for `detail`, and optional response headers. */
export class HttpError extends Error {
  readonly kind: ProblemKind;
  readonly fieldErrors: readonly FieldError[] | undefined;

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** The cause when the status alone does not tell it (every 503), and the fields of a validation failure. */
    options: { kind?: ProblemKind; fieldErrors?: readonly FieldError[] } = {},
  ) {
    super(detail);
    this.kind = options.kind ?? KIND_BY_STATUS[status] ?? (status >= 500 ? 'internal-error' : 'invalid-request');
    this.fieldErrors = options.fieldErrors;
  }
}

export const INTERNAL_ERROR_DETAIL = 'Internal server error';

/** Quote a caller's value inside a sentence, cut short so a long value cannot bloat the response. */
export function quote(value: string, maxChars = 80): string {
  return `'${value.length > maxChars ? `${value.slice(0, maxChars)}…` : value}'`;
}

/** Seconds a client should wait before retrying when the solvers are saturated or one failed. */
const SOLVER_RETRY_AFTER_SECONDS = '2';

/** The answer to each failure a simulation may end with (src/recovery/model/failure.ts): the one place they meet HTTP. */
function fromRecoveryFailure(failure: RecoveryFailure): HttpError {
  switch (failure.kind) {
    case 'not_found':
      return new HttpError(404, failure.subject === 'flight' ? `Flight ${quote(failure.id)} not found for airline ${quote(failure.airline)}`
        : failure.subject === 'aircraft' ? `Aircraft ${quote(failure.id)} not found for airline ${quote(failure.airline)}`
          : `Airport ${quote(failure.id)} not found in the schedule`);
    case 'busy':
    case 'deadline':
      return new HttpError(503, 'All solvers are busy; retry after the Retry-After seconds.', { 'Retry-After': SOLVER_RETRY_AFTER_SECONDS }, { kind: 'solvers-busy' });
    case 'crashed':
      return new HttpError(503, 'A solver failed during this simulation; it has been replaced, retry.', { 'Retry-After': SOLVER_RETRY_AFTER_SECONDS }, { kind: 'solver-crashed' });
    case 'aborted':
      // Only when the client has gone (or the service is shutting down): nobody reads this answer.
      return new HttpError(499, 'The client closed the connection before the simulation finished.');
  }
}

/**
 * Runs after every route: 405 with Allow when the path is routed for other methods, otherwise 404
 * "Not found".
 */
export function fallbackHandler(stack: () => readonly unknown[]): RequestHandler {
  return (req, _res, next) => {
    const methods = routedMethodsFor(req, stack());
    if (methods.size > 0 && !isMethodRouted(methods, req.method)) {
      next(new HttpError(405, `Method ${req.method} is not allowed here; allowed: ${[...methods].sort().join(', ')}.`, {
        Allow: [...methods].sort().join(', '),
      }));
      return;
    }
    next(new HttpError(404, 'Not found'));
  };
}

// Errors raised by Express's body parser and router carry a `type` or a `status`; these are the
// caller's fault and get a sentence of ours rather than the library's wording.
interface LibraryError { type?: string; status?: number; statusCode?: number; expose?: boolean; message?: string; code?: unknown; errno?: unknown }

function fromLibraryError(error: LibraryError, bodyLimitBytes: number): HttpError | null {
  switch (error.type) {
    case 'entity.too.large':
      return new HttpError(413, `Request body is larger than the limit of ${bodyLimitBytes} bytes.`);
    case 'entity.parse.failed':
      return new HttpError(400, 'Request body is not valid JSON.');
    case 'encoding.unsupported':
      return new HttpError(415, 'Request body uses an unsupported content encoding.');
    case 'charset.unsupported':
      return new HttpError(415, 'Request body must be JSON encoded as UTF-8.');
    case 'request.aborted':
    case 'request.size.invalid':
      return new HttpError(400, 'Request body was incomplete.');
    default:
      break;
  }
  const status = error.status ?? error.statusCode;
  if (error instanceof URIError && status === 400) return new HttpError(400, 'Request path is not valid percent-encoding.');
  // zlib and brotli failures (a body that is not what its Content-Encoding says) carry an errno.
  if (status === 400 && typeof error.errno === 'number' && typeof error.code === 'string' && /^(Z_|ERR__)/.test(error.code)) {
    return new HttpError(400, 'Request body could not be decompressed as its Content-Encoding says.');
  }
  if (typeof status === 'number' && status >= 400 && status < 500 && error.expose) {
    return new HttpError(status, typeof error.message === 'string' && error.message ? error.message : 'Bad request');
  }
  return null;
}

/**
 * The job store's refusals (src/runtime/jobs/job.ts), both 503 with a wait: a full queue (a job takes
 * seconds to minutes: 10 s) and a store that cannot be reached (Redis: 5 s).
 */
function fromJobStoreError(error: unknown): HttpError | null {
  if (error instanceof JobQueueFullError) {
    return new HttpError(503, `The job queue is full (${error.queueMax} ${error.queueMax === 1 ? 'job' : 'jobs'} waiting); retry after the Retry-After seconds.`, { 'Retry-After': '10' }, { kind: 'queue-full' });
  }
  if (error instanceof JobStoreUnavailableError) {
    return new HttpError(503, 'The job store is unavailable; retry after the Retry-After seconds.', { 'Retry-After': '5' }, { kind: 'job-store-unavailable' });
  }
  // The days' database cannot be opened or reached (src/store/database.ts); the cause is logged.
  if (error instanceof DatabaseError) {
    return new HttpError(503, 'The day store is unavailable; retry after the Retry-After seconds.', { 'Retry-After': '5' }, { kind: 'day-store-unavailable' });
  }
  return null;
}

/**
 * Whether the client asked for RFC 9457 problem details: its Accept header names
 * application/problem+json and prefers it to application/json. A wildcard alone keeps the default {detail}.
 */
export function wantsProblem(req: Request): boolean {
  const accept = req.get('Accept');
  if (!accept || !/application\/problem\+json/i.test(accept)) return false;
  return req.accepts(['application/json', PROBLEM_CONTENT_TYPE]) === PROBLEM_CONTENT_TYPE;
}

/** The RFC 9457 body of a failure. */
export function problemOf(error: Pick<HttpError, 'status' | 'detail' | 'kind' | 'fieldErrors'>): Record<string, unknown> {
  return {
    type: `${PROBLEM_TYPE_BASE}${error.kind}`,
    title: PROBLEM_TYPES[error.kind],
    status: error.status,
    detail: error.detail,
    ...(error.fieldErrors ? { errors: error.fieldErrors } : {}),
  };
}

/** The central error handler; `bodyLimitBytes` only words the 413 sentence. */
export function errorHandler(bodyLimitBytes: number): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late for a clean error body: let Express close the connection.
      next(error);
      return;
    }
    const failure = recoveryFailureOf(error);
    let known = error instanceof HttpError ? error
      : failure ? fromRecoveryFailure(failure)
        : fromJobStoreError(error) ?? fromLibraryError((error ?? {}) as LibraryError, bodyLimitBytes);
    if (known) {
      if (error instanceof DatabaseError) res.err = error;
    } else {
      // pino-http logs the finished request at error level with this error and the request id.
      res.err = error instanceof Error ? error : new Error(String(error));
      known = new HttpError(500, INTERNAL_ERROR_DETAIL);
    }
    res.status(known.status).set(known.headers);
    // The body depends on Accept: caches must keep the two apart.
    res.vary('Accept');
    if (wantsProblem(req)) res.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problemOf(known)));
    else res.json({ detail: known.detail });
  };
}
