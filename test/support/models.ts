// Linear models with known solver behaviour, shared by the solver and hardening tests.
import { ModelBuilder, type LinearModel } from '../../src/recovery/model/linear-model.ts';

/**
 * A dense integer program that holds a worker for seconds: GLPK stops it at its own limit no sooner
 * than about 300 ms (280-310 ms measured at limits of 50-200 ms), so under a shorter limit plus grace
 * only the pool's hard stop ends it; under a limit of a second or more GLPK may stop it itself, close
 * to the hard stop (1.5 s: 1.56 s measured).
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
