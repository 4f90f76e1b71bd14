// Structured logs: one pino logger for the process, one log line per request with a request id that is
// echoed to the caller. Keys never reach a log: the X-API-Key header is redacted wherever a request
// is serialised.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { LogLevel } from '../config.ts';

export type { Logger } from 'pino';

const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** The process logger, JSON lines to stdout unless a destination is given (tests pass a stream). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[Redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

/** An incoming X-Request-Id is reused only when it is this safe to echo and log. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** pino-http middleware: request id, one line per finished request, 5xx at error level. */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    // The child logger pino-http derives gets the same redaction, whatever logger it was handed.
    redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  });
}
