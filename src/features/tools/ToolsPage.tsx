import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ActivityDay, ToolDay } from '../../api/schemas';
import { analyticsQuery } from '../../data/analytics';
import { teamsFileTag, useRange, useSearchParam, useTeams } from '../../data/search';
import { BreakdownWidget, TableWidget } from '../../components/TableWidget';
import type { Column } from '../../components/DataTable';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { OrgOnlySummary } from '../../components/OrgOnly';
import { BelowTheFold, PageHeader } from '../../components/Page';
import { groupSeries, seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { previousPeriod } from '../../lib/dates';
import { DEFINITIONS, toolCallsPerTurn } from '../../lib/definitions';
import { pivotTopN, pointKeys } from '../../lib/series';
import {
  byHook,
  byServer,
  bySkill,
  bySlashCommand,
  byTool,
  toolDailyPoints,
  toolTotals,
  userTurns,
  type HookTotal,
} from './shaping';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Tool calls, tool servers (MCP), skills, slash commands and hooks over the range, as the service counts them.',
  'Tool calls per user turn on the card divides the range’s sums; the chart is the service’s own daily figure, the average of each person’s ratio of the day: they differ on purpose, and each says which it is.',
  'With a team chosen, the page shows the team’s own counts; which tools, servers and skills ran is given by the service for the whole organization only, listed once in a note.',
];

const HOOK_COLUMNS: Column<HookTotal>[] = [
  { id: 'event', header: 'Event', value: (h) => h.event },
  { id: 'matcher', header: 'Matcher', value: (h) => h.matcher || null },
  {
    id: 'command',
    header: 'Command',
    value: (h) => h.command,
    render: (h) => <code className="text-xs">{h.command}</code>,
  },
  { id: 'count', header: 'Executions', value: (h) => h.count, numeric: true },
];

const ratioFormat = (n: number) => n.toFixed(1);

/** What a team's answer lacks (the service gives it for the whole organization only), as the note lists it. */
const ORG_ONLY_FIGURES = [
  'tool calls per tool',
  'external tool-server calls and servers',
  'which skills, slash commands and hooks ran',
  'autonomy levels',
  'people using the web interface',
];
const TEAM_SUMS =
  'The tool calls, skill activations, slash commands and hook executions above are the sums of the team members’ own counts.';

const USER_SERIES = [
  { key: 'mcpUsers', label: 'People using external tool servers', color: seriesColor(4), csv: 'mcp_users_with_mcp' },
  { key: 'webUsers', label: 'People using the web interface', color: seriesColor(5), csv: 'web_users' },
];

type Answer = { data: readonly ToolDay[] };
type ActivityAnswer = { data: readonly ActivityDay[] };
type ToolNameRow = { date: string; group_key: string; tool_calls: number };
// Selectors are stable functions: a page's re-render (a new URL, another answer) does not shape an answer again.
const selectTotals = (r: Answer) => toolTotals(r.data);
const selectTools = (r: Answer) => byTool(r.data);
const selectSkills = (r: Answer) => bySkill(r.data);
const selectSlash = (r: Answer) => bySlashCommand(r.data);
const selectHooks = (r: Answer) => byHook(r.data);
const selectTurns = (r: ActivityAnswer) => userTurns(r.data);
const hookKey = (h: HookTotal) => `${h.event}|${h.matcher}|${h.command}`;

export default function ToolsPage() {
  const { range } = useRange();
  const [teams] = useTeams();
  // A team's answer has no per-tool, per-server, per-name or autonomy-level figures, nor web users: the
  // service gives them for the whole organization only, and the page lists them in one note.
  const teamed = teams.length > 0;
  const prevRange = previousPeriod(range);
  const [servers, setServers] = useSearchParam('servers');
  const base = { ...analyticsQuery('tools', range, '', teams), placeholderData: keepPreviousData };
  const totals = useQuery({ ...base, select: selectTotals });
  const prev = useQuery({
    ...analyticsQuery('tools', prevRange ?? range, '', teams),
    enabled: prevRange !== null,
    select: selectTotals,
  });
  // Tool calls per user turn over the range divides by the user messages of `/activity` (the same answer the
  // activity page shows, shared in the cache), for the organization or the teams chosen alike.
  const turns = useQuery({
    ...analyticsQuery('activity', range, '', teams),
    placeholderData: keepPreviousData,
    select: selectTurns,
  });
  const prevTurns = useQuery({
    ...analyticsQuery('activity', prevRange ?? range, '', teams),
    enabled: prevRange !== null,
    select: selectTurns,
  });
  const daily = useQuery({
    ...base,
    select: useCallback((r: Answer) => toolDailyPoints(range, r.data), [range]),
  });
  const tools = useQuery({ ...base, select: selectTools });
  const skills = useQuery({ ...base, select: selectSkills });
  const slash = useQuery({ ...base, select: selectSlash });
  const hooks = useQuery({ ...base, select: selectHooks });
  const split = servers === 'split';
  const serverRows = useQuery({
    ...base,
    select: useCallback((r: Answer) => byServer(r.data, split).rows, [split]),
  });
  const serverMerges = useQuery({
    ...base,
    select: useCallback((r: Answer) => [...byServer(r.data, split).merged.entries()], [split]),
  });
  const perTool = useQuery({
    ...analyticsQuery('tools', range, 'tool_name'),
    enabled: !teamed,
    placeholderData: keepPreviousData,
    select: useCallback(
      (r: { data: readonly ToolNameRow[] }) => pivotTopN(range, r.data, (g) => g.tool_calls, 7).points,
      [range],
    ),
  });
  const perToolKeys = pointKeys(perTool.data);
  const t = totals.data;
  const p = prev.data;
  const ratio = (calls: number | undefined, userMessages: number | undefined) =>
    calls === undefined || userMessages === undefined ? undefined : toolCallsPerTurn(calls, userMessages);
  const file = (name: string) => `${name}${teamsFileTag(teams)}-${range.start}-${range.end}`;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Tools" teams={teams} howToRead={HOW_TO_READ}>
        <IntervalSwitch />
      </PageHeader>
      <KpiGrid
        hasPrevious={prevRange !== null}
        items={[
          { ...definedAs(DEFINITIONS.toolCalls), value: t?.toolCalls, previous: p?.toolCalls },
          ...(teamed
            ? []
            : [{ ...definedAs(DEFINITIONS.externalToolServerCalls), value: t?.mcpCalls, previous: p?.mcpCalls }]),
          { ...definedAs(DEFINITIONS.skillActivations), value: t?.skills, previous: p?.skills },
          { ...definedAs(DEFINITIONS.slashCommands), value: t?.slash, previous: p?.slash },
          { ...definedAs(DEFINITIONS.hookExecutions), value: t?.hooks, previous: p?.hooks },
          {
            label: DEFINITIONS.toolCallsPerTurn.label,
            value: ratio(t?.toolCalls, turns.data),
            previous: ratio(p?.toolCalls, prevTurns.data),
            format: ratioFormat,
            hint: 'over the range',
            definition: DEFINITIONS.toolCallsPerTurn,
          },
        ]}
      />
      {teamed ? (
        <OrgOnlySummary figures={ORG_ONLY_FIGURES} why={TEAM_SUMS} />
      ) : (
        <TimeSeriesWidget
          title="Tool calls per tool"
          description="Stacked; the seven most used tools of the range, the rest as Other."
          query={perTool}
          kind="area"
          stacked
          series={groupSeries(perToolKeys)}
          filename={file('tool-calls-per-tool')}
          what="Tool calls per tool"
        />
      )}
      <BelowTheFold>
        {!teamed && (
          <>
            <div className="grid gap-4 lg:grid-cols-2">
              <BreakdownWidget
                id="tools"
                title="Tools"
                nameHeader="Tool"
                valueHeader="Calls"
                query={tools}
                filename={file('tools')}
                footnote="Names are shown as the service reports them, including rare parsing artifacts."
              />
              <BreakdownWidget
                id="servers"
                title="External tool servers"
                nameHeader="Server"
                valueHeader="Calls"
                query={serverRows}
                filename={file(split ? 'tool-servers-split' : 'tool-servers')}
                actions={
                  <label className="flex items-center gap-1 text-xs text-fg-soft">
                    <input
                      type="checkbox"
                      checked={split}
                      onChange={(e) => setServers(e.target.checked ? 'split' : 'merged')}
                    />
                    Show case variants apart
                  </label>
                }
                footnote={
                  !split && serverMerges.data?.length
                    ? `Merged names that differ only in letter case: ${serverMerges.data.map(([name, all]) => `${name} (${all.join(', ')})`).join('; ')}.`
                    : split
                      ? 'Names are shown exactly as reported; some differ only in letter case.'
                      : undefined
                }
              />
              <BreakdownWidget
                id="skills"
                title="Skills"
                nameHeader="Skill"
                valueHeader="Activations"
                query={skills}
                filename={file('skills')}
              />
              <BreakdownWidget
                id="slash"
                title="Slash commands"
                nameHeader="Command"
                valueHeader="Uses"
                query={slash}
                filename={file('slash-commands')}
              />
            </div>
            <TableWidget
              id="hooks"
              title="Hooks"
              description="Hook executions per event, matcher and command."
              query={hooks}
              columns={HOOK_COLUMNS}
              rowKey={hookKey}
              defaultSort={{ column: 'count', dir: 'desc' }}
              filename={`${file('hooks')}`}
              emptyText="No hook ran in this range."
            />
          </>
        )}
        <div className="grid gap-4 lg:grid-cols-2">
          <TimeSeriesWidget
            title="Autonomy (the service’s figure): tool calls per user turn"
            description="The service's own figure: each day, the average, median and 90th percentile over that day's people of each person's ratio. The card above divides the range's sums instead."
            query={daily}
            kind="line"
            series={[
              { key: 'ratioAvg', label: 'Average', color: seriesColor(0), csv: 'autonomy_ratio_avg' },
              { key: 'ratioP50', label: 'Median', color: seriesColor(1), csv: 'autonomy_ratio_p50' },
              { key: 'ratioP90', label: '90th percentile', color: seriesColor(2), csv: 'autonomy_ratio_p90' },
            ]}
            rollup={{ ratioAvg: 'mean', ratioP50: 'mean', ratioP90: 'mean' }}
            filename={file('autonomy-ratio')}
            what="Tool calls per user turn"
            footnote="Weekly values are the mean of the week's days."
          />
          {!teamed && (
            <TimeSeriesWidget
              title="Autonomy levels"
              description="Share of tool calls by autonomy level (100 % stacked)."
              query={daily}
              kind="area"
              percent
              series={[
                { key: 'autoHigh', label: 'Auto high', color: seriesColor(0), csv: 'auto_high' },
                { key: 'autoMedium', label: 'Auto medium', color: seriesColor(1), csv: 'auto_medium' },
                { key: 'autoLow', label: 'Auto low', color: seriesColor(2), csv: 'auto_low' },
                { key: 'manual', label: 'Manual', color: seriesColor(7), csv: 'manual' },
              ]}
              filename={file('autonomy-levels')}
              what="Share of tool calls by autonomy level"
            />
          )}
          <TimeSeriesWidget
            title="Per session"
            description="Average tool calls and user turns per session."
            query={daily}
            kind="line"
            series={[
              {
                key: 'callsPerSession',
                label: 'Tool calls per session',
                color: seriesColor(0),
                csv: 'tool_calls_per_session_avg',
              },
              {
                key: 'turnsPerSession',
                label: 'User turns per session',
                color: seriesColor(3),
                csv: 'user_turns_per_session_avg',
              },
            ]}
            rollup={{ callsPerSession: 'mean', turnsPerSession: 'mean' }}
            filename={file('per-session')}
            what="Tool calls and user turns per session"
          />
          <TimeSeriesWidget
            title={teamed ? 'People using external tool servers' : 'People using tool servers or the web interface'}
            description="Distinct people per day."
            query={daily}
            kind="line"
            series={teamed ? USER_SERIES.slice(0, 1) : USER_SERIES}
            rollup={{ mcpUsers: 'mean', webUsers: 'mean' }}
            filename={file(teamed ? 'tool-server-users' : 'tool-server-and-web-users')}
            what={
              teamed ? 'People using external tool servers' : 'People using external tool servers or the web interface'
            }
            footnote="Weekly values are the average people per day (people are not summed across days)."
            className={teamed ? 'lg:col-span-2' : undefined}
          />
        </div>
      </BelowTheFold>
    </div>
  );
}
