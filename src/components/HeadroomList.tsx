import type { FrictionAnswer, HeadroomRow } from '../api/friction';
import { DEFINITIONS } from '../lib/definitions';
import { formatExact, formatPercent } from '../lib/format';
import { Widget, type WidgetSource } from './Widget';

const sentence = (r: HeadroomRow, share: number | null, mode: string) =>
  `level ${r.level} (${formatExact(r.repositories)} ${r.repositories === 1 ? 'repository' : 'repositories'}), ${formatPercent(share)} of ${formatExact(r.toolCalls)} tool calls ${mode}`;

function List({
  title,
  rows,
  mode,
  empty,
}: {
  title: string;
  rows: HeadroomRow[];
  mode: 'low' | 'high';
  empty: string;
}) {
  return (
    <section className="min-w-0 flex-1" aria-label={title}>
      <h3 className="text-sm font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-fg-muted">{empty}</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1 text-sm">
          {rows.map((r) => (
            <li key={r.team}>
              <span className="font-medium break-words">{r.team}</span>
              <span className="text-fg-muted">
                {' · '}
                {mode === 'low'
                  ? sentence(r, r.lowAutonomyShare, 'run manual or auto-low')
                  : sentence(r, r.highAutonomyShare, 'run auto-high or auto-medium')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Delegation headroom (the readiness and teams pages): the teams whose readiness leaves room to delegate more, and
 * those whose autonomy runs ahead of their repositories' readiness.
 */
export function HeadroomList({ query, range }: { query: WidgetSource<FrictionAnswer>; range: string }) {
  return (
    <Widget
      title={DEFINITIONS.delegationHeadroom.label}
      description={`${DEFINITIONS.delegationHeadroom.meaning} ${DEFINITIONS.teamReadinessLevel.label}: ${DEFINITIONS.teamReadinessLevel.meaning.toLowerCase()} Tool calls of ${range}, each person-day’s counted in its primary mode.`}
      query={query}
      isEmpty={(d) => d.teams === 0}
      emptyText="No team owns a repository with a readiness report among those shown."
      csv={(d) => ({
        filename: 'delegation-headroom.csv',
        header: [
          'list',
          'team',
          'level',
          'repositories',
          'tool_calls',
          'manual_or_auto_low_share',
          'auto_high_or_medium_share',
        ],
        rows: [
          ...d.headroom.room.map((r) => [
            'room to delegate',
            r.team,
            r.level,
            r.repositories,
            r.toolCalls,
            r.lowAutonomyShare,
            r.highAutonomyShare,
          ]),
          ...d.headroom.risk.map((r) => [
            'risk to look at',
            r.team,
            r.level,
            r.repositories,
            r.toolCalls,
            r.lowAutonomyShare,
            r.highAutonomyShare,
          ]),
        ],
      })}
    >
      {(d) => (
        <div className="flex flex-col gap-4 sm:flex-row">
          <List
            title="Room to delegate more"
            rows={d.headroom.room}
            mode="low"
            empty="No team at level 3 or above runs most of its tool calls manual or auto-low."
          />
          <List
            title="A risk to look at"
            rows={d.headroom.risk}
            mode="high"
            empty="No team at level 1 or 2 runs most of its tool calls auto-high or auto-medium."
          />
        </div>
      )}
    </Widget>
  );
}
