export type CsvValue = string | number | boolean | null | undefined;

/**
 * Formula-leading characters (OWASP's list, with the full-width forms a spreadsheet also reads as them) are
 * neutralised so a spreadsheet never runs a cell.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell is quoted when it holds a quote, a line break, or a separator a spreadsheet may split on (`;`, a tab). */
const QUOTED = /[",;\t\n\r]/;

/** One value as a CSV cell. */
export function csvCell(v: CsvValue): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  let s = String(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header row, CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
