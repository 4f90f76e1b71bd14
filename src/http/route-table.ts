// Which methods the app answers at a path, read from Express's own router stack at request time, so
// the answer covers every route however it was registered (the route builder, a raw router.get, a
// nested router). The auth gate uses it to tell "a route that needs a key" from "an unknown path" (404
// for everyone), and the fallback handler to tell 404 from 405.
import type { Request } from 'express';

interface MatchResult { path: string }

/** The parts of an Express 5 (router 2.x) layer this module reads. */
interface LayerLike {
  route?: { methods: Record<string, boolean | undefined> };
  handle: unknown;
  match(path: string): MatchResult | false;
}

/** Stands for "some handler of unknown methods answers here"; treated as routed for every method. */
export const ANY_METHOD = '*';

function subStack(handle: unknown): readonly LayerLike[] | undefined {
  const stack = (handle as { stack?: unknown } | null)?.stack;
  return typeof handle === 'function' && Array.isArray(stack) ? (stack as LayerLike[]) : undefined;
}

function collect(stack: readonly LayerLike[], path: string, into: Set<string>): void {
  for (const layer of stack) {
    const match = layer.match(path);
    if (!match) continue;
    if (layer.route) {
      for (const [method, enabled] of Object.entries(layer.route.methods)) {
        if (!enabled) continue;
        if (method === '_all') into.add(ANY_METHOD);
        else into.add(method.toUpperCase());
        if (method === 'get') into.add('HEAD');
      }
      continue;
    }
    const nested = subStack(layer.handle);
    if (nested) {
      collect(nested, path.slice(match.path.length) || '/', into);
    } else if (match.path !== '') {
      // Middleware mounted on a path (e.g. static files) may answer any method there. Middleware
      // mounted on every path (match.path === '') is plumbing such as logging, not a route.
      into.add(ANY_METHOD);
    }
  }
}

/**
 * Upper-case methods answered at `path` by the router `stack` (HEAD wherever GET is; ANY_METHOD where a
 * path-mounted middleware or an .all() route answers), or an empty set when no route matches.
 */
export function routedMethods(stack: readonly unknown[], path: string): Set<string> {
  const methods = new Set<string>();
  collect(stack as LayerLike[], path, methods);
  return methods;
}

const cacheKey = Symbol('routedMethods');

/**
 * routedMethods for this request's path on `stack`, computed once per request (the gate, the body
 * check and the fallback handler all ask).
 */
export function routedMethodsFor(req: Request, stack: readonly unknown[]): Set<string> {
  const holder = req as Request & { [cacheKey]?: Set<string> };
  holder[cacheKey] ??= routedMethods(stack, req.path);
  return holder[cacheKey];
}

/** Whether `method` is answered at all given the methods routedMethods found. */
export function isMethodRouted(methods: ReadonlySet<string>, method: string): boolean {
  return methods.has(ANY_METHOD) || methods.has(method.toUpperCase());
}
