// Run after every npm install (package.json "postinstall"). glpk.js exports only its solve(), which
// loads each problem anew; the column generation's warm-started relaxations (glpk-session.ts) keep
// a problem and its basis between solves, through GLPK's C functions in the Emscripten module that
// glpk.js builds on and keeps private. This appends one export of that module factory to glpk.js's
// Node entry. Idempotent; it fails the install when the file is not the one it was written for
// (glpk.js 5.0.0, pinned), rather than leaving a service that cannot start.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const EXPORT = 'export{e as glpkModule};';
const file = createRequire(import.meta.url).resolve('glpk.js/node');
const source = readFileSync(file, 'utf8');
if (!source.includes(EXPORT)) {
  if (!source.startsWith('async function e(e={}){var r=e,') || !source.trimEnd().endsWith('export{t as default};')) {
    console.error(`${file} is not glpk.js 5.0.0's Node entry: solver-wasm/expose-glpk-module.mjs must be revised for it.`);
    process.exit(1);
  }
  writeFileSync(file, `${source.trimEnd()}\n${EXPORT}\n`);
}
