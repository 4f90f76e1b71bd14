// Conditional GETs: an answer's ETag and the If-None-Match check. createApp keeps the If-None-Match
// header aside (app.ts, `unconditional`) so that Express never answers 304 on its own; the routes that
// have a version decide here.
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { IF_NONE_MATCH_LOCAL } from './deps.ts';

/** A strong ETag of a body: the first 128 bits of its SHA-256, base64url, quoted. */
export function strongETag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether the request's If-None-Match names `etag`: weak comparison, as RFC 9110 asks for
 * If-None-Match, so `W/"x"` matches `"x"`. `*` is not taken as a match: a client that has no ETag to
 * send gets the answer (the fuzz test's finding, test/http/conditional-requests.test.ts).
 */
export function ifNoneMatchHits(res: Response, etag: string): boolean {
  const asked = res.locals[IF_NONE_MATCH_LOCAL] as string | undefined;
  if (asked === undefined) return false;
  return asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Tags the answer with `etag` (to be revalidated: cached copies must ask again, as the answer changes
 * when the service does) and answers 304 when the request's If-None-Match names it; true when it did,
 * and the caller sends nothing more.
 */
export function answeredNotModified(res: Response, etag: string): boolean {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (!ifNoneMatchHits(res, etag)) return false;
  res.status(304).end();
  return true;
}
