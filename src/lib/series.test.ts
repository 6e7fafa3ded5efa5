import { describe, expect, it } from 'vitest';
import { eachDay } from './dates';
import {
  fillDays,
  isPartialWeek,
  keyColorSlots,
  mergeCaseDuplicates,
  pivotTopN,
  pointKeys,
  rankTotals,
  rollupWeeks,
  totalsByName,
  workingDaysOnly,
} from './series';

describe('fillDays', () => {
  it('gives one point per day from history start, zero where the service sent none', () => {
    const pts = fillDays(
      { start: '2026-01-12', end: '2026-01-16' },
      [{ date: '2026-01-15', v: 3 }],
      (r) => ({ v: r.v }),
      { v: 0 },
    );
    expect(pts).toEqual([
      { date: '2026-01-14', v: 0 },
      { date: '2026-01-15', v: 3 },
      { date: '2026-01-16', v: 0 },
    ]);
  });
});

describe('rollupWeeks', () => {
  const pts = (dates: string[]) => dates.map((date, i) => ({ date, calls: i + 1, wau: 10 * (i + 1), ratio: i + 1 }));
  it.each([
    // across a month end: Mon 2026-03-30 … Sun 2026-04-05 is one week
    [
      ['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01'],
      ['2026-03-23', '2026-03-30'],
      [1, 3],
    ],
    // across a year end: Mon 2026-12-28 … Sun 2027-01-03
    [
      ['2026-12-27', '2026-12-28', '2027-01-01', '2027-01-03', '2027-01-04'],
      ['2026-12-21', '2026-12-28', '2027-01-04'],
      [1, 3, 1],
    ],
  ])('weeks of %j start on Mondays %j', (dates, weeks, days) => {
    const w = rollupWeeks(pts(dates), { wau: 'last', ratio: 'mean' });
    expect(w.map((x) => x.date)).toEqual(weeks);
    expect(w.map((x) => x.days)).toEqual(days);
  });
  it('sums counts, keeps the last level, averages ratios', () => {
    const [, w] = rollupWeeks(pts(['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01']), {
      wau: 'last',
      ratio: 'mean',
    });
    expect(w).toMatchObject({ calls: 2 + 3 + 4, wau: 40, ratio: 3 });
  });
  it('averages a ratio over the days that have one: a day without is a gap, and a week without one too', () => {
    const days = [
      { date: '2026-03-30', calls: 10, ratio: 4 },
      { date: '2026-03-31', calls: 0, ratio: null },
      { date: '2026-04-01', calls: 6, ratio: 2 },
      { date: '2026-04-06', calls: 0, ratio: null },
      { date: '2026-04-07', calls: 0, ratio: null },
    ];
    const [first, second] = rollupWeeks(days, { ratio: 'mean' });
    expect(first).toMatchObject({ calls: 16, ratio: 3, days: 3 });
    expect(second).toMatchObject({ calls: 0, ratio: null, days: 2 });
  });
});

describe('breakdowns', () => {
  it('totals names over days and ranks them with shares', () => {
    const m = totalsByName(
      [
        [
          { name: 'a', value: 1 },
          { name: 'b', value: 2 },
        ],
        [{ name: 'a', value: 3 }],
      ],
      (d) => d,
    );
    expect(rankTotals(m)).toEqual([
      { name: 'a', value: 4, share: 4 / 6 },
      { name: 'b', value: 2, share: 2 / 6 },
    ]);
  });
  it('merges names that differ only in case under the most used spelling', () => {
    const { totals, merged } = mergeCaseDuplicates(
      new Map([
        ['axiom', 8],
        ['Axiom', 6],
        ['github', 40],
        ['AXIOM', 1],
      ]),
    );
    expect(Object.fromEntries(totals)).toEqual({ axiom: 15, github: 40 });
    expect(merged.get('axiom')).toEqual(['axiom', 'Axiom', 'AXIOM']);
    expect(merged.has('github')).toBe(false);
  });
  it('pivots grouped rows into top N plus Other, zero-filled per day', () => {
    const rows = [
      { date: '2026-02-01', group_key: 'Read', n: 10 },
      { date: '2026-02-01', group_key: 'Edit', n: 5 },
      { date: '2026-02-01', group_key: 'LS', n: 1 },
      { date: '2026-02-02', group_key: 'Grep', n: 2 },
    ];
    const p = pivotTopN({ start: '2026-02-01', end: '2026-02-03' }, rows, (r) => r.n, 2);
    expect(p.keys).toEqual(['Read', 'Edit']);
    expect(pointKeys(p.points)).toEqual(['Read', 'Edit', 'Other']);
    expect(pointKeys([])).toEqual([]);
    expect(p.hasOther).toBe(true);
    expect(p.points).toEqual([
      { date: '2026-02-01', Read: 10, Edit: 5, Other: 1 },
      { date: '2026-02-02', Read: 0, Edit: 0, Other: 2 },
      { date: '2026-02-03', Read: 0, Edit: 0, Other: 0 },
    ]);
  });
});

describe('keyColorSlots', () => {
  const MODELS = [
    'claude-sonnet-4-5',
    'claude-sonnet-4-20250514',
    'claude-opus-4-20250514',
    'gpt-5.4',
    'gemini-3.1-pro-preview',
    'claude-haiku-4-5-20251001',
  ];

  it('gives each key of a chart its own slot, whatever order the keys come in', () => {
    const a = keyColorSlots(7)(MODELS);
    const b = keyColorSlots(7)([...MODELS].reverse());
    expect(new Set(a.values()).size).toBe(MODELS.length);
    expect([...a.values()].every((s) => s >= 0 && s < 7)).toBe(true);
    expect(MODELS.map((m) => b.get(m))).toEqual(MODELS.map((m) => a.get(m)));
  });

  it("keeps a key's slot once given, whichever keys a later chart draws (a team's subset, another order)", () => {
    const slots = keyColorSlots(7);
    const org = slots(MODELS);
    // A team without the Opus model: the others keep the organization's colours.
    const team = slots(MODELS.filter((m) => !m.includes('opus')).reverse());
    for (const [k, s] of team) expect(s).toBe(org.get(k));
    // And the other way round: a team first, the organization after.
    const teamFirst = keyColorSlots(7);
    const t = teamFirst(['gpt-5.4', 'claude-sonnet-4-5']);
    const o = teamFirst(MODELS);
    expect(o.get('gpt-5.4')).toBe(t.get('gpt-5.4'));
    expect(o.get('claude-sonnet-4-5')).toBe(t.get('claude-sonnet-4-5'));
    expect(new Set(o.values()).size).toBe(MODELS.length);
  });

  it('never gives two keys of one chart the same slot while they fit, even after every slot is taken', () => {
    const slots = keyColorSlots(3);
    slots(['a', 'b', 'c']);
    const later = slots(['d', 'e', 'a']);
    expect(new Set(later.values()).size).toBe(3);
    expect(later.get('a')).toBe(slots(['a']).get('a'));
  });
});

describe('workingDaysOnly and isPartialWeek', () => {
  it('leaves out Saturdays and Sundays as UTC days', () => {
    const days = eachDay('2026-05-07', '2026-05-12').map((date) => ({ date }));
    expect(workingDaysOnly(days, new Set()).map((d) => d.date)).toEqual([
      '2026-05-07',
      '2026-05-08',
      '2026-05-11',
      '2026-05-12',
    ]);
  });

  it('leaves out the holidays listed too, and only those days', () => {
    const days = eachDay('2026-12-22', '2026-12-29').map((date) => ({ date }));
    // Christmas on a Friday, Boxing Day on a Saturday (a weekend anyway), a holiday outside the points.
    const holidays = new Set(['2026-12-25', '2026-12-26', '2027-01-01']);
    expect(workingDaysOnly(days, holidays).map((d) => d.date)).toEqual([
      '2026-12-22',
      '2026-12-23',
      '2026-12-24',
      '2026-12-28',
      '2026-12-29',
    ]);
  });

  it('marks the edge weeks a range holds only part of', () => {
    const days = eachDay('2026-05-07', '2026-05-18').map((date) => ({ date, n: 1 }));
    const weeks = rollupWeeks(days, {});
    expect(weeks.map((w) => [w.date, w.days, isPartialWeek(w)])).toEqual([
      ['2026-05-04', 4, true],
      ['2026-05-11', 7, false],
      ['2026-05-18', 1, true],
    ]);
    expect(isPartialWeek({})).toBe(false);
  });
});
