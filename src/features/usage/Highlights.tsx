import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Highlight } from '../../api/insights';
import { ErrorState } from '../../components/states';
import { highlightHref, highlightsQuery } from '../../data/insights';
import { useRange } from '../../data/search';
import { formatDayLong } from '../../lib/dates';

/** Highlights shown before 'Show more': the most pressing. */
const SHOWN = 5;

const MARK: Record<Highlight['severity'], { sign: string; className: string; label: string }> = {
  alert: { sign: '▲', className: 'text-danger', label: 'Needs attention' },
  warning: { sign: '●', className: 'text-warning-fg', label: 'Stands out' },
  info: { sign: '○', className: 'text-fg-subtle', label: 'For your information' },
};

/**
 * What stands out in the week to the latest day, each line linking to the page that shows it; a quiet
 * line when nothing does. Asked for once the page's first chart is in.
 */
export function Highlights({ teams, enabled }: { teams: readonly string[]; enabled: boolean }) {
  const q = useQuery({ ...highlightsQuery(teams), enabled });
  const { range } = useRange();
  const [all, setAll] = useState(false);
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const h = q.data;
  return (
    <section aria-label="Highlights" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
      <h2 className="text-base font-semibold text-fg">
        Highlights
        {h && (
          <span className="ml-2 text-sm font-normal text-fg-subtle">{`${formatDayLong(h.week.start)} – ${formatDayLong(h.week.end)}`}</span>
        )}
      </h2>
      {!h ? (
        <p className="mt-1 text-sm text-fg-subtle">Looking for what stands out this week…</p>
      ) : !h.complete ? null : h.highlights.length === 0 ? (
        <p className="mt-1 text-sm text-fg-muted">Nothing stands out this week.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2 text-sm">
          {(all ? h.highlights : h.highlights.slice(0, SHOWN)).map((x, i) => (
            <li key={i} className="flex gap-2">
              <span
                role="img"
                aria-label={MARK[x.severity].label}
                title={MARK[x.severity].label}
                className={MARK[x.severity].className}
              >
                {MARK[x.severity].sign}
              </span>
              <span>
                <Link to={highlightHref(x.link, range, h.week)} className="font-medium text-accent-strong underline">
                  {x.title}
                </Link>
                <span className="block text-fg-subtle">{x.detail}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {h && h.highlights.length > SHOWN && (
        <button type="button" className="mt-2 text-sm text-accent-strong underline" onClick={() => setAll((a) => !a)}>
          {all ? 'Show fewer' : `Show ${h.highlights.length - SHOWN} more`}
        </button>
      )}
      {h && h.notes.length > 0 && <p className="mt-2 text-xs text-fg-subtle">{h.notes.join(' ')}</p>}
    </section>
  );
}
