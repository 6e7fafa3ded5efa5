import { useMemo } from 'react';
import type { FrictionAnswer, FrictionCriterion } from '../../api/friction';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { Widget, type WidgetSource } from '../../components/Widget';
import { DEFINITIONS, FRICTION_CAVEAT } from '../../lib/definitions';
import { formatDecimal, formatExact, formatPercent } from '../../lib/format';
import { formatMoney } from '../../lib/money';
import type { SortState } from '../../data/search';

const SORT: SortState = { column: 'teams_failing', dir: 'desc' };

// The side's teams named on hover: their repositories have columns of their own.
const teamsCell = (s: FrictionCriterion['failing']) => <span title={s.names.join(', ')}>{formatExact(s.teams)}</span>;

/**
 * The columns: the sides' teams, the difference in spend (what the page prices) first, then each figure failing then
 * passing, so a side's figures read down and a criterion's across.
 */
function columnsOf(currency: string | null): Column<FrictionCriterion>[] {
  const pair = (
    id: string,
    label: string,
    of: (s: FrictionCriterion['failing']) => number | null,
    fmt: (n: number) => string,
  ): Column<FrictionCriterion>[] =>
    (['failing', 'passing'] as const).map((side) => ({
      id: `${id}_${side}`,
      header: `${label}, ${side}`,
      value: (c) => of(c[side]),
      numeric: true,
      format: fmt,
      render: (c) => fmt(of(c[side]) ?? NaN),
    }));
  return [
    { id: 'criterion', header: 'Criterion', value: (c) => c.name },
    { id: 'level', header: 'Level', value: (c) => c.level, numeric: true, format: String },
    {
      id: 'teams_failing',
      header: 'Teams failing',
      definition: DEFINITIONS.frictionSide,
      value: (c) => c.failing.teams,
      numeric: true,
      render: (c) => teamsCell(c.failing),
    },
    {
      id: 'teams_passing',
      header: 'Teams passing',
      value: (c) => c.passing.teams,
      numeric: true,
      render: (c) => teamsCell(c.passing),
    },
    ...(currency
      ? [
          {
            id: 'spend_per_active_month_difference',
            header: 'Spend per active person per month, failing less passing',
            definition: DEFINITIONS.spendPerActiveMonth,
            value: (c: FrictionCriterion) => c.spendDifference,
            numeric: true,
            render: (c: FrictionCriterion) => formatMoney(c.spendDifference, currency),
          },
        ]
      : []),
    { id: 'repositories_failing', header: 'Repositories failing', value: (c) => c.failing.repositories, numeric: true },
    { id: 'repositories_passing', header: 'Repositories passing', value: (c) => c.passing.repositories, numeric: true },
    ...pair(
      'tool_calls_per_user_turn',
      'Tool calls per user turn',
      (s) => s.toolCallsPerTurn,
      (n) => formatDecimal(n, 1),
    ),
    ...pair(
      'credits_per_pull_request',
      'Credits per pull request',
      (s) => s.creditsPerPr,
      (n) => formatExact(Math.round(n)),
    ),
    ...pair(
      'manual_share',
      'Run manually',
      (s) => s.manualShare,
      (n) => formatPercent(n),
    ),
  ];
}

/**
 * Readiness priced in friction: for each criterion with three teams or more on each side, the teams whose
 * repositories mostly fail it against those whose repositories mostly pass it, on their figures of the range.
 */
export function FrictionWidget({ query, range }: { query: WidgetSource<FrictionAnswer>; range: string }) {
  const currency = query.data?.currency ?? null;
  const columns = useMemo(() => columnsOf(currency), [currency]);
  const csv = useTableCsv('friction', columns, SORT);
  const hidden = query.data ? query.data.criteria.filter((c) => !c.shown).length : 0;
  return (
    <Widget
      title="Friction by criterion"
      description={`${FRICTION_CAVEAT} For each criterion, the owning teams whose repositories mostly fail it against those whose repositories mostly pass it, on their figures of ${range}; ${DEFINITIONS.manualShare.label.toLowerCase()}: each person-day’s tool calls in its primary mode. ${hidden > 0 ? `${formatExact(hidden)} more ${hidden === 1 ? 'criterion has' : 'criteria have'} fewer than 3 teams on a side and ${hidden === 1 ? 'is' : 'are'} not compared.` : ''}`}
      query={{ ...query, data: query.data?.criteria.filter((c) => c.shown) }}
      isEmpty={(d) => d.length === 0}
      emptyText="No criterion has 3 teams or more whose repositories fail it and 3 or more whose repositories pass it: too few teams to compare."
      csv={(d) => ({ filename: 'readiness-friction.csv', ...csv(d) })}
    >
      {(d) => (
        <DataTable
          id="friction"
          caption="Friction by criterion"
          columns={columns}
          rows={d}
          rowKey={(c) => c.id}
          defaultSort={SORT}
          maxHeight="28rem"
        />
      )}
    </Widget>
  );
}
