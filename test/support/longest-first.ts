// The order in which vitest hands out test files: the longest first, so that no long file starts last
// and runs on while the other worker is idle. Vitest orders by the durations of the previous run where
// it has them (node_modules/.vite), and CI runs from a fresh clone, where it has none and starts the
// largest files first. In one full run (2026-11-29, both projects of group 0 on 2 workers, load average
// about 20) test/roadef/bound.test.ts, 427 s, started 2060 s into it and the group ended 427 s later.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took over a minute in that run, longest first. A file missing here or renamed only
 * falls back to vitest's own order; the list is a schedule, not a test.
 */
export const LONGEST_FILES = [
  'test/roadef/engine.test.ts',
  'test/roadef/bound.test.ts',
  'test/hardening/fuzz.test.ts',
  'test/roadef/bench-part.test.ts',
  'test/roadef/cli.test.ts',
  'test/days/durability.test.ts',
  'test/jobs/redis.test.ts',
  'test/recovery/monotonicity.property.test.ts',
  'test/cli/tools.test.ts',
  'test/recovery/optimality.property.test.ts',
  'test/recovery/network-bound.test.ts',
  'test/solver/warm-start.test.ts',
  'test/recovery/maintenance-checks.test.ts',
  'test/hardening/faults.test.ts',
  'test/console/decisions.test.ts',
  'test/recovery/row-families.test.ts',
  'test/recovery/bound-round-first.test.ts',
];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    // Group order first (the tests beside a hog and the console timing run after the rest, alone).
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const base = await super.sort(files);
    return base
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => order(a.spec) - order(b.spec) || rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec);
  }
}
