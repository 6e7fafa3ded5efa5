/** Test data for the teams pages: a small organization's summary, as the server would answer it. */
import type { Goal } from '../../api/goals';
import { lastWholeWeek, type GoalStatus } from '../../lib/goals';
import type { TeamFigures, TeamSummaryRow, TeamsSummary } from '../../api/teams';
import { changeOf, valueOf, type MeasureId } from '../../lib/measures';

export function figures(over: Partial<TeamFigures> = {}): TeamFigures {
  const f = {
    members: 10,
    active: 5,
    credits: 1_000,
    toolCalls: 300,
    userMessages: 100,
    sessions: 40,
    commits: 12,
    prs: 3,
    ...over,
  };
  // The ratios as the server's runner makes them (lib/measures.ts); no spend without a price list.
  const of = (m: MeasureId) => (f as Record<string, number>)[m] ?? 0;
  return {
    adoption: valueOf('adoption', of),
    creditsPerActive: valueOf('creditsPerActive', of),
    toolCallsPerTurn: valueOf('toolCallsPerTurn', of),
    creditsPerCommit: valueOf('creditsPerCommit', of),
    creditsPerPr: valueOf('creditsPerPr', of),
    spend: null,
    spendPerActive: null,
    spendPerCommit: null,
    spendPerPr: null,
    ...f,
  };
}

/** Each figure's change from `before` to `now`, as the server gives it. */
export const changes = (now: TeamFigures, before: TeamFigures | null) =>
  before &&
  Object.fromEntries(
    Object.keys(now).map((k) => [
      k,
      changeOf(now[k as keyof TeamFigures] as number | null, before[k as keyof TeamFigures] as number | null),
    ]),
  );

export function summaryRow(
  team: string,
  over: Partial<Omit<TeamSummaryRow, 'current' | 'previous'>> & {
    current?: Partial<TeamFigures>;
    previous?: Partial<TeamFigures> | null;
  } = {},
): TeamSummaryRow {
  const parts = team ? team.split('/') : [];
  const { current, previous, ...rest } = over;
  const now = figures(current);
  const before = previous === null ? null : figures(previous ?? current);
  return {
    team,
    name: parts.at(-1) ?? 'Acme',
    depth: parts.length,
    parent: parts.length > 1 ? parts.slice(0, -1).join('/') : null,
    hasChildren: false,
    managers: [],
    current: now,
    previous: before,
    change: changes(now, before),
    trend: [100, 200, 300, 400],
    ...rest,
  };
}

/**
 * Engineering (Platform (Infra), Apps), Sales, "R&D Lab", Unassigned. By credits: Engineering, R&D
 * Lab, Sales; by adoption: Sales (90 %), Engineering (75 %), R&D Lab (50 %). Under Engineering, by
 * credits: Platform, Apps; by adoption: Apps (87.5 %), Platform (66.7 %).
 */
export const ROWS: TeamSummaryRow[] = [
  summaryRow('', {
    current: { members: 39, active: 27, credits: 71_000, sessions: 900 },
    previous: { members: 39, active: 20, credits: 50_000, sessions: 700 },
  }),
  summaryRow('Engineering', {
    hasChildren: true,
    managers: ['cto@acme.com'],
    current: { members: 20, active: 15, credits: 50_000, sessions: 600, commits: 210, prs: 44 },
    previous: { members: 20, active: 12, credits: 40_000, sessions: 500, commits: 180, prs: 40 },
  }),
  summaryRow('Engineering/Platform', {
    hasChildren: true,
    managers: ['bo@acme.com', 'cy@acme.com'],
    current: { members: 12, active: 8, credits: 40_000, toolCalls: 2_400, userMessages: 800, sessions: 320 },
    previous: { members: 12, active: 6, credits: 32_000, toolCalls: 1_800, userMessages: 900, sessions: 300 },
    trend: [1_000, 3_000, 2_000, 4_000],
  }),
  summaryRow('Engineering/Platform/Infra', {
    current: { members: 5, active: 4, credits: 25_000 },
    previous: { members: 5, active: 4, credits: 20_000 },
  }),
  summaryRow('Engineering/Apps', {
    current: { members: 8, active: 7, credits: 10_000 },
    previous: { members: 8, active: 6, credits: 8_000 },
  }),
  summaryRow('Sales', {
    current: { members: 10, active: 9, credits: 8_000 },
    previous: { members: 10, active: 9, credits: 10_000 },
  }),
  summaryRow('R&D Lab', {
    current: { members: 4, active: 2, credits: 12_000 },
    previous: { members: 4, active: 0, credits: 0 },
  }),
  summaryRow('Unassigned', {
    current: { members: 5, active: 1, credits: 1_000 },
    previous: { members: 5, active: 1, credits: 1_000 },
  }),
];

export function summary(rows: TeamSummaryRow[] = ROWS, withPrevious = true): TeamsSummary {
  return {
    range: { start: '2026-05-02', end: '2026-05-31' },
    previous: withPrevious ? { start: '2026-04-02', end: '2026-05-01' } : null,
    rows: withPrevious ? rows : rows.map((r) => ({ ...r, previous: null, change: null })),
  };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * A team's goal as `/api/goals` gives it: its latest whole week (the week of May 18) at `value`, projected to 70 %
 * in the week it is read in.
 */
export function goal(o: {
  team: string;
  target: number;
  by: string;
  status: GoalStatus;
  value: number;
  editable?: boolean;
}): Goal {
  const weeks = ['2026-04-13', '2026-04-20', '2026-04-27', '2026-05-04', '2026-05-11', '2026-05-18'];
  const targetWeek = lastWholeWeek(o.by);
  return {
    id: `goal-${o.team || 'org'}`,
    team: o.team,
    kind: 'weekly-active',
    target: o.target,
    by: o.by,
    startWeek: '2026-05-18',
    author: null,
    updatedAt: '2026-05-20T10:00:00.000Z',
    editable: o.editable ?? false,
    reason: null,
    progress: {
      startWeek: '2026-05-18',
      startValue: o.value,
      targetWeek,
      current: { week: '2026-05-18', value: o.value },
      projected: 0.7,
      fitted: 6,
      status: o.status,
      members: 20,
      weeks: [
        ...weeks.map((week, i) => ({
          week,
          actual: o.value - 0.01 * (weeks.length - 1 - i),
          line: week === '2026-05-18' ? o.value : null,
          projection: o.value,
        })),
        { week: '2026-05-25', actual: null, line: o.value + 0.01, projection: 0.65 },
        { week: targetWeek, actual: null, line: o.target, projection: 0.7 },
      ],
    },
  };
}
