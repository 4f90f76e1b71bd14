// JSON for committed files that people review: objects whose values are all primitives (one
// solve's counters, a tolerance) stay on one line, so a diff shows one changed line per solve.
export function reviewableJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value).replace(/,/g, ', ');
    return `[\n${value.map((v) => inner + reviewableJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  if (entries.every(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => typeof x !== 'object')))) {
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${reviewableJson(v)}`).join(', ')} }`;
  }
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${reviewableJson(v, inner)}`).join(',\n')}\n${indent}}`;
}
