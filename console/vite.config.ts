// Builds the operations console (console/) into dist/console/, which src/http/endpoints/console.ts
// serves at /console/. Relative asset URLs (base './') so the page works under any path prefix.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/console/', import.meta.url)),
    emptyOutDir: true,
    // The preload polyfill is an inline script, which the page's CSP (script-src 'self') refuses.
    modulePreload: { polyfill: false },
    // Every asset as a file: a data: URL script or style would need a looser CSP.
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
