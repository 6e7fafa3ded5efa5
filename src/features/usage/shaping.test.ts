import { describe, expect, it } from 'vitest';
import type { TokenDay } from '../../api/schemas';
import { creditTotals, dailyCreditsFromModels, modelMix, modelTotals, toDailyCredits, topUsers } from './shaping';

const m = (model_id: string, billable: number, tier = 'standard') => ({
  model_id,
  model_tier: tier,
  billable_tokens: billable,
  input_tokens: billable * 10,
  output_tokens: billable,
});
const day = (date: string, users: [string, string | null, [string, number][]][]): TokenDay => {
  const by_user = users.map(([user_id, user_email, models]) => ({
    user_id,
    user_email,
    billable_tokens: models.reduce((s, [, b]) => s + b, 0),
    by_model: models.map(([id, b]) => m(id, b)),
  }));
  const total = by_user.reduce((s, u) => s + u.billable_tokens, 0);
  const models = new Map<string, number>();
  for (const u of by_user)
    for (const b of u.by_model) models.set(b.model_id, (models.get(b.model_id) ?? 0) + b.billable_tokens);
  return {
    date,
    billable_tokens: total,
    input_tokens: total * 10,
    output_tokens: total,
    cache_read_tokens: 5,
    cache_write_tokens: 1,
    by_model: [...models].map(([id, b]) => m(id, b)),
    by_user,
  };
};

const days = [
  day('2026-02-01', [
    [
      'u1',
      'a@x',
      [
        ['sonnet', 60],
        ['opus', 40],
      ],
    ],
    ['u2', null, [['sonnet', 10]]],
  ]),
  day('2026-02-03', [['u2', 'b@x', [['opus', 90]]]]),
];

describe('usage shaping', () => {
  it('daily credits fill the missing day with zeros', () => {
    const pts = toDailyCredits({ start: '2026-02-01', end: '2026-02-03' }, days);
    expect(pts.map((p) => [p.date, p.billable])).toEqual([
      ['2026-02-01', 110],
      ['2026-02-02', 0],
      ['2026-02-03', 90],
    ]);
  });
  it('totals', () => {
    expect(creditTotals(days)).toEqual({ billable: 200, input: 2000, output: 200, cacheRead: 10, cacheWrite: 2 });
  });
  it('model totals with shares', () => {
    const t = Object.fromEntries(modelTotals(days).map((x) => [x.model, [x.credits, x.share]]));
    expect(t).toEqual({ sonnet: [70, 0.35], opus: [130, 0.65] });
  });
  it('top users merge days, keep a later email, and sort by credits', () => {
    const u = topUsers(days, 10);
    expect(u.map((x) => [x.userId, x.email, x.credits])).toEqual([
      ['u1', 'a@x', 100],
      ['u2', 'b@x', 100],
    ]);
    expect(u[1]!.models).toEqual([
      { model: 'opus', credits: 90 },
      { model: 'sonnet', credits: 10 },
    ]);
    expect(topUsers(days, 1)).toHaveLength(1);
  });
});

describe('daily credits from the grouped rows', () => {
  it('sums the models of each day and fills missing days', () => {
    const rows = [
      { date: '2026-02-01', group_key: 'a', billable_tokens: 5, input_tokens: 0, output_tokens: 0 },
      { date: '2026-02-01', group_key: 'b', billable_tokens: 7, input_tokens: 0, output_tokens: 0 },
      { date: '2026-02-03', group_key: 'a', billable_tokens: 1, input_tokens: 0, output_tokens: 0 },
    ];
    expect(dailyCreditsFromModels({ start: '2026-02-01', end: '2026-02-03' }, rows)).toEqual([
      { date: '2026-02-01', billable: 12 },
      { date: '2026-02-02', billable: 0 },
      { date: '2026-02-03', billable: 1 },
    ]);
  });
});

describe('a person’s model mix', () => {
  it('reads in one short line, names without their dates and whole percents, and in full for its title', () => {
    const u = {
      userId: 'u1',
      email: null,
      credits: 1000,
      share: 1,
      models: [
        { model: 'claude-opus-4-20250514', credits: 712 },
        { model: 'claude-sonnet-4-5', credits: 285 },
        { model: 'gpt-5.4', credits: 3 },
      ],
    };
    expect(modelMix(u)).toEqual({
      short: 'claude-opus-4 71% · claude-sonnet-4-5 29% · gpt-5.4 <1%',
      full: 'claude-opus-4-20250514 71.2%; claude-sonnet-4-5 28.5%; gpt-5.4 0.3%',
    });
  });
});
