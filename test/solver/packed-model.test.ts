// Packing a warm-started sequence's masters (solver-wasm/packed-model.ts): each master after the
// first shares its first columns and most rows with the one before (the incremental master), and
// is packed from what was packed then; the result must be the packing of the model on its own, and
// the sequence's numbers must name the same column or row the same in every model.
import { describe, expect, it } from 'vitest';
import type { Constraint, LinearModel, Variable } from '../../src/recovery/model/linear-model.ts';
import { packModel, packTask } from '../../solver-wasm/packed-model.ts';

const variable = (name: string): Variable => ({ name, kind: 'continuous', lb: 0, ub: 1, cost: name.length });

describe('packed sequence', () => {
  it('packs a growing master as it packs each model alone, and numbers names alike across the sequence', () => {
    const key = {};
    let variables: Variable[] = ['a', 'b', 'c'].map(variable);
    let constraints: Constraint[] = [
      { name: 'r1', terms: [{ variable: 'a', coef: 1 }, { variable: 'c', coef: 2 }], sense: '=', rhs: 1 },
      { name: 'r2', terms: [{ variable: 'b', coef: -1 }], sense: '<=', rhs: 0 },
    ];
    const names = new Map<string, number>();
    for (let round = 0; round < 4; round++) {
      // An artificial column last, new each round, as withArtificials adds it (the row that uses it is new too).
      const artificial = variable(`artificial__r1`);
      const model: LinearModel = {
        name: 'm', variables: [...variables, artificial],
        constraints: constraints.map((c) => (c.name === 'r1' ? { ...c, terms: [...c.terms, { variable: artificial.name, coef: 1 }] } : c)),
      };
      const packed = packTask({ model, timeLimitMs: 1000, mipGap: 0, relaxation: true, warmStart: key });
      expect(packed.model).toEqual(packModel(model));
      const ids = [...model.variables.map((v, i) => [`col ${v.name}`, packed.session!.columnIds[i]!] as const), ...model.constraints.map((c, r) => [`row ${c.name}`, packed.session!.rowIds[r]!] as const)];
      for (const [name, id] of ids) {
        if (!names.has(name)) names.set(name, id);
        expect(id).toBe(names.get(name));
      }
      // The next master: a new column in r2 (that row replaced), and a new row over old columns.
      const added = variable(`x${round}`);
      variables = [...variables, added];
      constraints = [
        ...constraints.map((c) => (c.name === 'r2' ? { ...c, terms: [...c.terms, { variable: added.name, coef: round + 2 }] } : c)),
        { name: `new${round}`, terms: [{ variable: 'a', coef: 3 }, { variable: added.name, coef: 1 }], sense: '>=', rhs: round },
      ];
    }
    // Columns a, b, c, the artificial and x0-x2; rows r1, r2 and new0-new2 (x3 and new3 come after the last master).
    expect(names.size).toBe(3 + 1 + 3 + 2 + 3);
  });
});
