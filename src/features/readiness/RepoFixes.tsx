import { CRITERIA_BY_ID, LEVEL_NAMES } from '../../api/criteria';
import type { ReadinessReport } from '../../api/schemas';
import { formatPercent } from '../../lib/format';
import { nextLevelPlan } from '../../lib/readiness';

/**
 * A repository's next-level plan (lib/readiness.ts): the fewest failing criteria that take this report
 * to its next level, those failing in the fewest applications first.
 */
export function RepoFixes({ report }: { report: ReadinessReport }) {
  const plan = nextLevelPlan(report);
  return (
    <section
      aria-label="What to fix next"
      className="min-w-0 rounded-lg border [overflow-wrap:anywhere] border-line bg-surface p-4 text-sm shadow-sm"
    >
      <h2 className="mb-2 text-base font-semibold">What to fix next</h2>
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
            {plan.level} ({formatPercent(plan.passRate)}) to level {plan.reaches} · {LEVEL_NAMES[plan.reaches]} (
            {formatPercent(plan.passRateAfter)}):
          </p>
          <ol className="flex list-decimal flex-col gap-1 pl-5">
            {plan.steps.map((s) => {
              const known = CRITERIA_BY_ID.get(s.id);
              return (
                <li key={s.id}>
                  <span className="font-medium">{known?.name ?? s.id}</span>{' '}
                  <span className="text-fg-muted">
                    {s.numerator}/{s.denominator}
                    {s.denominator > 1 ? ` · failing in ${s.failingApps} of ${s.denominator} applications` : ''}
                    {known ? ` · level ${known.level} · ${known.pillar}` : ''}
                  </span>
                </li>
              );
            })}
          </ol>
          <p className="mt-2 text-xs text-fg-subtle">
            The fewest criteria that reach the next level; among as few, those failing in the fewest applications.
          </p>
        </>
      )}
    </section>
  );
}
