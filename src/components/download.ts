import { toCsv, type CsvValue } from '../lib/csv';

/** Saves a CSV file through a temporary object URL (allowed by the CSP, unlike data: navigation). */
export function downloadCsv(filename: string, header: readonly string[], rows: readonly (readonly CsvValue[])[]) {
  const blob = new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
