/** A plain aligned table, Markdown-valid: the first column left, the others right. */
export function alignedTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${widths.map((w, i) => (i === 0 ? (cells[i] ?? '').padEnd(w) : (cells[i] ?? '').padStart(w))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
