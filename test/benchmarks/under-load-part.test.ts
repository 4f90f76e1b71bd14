// `npm run bench -- --parts under-load` (benchmarks/under-load.ts): asked for on its own, and what it
// counts as an answer without a bound (any option with a plan whose lower bound is not above 0).
import { describe, expect, it } from 'vitest';
import { optionsWithoutBound, underLoadPartRequested } from '../../benchmarks/under-load.ts';

describe('npm run bench -- --parts under-load', () => {
  it('unit: the part is asked for with --parts under-load and runs on its own', () => {
    expect(underLoadPartRequested(['--parts', 'under-load', '--seeded', '30'])).toBe(true);
    expect(underLoadPartRequested(['--parts=under-load'])).toBe(true);
    expect(underLoadPartRequested(['--parts', 'stages,http'])).toBe(false);
    expect(() => underLoadPartRequested(['--parts', 'http,under-load'])).toThrow('--parts under-load runs on its own');
  });

  it('unit: an option whose lower bound is null or 0 is an answer without a bound; the integrated status is read', () => {
    const body = {
      options: [
        { strategy: 'integrated', solver: { status: 'optimal', lower_bound: 5940 } },
        { strategy: 'aircraft_swap', solver: { status: 'time_limit', lower_bound: 0 } },
        { strategy: 'cancellation', solver: { status: 'time_limit', lower_bound: null } },
        { strategy: 'delay_propagation', solver: { status: 'optimal', lower_bound: 7000 } },
      ],
    };
    expect(optionsWithoutBound(body)).toEqual({ options: 4, withoutBound: ['aircraft_swap', 'cancellation'], integrated: 'optimal' });
    expect(optionsWithoutBound({ options: [] })).toEqual({ options: 0, withoutBound: [], integrated: null });
  });
});
