// Enumerate what an Express 5 app routes, straight from its router stack. Deliberately independent of
// src/http/route-table.ts: the auth gate relies on that module, so a blind spot there must not be
// mirrored in the test that checks the gate.
import type { Express } from 'express';

export interface RegisteredRoute {
  method: string;
  /** Express path, e.g. /flights/:schedule_file; for a path-mounted middleware, its mount path. */
  path: string;
  kind: 'route' | 'mount';
}

interface AnyLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: AnyLayer[] };
  rawPath?: string | string[];
  slash?: boolean;
}

function walk(stack: AnyLayer[], prefix: string, into: RegisteredRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on) into.push({ method: method === '_all' ? 'ALL' : method.toUpperCase(), path: prefix + path, kind: 'route' });
        }
      }
      continue;
    }
    const mount = layer.slash ? '' : String(layer.rawPath ?? '');
    if (Array.isArray(layer.handle?.stack)) {
      walk(layer.handle.stack, prefix + mount, into);
    } else if (mount !== '' && mount !== '/') {
      into.push({ method: 'ALL', path: prefix + mount, kind: 'mount' });
    }
  }
}

export function registeredRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  walk(app.router.stack as AnyLayer[], '', routes);
  return routes;
}

/** A concrete path for an Express path: every :param becomes `value`. */
export function concretePath(path: string, value = 'default'): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, value);
}
