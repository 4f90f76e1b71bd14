// The import rules of docs/architecture.md, checked on the source: every relative import of every
// file under src/ and solver-wasm/ goes to a room the importing room may use. A new arrow running
// back up (the domain importing HTTP, the HTTP layer importing the solver adapter) fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Room of a repo-relative path: its first two segments under src/ (three in src/recovery/, whose
 * engines, passengers, bounds and shared model are rooms of their own), else its first.
 */
function roomOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'src' && parts[1] === 'recovery' && parts.length > 3) return `src/recovery/${parts[2]}`;
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : path;
  return parts[0]!;
}

const RECOVERY_ROOMS = ['src/recovery/model', 'src/recovery/passengers', 'src/recovery/neighbourhood', 'src/recovery/bounds', 'src/recovery/network'];

/** What each room may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  'src/domain': [],
  'src/security': [],
  'src/formats': ['src/domain'],
  // The recovery use case, room by room from the bottom: the shared model (scope, rules, config, the
  // result, the Solver port), passengers and their journeys, the neighbourhood engine (column
  // generation), the bounds, and on top the pipeline (src/recovery/*.ts), which composes them.
  'src/recovery/model': ['src/domain'],
  'src/recovery/passengers': ['src/recovery/model', 'src/domain'],
  'src/recovery/neighbourhood': ['src/recovery/passengers', 'src/recovery/model', 'src/domain'],
  // The bounds read the network engine's problem (the ROADEF bounds, roadef-bound.ts); the engine imports no bound.
  'src/recovery/bounds': ['src/recovery/network', 'src/recovery/neighbourhood', 'src/recovery/passengers', 'src/recovery/model', 'src/domain'],
  // The network engine (src/recovery/network/): a local search over whole-network operating plans, its
  // passengers on GLPK, priced by a cost model (model/cost-model.ts). It reads its problem in the
  // domain's terms (network/problem.ts) and knows no format: the ROADEF adapter (src/recovery) imports
  // an instance into it.
  'src/recovery/network': ['src/recovery/neighbourhood', 'src/recovery/passengers', 'src/recovery/model', 'src/domain'],
  'src/recovery': [...RECOVERY_ROOMS, 'src/domain', 'src/formats'],
  'solver-wasm': ['src/recovery/model'],
  'src/runtime': ['src/recovery', 'src/recovery/model', 'src/formats', 'src/domain', 'solver-wasm'],
  // Where operational days live (PostgreSQL): the domain's day and the simulation records it keeps.
  'src/store': ['src/recovery', 'src/recovery/model', 'src/domain'],
  'src/http': ['src/runtime', 'src/store', 'src/recovery', 'src/recovery/model', 'src/formats', 'src/domain', 'src/security', 'src/config.ts', 'package.json'],
  'src/config.ts': ['src/domain', 'src/security', 'src/recovery/model'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm), ...text.matchAll(/import\('(\.[^']+)'\)/g)].map((m) => m[1]!);
  return specs.map((spec) => relative(ROOT, resolve(ROOT, dirname(file), spec)));
}

describe('architecture', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('solver-wasm')];

  it('unit: every import goes to the room itself or a room below it (docs/architecture.md)', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = roomOf(file);
      const allowed = ALLOWED[from];
      if (!allowed) continue; // main.ts, worker.ts (with startup.ts) and the CLI compose everything
      for (const target of importsOf(file)) {
        const to = roomOf(target);
        if (to !== from && !allowed.includes(to)) wrong.push(`${file} imports ${target} (${from} may not import ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('unit: the console (browser code) imports only types from src/http, never the service\'s code', () => {
    const wrong: string[] = [];
    for (const file of sourceFiles('console/src')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/^\s*(import|export)\b([^'"]*?)from\s+'(\.[^']+)'/gm)) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), match[3]!));
        if (target.startsWith('console/')) continue;
        const typeOnly = /^\s*type\b/.test(match[2]!);
        if (!target.startsWith('src/http/') || !typeOnly) wrong.push(`${file} imports ${target}${typeOnly ? '' : ' (not type-only)'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('unit: inside the console, api/ calls the service, model/ is plain data, views/ draw: no view calls the service and no model touches the page (docs/architecture.md)', () => {
    // What each folder of console/src may import from the others: model/ and views/ only the API's
    // types (wire.ts, service-info.ts's), never the calls; api/ neither model/ nor views/.
    const rules: Record<string, { may: string[]; typesFrom: string[] }> = {
      'console/src/api': { may: [], typesFrom: [] },
      'console/src/model': { may: [], typesFrom: ['console/src/api'] },
      'console/src/views': { may: ['console/src/model'], typesFrom: ['console/src/api'] },
    };
    const wrong: string[] = [];
    for (const [room, rule] of Object.entries(rules)) {
      for (const file of sourceFiles(room)) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        for (const match of text.matchAll(/^\s*(import|export)\b([^'"]*?)from\s+'(\.[^']+)'/gm)) {
          const target = relative(ROOT, resolve(ROOT, dirname(file), match[3]!));
          if (!target.startsWith('console/') || target.startsWith(`${room}/`)) continue;
          const targetRoom = target.split('/').slice(0, 3).join('/');
          const typeOnly = /^\s*type\b/.test(match[2]!);
          if (!rule.may.includes(targetRoom) && !(typeOnly && rule.typesFrom.includes(targetRoom))) wrong.push(`${file} imports ${target}${typeOnly ? '' : ' (not type-only)'}`);
        }
        if (room === 'console/src/model' && /\b(document|window)\.[a-zA-Z]/.test(text)) wrong.push(`${file} touches the page`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('unit: the rules see every room, so a new room has to be placed', () => {
    const rooms = new Set(files.map(roomOf).filter((room) => !['src/main.ts', 'src/worker.ts', 'src/startup.ts', 'src/cli'].includes(room)));
    expect([...rooms].filter((room) => !(room in ALLOWED))).toEqual([]);
  });
});
