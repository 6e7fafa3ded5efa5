import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import {
  GOAL_AHEAD_DAYS,
  GOAL_KIND_INFO,
  GOAL_KINDS,
  GOAL_SOONEST_DAYS,
  GOALS_PATH,
  goalPath,
  type Goal,
  type GoalKind,
  type GoalsAnswer,
} from '../../api/goals';
import { MarksList, marksCell, placeMarks } from '../../components/ChartMarks';
import { DataTable, type Column } from '../../components/DataTable';
import { DefinitionTip } from '../../components/Definition';
import { failure, primaryClass, secondaryClass } from '../../components/MarkForm';
import { TimeSeriesChart, seriesColor, type ValueFormat } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { useAppConfig } from '../../data/config';
import { marksQuery, mayWriteMark } from '../../data/marks';
import { useReader } from '../../data/me';
import { sendJson } from '../../data/send';
import { addDays, formatDayLong, minDay, type Day } from '../../lib/dates';
import { DEFINITIONS, labelled } from '../../lib/definitions';
import { GOAL_STATUS_WORDS, type GoalStatus, type GoalWeek } from '../../lib/goals';
import { GOALS_KEY, goalsQuery } from './queries';
import { goalDay, goalPoints, goalShare, goalSummary } from './goal-shaping';
import { TableToggle } from '../../components/TableToggle';

const STATUS_CLASS: Record<GoalStatus, string> = {
  'on-course': 'bg-success-surface text-success-fg',
  met: 'bg-success-surface text-success-fg',
  'off-course': 'bg-danger-surface text-danger-fg',
  missed: 'bg-danger-surface text-danger-fg',
  unknown: 'bg-surface-muted text-fg-soft',
};

/** The chart's lines: the weeks counted solid, the line to the goal and the projection dashed apart. */
const seriesOf = (kind: GoalKind) => [
  { key: 'actual', label: GOAL_KIND_INFO[kind].label, color: seriesColor(0) },
  { key: 'line', label: DEFINITIONS.lineToTheGoal.label, color: seriesColor(2), dash: '6 4' },
  { key: 'projection', label: DEFINITIONS.goalProjection.label, color: seriesColor(4), dash: '2 3' },
];
/** The CSV's name of each kind's weekly value. */
const CSV_VALUE: Record<GoalKind, string> = {
  'weekly-active': 'members_weekly_active',
  'moderate-or-above': 'active_moderate_or_above',
};
const SHARE: ValueFormat = { axis: (n) => goalShare(n), value: (n) => goalShare(n) };

const fieldClass = 'rounded border border-line-strong bg-surface px-2 py-1 text-sm text-fg';

const columnsOf = (kind: GoalKind): Column<GoalWeek>[] => [
  { id: 'week', header: 'Week (from Monday)', value: (w) => w.week, render: (w) => formatDayLong(w.week) },
  {
    id: 'actual',
    ...labelled(GOAL_KIND_INFO[kind]),
    value: (w) => w.actual,
    numeric: true,
    render: (w) => goalShare(w.actual),
  },
  {
    id: 'line',
    ...labelled(DEFINITIONS.lineToTheGoal),
    value: (w) => w.line,
    numeric: true,
    render: (w) => goalShare(w.line),
  },
  {
    id: 'projection',
    ...labelled(DEFINITIONS.goalProjection),
    value: (w) => w.projection,
    numeric: true,
    render: (w) => goalShare(w.projection),
  },
];

/** A goal's status as a small badge. */
export function GoalBadge({ status }: { status: GoalStatus }) {
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_CLASS[status]}`}
    >
      {GOAL_STATUS_WORDS[status].replace(/^./, (c) => c.toUpperCase())}
    </span>
  );
}

/**
 * A team's goal on its page: each whole week's share against the straight line to the goal and the projection, the
 * team's marks on their weeks, its table view and CSV, and the form to set, change or remove it for whoever may.
 */
export function GoalWidget({ team, name }: { team: string; name: string }) {
  const goals = useQuery(goalsQuery(team));
  const answer = goals.data;
  const goal = answer?.goals.find((g) => g.team === team);
  const [asTable, setAsTable] = useState(false);
  const [editing, setEditing] = useState(false);
  const weeks = goal?.progress?.weeks;
  const points = useMemo(() => goalPoints(weeks ?? []), [weeks]);
  const kind = goal?.kind ?? 'weekly-active';
  const series = useMemo(() => seriesOf(kind), [kind]);
  const columns = useMemo(() => columnsOf(kind), [kind]);
  // The marks of the goal's weeks, to the latest day (the marks are of days with data).
  const { teams: stored, signIn } = useAppConfig();
  // A new goal is set by whoever may mark the team's charts: the server's rule for both (admins, the team's managers).
  const mayAdd = mayWriteMark(useReader(), signIn, team);
  const span = weeks && answer && { start: weeks[0]!.week, end: minDay(answer.latest, addDays(weeks.at(-1)!.week, 6)) };
  const marks = useQuery({
    ...marksQuery(span ?? { start: '', end: '' }, [team]),
    enabled: stored && span !== undefined && span !== null && span.start <= span.end,
  }).data?.marks;
  const placed = useMemo(() => placeMarks(marks ?? [], points, true), [marks, points]);
  const title = 'Goal';
  // No goal, and none the reader may set: nothing to show.
  if (answer && !goal && !mayAdd) return null;
  return (
    <Widget
      title={title}
      description={
        goal
          ? `${GOAL_KIND_INFO[goal.kind].label} of ${name}, per whole week, against the straight line to the goal and the projection of the last weeks.`
          : `A share of ${name}'s members weekly active, or of its active people at Moderate or above, to reach by a date, drawn week by week against a straight line to it.`
      }
      query={goals}
      csv={() => ({
        filename: `team-${team.replace(/[^\w.-]+/g, '-')}-goal.csv`,
        header: ['week', CSV_VALUE[kind], 'goal_line', 'projection', 'marks'],
        rows: (weeks ?? []).map((w) => [w.week, w.actual, w.line, w.projection, marksCell(placed, w.week)]),
      })}
      actions={goal?.progress && <TableToggle what="the goal" pressed={asTable} onChange={setAsTable} />}
    >
      {(a) => (
        <div className="flex flex-col gap-3">
          {goal ? (
            <GoalHeadline goal={goal} latest={a.latest} />
          ) : (
            <p className="text-sm text-fg-muted">No goal is set for {name}.</p>
          )}
          {goal?.progress &&
            (asTable ? (
              <>
                <DataTable
                  id="goalWeeks"
                  caption={`The goal of ${name}, per week`}
                  columns={columns}
                  rows={goal.progress.weeks}
                  rowKey={(w) => w.week}
                  defaultSort={{ column: 'week', dir: 'asc' }}
                />
                <MarksList placed={placed} />
              </>
            ) : (
              <TimeSeriesChart
                data={points}
                series={series}
                kind="line"
                fractions
                format={SHARE}
                xTooltipFormat={(x) => `Week of ${formatDayLong(x)}`}
                marks={placed}
                summary={goalSummary(goal, name, a.latest)}
              />
            ))}
          {goal && !goal.progress && goal.reason && (
            <p role="note" className="rounded bg-warning-surface p-2 text-sm text-warning-fg">
              {goal.reason}
            </p>
          )}
          <HowCounted kinds={goal ? [goal.kind] : GOAL_KINDS} />
          <GoalEditor team={team} goal={goal} answer={a} editing={editing} setEditing={setEditing} mayAdd={mayAdd} />
        </div>
      )}
    </Widget>
  );
}

/** The goal in a line: its target, date and status, where it stands and where the projection leads. */
function GoalHeadline({ goal, latest }: { goal: Goal; latest: Day }) {
  const p = goal.progress;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-fg">
        <span>
          <strong>{goalShare(goal.target)}</strong> of {GOAL_KIND_INFO[goal.kind].label.toLowerCase()} by{' '}
          <strong>{goalDay(goal.by, latest)}</strong>
        </span>
        {p && <GoalBadge status={p.status} />}
      </p>
      {p && (
        <p className="text-fg-muted">
          {p.current
            ? `${goalShare(p.current.value)} in the week of ${formatDayLong(p.current.week)}`
            : 'No whole week yet'}
          {p.projected !== null &&
            ` · projected ${goalShare(p.projected)} in the week of ${formatDayLong(p.targetWeek)}`}
          {p.status === 'unknown' && p.projected === null && ' · too early to project: fewer than two whole weeks'}
          {` · set from the week of ${formatDayLong(goal.startWeek)}`}
        </p>
      )}
    </div>
  );
}

/** How the figures are counted: the share (of each kind offered), the line and the projection. */
function HowCounted({ kinds }: { kinds: readonly GoalKind[] }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-fg-soft">How this is counted</summary>
      <dl className="mt-2 flex flex-col gap-2 text-fg-muted">
        {[...kinds.map((k) => GOAL_KIND_INFO[k]), DEFINITIONS.lineToTheGoal, DEFINITIONS.goalProjection].map((d) => (
          <div key={d.label}>
            <dt className="font-medium text-fg">{d.label}</dt>
            <dd>{d.meaning}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** Set, change or remove the goal: for whoever may (the server says `editable`; a new one, the reader's role). */
function GoalEditor({
  team,
  goal,
  answer,
  editing,
  setEditing,
  mayAdd,
}: {
  team: string;
  goal: Goal | undefined;
  answer: GoalsAnswer;
  editing: boolean;
  setEditing: (e: boolean) => void;
  mayAdd: boolean;
}) {
  const client = useQueryClient();
  const done = () => {
    setEditing(false);
    return client.invalidateQueries({ queryKey: GOALS_KEY });
  };
  const save = useMutation({
    mutationFn: (body: { kind: GoalKind; target: number; by: Day }) =>
      goal ? sendJson('PUT', goalPath(goal.id), body) : sendJson('POST', GOALS_PATH, { team, ...body }),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: () => sendJson('DELETE', goalPath(goal!.id)), onSuccess: done });
  const may = goal ? goal.editable : mayAdd;
  if (!may) return null;
  if (!editing)
    return (
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={secondaryClass}
          onClick={() => {
            save.reset();
            setEditing(true);
          }}
        >
          {goal ? 'Change the goal' : 'Set a goal'}
        </button>
        {goal && (
          <button
            type="button"
            className={secondaryClass}
            aria-disabled={remove.isPending || undefined}
            onClick={() => !remove.isPending && remove.mutate()}
          >
            {remove.isPending ? 'Removing…' : 'Remove the goal'}
          </button>
        )}
        {remove.isError && (
          <p role="alert" className="w-full rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
            {failure(remove.error)}
          </p>
        )}
      </div>
    );
  return (
    <GoalForm
      initial={goal}
      latest={answer.latest}
      pending={save.isPending}
      error={save.isError ? failure(save.error) : null}
      onSubmit={(b) => save.mutate(b)}
      onCancel={() => setEditing(false)}
    />
  );
}

function GoalForm({
  initial,
  latest,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial: Goal | undefined;
  latest: Day;
  pending: boolean;
  error: string | null;
  onSubmit: (b: { kind: GoalKind; target: number; by: Day }) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const soonest = addDays(latest, GOAL_SOONEST_DAYS);
  const [kind, setKind] = useState<GoalKind>(initial?.kind ?? 'weekly-active');
  const [percent, setPercent] = useState(initial ? String(Number((initial.target * 100).toFixed(1))) : '');
  const [by, setBy] = useState(initial && initial.by >= soonest ? initial.by : '');
  return (
    <form
      aria-label={initial ? 'Change the goal' : 'Set a goal'}
      className="flex flex-col gap-2 rounded border border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onSubmit({ kind, target: Number(percent) / 100, by });
      }}
    >
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm text-fg-soft">
          Share of
          <select value={kind} onChange={(e) => setKind(e.target.value as GoalKind)} className={fieldClass}>
            {GOAL_KINDS.map((k) => (
              <option key={k} value={k}>
                {GOAL_KIND_INFO[k].label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm text-fg-soft">
          Target (%)
          <input
            type="number"
            required
            min={0.1}
            max={100}
            step={0.1}
            inputMode="decimal"
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
            className={`${fieldClass} w-24`}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm text-fg-soft">
          By (UTC)
          <input
            type="date"
            required
            min={soonest}
            max={addDays(latest, GOAL_AHEAD_DAYS)}
            value={by}
            onChange={(e) => setBy(e.target.value)}
            aria-describedby={`${id}-hint`}
            className={fieldClass}
          />
        </label>
      </div>
      <p id={`${id}-hint`} className="flex items-center gap-1 text-xs text-fg-subtle">
        From {formatDayLong(soonest)} to a year on; read in the last whole week ending by then. The line starts from the
        latest whole week.
        <DefinitionTip definition={DEFINITIONS.lineToTheGoal} />
      </p>
      {error && (
        <p role="alert" className="rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        {/* Not disabled while sending: a disabled button would drop the keyboard focus. */}
        <button type="submit" className={primaryClass} aria-disabled={pending || undefined}>
          {pending ? 'Saving…' : initial ? 'Save the goal' : 'Set the goal'}
        </button>
        <button type="button" className={secondaryClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
