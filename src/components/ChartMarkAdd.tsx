import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useAppConfig } from '../data/config';
import { mayWriteMark } from '../data/marks';
import { useReader } from '../data/me';
import type { Day } from '../lib/dates';
import type { MarkScope } from './MarkForm';

// The form and its write load when a reader opens it: no page's first chart waits for them.
const ChartMarkForm = lazy(() => import('./ChartMarkForm'));

/** A chart's "Add a mark": the scopes the reader may mark there, and the day picked on the chart (null: closed). */
export interface MarkAdder {
  scopes: readonly MarkScope[];
  day: Day | null;
  /** Opens the form on a day (a point clicked on the chart); undefined when the reader may mark none of its scopes. */
  pick: ((day: Day) => void) | undefined;
  close: () => void;
  /** What the last mark added here said, for the line under the chart. */
  added: string | null;
  setAdded: (s: string | null) => void;
}

/**
 * What a chart of these teams (none: the organization's) offers for adding a mark: its scopes the reader may write
 * (as the marks screen decides: `mayWriteMark`), with a server that keeps marks.
 */
export function useMarkAdder(teams: readonly string[]): MarkAdder {
  const { teams: stored, signIn } = useAppConfig();
  const me = useReader();
  const key = teams.join('\n');
  const scopes = useMemo(
    () =>
      stored
        ? (key === '' ? [''] : key.split('\n'))
            .filter((t) => mayWriteMark(me, signIn, t))
            .map((t) => ({ team: t, label: t === '' ? 'Whole organization' : t }))
        : [],
    [stored, key, me, signIn],
  );
  const [day, setDay] = useState<Day | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const pick = useCallback((d: Day) => {
    setAdded(null);
    setDay(d);
  }, []);
  const close = useCallback(() => setDay(null), []);
  return { scopes, day, pick: scopes.length > 0 ? pick : undefined, close, added, setAdded };
}

/** The chart's button that opens the form on its last point's day; nothing for a reader who may not mark it. */
export function AddMarkButton({ adder, chart, last }: { adder: MarkAdder; chart: string; last: Day | undefined }) {
  if (!adder.pick || last === undefined) return null;
  return (
    <button
      type="button"
      aria-expanded={adder.day !== null}
      onClick={() => (adder.day === null ? adder.pick!(last) : adder.close())}
      className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
      aria-label={`Add a mark on ${chart}`}
    >
      + Mark
    </button>
  );
}

/**
 * Under a chart, once a day is picked (the button, or a click on the chart): the marks screen's form prefilled
 * with that day and the chart's scope, checked by the server as the screen's is; then what was added.
 */
export function ChartMarkPanel({ adder, chart, weekly }: { adder: MarkAdder; chart: string; weekly: boolean }) {
  if (adder.day === null)
    return adder.added ? (
      <p role="status" className="mt-2 text-xs font-medium text-success-fg">
        {adder.added}
      </p>
    ) : null;
  return (
    <Suspense fallback={<p className="mt-2 text-xs text-fg-subtle">Opening the form…</p>}>
      <ChartMarkForm adder={adder} chart={chart} weekly={weekly} />
    </Suspense>
  );
}
