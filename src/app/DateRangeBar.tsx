import { useState } from 'react';
import { useRange } from '../data/search';
import { HISTORY_START, clampRange, formatDayLong, isDay, rangeLength, type Day, type DayRange } from '../lib/dates';
import { PRESETS, presetOf } from '../lib/url-state';

/**
 * Presets and a custom range; every choice is written to the URL and clamped to the days the service answers.
 * From `md` up the presets are a row of buttons; on a phone, one select (a row, not four).
 */
export function DateRangeBar() {
  const { range, setRange, latestDay } = useRange();
  const active = presetOf(range, latestDay);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Date range">
      <label className="flex w-full items-center gap-1.5 md:hidden">
        <span className="text-fg-muted">Range</span>
        <select
          value={active ?? ''}
          onChange={(e) => {
            const r = PRESETS.find((p) => p.id === e.target.value)?.range(latestDay);
            if (r) setRange(r);
          }}
          className="min-w-0 flex-1 rounded border border-line-strong bg-surface px-2 py-1"
        >
          {active === undefined && <option value="">Custom: the dates below</option>}
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id} disabled={p.range(latestDay) === null}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {PRESETS.map((p) => {
        const r = p.range(latestDay);
        return (
          <button
            key={p.id}
            type="button"
            aria-pressed={active === p.id}
            disabled={r === null}
            title={r === null ? 'No complete day of it yet' : `${formatDayLong(r.start)} – ${formatDayLong(r.end)}`}
            onClick={() => r && setRange(r)}
            className={`hidden rounded border px-2.5 py-1 font-medium disabled:opacity-50 md:block ${
              active === p.id
                ? 'border-accent bg-accent text-fg-inverse'
                : 'border-line-strong text-fg-soft enabled:hover:bg-surface-muted'
            }`}
          >
            {p.label}
          </button>
        );
      })}
      {/* Keyed by the range, so the inputs start over whenever the URL changes. */}
      <CustomRange key={`${range.start}_${range.end}`} range={range} latestDay={latestDay} onApply={setRange} />
      {/* On a phone the button that opens the bar already says the range. */}
      <p className="text-fg-subtle max-md:sr-only" aria-live="polite">
        {formatDayLong(range.start)} – {formatDayLong(range.end)} · {rangeLength(range)} days, UTC
      </p>
    </div>
  );
}

function CustomRange({
  range,
  latestDay,
  onApply,
}: {
  range: DayRange;
  latestDay: Day;
  onApply: (r: DayRange) => void;
}) {
  const [start, setStart] = useState(range.start);
  const [end, setEnd] = useState(range.end);
  const valid = isDay(start) && isDay(end);
  const input = 'rounded border border-line-strong px-2 py-0.5';
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onApply(clampRange({ start, end }, latestDay));
      }}
    >
      <label className="flex items-center gap-1">
        <span className="text-fg-muted">From</span>
        <input
          type="date"
          value={start}
          min={HISTORY_START}
          max={latestDay}
          onChange={(e) => setStart(e.target.value)}
          className={input}
        />
      </label>
      <label className="flex items-center gap-1">
        <span className="text-fg-muted">to</span>
        <input
          type="date"
          value={end}
          min={HISTORY_START}
          max={latestDay}
          onChange={(e) => setEnd(e.target.value)}
          className={input}
        />
      </label>
      <button
        type="submit"
        disabled={!valid}
        className="rounded border border-line-strong px-2.5 py-1 font-medium text-fg-soft hover:bg-surface-muted disabled:opacity-50"
      >
        Apply
      </button>
    </form>
  );
}
