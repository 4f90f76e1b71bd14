// API-key authentication, applied by default. The gate sits in front of every route; only the paths of
// PUBLIC_PATHS pass without a key. A route added later, by any means, is therefore protected unless
// someone adds it to this allowlist on purpose.
import type { RequestHandler } from 'express';
import { hashApiKey } from '../security/api-keys.ts';
import { HttpError } from './errors.ts';
import { KEY_ID_LOCAL } from './rate-limit.ts';
import { routedMethodsFor } from './route-table.ts';

export const API_KEY_HEADER = 'X-API-Key';
export const MISSING_KEY_DETAIL = "Missing API key. Include 'X-API-Key' header.";
export const INVALID_KEY_DETAIL = 'Invalid API key';
/** The challenge of a 401 (RFC 9110 requires one): no registered scheme covers an API key in a header, so it is named. */
export const WWW_AUTHENTICATE = `ApiKey header="${API_KEY_HEADER}"`;

/**
 * The only paths served without a key. `/docs` and `/console` cover their pages and the assets below
 * `/docs/` and `/console/` (pages that hold no data: the console asks for a key and sends it itself).
 * Routed paths compare case-sensitively and without a trailing slash (the app enables strict,
 * case-sensitive routing), so `/Health` or `/health/` are not public.
 */
export const PUBLIC_PATHS: readonly string[] = ['/health', '/openapi.json', '/docs', '/console'];

/** Public paths whose whole subtree (a page's assets) is public too. */
const PUBLIC_TREES: readonly string[] = ['/docs', '/console'];

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.some((prefix) => path === prefix || (PUBLIC_TREES.includes(prefix) && path.startsWith(`${prefix}/`)));
}

/**
 * Middleware: lets public paths and unknown paths through (the latter end in the 404 handler, so an
 * unknown path is 404 with or without a key), and answers every other request without a key 401 and
 * with a key that `verify` rejects 403. `stack` gives the app's router stack. An accepted key is recorded
 * on res.locals[KEY_ID_LOCAL] as its hex SHA-256 (never the key), for the per-key rate limits.
 */
export function apiKeyGate(verify: (presentedKey: string) => boolean, stack: () => readonly unknown[]): RequestHandler {
  return (req, res, next) => {
    if (isPublicPath(req.path) || routedMethodsFor(req, stack()).size === 0) {
      next();
      return;
    }
    const presented = req.get(API_KEY_HEADER);
    if (presented === undefined || presented === '') {
      next(new HttpError(401, MISSING_KEY_DETAIL, { 'WWW-Authenticate': WWW_AUTHENTICATE }));
      return;
    }
    if (!verify(presented)) {
      next(new HttpError(403, INVALID_KEY_DETAIL));
      return;
    }
    res.locals[KEY_ID_LOCAL] = hashApiKey(presented).toString('hex');
    next();
  };
}
