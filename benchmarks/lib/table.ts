// Plain-text tables for the terminal: first column left-aligned, the others right-aligned.
export function table(headers: string[], rows: string[][], title?: string): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const out: string[] = [];
  if (title) out.push(title);
  out.push(line(headers), widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) out.push(line(r));
  return `${out.join('\n')}\n`;
}
