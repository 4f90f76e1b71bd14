// Linear models with known solver behaviour, shared by the solver and hardening tests.
import { ModelBuilder, type LinearModel } from '../../src/recovery/linear-model.ts';

/**
 * A dense integer program whose root LP relaxation alone takes far longer than any test's time
 * limit: GLPK cannot stop it at its own limit, so it holds a worker until the pool's hard stop.
 */
export function stuckModel(name = 'stuck'): LinearModel {
  const b = new ModelBuilder(name);
  const n = 1500;
  let seed = 7;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  for (let j = 0; j < n; j++) b.addVariable(`x${j}`, 'integer', 1 + random(), 0, 10);
  for (let i = 0; i < 800; i++) {
    b.addConstraint(`r${i}`, Array.from({ length: 300 }, (_, k) => ({ variable: `x${(i * 37 + k * 11) % n}`, coef: 1 + Math.floor(random() * 9) })), '>=', 50 + Math.floor(random() * 50));
  }
  return b.build();
}
