// HiGHS compiled to WebAssembly (the `highs` npm package), solving the same models from their CPLEX
// LP text. Used only by the benchmarks, to compare solvers; the service solves with GLPK.
import type { Highs } from 'highs';

export interface HighsOutcome {
  status: 'optimal' | 'infeasible' | 'time_limit' | 'other';
  statusText: string;
  objective: number | null;
  /** Branch-and-bound nodes HiGHS explored (its mip_node_count). */
  bbNodes: number | null;
  /** LP iterations over the whole MIP search (mip_total_lp_iterations of its last MIP progress report). */
  lpIterations: number | null;
}

type Loader = () => Promise<Highs>;
let instance: Promise<Highs> | undefined;

export function loadHighs(): Promise<Highs> {
  instance ??= (async () => {
    // The package is typed as CommonJS but its `import` entry is an ES module: take the loader from either shape.
    const mod = (await import('highs')) as unknown as { default: Loader | { default: Loader } };
    const loader = typeof mod.default === 'function' ? mod.default : mod.default.default;
    return loader();
  })();
  return instance;
}

export async function highsVersion(): Promise<string> {
  return (await loadHighs()).version.string;
}

/**
 * Solve CPLEX LP text. With `count`, progress reports are observed to read the LP iterations (a
 * little slower; never timed). Throws only when HiGHS cannot read the text.
 */
export async function solveWithHighs(lpText: string, options: { timeLimitMs: number; mipGap: number; count?: boolean }): Promise<HighsOutcome> {
  const highs = await loadHighs();
  const codes = highs.constants.modelStatus;
  return highs.withModel({ format: 'lp', data: lpText }, (model) => {
    model.options.set({ output_flag: false, mip_rel_gap: options.mipGap, time_limit: options.timeLimitMs / 1000 });
    let lpIterations: number | null = null;
    if (options.count) {
      // The MIP summary HiGHS logs at the end has the line "LP iterations <n> (total)".
      const lines: string[] = [];
      model.options.set({ output_flag: true, log_to_console: false });
      model.run({
        [highs.constants.callbackType.logging]: (event) => {
          lines.push(String((event as unknown as { message?: string }).message ?? ''));
          return undefined;
        },
      });
      const match = /LP iterations\s+(\d+)/.exec(lines.join(''));
      lpIterations = match ? Number(match[1]) : null;
      if (process.env.BENCH_DEBUG_HIGHS) process.stderr.write(lines.join(''));
    } else {
      model.run();
    }
    const code = model.getModelStatus();
    const status: HighsOutcome['status'] = code === codes.optimal ? 'optimal' : code === codes.infeasible ? 'infeasible' : code === codes.timeLimit ? 'time_limit' : 'other';
    const hasPlan = code === codes.optimal || code === codes.timeLimit;
    let bbNodes: number | null = null;
    try { bbNodes = Number(model.info.get('mip_node_count')); } catch { bbNodes = null; }
    return {
      status,
      statusText: String(code),
      objective: hasPlan ? model.getObjectiveValue() : null,
      bbNodes,
      lpIterations,
    };
  });
}
