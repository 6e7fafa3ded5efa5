/**
 * The export's file as the engine writes it, on the embedded store: a CSV cell a spreadsheet would run is written
 * inert, every text cell quoted; PSEUDONYMIZE=1 rewrites an email wherever the service put one (a model's name, a
 * language); the teams asked keep to their people; each day's rows carry the team of that day.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRow } from '../../test/fixtures';
import { putUsersDay } from '../../test/store-days';
import { emailPseudonyms } from '../auth/privacy';
import { silentLogger } from '../core/log';
import { openStore, type StoreDb } from '../store/db';
import { parseMapping } from '../teams/mapping';
import { openAnalytics, type Analytics } from './engine';
import { memoryMembership } from '../store/membership-queries';
import { createExport } from './export';
import { createMemberHistory } from './member-history';

const dir = mkdtempSync(join(tmpdir(), 'export-engine-'));
let store: StoreDb;
let a: Analytics;
const range = { start: '2026-02-02', end: '2026-02-03' };
const mapping = (() => {
  const m = parseMapping('user_id,team\nu1,Eng\nu2,Sales\n', 'csv');
  if (!m.ok) throw new Error('the mapping');
  return m.mapping;
})();

beforeAll(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await putUsersDay(
    store,
    '2026-02-02',
    [
      userRow({ user_id: 'u1', user_email: '=HYPERLINK("http://x")', date: '2026-02-02', primary_model: '+sum' }),
      userRow({
        user_id: 'u2',
        user_email: 'bo@acme.example',
        date: '2026-02-02',
        primary_model: 'model of ann@acme.example',
        languages: ['Go', 'cy@acme.example'],
      }),
    ],
    'v1',
  );
  await putUsersDay(store, '2026-02-03', [userRow({ user_id: 'u2', user_email: 'bo@acme.example' })], 'v1');
  a = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
});
afterAll(async () => {
  await a.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
async function written(q: Parameters<ReturnType<typeof createExport>['write']>[0], x = createExport(a)) {
  const file = join(dir, `${++files}.csv`);
  await x.write(q, 'csv', file);
  return readFileSync(file, 'utf8');
}

describe('the export’s CSV as the engine writes it', () => {
  it('writes a cell a spreadsheet would run inert, and quotes every text cell', async () => {
    const csv = await written({ range, mapping, scope: { people: null } });
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^2026-02-02,"u1","'=HYPERLINK\(""http:\/\/x""\)","Eng",100\.0,/);
    expect(lines[1]).toContain(`"'+sum","standard","auto-high","Go"`);
    expect(lines[2]).toMatch(/^2026-02-02,"u2","bo@acme.example","Sales",/);
    expect(lines[2]).toContain(`"Go, cy@acme.example"`);
    expect(lines[3]).toMatch(/^2026-02-03,"u2",/);
  });

  it('rewrites every email with PSEUDONYMIZE=1: the people’s, and one in a model’s or a language’s name', async () => {
    const rewrite = emailPseudonyms('a-secret-of-at-least-32-characters-long!!');
    const csv = await written({ range, mapping, scope: { people: null }, view: { rewrite } });
    expect(csv).not.toMatch(/acme\.example/);
    expect(csv).toContain(`"${rewrite('bo@acme.example')}"`);
    expect(csv).toContain(`"${rewrite('model of ann@acme.example')}"`);
    expect(csv).toContain(`"Go, ${rewrite('cy@acme.example')}"`);
    // Nothing is left in the engine's scratch: each export's tables go with it.
    expect(await a.rows(`SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'export_%'`)).toEqual([]);
  });

  it('writes one file at a time, the next once the one before is written', async () => {
    const copies: string[] = [];
    const watched: Analytics = {
      ...a,
      rows: async (sql, params, types) => {
        const copy = sql.startsWith('COPY');
        if (copy) copies.push('start');
        try {
          return await a.rows(sql, params, types);
        } finally {
          if (copy) copies.push('end');
        }
      },
    };
    const q = { range, mapping, scope: { people: null } };
    await Promise.all(
      ['one', 'two', 'three'].map((f) => createExport(watched).write(q, 'parquet', join(dir, `${f}.parquet`))),
    );
    expect(copies).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
  });

  it('keeps to the teams asked, and names people as the reader is shown them', async () => {
    const csv = await written({
      range,
      mapping,
      scope: { people: ['Sales'] },
      view: { person: { name: (id) => `Person ${id}`, team: () => null } },
    });
    expect(csv.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(/^2026-02-02,"Person u2",,,100\.0,/),
      expect.stringMatching(/^2026-02-03,"Person u2",,,100\.0,/),
    ]);
    expect(await createExport(a).people({ range, mapping, scope: { people: ['Sales'] } })).toBe(1);
  });

  it('gives each day’s rows the team of that day, as the mappings recorded gave it', async () => {
    const moved = (() => {
      const m = parseMapping('user_id,team\nu1,Eng\nu2,Sales\n', 'csv');
      const before = parseMapping('user_id,team\nu1,Eng\nu2,Eng\n', 'csv');
      if (!m.ok || !before.ok) throw new Error('the mappings');
      return { now: m.mapping, before: before.mapping };
    })();
    // u2 was named in Eng on 2 February, and moved to Sales on the 3rd.
    let latest = '2026-02-01';
    const history = createMemberHistory(a, { keeper: memoryMembership(), latestDay: () => latest });
    await history.record(moved.before);
    latest = '2026-02-02';
    const x = createExport(a, history);
    const teamsOf = (csv: string) =>
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').slice(0, 4).join(','));
    expect(teamsOf(await written({ range, mapping: moved.now, scope: { people: null } }, x))).toEqual([
      '2026-02-02,"u1","\'=HYPERLINK(""http://x"")","Eng"',
      '2026-02-02,"u2","bo@acme.example","Eng"',
      '2026-02-03,"u2","bo@acme.example","Sales"',
    ]);
    // In privacy mode, each day's team as the reader is shown it.
    const view = { person: { name: (id: string) => `P-${id}`, team: (t: string) => (t === 'Sales' ? null : t) } };
    expect(teamsOf(await written({ range, mapping: moved.now, scope: { people: null }, view }, x))).toEqual([
      '2026-02-02,"P-u1",,"Eng"',
      '2026-02-02,"P-u2",,"Eng"',
      '2026-02-03,"P-u2",,',
    ]);
    // A history first recorded after the range: the first team known reaches back.
    const late = createMemberHistory(a, { keeper: memoryMembership(), latestDay: () => '2026-02-20' });
    expect(
      teamsOf(await written({ range, mapping: moved.now, scope: { people: null } }, createExport(a, late))),
    ).toEqual([
      '2026-02-02,"u1","\'=HYPERLINK(""http://x"")","Eng"',
      '2026-02-02,"u2","bo@acme.example","Sales"',
      '2026-02-03,"u2","bo@acme.example","Sales"',
    ]);
  });
});
