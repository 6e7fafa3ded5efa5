import { queryOptions, useQuery } from '@tanstack/react-query';
import { FIGURES_PATH, figuresAnswerSchema, type FiguresAnswer } from '../../api/figures';
import { Widget } from '../../components/Widget';
import { getWithLists } from '../../data/client';
import { formatDayLong, type DayRange } from '../../lib/dates';
import { DEFINITIONS, INTENSITY_CAVEAT } from '../../lib/definitions';
import { formatCompact, formatExact } from '../../lib/format';
import { BANDS, weeksTo, type Band } from '../../lib/intensity';

const BAND_DEFINITION: Record<Band, { label: string; meaning: string }> = {
  heavy: DEFINITIONS.intensityHeavy,
  moderate: DEFINITIONS.intensityModerate,
  light: DEFINITIONS.intensityLight,
  minimal: DEFINITIONS.intensityMinimal,
  none: DEFINITIONS.intensityNone,
};

/** Each band's measure (lib/measures.ts): 1 for the person's band. */
const BAND_MEASURE = (b: Band) => `intensity${b[0]!.toUpperCase()}${b.slice(1)}`;
const MEASURES = ['intensityCredits', ...BANDS.map(BAND_MEASURE)];

/** `GET /api/figures?user=`: a person's credits over the four whole weeks to the range's end, and the thresholds. */
export const personIntensityQuery = (userId: string, r: DayRange) =>
  queryOptions({
    queryKey: ['figures', 'intensity', userId, { start: r.start, end: r.end }],
    queryFn: ({ signal }) =>
      getWithLists(
        FIGURES_PATH,
        figuresAnswerSchema,
        { measure: MEASURES, by: 'total', compare: 'none', start: r.start, end: r.end, user: userId },
        signal,
      ),
    staleTime: 5 * 60_000,
  });

/** The person's band as the server placed them, and their credits of the four weeks; none without thresholds. */
export function personBand(a: FiguresAnswer): { band: Band; credits: number } | null {
  const c = a.rows[0]?.current;
  const band = c && BANDS.find((b) => c[BAND_MEASURE(b)] === 1);
  return band ? { band, credits: c.intensityCredits ?? 0 } : null;
}

/**
 * A person's intensity (lib/intensity.ts): the band their use over the four whole weeks to the range's end is in,
 * their credits of those weeks and the quarter's thresholds, said as use, not merit.
 */
export function PersonIntensity({ userId, range, who }: { userId: string; range: DayRange; who: string }) {
  const q = useQuery(personIntensityQuery(userId, range));
  const weeks = weeksTo(range.end);
  return (
    <Widget
      title={DEFINITIONS.intensity.label}
      description={`${who}'s standard credits over the four whole weeks from ${formatDayLong(weeks.start)} to ${formatDayLong(weeks.end)}, in a band by the quarter's frozen thresholds.`}
      query={q}
    >
      {(a) => {
        const t = a.intensity?.thresholds.at(-1);
        const mine = personBand(a);
        return (
          <div className="flex flex-col gap-2 text-sm">
            {mine && t ? (
              <>
                <p>
                  <span className="text-fg-muted">Band: </span>
                  <strong className="text-base" data-band={mine.band}>
                    {BAND_DEFINITION[mine.band].label}
                  </strong>{' '}
                  <span className="text-fg-muted">
                    ({formatExact(mine.credits)} credits in those weeks). {BAND_DEFINITION[mine.band].meaning}
                  </span>
                </p>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-fg-muted">
                  {BANDS.filter((b) => b !== 'none' && b !== 'minimal').map((b) => (
                    <div key={b} className="contents">
                      <dt>{BAND_DEFINITION[b].label} from</dt>
                      <dd className="tabular-nums text-fg">
                        {formatCompact(b === 'heavy' ? t.p75 : b === 'moderate' ? t.p50 : t.p25)} credits
                      </dd>
                    </div>
                  ))}
                </dl>
                <p className="text-xs text-fg-subtle">
                  {DEFINITIONS.intensityThresholds.label} of {t.quarter}: the organization’s quartiles over the{' '}
                  {formatExact(t.people)} people active {formatDayLong(t.basis.start)} to {formatDayLong(t.basis.end)}
                  {t.refreshed ? ', refreshed by an admin' : ''}; frozen for the quarter, so this band moves with {who}
                  ’s own use only.
                </p>
              </>
            ) : (
              <p className="text-fg-muted">
                No band: the quarter of these weeks has no thresholds yet (fewer than 8 people were active in the weeks
                they are computed from).
              </p>
            )}
            <p role="note" className="text-xs text-fg-muted">
              {INTENSITY_CAVEAT}
            </p>
          </div>
        );
      }}
    </Widget>
  );
}
