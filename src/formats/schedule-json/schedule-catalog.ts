// The schedules the service can serve: every *.json file of one folder, loaded and indexed once at start.
// Requests name a schedule; the name is only ever a key into this in-memory map, never a path, so no
// spelling of a name (.., slashes, absolute paths, NUL) can make the service read a file per request.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Schedule } from '../../domain/schedule.ts';
import { loadScheduleFile, ScheduleError } from './read-schedule.ts';
import type { TurnaroundRule } from '../../domain/turnaround.ts';

export interface CatalogEntry {
  /** Canonical name: the file's base name without .json, e.g. `default`. */
  name: string;
  schedule: Schedule;
}

export interface ScheduleCatalog {
  /** Canonical name of the schedule served when a request names none. */
  readonly defaultName: string;
  /** Canonical names of all loaded schedules, sorted. */
  names(): string[];
  /**
   * The loaded schedule called `name` or `name.json`; undefined for anything else. Pure lookup: never
   * touches the disk.
   */
  resolve(name: string): CatalogEntry | undefined;
}

/** A schedule folder that cannot be served: a bad file, no files, or no default schedule. */
export class CatalogError extends Error {}

/** Build a catalog from schedules already in memory (tests, tools); `defaultName` must be among them. */
export function createScheduleCatalog(schedules: ReadonlyMap<string, Schedule>, defaultName: string): ScheduleCatalog {
  const byName = new Map<string, CatalogEntry>();
  for (const [name, schedule] of schedules) byName.set(name, { name, schedule });
  const canonicalDefault = defaultName.replace(/\.json$/, '');
  if (!byName.has(canonicalDefault)) {
    throw new CatalogError(`Default schedule '${canonicalDefault}' is not among the loaded schedules (${[...byName.keys()].sort().join(', ') || 'none'}).`);
  }
  const names = [...byName.keys()].sort();
  return {
    defaultName: canonicalDefault,
    names: () => [...names],
    resolve: (name) => byName.get(name) ?? (name.endsWith('.json') ? byName.get(name.slice(0, -'.json'.length)) : undefined),
  };
}

/**
 * Load every `*.json` file of `dir` with loadScheduleFile. Throws CatalogError naming the folder or the
 * file and the problem when the folder cannot be listed, a file is invalid, or `defaultName` (with or
 * without .json) is not one of the files. Reads the disk only here.
 */
export function loadScheduleCatalog(dir: string, defaultName: string, turnaround?: TurnaroundRule): ScheduleCatalog {
  let files: string[];
  try {
    files = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new CatalogError(`Schedules folder ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const schedules = new Map<string, Schedule>();
  for (const file of files) {
    try {
      schedules.set(file.slice(0, -'.json'.length), loadScheduleFile(join(dir, file), turnaround));
    } catch (error) {
      if (error instanceof ScheduleError) throw new CatalogError(error.message);
      throw error;
    }
  }
  const canonicalDefault = defaultName.replace(/\.json$/, '');
  if (!schedules.has(canonicalDefault)) {
    throw new CatalogError(`Default schedule '${canonicalDefault}' has no file ${canonicalDefault}.json in ${dir}.`);
  }
  return createScheduleCatalog(schedules, canonicalDefault);
}
