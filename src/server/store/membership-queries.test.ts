/**
 * The members' teams over time in the store, on both engines: a row each time the mapping in force gives a member
 * another team, '' once it names them no more, the later of two mappings of one day kept; 0015's first days named
 * come through migration 0016 with no team, which the next mapping recorded gives. And each person's history as the
 * export joins it (analytics/member-history.ts `personHistory`).
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { HISTORY_START } from '../../lib/dates';
import { STORE_ENGINES, type OpenedStore } from '../../test/stores';
import { personHistory } from '../analytics/member-history';
import { UNASSIGNED } from '../teams/tree';
import { changes, memoryMembership, storedMembership } from './membership-queries';
import { migrateToLatest } from './migrations';

const teams = (o: Record<string, string>) => new Map(Object.entries(o));

describe('what recording a mapping writes', () => {
  it('writes a member new or moved, and one named no more, and nothing for one unchanged', () => {
    const last = new Map<string, string | null>([
      ['ann', 'Eng'],
      ['bo', 'Eng'],
      ['cy', 'Sales'],
      ['di', ''],
      ['ed', null],
    ]);
    expect(changes(last, teams({ ann: 'Eng', bo: 'Sales', ed: 'Ops', fay: 'Ops' }))).toEqual([
      ['bo', 'Sales'],
      ['ed', 'Ops'],
      ['fay', 'Ops'],
      ['cy', ''],
    ]);
  });
});

describe.each(STORE_ENGINES)('the members’ teams over time in the $name store', ({ available, open }) => {
  const opened: OpenedStore[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close();
      await o.drop();
    }
  });

  it.skipIf(!available)('records each change from its day, the later mapping of a day kept', async () => {
    const o = await open();
    opened.push(o);
    const kept = storedMembership(o.store.db);
    const memory = memoryMembership();
    for (const k of [kept, memory]) {
      await k.record(teams({ ann: 'Eng', bo: 'Eng' }), '2026-02-01');
      await k.record(teams({ ann: 'Eng', bo: 'Eng' }), '2026-02-05');
      await k.record(teams({ ann: 'Eng', bo: 'Sales' }), '2026-02-10');
      // Two mappings the same day: the day's is the later.
      await k.record(teams({ ann: 'Ops', bo: 'Sales' }), '2026-02-10');
      await k.record(teams({ bo: 'Sales' }), '2026-02-12');
    }
    const want = [
      { member: 'ann', from: '2026-02-01', team: 'Eng' },
      { member: 'ann', from: '2026-02-10', team: 'Ops' },
      { member: 'ann', from: '2026-02-12', team: '' },
      { member: 'bo', from: '2026-02-01', team: 'Eng' },
      { member: 'bo', from: '2026-02-10', team: 'Sales' },
    ];
    expect(await kept.rows()).toEqual(want);
    expect(await memory.rows()).toEqual(want);
  });

  it.skipIf(!available)('records one mapping once when two servers record it at once', async () => {
    const o = await open();
    opened.push(o);
    const one = storedMembership(o.store.db);
    await Promise.all([
      one.record(teams({ ann: 'Eng' }), '2026-02-01'),
      one.record(teams({ ann: 'Eng' }), '2026-02-01'),
      storedMembership(o.store.db).record(teams({ ann: 'Eng' }), '2026-02-01'),
    ]);
    expect(await one.rows()).toEqual([{ member: 'ann', from: '2026-02-01', team: 'Eng' }]);
  });

  it.skipIf(!available)(
    'brings 0015’s first days named through 0016, their team given by the next mapping',
    async () => {
      const o = await open();
      opened.push(o);
      const db = o.store.db as unknown as Kysely<unknown>;
      // The store as 0015 left it, with a first day named.
      await sql`DROP TABLE member_team`.execute(db);
      await sql`CREATE TABLE member_named (member text PRIMARY KEY, first_day text NOT NULL)`.execute(db);
      await sql`INSERT INTO member_named VALUES ('ann', '2026-01-20')`.execute(db);
      await sql`DELETE FROM kysely_migration WHERE name = '0016_member_team'`.execute(db);
      expect(await migrateToLatest(db)).toEqual(['0016_member_team']);
      const kept = storedMembership(o.store.db);
      expect(await kept.rows()).toEqual([{ member: 'ann', from: '2026-01-20', team: null }]);
      await kept.record(teams({ ann: 'Eng' }), '2026-03-01');
      const rows = await kept.rows();
      expect(rows).toEqual([
        { member: 'ann', from: '2026-01-20', team: null },
        { member: 'ann', from: '2026-03-01', team: 'Eng' },
      ]);
      // The first day named stays 0015's; the team not recorded then is the next one recorded.
      expect(personHistory(rows, new Map([[7, ['ann']]]))).toEqual([[7, HISTORY_START, 'Eng']]);
    },
  );
});

describe('each person’s team over time', () => {
  const row = (member: string, from: string, team: string | null) => ({ member, from, team });

  it('reaches back to the start, moves on each change, and is Unassigned once no mapping names them', () => {
    const rows = [row('ann', '2026-02-01', 'Eng'), row('ann', '2026-02-10', 'Ops'), row('ann', '2026-02-12', '')];
    expect(personHistory(rows, new Map([[1, ['ann']]]))).toEqual([
      [1, HISTORY_START, 'Eng'],
      [1, '2026-02-10', 'Ops'],
      [1, '2026-02-12', UNASSIGNED],
    ]);
  });

  it('takes either key of one person: a mapping naming them by email, a later one by id', () => {
    // The day the later mapping names them by id, the email's row says they are named no more: the id's team holds.
    const rows = [
      row('ann@acme.example', '2026-02-01', 'Eng'),
      row('ann@acme.example', '2026-02-10', ''),
      row('id:u1', '2026-02-10', 'Ops'),
    ];
    expect(personHistory(rows, new Map([[1, ['id:u1', 'ann@acme.example']]]))).toEqual([
      [1, HISTORY_START, 'Eng'],
      [1, '2026-02-10', 'Ops'],
    ]);
    // A person no key of whom was recorded has no history: the mapping in force places them.
    expect(personHistory(rows, new Map([[2, ['id:u2']]]))).toEqual([]);
  });
});
