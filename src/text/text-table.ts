/** A column of a plain-text table: its header and how its cells align. */
export interface TableColumn {
  header: string;
  align?: 'left' | 'right';
}

/**
 * Renders rows as an aligned plain-text table (for terminals and logs). Cells are strings; the
 * caller formats numbers, so that "n/a" and "failed" can stand where a score would.
 */
export function renderTable(
  columns: TableColumn[],
  rows: string[][],
  options: { rule?: boolean } = {},
): string {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        return columns[i]?.align === 'right' ? cell.padStart(w) : cell.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  const header = line(columns.map((c) => c.header));
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const body = rows.map((r) => line(columns.map((_, i) => r[i] ?? '')));
  return (options.rule === false ? [header, ...body] : [header, rule, ...body]).join('\n');
}

/** Formats a score for a table: 3 decimals, "n/a" for null. */
export function formatScore(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);
}
