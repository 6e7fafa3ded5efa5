import type { FiguresAnswer } from '../../api/figures';
import { addDays, type DayRange } from '../../lib/dates';
import { BANDS, type Band, type Thresholds } from '../../lib/intensity';

/** Each band's measure of people and of share of the members (lib/measures.ts' ids). */
export const BAND_MEASURES = {
  heavy: 'intensityHeavy',
  moderate: 'intensityModerate',
  light: 'intensityLight',
  minimal: 'intensityMinimal',
  none: 'intensityNone',
} as const satisfies Record<Band, string>;

/** What a team's weekly intensity asks of `GET /api/figures`. */
export const INTENSITY_WEEK_MEASURES = [
  'members',
  'intensityActive',
  ...BANDS.map((b) => BAND_MEASURES[b]),
  ...BANDS.map((b) => `${BAND_MEASURES[b]}Share`),
];

/** A week of a team's intensity: the people in each band and their share of the members; none where withheld. */
export interface IntensityWeek {
  /** Its Monday. */
  week: string;
  /** The range holds only some of its days: its bands are of the four weeks to the Sunday before the range's end. */
  partial: boolean;
  members: number;
  /** People active in the four weeks to its end. */
  active: number;
  /** Whether its bands are shown (enough active people, thresholds for its quarter). */
  shown: boolean;
  people: Record<Band, number | null>;
  share: Record<Band, number | null>;
}

/** The weeks of a `by=week` answer of the intensity measures, in order. */
export function intensityWeeks(range: DayRange, a: FiguresAnswer): IntensityWeek[] {
  return a.rows.map((r) => {
    const c = r.current;
    const people = Object.fromEntries(BANDS.map((b) => [b, c[BAND_MEASURES[b]] ?? null])) as Record<
      Band,
      number | null
    >;
    const share = Object.fromEntries(BANDS.map((b) => [b, c[`${BAND_MEASURES[b]}Share`] ?? null])) as Record<
      Band,
      number | null
    >;
    return {
      week: r.key,
      partial: r.key < range.start || addDays(r.key, 6) > range.end,
      members: c.members ?? 0,
      active: c.intensityActive ?? 0,
      shown: people.heavy !== null,
      people,
      share,
    };
  });
}

/** A quarter's thresholds in words: "Light from 1,200, Moderate from 5,400, Heavy from 12,000 credits". */
export function thresholdsText(t: Thresholds, format: (n: number) => string): string {
  return `Light from ${format(t.p25)}, Moderate from ${format(t.p50)}, Heavy from ${format(t.p75)} credits`;
}
