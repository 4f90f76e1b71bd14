// The HTTP server around the Express app: timeouts against slow clients, and our own answer to requests
// Node rejects before Express sees them (headers too large, malformed request line, a request that
// takes too long to arrive), so that these answers too are {"detail"} with the security headers.
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { REQUIRED_SECURITY_HEADERS } from './security.ts';

/** Milliseconds. Requests must arrive within these; responses (a simulation) are not bounded here. */
export const HTTP_TIMEOUTS = {
  /** Whole request headers. */
  headersTimeoutMs: 20_000,
  /** Whole request, headers and body. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
} as const;

function rawErrorResponse(status: number, detail: string): string {
  const body = JSON.stringify({ detail });
  const headers = {
    ...REQUIRED_SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/** Node's 'clientError': answer like the app would, then close. */
export function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, detail] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request headers are larger than the limit.'] as const
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time.'] as const
      : [400, 'Malformed HTTP request.'] as const;
  socket.end(rawErrorResponse(status, detail));
}

/** An HTTP server for `app` with the timeouts above and onClientError; not yet listening. */
export function createHttpServer(app: Express): Server {
  const server = createServer(app);
  server.headersTimeout = HTTP_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = HTTP_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveTimeoutMs;
  server.on('clientError', onClientError);
  return server;
}
