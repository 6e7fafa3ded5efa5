import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { CRITERIA_BY_ID, LEVEL_NAMES } from '../../api/criteria';
import { UNOWNED } from '../../api/readiness';
import { useAppConfig } from '../../data/config';
import { useLinkTo, useSearch, useTeams } from '../../data/search';
import { CategoryBarChart } from '../../components/CategoryBarChart';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { PageHeader } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { Empty, ErrorState, Loading } from '../../components/states';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { msToDay } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { formatPercent } from '../../lib/format';
import {
  criterionRows,
  diffReports,
  keyFromParam,
  OTHER_PILLAR,
  pillarPassRates,
  type CriterionRow,
  type RepoHistory,
  type ReportDiff,
} from './history';
import {
  criterionState,
  nextLevelPlan,
  passRate,
  progressToNext,
  repoName,
  safeHref,
  type CriterionState,
} from '../../lib/readiness';
import { staleAfterOf, useRepoList } from './queries';
import { RepoFixes } from './RepoFixes';
import { StaleBadge } from './StaleBadge';
import { ownerOf } from './teams';

const STATE_STYLE: Record<CriterionState, [string, string]> = {
  passed: ['✓ Passed', 'bg-success-surface text-success-fg'],
  failed: ['✗ Failed', 'bg-danger-surface text-danger-fg'],
  skipped: ['– Skipped', 'bg-surface-muted text-fg-soft'],
};
const GROUPS = ['level', 'pillar'] as const;
const levelOf = (id: string) => CRITERIA_BY_ID.get(id)?.level;
const fmtTime = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

export default function RepoPage() {
  const { repo = '' } = useParams();
  const key = keyFromParam(repo);
  const [{ group, report: reportId, criteria: shownCriteria }, patchSearch] = useSearch();
  const setGroup = (g: (typeof GROUPS)[number]) => patchSearch({ group: g });
  const setShown = (c: typeof shownCriteria) => patchSearch({ criteria: c });
  const config = useAppConfig();
  const linkTo = useLinkTo();
  const [teams] = useTeams();
  const q = useRepoList(teams, config.teams);
  const history: RepoHistory | undefined = useMemo(() => q.list?.find((h) => h.key === key), [q.list, key]);
  const owner = ownerOf(q.owners, key);
  const index = history
    ? reportId
      ? history.reports.findIndex((s) => s.report.reportId === reportId)
      : history.reports.length - 1
    : -1;
  const current = history && index >= 0 ? history.reports[index] : undefined;
  const previous = history && index > 0 ? history.reports[index - 1] : undefined;
  const diff = useMemo(
    () => (current && previous ? diffReports(previous.report, current.report) : null),
    [current, previous],
  );
  const plan = useMemo(() => (current ? nextLevelPlan(current.report, levelOf) : null), [current]);

  if (!history) {
    if (q.error && !q.isFetching) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
    if (q.isFetching || !q.list) return <Loading label="Loading readiness reports…" />;
    return <Empty>No report for {repoName(key)}.</Empty>;
  }
  if (!current) return <Empty>That report is not one of this repository&apos;s reports.</Empty>;

  const r = current.report;
  const s = current.score;
  const href = safeHref(r.repoUrl);
  const rows = criterionRows(r);
  const previousRows = previous ? criterionRows(previous.report) : [];
  const openReport = (id: string) => patchSearch({ report: id === history.latest.report.reportId ? '' : id });
  const fixFirst = new Map(plan?.steps.map((x, i) => [x.id, i + 1]));
  const earlier = index < history.reports.length - 1;
  const failedCount = rows.filter((c) => criterionState(c.result) === 'failed').length;
  const listed = shownCriteria === 'failed' ? rows.filter((c) => criterionState(c.result) === 'failed') : rows;
  const pillars = pillarPassRates([r]);
  const overTime = history.reports.map((x) => ({
    date: msToDay(x.report.createdAt),
    passRate: x.score.passRate ?? 0,
    level: x.score.level,
  }));

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Link to={linkTo('/readiness')} className="text-accent-strong underline">
          ← All repositories
        </Link>
      </p>
      <PageHeader title={repoName(key)}>
        <label className="flex items-center gap-2 text-sm">
          <span className="text-fg-muted">Report</span>
          <select
            aria-label="Report"
            value={r.reportId}
            onChange={(e) => openReport(e.target.value)}
            className="rounded border border-line-strong px-2 py-1"
          >
            {[...history.reports].reverse().map((x, i) => (
              <option key={x.report.reportId} value={x.report.reportId}>
                {fmtTime(x.report.createdAt)} · level {x.score.level}
                {i === 0 ? ' (latest)' : ''}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      <p className="text-sm text-fg-muted">
        {href ? (
          <a href={href} target="_blank" rel="noreferrer noopener" className="text-accent-strong underline">
            {r.repoUrl}
          </a>
        ) : (
          <span>{r.repoUrl}</span>
        )}
        {owner !== undefined && (
          <span className="ml-2">
            · Owned by <span className="font-medium text-fg">{owner ?? `no team (${UNOWNED})`}</span>
          </span>
        )}
        {/* Of the repository's latest report, whichever report is open. */}
        <StaleBadge createdAt={history.latest.report.createdAt} staleAfter={staleAfterOf(q.staleAfter, key)} />
        {earlier && (
          <span className="ml-2 rounded bg-warning-surface-strong px-1.5 py-0.5 text-xs text-warning-fg">
            an earlier report
          </span>
        )}
      </p>
      {(r.hasLocalChanges || r.hasNonRemoteCommits) && (
        <p role="note" className="rounded border border-warning-line bg-warning-surface p-3 text-sm text-warning-fg">
          ⚠ Caveat: this report was made on a working copy with{' '}
          {[r.hasLocalChanges && 'uncommitted changes', r.hasNonRemoteCommits && 'commits not pushed to the remote']
            .filter(Boolean)
            .join(' and ')}
          ; its result may not match the branch as others see it.
        </p>
      )}
      <KpiGrid
        items={[
          { ...definedAs(DEFINITIONS.repoLevel), value: s.level, format: (n) => `${n} · ${LEVEL_NAMES[n]}` },
          { ...definedAs(DEFINITIONS.passRate), value: s.passRate, format: formatPercent },
          {
            ...definedAs(DEFINITIONS.toNextLevel),
            value: s.level >= 5 ? null : progressToNext(s.passRate),
            format: formatPercent,
            hint: s.level >= 5 ? 'top level' : `of the way to ${s.level + 1}`,
          },
          { ...definedAs(DEFINITIONS.passedCriteria), value: s.passed },
          { ...definedAs(DEFINITIONS.failedCriteria), value: s.failed },
          { ...definedAs(DEFINITIONS.skippedCriteria), value: s.skipped, hint: 'not counted' },
        ]}
      />
      <RepoFixes report={r} plan={plan} earlier={earlier} repo={repo} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <section
          aria-label="Report details"
          className="min-w-0 rounded-lg border [overflow-wrap:anywhere] border-line bg-surface p-4 text-sm shadow-sm"
        >
          <h2 className="mb-2 text-base font-semibold">Report details</h2>
          <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1">
            <dt className="text-fg-subtle">Evaluated</dt>
            <dd>{fmtTime(r.createdAt)}</dd>
            <dt className="text-fg-subtle">Commit</dt>
            <dd className="font-mono text-xs">{r.commitHash ?? 'not reported'}</dd>
            <dt className="text-fg-subtle">Branch</dt>
            <dd>{r.branch ?? 'not reported'}</dd>
            <dt className="text-fg-subtle">Uncommitted changes</dt>
            <dd>{r.hasLocalChanges === undefined ? 'not reported' : r.hasLocalChanges ? 'yes' : 'no'}</dd>
            <dt className="text-fg-subtle">Unpushed commits</dt>
            <dd>{r.hasNonRemoteCommits === undefined ? 'not reported' : r.hasNonRemoteCommits ? 'yes' : 'no'}</dd>
            <dt className="text-fg-subtle">Model</dt>
            <dd>
              {r.modelUsed?.id
                ? `${r.modelUsed.id}${r.modelUsed.reasoningEffort ? `, reasoning effort ${r.modelUsed.reasoningEffort}` : ''}`
                : 'not reported'}
            </dd>
            <dt className="text-fg-subtle">Agent version</dt>
            <dd>{r.agentVersion ?? 'not reported'}</dd>
            <dt className="text-fg-subtle">Report id</dt>
            <dd className="font-mono text-xs">{r.reportId}</dd>
          </dl>
          <h3 className="mt-4 mb-1 font-semibold">Applications ({Object.keys(r.apps).length})</h3>
          <ul className="list-disc pl-5">
            {Object.entries(r.apps).map(([path, app]) => (
              <li key={path}>
                <code className="text-xs">{path}</code>
                {app.description ? ` — ${app.description}` : ''}
              </li>
            ))}
          </ul>
        </section>
        <section
          aria-label="Changes since the previous report"
          className="rounded-lg border border-line bg-surface p-4 text-sm shadow-sm"
        >
          <h2 className="mb-2 text-base font-semibold">Changes since the previous report</h2>
          {!previous || !diff ? (
            <p className="text-fg-subtle">This is the repository&apos;s first report.</p>
          ) : (
            <>
              <p className="mb-2 text-fg-muted">
                Against {fmtTime(previous.report.createdAt)}: pass rate {formatPercent(previous.score.passRate)} →{' '}
                {formatPercent(s.passRate)}, level {previous.score.level} → {s.level}.
              </p>
              {diffSections(
                diff,
                (id) => nameOf(rows, id),
                (id) => nameOf(previousRows, id),
              ).map((sec) => (
                <DiffList key={sec.title} {...sec} />
              ))}
              {diff.started.length +
                diff.stopped.length +
                diff.changed.length +
                diff.added.length +
                diff.removed.length ===
                0 && <p className="text-fg-subtle">No criterion changed.</p>}
            </>
          )}
        </section>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Widget
          title="Pass rate and level over reports"
          query={{ data: overTime }}
          csv={(d) => ({
            filename: `readiness-history-${repo}.csv`,
            header: ['date', 'pass_rate', 'level'],
            rows: d.map((p) => [p.date, p.passRate, p.level]),
          })}
        >
          {(d) => (
            <>
              <TimeSeriesChart
                data={d}
                kind="line"
                series={[{ key: 'passRate', label: 'Pass rate', color: seriesColor(0) }]}
                fractions
                summary={`Pass rate over ${d.length} reports of ${repoName(key)}.`}
                height={200}
              />
              <p className="mt-1 text-xs text-fg-subtle">Levels over reports: {d.map((p) => p.level).join(' → ')}</p>
            </>
          )}
        </Widget>
        <Widget
          title="Pass rate per pillar"
          description="This report's pass rate over each pillar's criteria (skipped ones left out), weakest first."
          query={{ data: pillars }}
          isEmpty={(d) => d.length === 0}
          emptyText="Every criterion was skipped."
          csv={(d) => ({
            filename: `pillar-pass-rates-${r.reportId}.csv`,
            header: ['pillar', 'pass_rate', 'passed', 'evaluated'],
            rows: d.map((p) => [p.pillar, p.passRate, p.passed, p.evaluated]),
          })}
        >
          {(d) => (
            <CategoryBarChart
              horizontal
              data={d.map((p) => ({ label: p.pillar, value: p.passRate }))}
              format={formatPercent}
              domain={[0, 1]}
              valueName="Pass rate"
              labelWidth={150}
              summary={`Pass rate per pillar: ${d.map((p) => `${p.pillar} ${formatPercent(p.passRate)} (${p.passed} of ${p.evaluated} criteria pass)`).join(', ')}.`}
            />
          )}
        </Widget>
      </div>
      <section aria-label="Scorecard" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold">Scorecard</h2>
          <div className="flex flex-wrap gap-2">
            <Segmented
              label="Criteria shown"
              options={[
                { id: 'all', label: `All (${rows.length})` },
                { id: 'failed', label: `Failed only (${failedCount})` },
              ]}
              value={shownCriteria}
              onChange={setShown}
            />
            <Segmented
              label="Group criteria by"
              options={GROUPS.map((g) => ({ id: g, label: `By ${g}` }))}
              value={group}
              onChange={setGroup}
            />
          </div>
        </div>
        {listed.length === 0 && <p className="text-sm text-fg-muted">No criterion failed in this report.</p>}
        {groupRows(listed, group).map(([title, list]) => {
          // A group's completion is over all its criteria, whichever are shown.
          const completion = passRate(rows.filter((c) => groupOf(c, group) === title).map((c) => c.result));
          return (
            <section key={title} aria-label={title} className="mb-4">
              <h3 className="flex flex-wrap items-baseline justify-between gap-2 border-b border-line pb-1 font-semibold">
                <span>{title}</span>
                <span className="text-sm font-normal text-fg-muted">
                  {completion === null ? 'all skipped' : `${formatPercent(completion)} complete`} ·{' '}
                  {shownCriteria === 'failed' ? `${list.length} failed` : `${list.length} criteria`}
                </span>
              </h3>
              <ul>
                {list.map((c) => (
                  <CriterionItem key={c.id} c={c} fixFirst={fixFirst.get(c.id)} />
                ))}
              </ul>
            </section>
          );
        })}
      </section>
    </div>
  );
}

const groupOf = (c: CriterionRow, by: 'level' | 'pillar') =>
  by === 'level' ? (c.level ? `Level ${c.level} · ${LEVEL_NAMES[c.level]}` : OTHER_PILLAR) : c.pillar;

function groupRows(rows: readonly CriterionRow[], by: 'level' | 'pillar'): [string, CriterionRow[]][] {
  const m = new Map<string, CriterionRow[]>();
  for (const c of rows) {
    const k = groupOf(c, by);
    const list = m.get(k);
    if (list) list.push(c);
    else m.set(k, [c]);
  }
  return [...m.entries()].sort(([a], [b]) => (a === OTHER_PILLAR ? 1 : b === OTHER_PILLAR ? -1 : a.localeCompare(b)));
}

const fmtScore = (c: { numerator: number | null; denominator: number }) =>
  c.numerator === null ? `skipped (of ${c.denominator})` : `${c.numerator}/${c.denominator}`;
const nameOf = (rows: readonly CriterionRow[], id: string) => rows.find((r) => r.id === id)?.name ?? id;

function CriterionItem({ c, fixFirst }: { c: CriterionRow; fixFirst: number | undefined }) {
  const state = criterionState(c.result);
  const [label, style] = STATE_STYLE[state];
  return (
    <li id={`criterion-${c.id}`} className="scroll-mt-4 border-b border-line-subtle py-1.5 text-sm">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1">
          <span className="min-w-0 flex-1 basis-40">
            {c.name}
            {fixFirst !== undefined && (
              <span className="ml-2 rounded bg-accent-muted px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-accent-strong">
                fix first · {fixFirst}
              </span>
            )}
          </span>
          <span className="w-12 text-right tabular-nums sm:w-20">
            {c.result.numerator === null
              ? `–/${c.result.denominator}`
              : `${c.result.numerator}/${c.result.denominator}`}
          </span>
          <span className={`w-20 rounded px-1.5 py-0.5 text-center text-xs font-medium sm:w-24 ${style}`}>{label}</span>
        </summary>
        <p className="mt-1 whitespace-pre-wrap rounded bg-canvas p-2 text-fg-soft">
          {c.result.rationale || 'No rationale given.'}
        </p>
        <p className="text-xs text-fg-subtle">
          Criterion id <code>{c.id}</code>
          {c.level ? ` · level ${c.level} · ${c.pillar}` : ' · not in the known list'}
        </p>
      </details>
    </li>
  );
}

interface DiffSection {
  title: string;
  tone: string;
  mark: string;
  items: { id: string; text: string }[];
}

/** The changes since the previous report, as titled lists (empty ones are not shown). */
function diffSections(d: ReportDiff, name: (id: string) => string, oldName: (id: string) => string): DiffSection[] {
  const named = (ids: readonly string[], n = name) => ids.map((id) => ({ id, text: n(id) }));
  return [
    { title: 'Started passing', tone: 'text-success-fg', mark: '▲', items: named(d.started) },
    { title: 'Stopped passing', tone: 'text-danger-fg', mark: '▼', items: named(d.stopped) },
    {
      title: 'Score changed',
      tone: 'text-fg-soft',
      mark: '≠',
      items: d.changed.map((c) => ({ id: c.id, text: `${name(c.id)}: ${fmtScore(c.before)} → ${fmtScore(c.after)}` })),
    },
    { title: 'Newly evaluated', tone: 'text-fg-soft', mark: '+', items: named(d.added) },
    {
      title: 'No longer evaluated (not counted as failures)',
      tone: 'text-fg-soft',
      mark: '−',
      items: named(d.removed, oldName),
    },
  ];
}

function DiffList({ title, items, tone, mark }: DiffSection) {
  if (items.length === 0) return null;
  return (
    <div className="mt-2">
      <h3 className="font-medium">
        {title} ({items.length})
      </h3>
      <ul className={tone}>
        {items.map((it) => (
          <li key={it.id}>
            <span aria-hidden>{mark} </span>
            {it.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
