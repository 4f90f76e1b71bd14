// The one place that turns failures into responses. Every error body is exactly {"detail": "<sentence>"}:
// a 4xx names what the caller got wrong; anything unexpected is a 500 "Internal server error", logged
// with the request id and never echoed.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { recoveryFailureOf, type RecoveryFailure } from '../recovery/model/failure.ts';
import { JobQueueFullError, JobStoreUnavailableError } from '../runtime/jobs/job.ts';
import { DatabaseError } from '../store/database.ts';
import { isMethodRouted, routedMethodsFor } from './route-table.ts';

/** A failure the caller can act on: status, the sentence for `detail`, and optional response headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
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
      return new HttpError(503, 'All solvers are busy; retry after the Retry-After seconds.', { 'Retry-After': SOLVER_RETRY_AFTER_SECONDS });
    case 'crashed':
      return new HttpError(503, 'A solver failed during this simulation; it has been replaced, retry.', { 'Retry-After': SOLVER_RETRY_AFTER_SECONDS });
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
    return new HttpError(503, `The job queue is full (${error.queueMax} ${error.queueMax === 1 ? 'job' : 'jobs'} waiting); retry after the Retry-After seconds.`, { 'Retry-After': '10' });
  }
  if (error instanceof JobStoreUnavailableError) {
    return new HttpError(503, 'The job store is unavailable; retry after the Retry-After seconds.', { 'Retry-After': '5' });
  }
  // The days' database cannot be opened or reached (src/store/database.ts); the cause is logged.
  if (error instanceof DatabaseError) {
    return new HttpError(503, 'The day store is unavailable; retry after the Retry-After seconds.', { 'Retry-After': '5' });
  }
  return null;
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
    const known = error instanceof HttpError ? error
      : failure ? fromRecoveryFailure(failure)
        : fromJobStoreError(error) ?? fromLibraryError((error ?? {}) as LibraryError, bodyLimitBytes);
    if (known) {
      if (error instanceof DatabaseError) res.err = error;
      res.status(known.status).set(known.headers).json({ detail: known.detail });
      return;
    }
    // pino-http logs the finished request at error level with this error and the request id.
    res.err = error instanceof Error ? error : new Error(String(error));
    res.status(500).json({ detail: INTERNAL_ERROR_DETAIL });
  };
}
