import { describe, expect, it } from 'vitest';
import { eachDay } from './dates';
import { outcomeWeeks, type OutcomeDays } from './outcomes';

/** Day rows of the four endpoints, from one figure per day and field. */
function days(
  from: string,
  to: string,
  f: (d: string) => {
    credits?: number;
    commits?: number;
    prs?: number;
    toolCalls?: number;
    turns?: number;
    wau?: number;
    spend?: number;
  },
  priced = false,
): OutcomeDays {
  const all = eachDay(from, to).map((date) => ({ date, ...f(date) }));
  return {
    tokens: all.map((d) => ({ date: d.date, billable_tokens: d.credits ?? 0 })),
    productivity: all.map((d) => ({ date: d.date, git_commits: d.commits ?? 0, git_prs_created: d.prs ?? 0 })),
    tools: all.map((d) => ({ date: d.date, tool_calls: d.toolCalls ?? 0 })),
    activity: all.map((d) => ({ date: d.date, user_messages: d.turns ?? 0, weekly_active_users: d.wau ?? 0 })),
    spend: priced ? all.map((d) => ({ date: d.date, spend: d.spend ?? 0 })) : null,
  };
}

describe('outcomeWeeks', () => {
  // 2026-05-04 is a Monday; 2026-05-10 its Sunday.
  it.each([
    {
      name: 'a whole week: ratios of its sums, active people of its Sunday',
      range: { start: '2026-05-04', end: '2026-05-10' },
      weeks: [{ week: '2026-05-04', days: 7, partial: false, credits: 7_000, commits: 14, creditsPerCommit: 500 }],
    },
    {
      name: 'a range starting on a Wednesday and ending on a Tuesday: both edge weeks partial',
      range: { start: '2026-05-06', end: '2026-05-19' },
      weeks: [
        { week: '2026-05-04', days: 5, partial: true, credits: 5_000, commits: 10, creditsPerCommit: 500 },
        { week: '2026-05-11', days: 7, partial: false, credits: 7_000, commits: 14, creditsPerCommit: 500 },
        { week: '2026-05-18', days: 2, partial: true, credits: 2_000, commits: 4, creditsPerCommit: 500 },
      ],
    },
    {
      name: 'the history’s first week (it starts on a Wednesday) is partial',
      range: { start: '2026-01-01', end: '2026-01-18' },
      weeks: [{ week: '2026-01-12', days: 5, partial: true, credits: 5_000, commits: 10, creditsPerCommit: 500 }],
    },
  ])('$name', ({ range, weeks }) => {
    const got = outcomeWeeks(
      range,
      days(range.start, range.end, () => ({ credits: 1_000, commits: 2 })),
    );
    expect(got.map((w) => ({ ...pick(w) }))).toEqual(weeks);
  });

  it('counts the active people of whole weeks only (the weekly active people of the Sunday), and divides by them', () => {
    const d = days('2026-05-04', '2026-05-13', (date) => ({ credits: 600, wau: date === '2026-05-10' ? 12 : 99 }));
    const [whole, partial] = outcomeWeeks({ start: '2026-05-04', end: '2026-05-13' }, d);
    expect(whole).toMatchObject({ active: 12, creditsPerActive: 4_200 / 12 });
    // Three days of a week: how many distinct people they had is not in the day rows.
    expect(partial).toMatchObject({ days: 3, partial: true, active: null, creditsPerActive: null });
  });

  it('shows no ratio for a week without commits or pull requests (never infinity), and 0 over something is 0', () => {
    const d = days('2026-05-04', '2026-05-17', (date) =>
      date < '2026-05-11' ? { credits: 100, commits: 0, prs: 0 } : { credits: 0, commits: 3, prs: 1 },
    );
    const [a, b] = outcomeWeeks({ start: '2026-05-04', end: '2026-05-17' }, d);
    expect([a!.creditsPerCommit, a!.creditsPerPr]).toEqual([null, null]);
    expect([b!.creditsPerCommit, b!.creditsPerPr]).toEqual([0, 0]);
  });

  it('tool calls per user turn is the ratio of the week’s sums, not the mean of its days', () => {
    // Monday: 10 calls over 1 turn; the other days: 90 calls over 30 turns each.
    const d = days('2026-05-04', '2026-05-10', (date) =>
      date === '2026-05-04' ? { toolCalls: 10, turns: 1 } : { toolCalls: 90, turns: 30 },
    );
    expect(outcomeWeeks({ start: '2026-05-04', end: '2026-05-10' }, d)[0]!.toolCallsPerTurn).toBeCloseTo(550 / 181, 12);
  });

  it('prices the weeks with a price list only', () => {
    const range = { start: '2026-05-04', end: '2026-05-10' };
    const f = () => ({ credits: 1_000, commits: 1, prs: 1, wau: 7, spend: 2.5 });
    expect(outcomeWeeks(range, days(range.start, range.end, f))[0]).toMatchObject({
      spend: null,
      spendPerCommit: null,
      spendPerPr: null,
      spendPerActive: null,
    });
    expect(outcomeWeeks(range, days(range.start, range.end, f, true))[0]).toMatchObject({
      spend: 17.5,
      spendPerCommit: 2.5,
      spendPerPr: 2.5,
      spendPerActive: 2.5,
    });
  });

  it('takes a missing day as zero, and gives nothing for a range before the history', () => {
    const d = days('2026-05-05', '2026-05-05', () => ({ credits: 70, commits: 7 }));
    expect(outcomeWeeks({ start: '2026-05-04', end: '2026-05-10' }, d)[0]).toMatchObject({ credits: 70, commits: 7 });
    expect(
      outcomeWeeks(
        { start: '2025-12-01', end: '2025-12-31' },
        days('2025-12-01', '2025-12-31', () => ({})),
      ),
    ).toEqual([]);
  });
});

const pick = (w: ReturnType<typeof outcomeWeeks>[number]) => ({
  week: w.week,
  days: w.days,
  partial: w.partial,
  credits: w.credits,
  commits: w.commits,
  creditsPerCommit: w.creditsPerCommit,
});
