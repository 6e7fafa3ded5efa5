import { describe, expect, it } from 'vitest';
import { UserMerger, mergeUserRows } from './merge';
import { userRow } from '../../test/fixtures';

const row = userRow;

describe('merge of /users rows', () => {
  it('merges a user split across pages, whatever the order', () => {
    const a = row({ date: '2026-02-03', tool_calls: 30, user_messages: 3, autonomy_ratio: 10, languages: ['Rust'] });
    const b = row({ date: '2026-02-01' });
    const m = new UserMerger();
    m.add([a]);
    m.add([row({ user_id: 'u2' })]);
    m.add([b]);
    const [u1] = m.result().filter((u) => u.userId === 'u1');
    expect(u1).toMatchObject({
      activeDays: 2,
      firstDay: '2026-02-01',
      lastDay: '2026-02-03',
      toolCalls: 40,
      credits: 200,
      userMessages: 5,
      languages: ['Go', 'Rust'],
    });
    // weighted by user turns: (5·2 + 10·3) / 5 = 8
    expect(u1!.autonomyRatio).toBe(8);
    const reversed = mergeUserRows([b, a]).find((u) => u.userId === 'u1');
    expect(reversed).toEqual(u1);
  });

  it('a user with one day keeps that day', () => {
    const [u] = mergeUserRows([row({})]);
    expect(u).toMatchObject({ activeDays: 1, firstDay: '2026-02-01', lastDay: '2026-02-01', autonomyRatio: 5 });
  });

  it('keeps null emails (shown by id) and picks up an email from any row', () => {
    expect(mergeUserRows([row({ user_email: null })])[0]!.email).toBeNull();
    expect(mergeUserRows([row({ user_email: null }), row({ date: '2026-02-02' })])[0]!.email).toBe('a@x');
  });

  it('takes the most frequent model with its tier, ties by name', () => {
    const rows = [
      row({ date: '2026-02-01', primary_model: 'opus', primary_model_tier: 'thinking' }),
      row({ date: '2026-02-02', primary_model: 'opus', primary_model_tier: 'thinking' }),
      row({ date: '2026-02-03', primary_model: 'sonnet', primary_model_tier: 'standard', delegation_level: 'manual' }),
    ];
    expect(mergeUserRows(rows)[0]).toMatchObject({
      primaryModel: 'opus',
      primaryModelTier: 'thinking',
      delegationLevel: 'auto-high',
    });
    const tie = [row({ primary_model: 'b' }), row({ date: '2026-02-02', primary_model: 'a' })];
    expect(mergeUserRows(tie)[0]!.primaryModel).toBe('a');
  });

  it('counts a day once even when the service repeats a row', () => {
    expect(mergeUserRows([row({}), row({})])[0]!.activeDays).toBe(1);
  });
});
