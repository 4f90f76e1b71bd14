// CPLEX LP format writer, so any model can be read by a person, by native glpsol (`glpsol --lp`)
// or by HiGHS. Pure text; deterministic for a given model.
import type { LinearModel, Term } from '../src/recovery/model/linear-model.ts';

const TERMS_PER_LINE = 8; // keeps lines far below the 255-character limit some readers impose

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
}

function formatTerms(terms: Term[]): string {
  if (terms.length === 0) return '0 x__empty';
  const parts = terms.map((t) => `${t.coef < 0 ? '-' : '+'} ${formatNumber(Math.abs(t.coef))} ${t.variable}`);
  const lines: string[] = [];
  for (let i = 0; i < parts.length; i += TERMS_PER_LINE) lines.push(parts.slice(i, i + TERMS_PER_LINE).join(' '));
  return lines.join('\n   ');
}

export function toCplexLp(model: LinearModel): string {
  const out: string[] = [`\\* Problem: ${model.name} *\\`, '', 'Minimize'];
  const objective = model.variables.filter((v) => v.cost !== 0).map((v) => ({ variable: v.name, coef: v.cost }));
  out.push(` obj: ${formatTerms(objective)}`, '', 'Subject To');
  let needsEmpty = objective.length === 0;
  for (const c of model.constraints) {
    if (c.terms.length === 0) needsEmpty = true;
    const sense = c.sense === '<=' ? '<=' : c.sense === '>=' ? '>=' : '=';
    out.push(` ${c.name}: ${formatTerms(c.terms)} ${sense} ${formatNumber(c.rhs)}`);
  }
  out.push('', 'Bounds');
  for (const v of model.variables) {
    if (v.kind === 'binary') continue;
    const ub = v.ub === Infinity ? '+inf' : formatNumber(v.ub);
    out.push(` ${formatNumber(v.lb)} <= ${v.name} <= ${ub}`);
  }
  if (needsEmpty) out.push(' x__empty = 0');
  const generals = model.variables.filter((v) => v.kind === 'integer').map((v) => ` ${v.name}`);
  const binaries = model.variables.filter((v) => v.kind === 'binary').map((v) => ` ${v.name}`);
  if (generals.length) out.push('', 'Generals', ...generals);
  if (binaries.length) out.push('', 'Binaries', ...binaries);
  out.push('', 'End', '');
  return out.join('\n');
}
