// Unit and scenario: the schedule catalog loads a folder once, refuses bad folders with a sentence
// naming the file, and resolves only names of loaded schedules, so requests never reach the disk.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogError, loadScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import { FIXTURE_SCHEDULES_DIR, STAGING_KEY, fixtureCatalog, rawRequest, startTestServer } from '../support/server.ts';

const FIXTURE = join(FIXTURE_SCHEDULES_DIR, 'default.json');

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'drs-schedules-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function loadError(dir: string, defaultName = 'default'): string {
  try {
    loadScheduleCatalog(dir, defaultName);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return (error as Error).message;
  }
  throw new Error('expected the catalog to refuse the folder');
}

describe('loading', () => {
  it('indexes every *.json by its base name and ignores other files', () => {
    const fixture = readFileSync(FIXTURE, 'utf8');
    const dir = folder({ 'default.json': fixture, 'other.json': fixture, 'notes.txt': 'x', 'generate.ts': 'x' });
    mkdirSync(join(dir, 'sub.json'));
    const catalog = loadScheduleCatalog(dir, 'default.json');
    expect(catalog.names()).toEqual(['default', 'other']);
    expect(catalog.defaultName).toBe('default');
    expect(catalog.resolve('other')?.name).toBe('other');
    expect(catalog.resolve('other')?.schedule.flights.length).toBe(10);
  });

  it('an invalid JSON file stops the load, naming the file', () => {
    const dir = folder({ 'default.json': readFileSync(FIXTURE, 'utf8'), 'broken.json': '{"format_version": 1,' });
    expect(loadError(dir)).toMatch(new RegExp(`^Schedule file ${join(dir, 'broken.json')} cannot be read as JSON: `));
  });

  it('a file that breaks the format stops the load, naming the file and the field', () => {
    const bad = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { flights: { dep: string }[] };
    bad.flights[0]!.dep = '2026-11-21 05:30';
    const dir = folder({ 'default.json': JSON.stringify(bad) });
    expect(loadError(dir)).toBe(`Schedule file ${join(dir, 'default.json')} is invalid at flights.0.dep: must be an ISO 8601 UTC minute, e.g. 2026-11-21T08:30:00Z`);
  });

  it('a file whose records contradict each other stops the load, naming the file and the problem', () => {
    const bad = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { flights: { tail: string }[] };
    bad.flights[0]!.tail = 'ZZ-NONE';
    const dir = folder({ 'default.json': JSON.stringify(bad) });
    expect(loadError(dir)).toBe(`Schedule file ${join(dir, 'default.json')} is invalid: flight NV101_2026-11-21T05:30:00Z names unknown tail 'ZZ-NONE'`);
  });

  it('a folder without the default schedule is refused', () => {
    const dir = folder({ 'small.json': readFileSync(FIXTURE, 'utf8') });
    expect(loadError(dir)).toBe(`Default schedule 'default' has no file default.json in ${dir}.`);
    expect(loadScheduleCatalog(dir, 'small').defaultName).toBe('small');
  });

  it('a missing folder is refused, naming it', () => {
    expect(loadError('/nonexistent/schedules')).toBe('Schedules folder /nonexistent/schedules cannot be read (ENOENT).');
  });
});

describe('resolve', () => {
  const catalog = fixtureCatalog();
  it('accepts the name with or without .json and nothing else', () => {
    expect(catalog.resolve('default')?.name).toBe('default');
    expect(catalog.resolve('default.json')?.name).toBe('default');
    for (const name of ['', '.', '..', '../default', './default', 'default/', '/default', 'default.json.json', 'Default',
      'DEFAULT.JSON', 'default\0', 'default.json\0', '..\\default', `${FIXTURE_SCHEDULES_DIR}default.json`, FIXTURE,
      '%2e%2e', 'default%2Ejson', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(catalog.resolve(name), JSON.stringify(name)).toBeUndefined();
    }
  });
});

describe('nothing is read per request', () => {
  it('a schedule outside the folder, or added to it after start, is 404', async () => {
    const root = mkdtempSync(join(tmpdir(), 'drs-root-'));
    const dir = join(root, 'schedules');
    mkdirSync(dir);
    copyFileSync(FIXTURE, join(dir, 'default.json'));
    copyFileSync(FIXTURE, join(root, 'outside.json'));
    const server = await startTestServer({ schedules: loadScheduleCatalog(dir, 'default') });
    try {
      const get = (path: string) => rawRequest(server.baseUrl, 'GET', path, { 'X-API-Key': STAGING_KEY });
      expect((await get('/flights/default')).status).toBe(200);
      for (const path of ['/flights/..%2Foutside', '/flights/..%2Foutside.json', `/flights/${encodeURIComponent(join(root, 'outside.json'))}`, '/flights/../outside']) {
        expect((await get(path)).status, path).toBe(404);
      }
      expect((await get('/snapshot?schedule_file=..%2Foutside')).status).toBe(404);
      copyFileSync(FIXTURE, join(dir, 'late.json'));
      expect((await get('/flights/late')).status).toBe(404);
      expect((await get('/snapshot?schedule_file=late.json')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
