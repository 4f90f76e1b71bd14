// GET /console: the operations console, a static page built by Vite from console/ into dist/console/
// (`npm run build:console`; `npm start` builds it first). Public: the page holds no data and no key;
// every data call it makes sends the key the user typed, to the keyed API routes.
//
// The page gets a stricter Content-Security-Policy than the API's helmet default: only its own
// same-origin script and stylesheet, no inline script or style, no eval, no plugins, no forms posting
// elsewhere, and Trusted Types enforced (the page never writes HTML from strings, so it needs no
// policy at all: any innerHTML sink would throw). helmet's other headers stay as they are.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';
import type { ApiBuilder } from '../api-builder.ts';
import { HttpError } from '../errors.ts';
import { z } from '../openapi-zod.ts';

/** Where `npm run build:console` writes the page (vite.config.ts in console/ says the same). */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const NOT_BUILT_DETAIL = "The console has not been built; run 'npm run build:console' (npm start does it) and reload.";

export function consoleEndpoints(api: ApiBuilder): void {
  const pageHeaders: RequestHandler = (req, res, next) => {
    // /console (no slash) would resolve the page's relative asset links against /: send the browser to
    // /console/ first, relative, so the page also works behind a path-prefixing proxy (as /docs does).
    if (req.originalUrl.split('?')[0] === '/console') {
      res.redirect(301, 'console/');
      return;
    }
    if (!existsSync(CONSOLE_BUILD_DIR)) {
      next(new HttpError(404, NOT_BUILT_DETAIL));
      return;
    }
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    next();
  };
  // Only files of the build are served; anything else below /console/ is our JSON 404. Hashed asset
  // names change with their content, so they may be cached for long; the page itself must not be.
  const files = express.static(CONSOLE_BUILD_DIR, {
    index: 'index.html',
    dotfiles: 'ignore',
    redirect: false,
    fallthrough: true,
    // No validators to send: conditional requests are answered in full (app.ts, unconditional).
    etag: false,
    lastModified: false,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  // A path that starts with '//' (as /console//x does below the mount point) is a protocol-relative
  // URL to the parser serve-static uses, with no path at all, and `send` throws on it (a 500): it
  // names no file of the build, so it falls through to the 404.
  const buildFiles: RequestHandler = (req, res, next) => (req.url.startsWith('//') ? next() : files(req, res, next));
  api.router.use('/console', pageHeaders, buildFiles);
  api.document({
    method: 'get',
    path: '/console',
    operationId: 'getConsole',
    public: true,
    tags: ['Service'],
    summary: 'Operations console (web page)',
    description: 'Needs no key to load; the page asks for one and sends it with every data call. /console redirects to /console/.',
    response: { description: 'HTML page.', schema: z.string(), contentType: 'text/html' },
    moved: 'Redirect from /console to /console/ (relative), where the page\'s relative links resolve.',
  });
}
