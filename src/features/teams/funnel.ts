import { queryOptions } from '@tanstack/react-query';
import { FIGURES_PATH, figuresAnswerSchema, type FiguresAnswer } from '../../api/figures';
import type { Column } from '../../components/DataTable';
import { getWithLists } from '../../data/client';
import type { DayRange } from '../../lib/dates';
import { DEFINITIONS, type Definition } from '../../lib/definitions';
import { formatPercent } from '../../lib/format';
import { STEPS, type Step } from '../../lib/funnel';

/** Each step's measures (lib/measures.ts' ids) and definition, in order. */
export const STEP_MEASURES = {
  session: { people: 'funnelSession', share: 'funnelSessionShare', days: 'funnelSessionDays' },
  commit: { people: 'funnelCommit', share: 'funnelCommitShare', days: 'funnelCommitDays' },
  pr: { people: 'funnelPr', share: 'funnelPrShare', days: 'funnelPrDays' },
  retained: { people: 'funnelRetained', share: 'funnelRetainedShare', days: null },
} as const satisfies Record<Step, { people: string; share: string; days: string | null }>;

export const STEP_DEFINITION: Record<Step, Definition> = {
  session: DEFINITIONS.funnelSession,
  commit: DEFINITIONS.funnelCommit,
  pr: DEFINITIONS.funnelPr,
  retained: DEFINITIONS.funnelRetained,
};

/** What the funnel asks of `GET /api/figures`. */
export const FUNNEL_MEASURES = [
  'funnelStarters',
  'funnelGrace',
  'funnelDue',
  'funnelRetainedDue',
  ...STEPS.flatMap((s) => {
    const m = STEP_MEASURES[s];
    return [m.people, m.share, ...(m.days ? [m.days] : [])];
  }),
];

/** The funnel of a group of starters (a team, a weekly cohort); its figures none where privacy mode withholds it. */
export interface FunnelRow {
  key: string;
  withheld: boolean;
  starters: number | null;
  grace: number | null;
  due: number | null;
  retainedDue: number | null;
  people: Record<Step, number | null>;
  share: Record<Step, number | null>;
  days: Record<Step, number | null>;
}

export function funnelRows(a: FiguresAnswer): FunnelRow[] {
  return a.rows.map((r) => {
    const c = r.current;
    const each = (k: 'people' | 'share' | 'days') =>
      Object.fromEntries(
        STEPS.map((s) => {
          const id = STEP_MEASURES[s][k];
          return [s, id ? (c[id] ?? null) : null];
        }),
      ) as Record<Step, number | null>;
    return {
      key: r.key,
      withheld: c.funnelStarters === null,
      starters: c.funnelStarters ?? null,
      grace: c.funnelGrace ?? null,
      due: c.funnelDue ?? null,
      retainedDue: c.funnelRetainedDue ?? null,
      people: each('people'),
      share: each('share'),
      days: each('days'),
    };
  });
}

const days = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}\u00a0d`;

/** The table view's (and the CSV's) columns after the first (the week, the team). */
export function funnelColumns<R extends FunnelRow>(first: Column<R>): Column<R>[] {
  return [
    first,
    {
      id: 'starters',
      header: DEFINITIONS.funnelStarters.label,
      definition: DEFINITIONS.funnelStarters,
      value: (r) => r.starters,
      numeric: true,
    },
    {
      id: 'grace',
      header: DEFINITIONS.funnelGrace.label,
      definition: DEFINITIONS.funnelGrace,
      value: (r) => r.grace,
      numeric: true,
    },
    {
      id: 'due',
      header: DEFINITIONS.funnelDue.label,
      definition: DEFINITIONS.funnelDue,
      value: (r) => r.due,
      numeric: true,
    },
    ...STEPS.flatMap((s): Column<R>[] => [
      {
        id: `${s}Share`,
        header: `${STEP_DEFINITION[s].label} (share)`,
        definition: STEP_DEFINITION[s],
        value: (r) => r.share[s],
        numeric: true,
        format: formatPercent,
      },
      ...(STEP_MEASURES[s].days
        ? [
            {
              id: `${s}Days`,
              header: `${STEP_DEFINITION[s].label} (median days)`,
              value: (r: R) => r.days[s],
              numeric: true,
              format: days,
            },
          ]
        : []),
    ]),
  ];
}

/** `GET /api/figures` of the funnel: by week (the weekly cohorts), team or total, of the teams chosen or everyone. */
export const funnelQuery = (r: DayRange, teams: readonly string[], by: 'week' | 'team' | 'total') =>
  queryOptions({
    // Under `teams`: a change of the mapping (its since column) asks again.
    queryKey: ['teams', 'funnel', { start: r.start, end: r.end, teams, by }],
    queryFn: ({ signal }) =>
      getWithLists(
        FIGURES_PATH,
        figuresAnswerSchema,
        { measure: FUNNEL_MEASURES, by, compare: 'none', start: r.start, end: r.end, team: [...teams] },
        signal,
      ),
    staleTime: 5 * 60_000,
  });
