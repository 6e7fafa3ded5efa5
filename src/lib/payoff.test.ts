import { describe, expect, it } from 'vitest';
import { addDays } from './dates';
import type { WeekFigures } from './outcomes';
import {
  acrossTeams,
  figuresOver,
  latestLevels,
  levelChanges,
  levelsByTeam,
  payoffComparisons,
  type LevelPoint,
} from './payoff';

const RANGE = { start: '2026-03-02', end: '2026-05-31' };
const pt = (repo: string, day: string, level: number): LevelPoint => ({ repo, day, level });

describe('levelChanges', () => {
  it.each([
    {
      name: 'a rise inside the range, from the level reported before it',
      points: [pt('a', '2026-02-20', 2), pt('a', '2026-03-10', 2), pt('a', '2026-03-20', 3)],
      want: [{ repo: 'a', day: '2026-03-20', from: 2, to: 3, direction: 'rise' }],
    },
    {
      name: 'a fall, then a rise again',
      points: [pt('a', '2026-03-03', 4), pt('a', '2026-04-01', 3), pt('a', '2026-04-15', 4)],
      want: [
        { repo: 'a', day: '2026-04-01', from: 4, to: 3, direction: 'fall' },
        { repo: 'a', day: '2026-04-15', from: 3, to: 4, direction: 'rise' },
      ],
    },
    {
      name: 'changes before or after the range are not in it',
      points: [pt('a', '2026-01-20', 1), pt('a', '2026-02-20', 2), pt('a', '2026-06-05', 3)],
      want: [],
    },
    {
      name: 'a repository’s first report is no change',
      points: [pt('a', '2026-03-10', 5)],
      want: [],
    },
    {
      name: 'two reports of one day: its last level counts, and a same-day round trip is no change',
      points: [pt('a', '2026-03-05', 2), pt('a', '2026-03-09', 3), pt('a', '2026-03-09', 2), pt('b', '2026-03-05', 1)],
      want: [],
    },
    {
      name: 'points in any order, several repositories: by day, then repository',
      points: [pt('b', '2026-04-02', 3), pt('a', '2026-04-02', 2), pt('b', '2026-03-05', 2), pt('a', '2026-03-04', 1)],
      want: [
        { repo: 'a', day: '2026-04-02', from: 1, to: 2, direction: 'rise' },
        { repo: 'b', day: '2026-04-02', from: 2, to: 3, direction: 'rise' },
      ],
    },
  ])('$name', ({ points, want }) => {
    expect(levelChanges(points, RANGE)).toEqual(want);
  });
});

describe('latestLevels and levelsByTeam', () => {
  it('takes each repository’s latest level on or before a day, and groups them by owning team', () => {
    const points = [
      pt('a', '2026-03-01', 2),
      pt('a', '2026-04-01', 3),
      pt('a', '2026-06-01', 5),
      pt('b', '2026-03-01', 1),
    ];
    const latest = latestLevels(points, '2026-05-31');
    expect(Object.fromEntries(latest)).toEqual({ a: 3, b: 1 });
    const repos = [
      { key: 'a', team: 'Eng' },
      { key: 'b', team: 'Eng' },
      { key: 'c', team: 'Eng' }, // no report
      { key: 'd', team: null }, // Unowned
    ];
    expect(Object.fromEntries(levelsByTeam(repos, latest))).toEqual({ Eng: [3, 1] });
  });
});

/** Whole weeks from a Monday: `before` weeks with one figure set, then the rest with another. */
function weeks(first: string, n: number, f: (i: number) => Partial<WeekFigures>): WeekFigures[] {
  return Array.from({ length: n }, (_, i) => ({
    week: addDays(first, 7 * i),
    days: 7,
    credits: 1_000,
    commits: 10,
    prs: 2,
    toolCalls: 300,
    userMessages: 100,
    active: 10,
    ...f(i),
  }));
}

describe('payoffComparisons', () => {
  // Mondays from 2026-03-02: 13 whole weeks; a rise on Wed 2026-04-01 (week of 2026-03-30, the 5th).
  const rise = { repo: 'a', day: '2026-04-01', from: 2, to: 3, direction: 'rise' as const };
  const series = weeks('2026-03-02', 13, (i) =>
    i < 4
      ? { credits: 2_000, toolCalls: 200 }
      : i === 4
        ? { credits: 99_999 }
        : { credits: 1_000, toolCalls: 600, active: 14 },
  );

  it('compares the 4 whole weeks before the change’s week with the 4 after, leaving its own week out', () => {
    const [c] = payoffComparisons([rise], series);
    expect(c!.reason).toBeUndefined();
    expect(c!.week).toBe('2026-03-30');
    expect(c!.repos).toBe(1);
    expect(c!.before!.weeks).toEqual(['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23']);
    expect(c!.after!.weeks).toEqual(['2026-04-06', '2026-04-13', '2026-04-20', '2026-04-27']);
    expect(c!.before!.figures).toEqual({
      toolCallsPerTurn: 2,
      creditsPerCommit: 200,
      creditsPerPr: 1_000,
      activePeople: 10,
    });
    expect(c!.after!.figures).toEqual({
      toolCallsPerTurn: 6,
      creditsPerCommit: 100,
      creditsPerPr: 500,
      activePeople: 14,
    });
  });

  it('puts changes of one direction in one week together, counting repositories once', () => {
    const b = { ...rise, repo: 'b', day: '2026-04-03' };
    const fall = { ...rise, repo: 'c', from: 3, to: 2, direction: 'fall' as const };
    const got = payoffComparisons([rise, b, { ...b, day: '2026-04-04', from: 3, to: 4 }, fall], series);
    expect(got.map((c) => [c.week, c.direction, c.repos, c.changes.length])).toEqual([
      ['2026-03-30', 'fall', 1, 1],
      ['2026-03-30', 'rise', 2, 3],
    ]);
  });

  it.each([
    { name: 'one whole week before', day: '2026-03-11', before: 1, after: 4 },
    { name: 'one whole week after (the last weeks of the range)', day: '2026-05-20', before: 4, after: 1 },
    { name: 'none after: the change is in the range’s last week', day: '2026-05-28', before: 4, after: 0 },
  ])('gives a reason, no figures, with too little on a side: $name', ({ day, before, after }) => {
    const [c] = payoffComparisons([{ ...rise, day }], series);
    expect(c!.before).toBeUndefined();
    expect(c!.reason).toContain(`${before} whole week${before === 1 ? '' : 's'} before`);
    expect(c!.reason).toContain(`${after} whole week${after === 1 ? '' : 's'} after`);
  });

  it('counts whole weeks only: partial weeks at the range’s edges are not compared', () => {
    const cut = series.map((w, i) => (i < 3 ? { ...w, days: 4, active: null } : w));
    const [c] = payoffComparisons([rise], cut);
    expect(c!.reason).toContain('1 whole week before');
    // With the minimum at 1 the single whole week is compared.
    expect(payoffComparisons([rise], cut, 4, 1)[0]!.before!.weeks).toEqual(['2026-03-23']);
  });

  it('shows no ratio where the weeks have no commits or pull requests', () => {
    expect(figuresOver(weeks('2026-03-02', 2, () => ({ commits: 0, prs: 0, userMessages: 0, active: null })))).toEqual({
      toolCallsPerTurn: null,
      creditsPerCommit: null,
      creditsPerPr: null,
      activePeople: null,
    });
  });
});

describe('acrossTeams', () => {
  const f = { toolCallsPerTurn: 3, creditsPerCommit: 100, creditsPerPr: 400, activePeople: 8 };
  it('gives each owning team’s mean level and repositories, lowest level first', () => {
    const got = acrossTeams([
      { team: 'A', levels: [3, 4], figures: f },
      { team: 'B', levels: [1], figures: f },
      { team: 'C', levels: [], figures: f },
      { team: 'D', levels: [2, 2, 5], figures: f },
    ]);
    expect(got.reason).toBeNull();
    expect(got.points.map((p) => [p.team, p.repos, p.meanLevel])).toEqual([
      ['B', 1, 1],
      ['D', 3, 3],
      ['A', 2, 3.5],
    ]);
  });

  it.each([
    { teams: 0, says: '0 teams own' },
    { teams: 1, says: '1 team owns' },
    { teams: 2, says: '2 teams own' },
  ])('says there is too little with $teams teams owning repositories', ({ teams, says }) => {
    const got = acrossTeams(Array.from({ length: teams }, (_, i) => ({ team: `T${i}`, levels: [2], figures: f })));
    expect(got.reason).toContain(says);
    expect(got.reason).toContain('at least 3');
  });
});
