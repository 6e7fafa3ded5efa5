import { LEVEL_NAMES } from '../../api/criteria';
import { Widget } from '../../components/Widget';
import { formatPercent } from '../../lib/format';
import { TARGET_LEVEL, levelRule, targetSentence, type LevelSpread } from '../../lib/readiness';

export const LEVEL_COLORS = ['var(--level-1)', 'var(--level-2)', 'var(--level-3)', 'var(--level-4)', 'var(--level-5)'];
const LEVELS = [1, 2, 3, 4, 5] as const;

/** The target in a sentence, green when met and red when not. */
export function TargetLine({ spread }: { spread: LevelSpread }) {
  const tone = spread.met === null ? 'text-fg-muted' : spread.met ? 'text-success' : 'text-danger';
  return (
    <p className={`text-sm font-medium ${tone}`} data-testid="readiness-target">
      {spread.met === null ? '' : spread.met ? '✓ ' : '✗ '}
      {targetSentence(spread, LEVEL_NAMES[TARGET_LEVEL] ?? '')}
    </p>
  );
}

/** The repositories per level as one bar of coloured parts (drawn only: the numbers are said beside it). */
export function SpreadBar({ spread, className = 'h-3 w-full' }: { spread: LevelSpread; className?: string }) {
  return (
    <span className={`flex overflow-hidden rounded bg-line ${className}`} aria-hidden>
      {spread.counts.map((n, i) =>
        n ? <span key={i} style={{ width: `${spread.shares[i]! * 100}%`, background: LEVEL_COLORS[i] }} /> : null,
      )}
    </span>
  );
}

/**
 * How many repositories stand at each level, what each level means (its name, and the pass rate that puts a
 * repository there), and whether the target (level 3 or above, the usual target) is met. In place of a mean
 * of levels, which hides both.
 */
export function LevelSpreadWidget({
  spread,
  status,
}: {
  spread: LevelSpread | undefined;
  status: { error: unknown; isFetching: boolean; refetch: () => unknown };
}) {
  return (
    <Widget
      title="Repositories per level"
      description={`Each repository at the level of its latest report. A level comes from the pass rate over every criterion evaluated (each weighs the same); level ${TARGET_LEVEL} · ${LEVEL_NAMES[TARGET_LEVEL]} is the usual target.`}
      query={{ ...status, data: spread, status: spread ? 'success' : 'pending' }}
      isEmpty={(s) => s.total === 0}
      emptyText="No readiness report yet."
      csv={(s) => ({
        filename: 'repositories-per-level.csv',
        header: ['level', 'name', 'rule', 'repositories', 'share', 'at_or_above_target'],
        rows: LEVELS.map((l) => [
          l,
          LEVEL_NAMES[l] ?? '',
          levelRule(l),
          s.counts[l - 1]!,
          s.shares[l - 1]!,
          l >= TARGET_LEVEL,
        ]),
      })}
    >
      {(s) => (
        <div className="flex flex-col gap-3">
          <TargetLine spread={s} />
          <SpreadBar spread={s} />
          <table className="w-full text-sm" aria-label="Repositories per level">
            <thead>
              <tr className="border-b border-line text-left text-xs text-fg-subtle">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Level and what it means
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Repositories
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {[...LEVELS].reverse().map((l) => (
                <tr
                  key={l}
                  className={`border-b border-line-subtle align-top ${l === TARGET_LEVEL ? 'border-b-2 border-b-line-strong' : ''}`}
                >
                  <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                    <span className="flex items-start gap-2">
                      <span
                        aria-hidden
                        className="mt-1 inline-block h-3 w-3 shrink-0 rounded-sm"
                        style={{ background: LEVEL_COLORS[l - 1] }}
                      />
                      <span>
                        <span className="font-medium">
                          {l} · {LEVEL_NAMES[l]}
                        </span>
                        {l === TARGET_LEVEL && (
                          <span className="ml-2 rounded bg-surface-muted px-1.5 py-0.5 text-xs text-fg-soft">
                            target
                          </span>
                        )}
                        <span className="block text-xs text-fg-subtle">{levelRule(l)}</span>
                      </span>
                    </span>
                  </th>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{s.counts[l - 1]}</td>
                  <td className="py-1.5 text-right tabular-nums">{formatPercent(s.shares[l - 1])}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="text-fg-muted">
                <th scope="row" className="py-1.5 pr-2 text-left font-medium">
                  At level {TARGET_LEVEL} or above
                </th>
                <td className="py-1.5 pr-2 text-right font-medium tabular-nums">{s.atTarget}</td>
                <td className="py-1.5 text-right font-medium tabular-nums">{formatPercent(s.atTargetShare)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Widget>
  );
}
