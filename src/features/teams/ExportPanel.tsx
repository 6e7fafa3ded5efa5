import { useState } from 'react';
import { exportHref, type ExportFormat } from '../../api/export';
import { atBase } from '../../data/base';
import { useRange } from '../../data/search';
import { HISTORY_START, isDay } from '../../lib/dates';

const input = 'rounded border border-line-strong bg-surface px-2 py-1 text-sm';
const link =
  'rounded border border-line-strong px-3 py-1.5 text-sm font-medium text-fg-soft hover:bg-surface-muted aria-disabled:pointer-events-none aria-disabled:opacity-50';

/**
 * The bulk export, on the admin's mapping screen: every person-day of a range with each person's team, downloaded from
 * the server as Parquet or CSV (docs/operating.md, "Bulk export"). The range starts as the pages' own.
 */
export function ExportPanel() {
  const { range, latestDay } = useRange();
  const [start, setStart] = useState(range.start);
  const [end, setEnd] = useState(range.end);
  const problem =
    !isDay(start) || !isDay(end)
      ? 'Give both days.'
      : start > end
        ? 'The first day is after the last.'
        : start < HISTORY_START || end > latestDay
          ? `The days with data run from ${HISTORY_START} to ${latestDay}.`
          : undefined;
  const download = (format: ExportFormat, label: string) => (
    <a
      href={problem ? undefined : atBase(exportHref({ start, end }, format))}
      download
      aria-disabled={problem !== undefined}
      className={link}
    >
      {label}
    </a>
  );
  return (
    <section aria-label="Bulk export" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
      <h2 className="mb-3 text-base font-semibold text-fg">Bulk export</h2>
      <div className="flex flex-col gap-3 text-sm">
        <p>
          Every person&apos;s days in a range, one row per person and day with the service&apos;s figures and the team
          they were in that day (as the dashboard recorded each mapping; before the first, the first team it knew).
          Parquet for BI tools, CSV for spreadsheets; a person&apos;s rows add up to their row of the users table.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-fg-soft">
            From
            <input
              type="date"
              value={start}
              min={HISTORY_START}
              max={latestDay}
              onChange={(e) => setStart(e.target.value)}
              className={input}
            />
          </label>
          <label className="flex flex-col gap-1 text-fg-soft">
            To
            <input
              type="date"
              value={end}
              min={HISTORY_START}
              max={latestDay}
              onChange={(e) => setEnd(e.target.value)}
              className={input}
            />
          </label>
          <div className="flex gap-2">
            {download('parquet', 'Download Parquet')}
            {download('csv', 'Download CSV')}
          </div>
        </div>
        {problem && (
          <p role="alert" className="text-danger-fg">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
