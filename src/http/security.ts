// Response headers every answer carries, and the CORS policy. Mounted before anything that can answer,
// so 2xx, 4xx, 5xx, unknown paths, preflights and the docs all get the same headers.
import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The four headers of the interface specification, with the exact values it names. */
export const REQUIRED_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-XSS-Protection': '1; mode=block',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
} as const;

/**
 * helmet with the specification's values. helmet 8 can only send `X-XSS-Protection: 0`, so its
 * header is switched off and ours set instead; its frame default is SAMEORIGIN, the spec says DENY.
 * The CSP is helmet's default minus upgrade-insecure-requests (which would break /docs when served
 * over plain http on a developer's machine): swagger-ui loads only same-origin scripts and styles,
 * plus inline styles and data: images, which helmet's default allows.
 */
export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
      xFrameOptions: { action: 'deny' },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true, preload: false },
      xXssProtection: false,
      // frame-ancestors 'none' says in CSP what X-Frame-Options: DENY says (helmet's default is 'self').
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"] } },
    }),
    (_req, res, next) => {
      res.setHeader('X-XSS-Protection', REQUIRED_SECURITY_HEADERS['X-XSS-Protection']);
      next();
    },
  ];
}

export interface CorsPolicy {
  /** Lower-case domain; https://<domain> and https://<sub>.<domain> are allowed. */
  operatorDomain: string | null;
  /** Exact origins allowed besides, canonical form (URL.origin). */
  allowedOrigins: readonly string[];
}

/**
 * Whether a browser page at `origin` (the Origin header) may read responses. The operator's domain and
 * its subdomains match on whole labels over https only (so evil-operator.com and operator.com.evil.net
 * do not); the explicit list matches exactly. `null`, `file://` and anything unparsable never match.
 */
export function isAllowedOrigin(origin: string, policy: CorsPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // The Origin header is exactly scheme://host[:port]; anything else is not an origin.
  if (url.origin !== origin) return false;
  if (policy.allowedOrigins.includes(url.origin)) return true;
  const domain = policy.operatorDomain;
  if (!domain || url.protocol !== 'https:') return false;
  return url.hostname === domain || url.hostname.endsWith(`.${domain}`);
}

/** Methods the API answers to (HEAD wherever GET); a preflight for anything else is not allowed. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'DELETE'];
/** Request headers the API reads, which a browser page on an allowed origin may send. */
const CORS_REQUEST_HEADERS = ['X-API-Key', 'Content-Type', 'Accept', 'X-Request-Id', 'Idempotency-Key', 'Last-Event-ID', 'If-Match', 'If-None-Match', 'X-Operator'];
/** Response headers such a page may read. */
const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Location', 'ETag', 'WWW-Authenticate'];

/**
 * CORS for the API: allowed origins as isAllowedOrigin decides, for the methods and headers the API
 * uses; callers may read the headers it answers with (Location of a created job, ETag, the limits).
 * Every preflight is answered here, 204, before the key gate (a browser never sends the key with a
 * preflight): an origin that is not allowed gets no Access-Control-Allow-Origin, so its browser stops.
 * No cookies are involved, so no credentials mode.
 */
export function corsMiddleware(policy: CorsPolicy): RequestHandler {
  const answer = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && isAllowedOrigin(origin, policy)),
    methods: CORS_METHODS,
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
    preflightContinue: true,
  });
  return (req, res, next) => {
    answer(req, res, (error?: unknown) => {
      if (error) { next(error); return; }
      const preflight = req.method === 'OPTIONS' && req.get('Origin') !== undefined && req.get('Access-Control-Request-Method') !== undefined;
      if (!preflight) { next(); return; }
      res.setHeader('Content-Length', '0');
      res.status(204).end();
    });
  };
}
