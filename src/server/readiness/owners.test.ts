/**
 * The readiness routes find each repository's owning team once per mapping and per version of the stored
 * reports: a request while neither changes matches no pattern (a mapping's patterns are the file's author's,
 * and every request would otherwise match each of them against each repository again).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { READINESS_STALE_DAYS } from '../../api/readiness';
import { tenReport } from '../../test/readiness-fixtures';
import { openStore, type StoreDb } from '../store/db';
import { writeReports } from '../store/queries';
import { parseMapping, type Mapping } from '../teams/mapping';
import { NO_MAPPING, type MappingSource } from '../teams/source';
import { createReadinessRoutes } from './routes';

/** How many repositories the mapping's owner function was asked about. */
const asked = vi.hoisted(() => ({ n: 0 }));
vi.mock('../teams/mapping', async (importOriginal) => {
  const real = await importOriginal<typeof import('../teams/mapping')>();
  return {
    ...real,
    repoOwner: (mapping: Pick<Mapping, 'repos'> | null) => {
      const owner = real.repoOwner(mapping);
      return (url: string) => {
        asked.n++;
        return owner(url);
      };
    },
  };
});

/** A repository as the selection gives it: no stale rule is set, so its report is stale after the default. */
const repo = (key: string, team: string) => ({ key, team, staleAfter: READINESS_STALE_DAYS });
const mappingOf = (text: string): Mapping => {
  const r = parseMapping(text, 'csv');
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.mapping;
};
const record = (id: string, repo: string, day: string) => {
  const report = tenReport(id, repo, day, 5);
  return { report_id: id, created_at: new Date(report.createdAt).toISOString(), body: JSON.stringify(report) };
};

describe('each repository’s owner, once per mapping and stored reports', () => {
  let store: StoreDb;
  beforeAll(async () => {
    store = await openStore({ dataDir: ':memory:' });
    await writeReports(store.db, [
      record('r1', 'api', '2026-03-01'),
      record('r2', 'web', '2026-03-01'),
      record('r3', 'api', '2026-03-02'),
      record('r4', 'data-lake', '2026-03-02'),
    ]);
  });
  afterAll(() => store.close());

  it('matches the mapping once, is asked again when the mapping or the reports change', async () => {
    let mapping = mappingOf(
      'email,team,repos\nann@acme.com,Platform,github.com/acme/*\nbo@acme.com,Data,github.com/acme/data-*',
    );
    const source: MappingSource = { current: () => ({ ...NO_MAPPING, mapping }), stop: () => undefined };
    const { selection } = createReadinessRoutes({ store, source, refresh: async () => undefined });

    asked.n = 0;
    const first = await selection([]);
    expect(first.repos).toEqual([
      repo('github.com/acme/api', 'Platform'),
      repo('github.com/acme/data-lake', 'Data'),
      repo('github.com/acme/web', 'Platform'),
    ]);
    expect(asked.n).toBe(3);
    expect(await selection([])).toEqual(first);
    expect((await selection(['Data'])).repos).toEqual([repo('github.com/acme/data-lake', 'Data')]);
    expect(asked.n).toBe(3);

    mapping = mappingOf('email,team,repos\nann@acme.com,Web,github.com/acme/web');
    expect((await selection(['Web'])).repos).toEqual([repo('github.com/acme/web', 'Web')]);
    await selection([]);
    expect(asked.n).toBe(6);

    await writeReports(store.db, [record('r5', 'infra', '2026-03-03')]);
    expect((await selection([])).repos.map((r) => r.key)).toContain('github.com/acme/infra');
    await selection([]);
    expect(asked.n).toBe(10);
  });
});
