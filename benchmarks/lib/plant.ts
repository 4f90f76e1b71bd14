// Deliberate regressions, to show that the gate catches them (`npm run bench:check -- --plant
// <name>` and test/benchmarks/gate.test.ts). Never used for real measurements.
import type { LinearModel } from '../../src/recovery/model/linear-model.ts';
import type { ModelTransform } from './counters.ts';

/** A needless extra row per flight: a copy of its `flight__*` row as `<= 1`, which the `= 1` row already implies. */
export const extraRowPerFlight: ModelTransform = (model: LinearModel): LinearModel => ({
  ...model,
  constraints: model.constraints.flatMap((c) => (c.name.startsWith('flight__')
    ? [c, { name: `needless__${c.name}`, terms: c.terms.map((t) => ({ ...t })), sense: '<=' as const, rhs: c.rhs }]
    : [c])),
});

export const PLANTED_REGRESSIONS: Record<string, ModelTransform> = {
  'extra-row-per-flight': extraRowPerFlight,
};
