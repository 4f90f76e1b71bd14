// The vendored ROADEF 2009 data are the published files byte for byte: every file listed in
// PROVENANCE.md has the checksum it names, and no other file sits beside them unlisted.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR } from './support.ts';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DATA_DIR, join(entry.parentPath, entry.name)));
}

describe('the vendored ROADEF 2009 data (benchmarks/roadef2009)', () => {
  const provenance = readFileSync(join(DATA_DIR, 'PROVENANCE.md'), 'utf8');
  const listed = new Map([...provenance.matchAll(/^\| `([^`]+)` \| `([0-9a-f]{64})` \|$/gm)].map((m) => [m[1]!, m[2]!]));

  it('lists the 44 instance files and 12 calibration files of A01-A04', () => {
    expect(listed.size).toBe(56);
  });

  it('has every listed file with the checksum PROVENANCE.md names', () => {
    for (const [file, expected] of listed) expect(sha256(join(DATA_DIR, file)), file).toBe(expected);
  });

  it('holds no data file that PROVENANCE.md does not list', () => {
    const unlisted = filesUnder(DATA_DIR).filter((file) => !listed.has(file) && !['PROVENANCE.md', 'SHA256SUMS'].includes(file));
    expect(unlisted).toEqual([]);
  });
});
