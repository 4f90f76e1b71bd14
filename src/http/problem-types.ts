// The causes of RFC 9457 problem details (errors.ts answers them; schemas.ts documents them). A module
// of its own, importing nothing, so that the schemas (which the console reads for their types) need
// not load the error handler.

/**
 * The causes a client can tell apart, each with its problem `type` (PROBLEM_TYPE_BASE + key) and
 * `title`. Keys are stable: a client may switch on them; a new cause gets a new key.
 */
export const PROBLEM_TYPES = {
  'invalid-request': 'The request is malformed',
  'missing-api-key': 'Missing API key',
  'invalid-api-key': 'Invalid API key',
  'not-found': 'Not found',
  'method-not-allowed': 'Method not allowed',
  conflict: 'The request conflicts with the current state',
  'precondition-failed': 'The resource has changed',
  'precondition-required': 'A precondition header is required',
  'body-too-large': 'Request body too large',
  'url-too-long': 'Request URL too long',
  'unsupported-media-type': 'Unsupported request body',
  'idempotency-key-reused': 'Idempotency-Key reused with another request',
  'rate-limited': 'Rate limit exceeded',
  'client-closed-request': 'The client closed the connection',
  'internal-error': 'Internal server error',
  'shutting-down': 'The service is shutting down',
  'solvers-busy': 'All solvers are busy',
  'solver-crashed': 'A solver failed',
  'queue-full': 'The job queue is full',
  'job-store-unavailable': 'The job store is unavailable',
  'day-store-unavailable': 'The day store is unavailable',
} as const satisfies Record<string, string>;

export type ProblemKind = keyof typeof PROBLEM_TYPES;

/** Where the problem types live: a URN, so that it names the cause without claiming a web page. */
export const PROBLEM_TYPE_BASE = 'urn:drs:problem:';

