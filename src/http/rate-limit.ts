// Rate limits per API key. Mounted after the key gate, so only requests with a valid key are counted
// (a request without one is 401/403 before it gets here), and public paths are never counted. The
// counting key is the SHA-256 of the presented key that the gate recorded: the raw key never enters
// the limiter's memory, its headers or the logs.
//
// Two fixed one-minute windows, in memory of this instance, or with REDIS_URL in Redis (the
// rate-limit-redis store), so that every API instance counts against the same budget:
//   requests     every keyed request                     RATE_LIMIT_PER_MINUTE (0 = off)
//   simulations  POST /simulate and POST /simulations,    RATE_LIMIT_SIMULATE_PER_MINUTE (0 = off)
//                counted besides
// Every counted response carries the IETF draft-8 headers, one entry per limit:
//   RateLimit: "requests"; r=<remaining>; t=<seconds to reset>
//   RateLimit-Policy: "requests"; q=<limit>; w=60; pk=:<partition key>:
// Over a limit: 429 {"detail"} with Retry-After (seconds until the window resets).
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { RedisStore, type SendCommandFn } from 'rate-limit-redis';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';

const WINDOW_MS = 60_000;

/** Set by the key gate on res.locals for a request whose key is valid: hex SHA-256 of the key. */
export const KEY_ID_LOCAL = 'apiKeyId';

export function keyIdOf(res: Response): string | undefined {
  const id = (res.locals as Record<string, unknown>)[KEY_ID_LOCAL];
  return typeof id === 'string' ? id : undefined;
}

/** Sends one Redis command (the shared counters of the scale-out mode); main.ts gives it with REDIS_URL. */
export type RedisCommand = SendCommandFn;

function limiter(name: 'requests' | 'simulations', perMinute: number, applies: (req: Request) => boolean, onLimited: () => void, redis: RedisCommand | undefined): RequestHandler {
  const noun = name === 'requests' ? 'requests' : 'simulations';
  return rateLimit({
    // With Redis down the limits fail open (requests pass uncounted): an outage of the counters must
    // not take the API down with it; the job routes answer 503 on their own.
    ...(redis ? { store: new RedisStore({ sendCommand: redis, prefix: `drs:rate:${name}:` }), passOnStoreError: true } : {}),
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    skip: (req, res) => !applies(req) || keyIdOf(res) === undefined,
    keyGenerator: (_req, res) => keyIdOf(res)!,
    handler: (req, res, next) => {
      onLimited();
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000;
      next(new HttpError(429, `Rate limit exceeded: at most ${perMinute} ${noun} per minute per API key; retry after the Retry-After seconds.`, {
        'Retry-After': String(seconds),
      }));
    },
    // Our key generator never reads the IP, so the IP-related start-up checks do not apply.
    validate: { ip: false, trustProxy: false, xForwardedForHeader: false, forwardedHeader: false, keyGeneratorIpFallback: false },
  });
}

/**
 * The limiters in the order they apply (general first, so a simulation over the general limit is not
 * also counted as a simulation). A limit of 0 leaves its limiter out.
 */
export function rateLimiters(limits: Config['rateLimit'], onLimited: (limit: 'requests' | 'simulations') => void, redis?: RedisCommand): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  if (limits.perMinute > 0) handlers.push(limiter('requests', limits.perMinute, () => true, () => onLimited('requests'), redis));
  if (limits.simulatePerMinute > 0) {
    handlers.push(limiter('simulations', limits.simulatePerMinute, (req) => req.method === 'POST' && (req.path === '/simulate' || req.path === '/simulations'), () => onLimited('simulations'), redis));
  }
  return handlers;
}
