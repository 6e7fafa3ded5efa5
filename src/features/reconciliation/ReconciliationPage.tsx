import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RECONCILED, type Reconciled, type Reconciliation } from '../../api/reconciliation';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { TableWidget } from '../../components/TableWidget';
import { seriesColor } from '../../components/TimeSeriesChart';
import { TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { downloadCsv } from '../../components/download';
import type { WidgetSource } from '../../components/Widget';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { teamsFileTag, useRange, useSearchParam, useTeams } from '../../data/search';
import { formatDayLong, formatDayShort, type Day } from '../../lib/dates';
import { formatExact } from '../../lib/format';
import { reconciliationQuery } from './queries';
import { csvOfAll, figureLabel, pointsOf, rowsOf, serviceSource, STATE_LABEL, summaryOf, type DayRow } from './shaping';

const TITLE = 'Reconciliation';

const HOW_TO_READ = [
  'Each day, the service’s own total for the whole organization sits beside the dashboard’s sum over people, and the difference between them is split into parts that add up.',
  'Not yet synced: the dashboard does not hold the service’s per-person rows of that day yet, so the whole day is the difference; the background sync (or a page asking for the day) fetches them.',
  'Outside the mapping: the people no team of the mapping names (Unassigned). Outside these teams: everyone else in the organization.',
  'Unexplained: what is left once the other parts are taken away. It should be 0; a day the service may still change can differ until it is final.',
  'Privacy mode: a group of fewer people than its smallest group is never shown on its own; its people are counted outside the teams shown.',
];

/** Up to five days in words, then how many more. */
function daysInWords(days: readonly Day[]): string {
  const shown = days.slice(0, 5).map(formatDayShort).join(', ');
  return days.length > 5 ? `${shown} and ${days.length - 5} more` : shown;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export default function ReconciliationPage() {
  const config = useAppConfig();
  const reader = useReader();
  const { range } = useRange();
  const [selected] = useTeams();
  const [figure, setFigure] = useSearchParam('figure');
  const query = useQuery({
    ...reconciliationQuery(range, selected),
    enabled: config.teams,
    placeholderData: keepPreviousData,
  });
  const answer = query.data;
  const points = useMemo(() => answer && pointsOf(answer, figure), [answer, figure]);
  const rows = useMemo(() => answer && rowsOf(answer, figure), [answer, figure]);

  if (!config.teams)
    return (
      <>
        <PageHeader title={TITLE} />
        <p role="status" className="mt-4 rounded bg-warning-surface p-3 text-sm text-warning-fg">
          The reconciliation needs the dashboard server to keep the organization&apos;s history, which it does when it
          holds the API key. This server does not, so it has nothing to set beside the service&apos;s figures.
        </p>
      </>
    );

  /** The answer's state, with the data a widget shows of it. */
  const source = <T,>(data: T | undefined): WidgetSource<T> => ({
    data,
    status: query.status,
    error: query.error,
    isPlaceholderData: query.isPlaceholderData,
    isFetching: query.isFetching,
    refetch: query.refetch,
  });
  const yours = reader?.role === 'manager' && selected.length === 0;
  const outsideLabel =
    answer?.outside === 'teams' ? (yours ? 'Outside your teams' : 'Outside these teams') : 'Outside the mapping';

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={TITLE} teams={selected} howToRead={HOW_TO_READ}>
        <Segmented
          label="Figure"
          options={RECONCILED.map((m) => ({ id: m, label: figureLabel(m) }))}
          value={figure}
          onChange={setFigure}
        />
      </PageHeader>
      {answer && <CountedHow answer={answer} figure={figure} yours={yours} />}
      {answer && <Status answer={answer} outsideLabel={outsideLabel} />}
      {answer && <RangeSums answer={answer} figure={figure} outsideLabel={outsideLabel} />}
      <Difference query={source(points)} figure={figure} outsideLabel={outsideLabel} teams={selected} />
      <DaysTable query={source(rows)} answer={answer} figure={figure} outsideLabel={outsideLabel} teams={selected} />
    </div>
  );
}

/** The one sentence on how the two figures are counted, always in view: what a reader checks first. */
function CountedHow({ answer, figure, yours }: { answer: Reconciliation; figure: Reconciled; yours: boolean }) {
  const whose =
    answer.outside === 'mapping'
      ? answer.mapping
        ? 'the people of the mapping’s teams'
        : 'the people of the mapping’s teams (no mapping is loaded, so everyone is outside it)'
      : answer.teams.length === 0
        ? `the people of ${yours ? 'your' : 'these'} teams shown (none)`
        : `the people of ${answer.teams.join(', ')} (sub-teams included)`;
  return (
    <p className="max-w-4xl text-sm text-fg-muted">
      <span className="font-medium text-fg-soft">How this is counted: </span>
      the service’s figure is its own total for the whole organization each day ({serviceSource(figure)}); the
      dashboard’s is the sum over {whose}, each person once, of their rows as the service gives them per person. Every
      difference is split into the parts beside it, which add up to it.
    </p>
  );
}

/** What the range's days say at a glance: all explained, or which days are not synced or unexplained. */
function Status({ answer, outsideLabel }: { answer: Reconciliation; outsideLabel: string }) {
  const s = summaryOf(answer, 'credits');
  const w = answer.withheld;
  const lines: { text: string; warn: boolean }[] = [];
  lines.push(
    s.unexplainedDays.length > 0
      ? {
          text: `${plural(s.unexplainedDays.length, 'day')} of the range ${s.unexplainedDays.length === 1 ? 'has' : 'have'} a difference the parts do not explain: ${daysInWords(s.unexplainedDays)}.`,
          warn: true,
        }
      : { text: 'Every difference in this range is explained: nothing is left unexplained.', warn: false },
  );
  if (s.unsynced.length > 0)
    lines.push({
      text: `${plural(s.unsynced.length, 'day')} ${s.unsynced.length === 1 ? 'is' : 'are'} not yet synced: ${daysInWords(s.unsynced)}.`,
      warn: true,
    });
  if (s.open.length > 0)
    lines.push({
      text: `${plural(s.open.length, 'day')} may still change at the service: ${daysInWords(s.open)}.`,
      warn: false,
    });
  if (w && w.people > 0)
    lines.push({
      text: `Privacy mode: ${plural(w.people, 'person', 'people')} of your teams ${w.people === 1 ? 'is' : 'are'} in ${plural(w.groups, 'group')} of fewer than ${w.minGroup}; their figures are counted in “${outsideLabel}”, never on their own.`,
      warn: false,
    });
  return (
    // A status region around the list: a list given the role of status is no list to assistive technology.
    <div role="status" aria-label="What the days say">
      <ul className="flex flex-col gap-1">
        {lines.map((l) => (
          <li
            key={l.text}
            className={`rounded p-2 text-sm ${l.warn ? 'bg-warning-surface text-warning-fg' : 'bg-accent-muted text-accent-strong'}`}
          >
            {l.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The chosen figure summed over the range's days, the difference in its parts. */
function RangeSums({
  answer,
  figure,
  outsideLabel,
}: {
  answer: Reconciliation;
  figure: Reconciled;
  outsideLabel: string;
}) {
  const s = summaryOf(answer, figure);
  const cells: [string, number][] = [
    ['Service', s.service],
    ['Dashboard', s.dashboard],
    ['Difference', s.service - s.dashboard],
    ['Not yet synced', s.notSynced],
    [outsideLabel, s.outside],
    ['Unexplained', s.unexplained],
  ];
  return (
    <section aria-label="Over the range" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
      <h2 className="text-base font-semibold text-fg">
        Over the range{' '}
        <span className="font-normal text-fg-muted">
          {figureLabel(figure)}
          {figure === 'active' ? ', summed over the days (person-days)' : ''}
        </span>
      </h2>
      <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {cells.map(([label, n]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-xs text-fg-muted">{label}</dt>
            <dd className="text-lg font-semibold text-fg tabular-nums">{formatExact(n)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

interface Shown<T> {
  query: WidgetSource<T>;
  figure: Reconciled;
  outsideLabel: string;
  teams: readonly string[];
}

/** The difference of each day, stacked by its parts. */
function Difference({ query, figure, outsideLabel, teams }: Shown<ReturnType<typeof pointsOf>>) {
  const label = figureLabel(figure);
  return (
    <TimeSeriesWidget
      title="The difference, by part"
      description={`The service’s ${label.toLowerCase()} less the dashboard’s, each day, stacked by what explains it.`}
      query={query}
      series={[
        { key: 'notSynced', label: 'Not yet synced', color: seriesColor(0), csv: 'not_synced' },
        { key: 'outside', label: outsideLabel, color: seriesColor(1), csv: 'outside' },
        { key: 'unexplained', label: 'Unexplained', color: seriesColor(3), csv: 'unexplained' },
      ]}
      kind="bar"
      stacked
      rollup={figure === 'active' ? { notSynced: 'mean', outside: 'mean', unexplained: 'mean' } : {}}
      filename={`reconciliation-difference-${figure}${teamsFileTag(teams)}`}
      what={`The difference in ${label.toLowerCase()}`}
    />
  );
}

/** Each day of the chosen figure: the service's, the dashboard's, and the parts of their difference. */
function DaysTable({
  query,
  answer: data,
  figure,
  outsideLabel,
  teams,
}: Shown<DayRow[]> & { answer: Reconciliation | undefined }) {
  // Exact: a difference of 11,243 beside "0.5M" and "0.5M" reads as nothing to reconcile.
  const columns = useMemo<Column<DayRow>[]>(
    () => [
      { id: 'day', header: 'Day (UTC)', value: (r) => r.day, render: (r) => formatDayLong(r.day) },
      { id: 'state', header: 'State', value: (r) => STATE_LABEL[r.state] },
      { id: 'service', header: 'Service', value: (r) => r.service, numeric: true, format: formatExact },
      { id: 'dashboard', header: 'Dashboard', value: (r) => r.dashboard, numeric: true, format: formatExact },
      { id: 'difference', header: 'Difference', value: (r) => r.difference, numeric: true, format: formatExact },
      { id: 'not_synced', header: 'Not yet synced', value: (r) => r.notSynced, numeric: true, format: formatExact },
      { id: 'outside', header: outsideLabel, value: (r) => r.outside, numeric: true, format: formatExact },
      { id: 'unexplained', header: 'Unexplained', value: (r) => r.unexplained, numeric: true, format: formatExact },
    ],
    [outsideLabel],
  );
  const label = figureLabel(figure);
  const tag = data ? `${data.range.start}-${data.range.end}${teamsFileTag(teams)}` : '';
  return (
    <TableWidget
      id="days"
      title={`${label}, each day`}
      description="The service’s figure, the dashboard’s, and their difference in parts that add up to it."
      columns={columns}
      rowKey={(r) => r.day}
      defaultSort={{ column: 'day', dir: 'asc' }}
      query={query}
      filename={`reconciliation-${figure}-${tag}`}
      actions={
        data && (
          <button
            type="button"
            onClick={() => {
              const spec = csvOfAll(data, `reconciliation-${tag}.csv`);
              downloadCsv(spec.filename, spec.header, spec.rows);
            }}
            className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
          >
            CSV of every figure
          </button>
        )
      }
    />
  );
}
