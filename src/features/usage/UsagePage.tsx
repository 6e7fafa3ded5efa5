import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo } from 'react';
import type { TokenDay, TokenModelRow } from '../../api/schemas';
import type { TopUsers } from '../../api/teams';
import { analyticsQuery } from '../../data/analytics';
import { Link } from 'react-router-dom';
import { usePseudonymous, useReader } from '../../data/me';
import { MonthSpendWidget, spendKpi, useSpend } from '../../components/SpendWidgets';
import { teamsFileTag, useLinkTo, useRange, useTeams } from '../../data/search';
import type { Column } from '../../components/DataTable';
import { KpiGrid, type Kpi } from '../../components/KpiGrid';
import { BelowTheFold, PageHeader, useAfterPaint } from '../../components/Page';
import { groupSeries, seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import type { TableWidget as TableWidgetType } from '../../components/TableWidget';
import { previousPeriod, rangeLength } from '../../lib/dates';
import { formatCompact, formatExact, formatPercent } from '../../lib/format';
import { formatMoney } from '../../lib/money';
import { pivotTopN, pointKeys } from '../../lib/series';
import {
  creditTotals,
  dailyCreditsFromModels,
  modelMix,
  modelTotals,
  toDailyCredits,
  topUsers,
  type ModelTotal,
  type UserCredits,
} from './shaping';
import { glossaryQuery, headlineQuery, teamTopUsersQuery } from './queries';
import { useAppConfig } from '../../data/config';
import type { DayRange } from '../../lib/dates';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Every figure counts whole UTC days: the latest is yesterday, and the range is the one in the bar at the top.',
  'The first cards are the teams page’s figures (without a price list, credits stand in for spend); each ⓘ says how one is counted.',
  'A card gives the range’s figure and its change against the period before it of the same length (a calendar month against the month before; a share in points). The arrow is green or red only where a direction is good or bad for that figure; grey where it is neither, as for credits.',
  'Standard credits are the service’s unit of consumption; tokens are raw counts. With a price list, spend is each day’s credits at that day’s price for the model.',
  'Daily or Weekly switches every chart’s grain (a week the range cuts is hatched and starred); Hide weekends leaves Saturdays, Sundays and the organization’s listed holidays out of the daily charts, never out of the totals. Each chart has a table view and a CSV.',
];

const MODEL_COLUMNS: Column<ModelTotal>[] = [
  { id: 'model', header: 'Model', value: (m) => m.model },
  { id: 'tier', header: 'Tier', value: (m) => m.tier },
  { id: 'credits', header: 'Credits', value: (m) => m.credits, numeric: true },
  { id: 'input', header: 'Input tokens', value: (m) => m.input, numeric: true },
  { id: 'output', header: 'Output tokens', value: (m) => m.output, numeric: true },
  { id: 'share', header: 'Share of credits', value: (m) => m.share, numeric: true, format: formatPercent },
];

const TOKEN_SERIES = [
  { key: 'input', label: 'Input', color: seriesColor(0), csv: 'input_tokens' },
  { key: 'output', label: 'Output', color: seriesColor(1), csv: 'output_tokens' },
  { key: 'cacheRead', label: 'Cache read', color: seriesColor(2), csv: 'cache_read_tokens' },
  { key: 'cacheWrite', label: 'Cache write', color: seriesColor(3), csv: 'cache_write_tokens' },
];

// The week's highlights are drawn below the first chart, after it: their code is not in the first bundle.
const Highlights = lazy(() => import('./Highlights').then((m) => ({ default: m.Highlights })));
// So are the tables (the table, its frame, sorting and CSV), asked for once the first chart is painted.
const TableWidget = lazy(() =>
  import('../../components/TableWidget').then((m) => ({ default: m.TableWidget })),
) as unknown as typeof TableWidgetType;

/** The token cards: label, total, and whether the service gives it for the whole organization only. */
const TOKEN_CARDS = [
  ['Input tokens', 'input', false],
  ['Output tokens', 'output', false],
  ['Cache read tokens', 'cacheRead', true],
  ['Cache write tokens', 'cacheWrite', true],
] as const;

const modelKey = (m: ModelTotal) => m.model;
const userKey = (u: UserCredits) => u.userId;

const selectTotals = (r: { data: TokenDay[] }) => creditTotals(r.data);
const selectModels = (r: { data: TokenDay[] }) => modelTotals(r.data);
const selectTopUsers = (r: { data: TokenDay[] }) => topUsers(r.data, 25);
const selectTeamTopUsers = (r: TopUsers): UserCredits[] => r.users;

export default function UsagePage() {
  const { range } = useRange();
  const [teams] = useTeams();
  // A team's answer has no cache tokens: the service gives them for the whole organization only.
  const teamed = teams.length > 0;
  const prevRange = previousPeriod(range);
  const dailyCredits = useQuery({
    ...analyticsQuery('tokens', range, 'model', teams),
    placeholderData: keepPreviousData,
    select: useCallback((r: { data: TokenModelRow[] }) => dailyCreditsFromModels(range, r.data), [range]),
  });
  // The days with every user are large: ask for them once the small grouped answer is in (or failed),
  // so the first chart is drawn without waiting for them.
  const firstDone = !dailyCredits.isPending;
  const firstPainted = useAfterPaint(firstDone);
  // With a store, the server answers the days without every user's split, and the top users itself.
  const { teams: stored } = useAppConfig();
  const days = (r: DayRange) => analyticsQuery('tokens', r, '', teams, { withoutUsers: stored });
  const full = { ...days(range), placeholderData: keepPreviousData, enabled: firstDone };
  const previous = useQuery({
    ...days(prevRange ?? range),
    enabled: prevRange !== null && firstDone,
    select: selectTotals,
  });
  // Selectors are stable functions: TanStack Query runs one again only when it or its data changes, and
  // at thousands of users a pass over the days' per-user split is far from free (a team switch re-renders).
  const daily = useQuery({
    ...full,
    select: useCallback((r: { data: TokenDay[] }) => toDailyCredits(range, r.data), [range]),
  });
  const byModel = useQuery({
    ...analyticsQuery('tokens', range, 'model', teams),
    placeholderData: keepPreviousData,
    select: useCallback(
      (r: { data: TokenModelRow[] }) => pivotTopN(range, r.data, (g) => g.billable_tokens, 7).points,
      [range],
    ),
  });
  const modelKeys = pointKeys(byModel.data);
  const models = useQuery({ ...full, select: selectModels });
  const fromDays = !stored;
  // Signed in: a viewer sees no other person's row; a manager's top users are their teams' people.
  const me = useReader();
  const mayList = me?.role !== 'viewer';
  const listed = me?.role === 'manager' && teams.length === 0 ? me.teams : teams;
  const orgUsers = useQuery({ ...full, enabled: firstDone && fromDays, select: selectTopUsers });
  const serverUsers = useQuery({
    ...teamTopUsersQuery(range, listed, 25),
    placeholderData: keepPreviousData,
    enabled: !fromDays && firstDone && mayList,
    select: selectTeamTopUsers,
  });
  const users = fromDays ? orgUsers : serverUsers;
  const spend = useSpend(range, teams, { enabled: firstDone });
  const { currency } = spend;
  const totalsQuery = useQuery({ ...full, select: selectTotals });
  const totals = totalsQuery.data;
  const prev = previous.data;
  const linkTo = useLinkTo();
  const pseudonymous = usePseudonymous();
  const file = (name: string) => `${name}${teamsFileTag(teams)}-${range.start}-${range.end}`;

  // With a store, the page leads with people and outcomes, as the teams page's organization (or team) row counts
  // them; asked once the first chart's answer is in, so it never holds the first chart up.
  const headline = useQuery({
    ...headlineQuery(range, teams, currency !== null),
    placeholderData: keepPreviousData,
    enabled: stored && firstDone,
  });
  const h = headline.data?.rows[0]?.current;
  const hb = headline.data?.rows[0]?.previous;
  // What each card counts, as the glossary says it: the sentences come after the first chart, not in its bundle.
  const D = useQuery({ ...glossaryQuery, enabled: firstDone }).data;
  const money = currency !== null ? (n: number) => formatMoney(n, currency) : undefined;
  const credits: Kpi = {
    label: 'Standard credits',
    value: totals?.billable,
    previous: prev?.billable,
    definition: D?.standardCredits,
  };
  const tokenCards = TOKEN_CARDS.map(([label, k, orgOnly]): Kpi => ({
    label,
    value: totals?.[k],
    previous: prev?.[k],
    orgOnly: orgOnly && teamed,
    definition: D?.tokens,
  }));
  const perDay: Kpi = {
    label: 'Credits per day',
    value: totals ? totals.billable / rangeLength(range) : undefined,
    previous: prev && prevRange ? prev.billable / rangeLength(prevRange) : undefined,
    definition: D?.creditsPerDay,
  };
  const lead: Kpi[] = [
    {
      label: 'Active people',
      value: h?.active,
      previous: hb?.active,
      hint: h?.members != null ? `of ${formatExact(h.members)} members` : undefined,
      definition: D?.activePeople,
    },
    {
      label: 'Adoption',
      value: h?.adoption,
      previous: hb?.adoption,
      points: true,
      format: formatPercent,
      definition: D?.adoption,
    },
    // Without a price list there is no money: the credits stand in for it, and say so.
    money
      ? { label: 'Spend', value: h?.spend, previous: hb?.spend, format: money, definition: D?.spend }
      : { ...credits, hint: 'no price list: credits stand in for spend' },
    {
      label: `${money ? 'Spend' : 'Credits'} per pull request`,
      value: money ? h?.spendPerPr : h?.creditsPerPr,
      previous: money ? hb?.spendPerPr : hb?.creditsPerPr,
      // Whole credits: a ratio's cents of a credit say nothing.
      format: money ?? ((n) => formatCompact(Math.round(n))),
      hint: h?.prs === 0 ? 'no pull requests through the agent' : undefined,
      definition: money ? D?.spendPerPullRequest : D?.creditsPerPullRequest,
    },
  ];
  // The tokens are below the first chart, the credits first among them when spend leads.
  const tokens = money ? [credits, ...tokenCards] : tokenCards;

  // Made again only with the URL its links carry, so the table's rows are not made again on every render.
  const userColumns = useMemo(
    (): Column<UserCredits>[] => [
      {
        id: 'user',
        header: 'Person',
        value: (u) => u.email ?? u.userId,
        render: (u) =>
          pseudonymous ? (
            <span className="font-mono text-xs">{u.userId}</span>
          ) : (
            <Link to={linkTo(`/users/${encodeURIComponent(u.userId)}`)} className="text-accent-strong underline">
              {u.email ?? u.userId}
            </Link>
          ),
      },
      { id: 'credits', header: 'Credits', value: (u) => u.credits, numeric: true },
      { id: 'share', header: 'Share', value: (u) => u.share, numeric: true, format: formatPercent },
      {
        id: 'models',
        header: 'Model mix',
        value: (u) => modelMix(u).full,
        // One line: short names and whole percents, cut with an ellipsis if need be; in full on hover.
        fill: true,
        render: (u) => {
          const mix = modelMix(u);
          return (
            <span className="block truncate max-sm:min-w-0 max-sm:flex-1" title={mix.full}>
              {mix.short}
            </span>
          );
        },
      },
    ],
    [linkTo, pseudonymous],
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Usage" teams={teams} howToRead={HOW_TO_READ}>
        <IntervalSwitch />
      </PageHeader>
      <KpiGrid
        hasPrevious={prevRange !== null}
        items={
          stored
            ? lead
            : [
                credits,
                ...tokenCards,
                currency !== null ? { ...spendKpi(currency, spend.query.data), definition: D?.spend } : perDay,
              ]
        }
      />
      <TimeSeriesWidget
        title="Standard credits"
        description="Billable credits as reported by the service (cached tokens are discounted upstream)."
        query={dailyCredits}
        series={[{ key: 'billable', label: 'Standard credits', color: seriesColor(0), csv: 'billable_tokens' }]}
        filename={file('credits')}
        what="Standard credits"
      />
      {/* Below the first chart: it arrives later and would push the chart down. */}
      {/* After a switch of teams or range, asked for once the first chart's and the cards' own answers are in:
          the server's work on the week's highlights would otherwise hold them up. */}
      {/* Its code is asked for once the first chart is painted. */}
      {stored && mayList && firstPainted && (
        <Suspense fallback={null}>
          <Highlights
            teams={listed}
            enabled={firstDone && !dailyCredits.isPlaceholderData && !totalsQuery.isPlaceholderData}
          />
        </Suspense>
      )}
      {currency !== null && (
        <MonthSpendWidget
          query={spend.query}
          who={teams.length === 0 ? 'the organization' : teams.length === 1 ? teams[0]! : `${teams.length} teams`}
        />
      )}
      <BelowTheFold>
        {stored && <KpiGrid hasPrevious={prevRange !== null} items={tokens} />}
        <div className="grid gap-4 lg:grid-cols-2">
          <TimeSeriesWidget
            title="Tokens by kind"
            description={
              teamed
                ? 'Raw input and output tokens.'
                : 'Raw input and output tokens, and prompt-cache reads and writes.'
            }
            query={daily}
            kind="line"
            series={teamed ? TOKEN_SERIES.slice(0, 2) : TOKEN_SERIES}
            filename={file('tokens')}
            what={teamed ? 'Input and output tokens' : 'Input, output, cache read and cache write tokens'}
            orgOnly={teamed ? 'Cache read and cache write tokens' : undefined}
          />
          <TimeSeriesWidget
            title="Credits per model"
            description="Stacked; the seven largest models of the range, the rest as Other."
            query={byModel}
            kind="area"
            stacked
            series={groupSeries(modelKeys)}
            filename={file('credits-by-model')}
            what="Standard credits per model"
          />
        </div>
        {firstPainted && (
          <Suspense fallback={null}>
            <div className="grid gap-4 lg:grid-cols-2">
              <TableWidget
                id="models"
                title="Models"
                description="Credits and tokens per model over the range."
                query={models}
                columns={MODEL_COLUMNS}
                rowKey={modelKey}
                defaultSort={{ column: 'credits', dir: 'desc' }}
                filename={file('models')}
              />
              {mayList ? (
                <TableWidget
                  id="topUsers"
                  title="Top people by credits"
                  description={
                    listed === teams
                      ? 'The 25 people with the most credits in the range, with the models they used.'
                      : 'The 25 people of your teams with the most credits in the range, with the models they used.'
                  }
                  query={users}
                  columns={userColumns}
                  rowKey={userKey}
                  defaultSort={{ column: 'credits', dir: 'desc' }}
                  filename={file('top-users')}
                />
              ) : (
                <section
                  aria-label="Top people by credits"
                  className="flex min-w-0 flex-col rounded-lg border border-line bg-surface p-4 shadow-sm"
                >
                  <h2 className="text-base font-semibold text-fg">Top people by credits</h2>
                  <p role="note" className="mt-2 text-sm text-fg-muted">
                    Other people’s figures are shown to their managers and admins.{' '}
                    {me?.userId && (
                      <Link
                        to={linkTo(`/users/${encodeURIComponent(me.userId)}`)}
                        className="text-accent-strong underline"
                      >
                        Your own figures
                      </Link>
                    )}
                  </p>
                </section>
              )}
            </div>
          </Suspense>
        )}
      </BelowTheFold>
    </div>
  );
}
