/**
 * The dashboard server's bulk export (not the service's): every person-day of a range with each person's team, as
 * Parquet or CSV, written by the server's analytics engine (docs/operating.md, "Bulk export").
 */
import type { DayRange } from '../lib/dates';

export const EXPORT_PATH = '/api/export/person-days';

export const EXPORT_FORMATS = ['parquet', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The export of a range (everyone the reader may see) as the server's path and query. */
export const exportHref = (r: DayRange, format: ExportFormat) =>
  `${EXPORT_PATH}?start=${r.start}&end=${r.end}&format=${format}`;
