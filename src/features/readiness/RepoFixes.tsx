import { CRITERIA_BY_ID, LEVEL_NAMES } from '../../api/criteria';
import type { ReadinessReport } from '../../api/schemas';
import { downloadCsv } from '../../components/download';
import { formatPercent } from '../../lib/format';
import type { NextLevelPlan } from '../../lib/readiness';
import { criterionName, OTHER_PILLAR } from './history';

/** Opens a criterion of the scorecard (its rationale shown) and brings it into view. */
function openCriterion(e: React.MouseEvent, id: string) {
  const item = document.getElementById(`criterion-${id}`);
  if (!item) return;
  e.preventDefault();
  const details = item.querySelector('details');
  if (details) details.open = true;
  item.scrollIntoView?.({ block: 'center' });
}

/**
 * A repository's next-level plan (lib/readiness.ts, nextLevelPlan): the fewest failing criteria that take
 * this report to its next level, the lowest levels first, each named as the scorecard names it. The
 * scorecard marks the same criteria.
 */
export function RepoFixes({
  report,
  plan,
  earlier,
  repo,
}: {
  report: ReadinessReport;
  /** The repository's key, for the CSV's name. */
  repo: string;
  plan: NextLevelPlan | null;
  /** The report shown is not the repository's latest. */
  earlier: boolean;
}) {
  return (
    <section
      aria-label="What to fix first"
      className="min-w-0 rounded-lg border-2 [overflow-wrap:anywhere] border-accent bg-surface p-4 text-sm shadow-sm"
    >
      <h2 className="mb-2 text-base font-semibold">What to fix first</h2>
      {!plan ? (
        <p className="text-fg-muted">
          {Object.values(report.report).some((c) => c.numerator !== null)
            ? 'At the top level: nothing left to reach.'
            : 'Every criterion was skipped: there is no pass rate to raise.'}
        </p>
      ) : (
        <>
          <p className="mb-2">
            Fix {plan.steps.length === 1 ? 'this criterion' : `these ${plan.steps.length} criteria`} to go from level{' '}
            {plan.level} · {LEVEL_NAMES[plan.level]} ({formatPercent(plan.passRate)}) to level {plan.reaches} ·{' '}
            {LEVEL_NAMES[plan.reaches]} ({formatPercent(plan.passRateAfter)})
            {earlier ? ', as of this earlier report' : ''}:
          </p>
          <ol className="flex list-decimal flex-col gap-1 pl-5">
            {plan.steps.map((s) => {
              const known = CRITERIA_BY_ID.get(s.id);
              return (
                <li key={s.id}>
                  <a
                    href={`#criterion-${s.id}`}
                    onClick={(e) => openCriterion(e, s.id)}
                    className="font-medium text-accent-strong underline"
                  >
                    {criterionName(s.id)}
                  </a>{' '}
                  <span className="text-fg-muted">
                    {known ? `level ${known.level} · ${known.pillar}` : `${OTHER_PILLAR}, not in the known list`} ·{' '}
                    {s.numerator}/{s.denominator}
                    {s.denominator > 1 ? ` · failing in ${s.failingApps} of ${s.denominator} applications` : ''}
                  </span>
                </li>
              );
            })}
          </ol>
          <p className="mt-2 text-xs text-fg-subtle">
            The fewest failing criteria that reach level {plan.level + 1}, by level: among as few, the lowest levels (a
            higher one only when no plan as short does without it), then those failing in the fewest applications. They
            are marked “fix first” in the scorecard below.{' '}
            <button
              type="button"
              className="font-medium text-accent-strong underline"
              onClick={() => downloadPlan(repo, report, plan)}
            >
              Download the plan as CSV
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/** The plan as CSV: one row per criterion to fix, in the plan's order, with the levels it goes between. */
function downloadPlan(repo: string, report: ReadinessReport, plan: NextLevelPlan) {
  downloadCsv(
    `readiness-plan-${repo.replaceAll('/', '_')}-${report.reportId}.csv`,
    [
      'step',
      'criterion',
      'name',
      'level',
      'pillar',
      'numerator',
      'denominator',
      'failing_apps',
      'from_level',
      'to_level',
    ],
    plan.steps.map((s, i) => {
      const known = CRITERIA_BY_ID.get(s.id);
      return [
        i + 1,
        s.id,
        criterionName(s.id),
        known?.level ?? '',
        known?.pillar ?? '',
        s.numerator,
        s.denominator,
        s.failingApps,
        plan.level,
        plan.reaches,
      ];
    }),
  );
}
