/**
 * A mark's figures before and after it: which whole weeks are compared (as many on each side, the mark's own week
 * left out, none and why when a side has no whole week), and the figures of those weeks against brute force over
 * the rows written, for random organizations, marks and scopes, on both stores.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeOf, valueOf, type MeasureId } from '../../lib/measures';
import { eachDay, type DayRange } from '../../lib/dates';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { build, days, PRICES, scenario, type Scenario } from '../../test/team-scenario';
import { createFigures } from '../analytics/figures';
import { isWithin, UNASSIGNED, withAncestors } from '../teams/tree';
import { markFigures, markWeeks, MARK_MEASURES, MARK_SPEND_MEASURES } from './figures';

describe('the weeks compared around a mark', () => {
  it('takes up to four whole weeks on each side, the same number, and leaves the mark’s own week out', () => {
    // A Wednesday, with months of data on both sides.
    expect(markWeeks('2026-03-11', '2026-05-31')).toEqual({
      week: '2026-03-09',
      weeks: 4,
      before: { start: '2026-02-09', end: '2026-03-08' },
      after: { start: '2026-03-16', end: '2026-04-12' },
      reason: null,
    });
    // Two whole weeks after it in the data (the third ends after the latest day): two on each side.
    expect(markWeeks('2026-03-11', '2026-03-30')).toMatchObject({
      weeks: 2,
      before: { start: '2026-02-23', end: '2026-03-08' },
      after: { start: '2026-03-16', end: '2026-03-29' },
    });
    // One whole week of history before it: one on each side (the history starts on Wednesday, Jan 14).
    expect(markWeeks('2026-01-28', '2026-05-31')).toMatchObject({
      weeks: 1,
      before: { start: '2026-01-19', end: '2026-01-25' },
      after: { start: '2026-02-02', end: '2026-02-08' },
    });
  });

  it('says why there is no comparison: too recent for a whole week after, or no whole week before', () => {
    // The week after ends on Sunday, Mar 22: with data to Saturday, Mar 21, there is none yet.
    const recent = markWeeks('2026-03-11', '2026-03-21');
    expect(recent).toMatchObject({ weeks: 0, before: null, after: null });
    expect(recent.reason).toBe(
      'Too recent to tell: the first whole week after it ends on Mar 22, 2026, and the data run to Mar 21, 2026.',
    );
    expect(markWeeks('2026-03-11', '2026-03-22').weeks).toBe(1);
    // A mark ahead of the data (a rollout planned for next month).
    expect(markWeeks('2026-07-01', '2026-05-31').reason).toMatch(/^Too recent to tell/);
    // In the history's first week: nothing before it.
    expect(markWeeks('2026-01-16', '2026-05-31').reason).toBe(
      'Too early to tell: the history starts on Jan 14, 2026, with no whole week before the week of this mark.',
    );
  });
});

const ALL = [...MARK_MEASURES, ...MARK_SPEND_MEASURES] as const;
type Built = Awaited<ReturnType<typeof build>>;

/** The brute-force figures of a team's people (or everyone's) over a range, from the rows written. */
function oracle(b: Built, r: DayRange, team: string) {
  const teamOf = (id: string) => b.mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
  const sums: Partial<Record<MeasureId, number>> = { credits: 0, toolCalls: 0, userMessages: 0, commits: 0, prs: 0 };
  const active = new Set<string>();
  for (const d of eachDay(r.start, r.end))
    for (const x of b.usersDays.get(d) ?? []) {
      if (team !== '' && !isWithin(teamOf(x.user_id), team)) continue;
      active.add(x.user_id);
      sums.credits! += x.billable_tokens;
      sums.toolCalls! += x.tool_calls;
      sums.userMessages! += x.user_messages;
      sums.commits! += x.git_commits;
      sums.prs! += x.git_prs_created;
    }
  // The scenario's one price: 8 EUR per million credits, every day and model.
  const of = (m: MeasureId): number =>
    m === 'active' ? active.size : m === 'spend' ? (sums.credits! * 8) / 1e6 : sums[m]!;
  return Object.fromEntries(ALL.map((m) => [m, valueOf(m, of)])) as Record<MeasureId, number | null>;
}

const close = (got: number | null, want: number | null, what: string) =>
  want === null ? expect(got, what).toBeNull() : expect(got, what).toBeCloseTo(want, 6);

function suite(store: () => string | undefined) {
  it('each mark’s figures are its scope’s people’s over the whole weeks before and after it', async () => {
    const latest = days.at(-1)!;
    const marked = fc.record({ s: scenario, day: fc.nat(days.length - 1), team: fc.nat(20) });
    await fc.assert(
      fc.asyncProperty(marked, async ({ s, day, team: t }: { s: Scenario; day: number; team: number }) => {
        const b = await build(s, store());
        try {
          const runner = createFigures(b.analytics);
          const scopes = ['', ...withAncestors(b.mapping.teams)];
          const team = scopes[t % scopes.length]!;
          const mark = { id: 'm', day: days[day]!, team };
          const filled: DayRange[] = [];
          const got = await markFigures(runner, {
            mark,
            latest,
            mapping: b.mapping,
            prices: PRICES,
            fill: async (r) => void filled.push(r),
          });
          const weeks = markWeeks(mark.day, latest);
          expect(got).toMatchObject({ ...mark, ...weeks, currency: 'EUR' });
          if (weeks.reason !== null) {
            expect(got.figures).toEqual([]);
            expect(filled).toEqual([]);
            return;
          }
          expect(filled).toEqual([
            { start: weeks.before.start, end: weeks.after.end },
            { start: weeks.before.start, end: weeks.after.end },
          ]);
          const before = oracle(b, weeks.before, team);
          const after = oracle(b, weeks.after, team);
          expect(got.figures.map((f) => f.measure)).toEqual(ALL);
          for (const f of got.figures) {
            const m = f.measure as MeasureId;
            close(f.before, before[m], `${team} ${m} before`);
            close(f.after, after[m], `${team} ${m} after`);
            close(f.change, changeOf(after[m], before[m]), `${team} ${m} change`);
          }
        } finally {
          await b.close();
        }
      }),
      { numRuns: store() ? 4 : 12 },
    );
  }, 180_000);
}

describe('a mark’s figures against brute force (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('a mark’s figures against brute force (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});
