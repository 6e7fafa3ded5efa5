/**
 * The readiness alerts checked through the store, on both engines: reports stored as the sync stores them, each
 * repository's owning team by the mapping's `repos`, the figures read through the readiness routes' selection. A
 * team's rule alerts on its sub-tree's repositories only, the organization's on every one; a drop, a criterion
 * newly failing and a stale report each open once (a check run again the same day opens nothing), and resolve when
 * a later report is back; the readiness answer says a repository is stale after the days its rules say.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_CRITERIA } from '../../api/criteria';
import { READINESS_STALE_DAYS, readinessAnswerSchema } from '../../api/readiness';
import { dayToMs, type Day } from '../../lib/dates';
import { STORE_ENGINES, type OpenedStore } from '../../test/stores';
import { createLogger } from '../core/log';
import { createReadinessRoutes } from '../readiness/routes';
import { addAlertRule, listAlerts } from '../store/alerts-queries';
import { writeReports } from '../store/queries';
import { fixedMappingSource } from '../teams/source';
import { createAlertChecker, storeFigures } from './check';

/** Eng/Web owns the web repository, Data the pipeline; the tools repository is no team's. */
const MAPPING = [
  'email,team,repos',
  'ann@acme.example,Eng/Web,https://github.com/acme/web',
  'bo@acme.example,Data,git@github.com:acme/pipeline.git',
].join('\n');

const IDS = KNOWN_CRITERIA.slice(0, 10).map((c) => c.id);
let n = 0;
/** A report made at noon UTC on `day` with the first `passing` of ten criteria passing (5: level 3, 3: level 2). */
const report = (repo: string, day: Day, passing: number) => {
  const createdAt = dayToMs(day) + 12 * 3_600_000;
  const body = {
    reportId: `rep-${++n}`,
    createdAt,
    repoUrl: `https://github.com/acme/${repo}`,
    apps: { '.': { description: '' } },
    report: Object.fromEntries(
      IDS.map((id, i) => [id, { numerator: i < passing ? 1 : 0, denominator: 1, rationale: '' }]),
    ),
  };
  return { report_id: body.reportId, created_at: new Date(createdAt).toISOString(), body: JSON.stringify(body) };
};

describe.each(STORE_ENGINES)('the readiness alerts, in the $name store', ({ available, open }) => {
  const opened: OpenedStore[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close();
      await o.drop();
    }
  });

  it.skipIf(!available)(
    'open once for their scope’s repositories, and resolve when a later report is back',
    async () => {
      const o = await open();
      opened.push(o);
      const db = o.store.db;
      const today = { day: '2026-05-20' };
      const logger = createLogger(() => {});
      const readiness = createReadinessRoutes({
        store: o.store,
        source: fixedMappingSource(MAPPING, 'csv', 'the test mapping'),
        refresh: async () => {},
      });
      // What the readiness rules never read: the analytics engine and the people's figures.
      const unread = () => Promise.reject(new Error('not read by the readiness rules'));
      const never = new Promise<never>(() => {});
      const checker = createAlertChecker({
        store: o.store,
        figures: storeFigures({
          store: o.store,
          analytics: never,
          runner: never,
          teams: fixedMappingSource(MAPPING, 'csv', 'the test mapping'),
          latestDay: () => today.day,
          fillUsers: unread,
          budgetStates: unread,
          readiness: (t) => readiness.selection(t),
          logger,
        }),
        webhook: undefined,
        publicUrl: new URL('https://dashboard.acme.example/'),
        logger,
      });
      // The web repository falls from level 3 to 2, as the pipeline does; the tools repository's one report is old.
      await writeReports(db, [
        report('web', '2026-05-01', 5),
        report('pipeline', '2026-05-02', 5),
        report('tools', '2026-04-01', 5),
        report('web', '2026-05-10', 3),
        report('pipeline', '2026-05-11', 3),
      ]);
      await addAlertRule(db, { kind: 'readiness-drop', scope: 'Eng', threshold: null, enabled: true }, null);
      await addAlertRule(db, { kind: 'criterion-failing', scope: 'Eng', threshold: null, enabled: true }, null);
      await addAlertRule(db, { kind: 'readiness-stale', scope: '', threshold: 30, enabled: true }, null);

      // Eng's rules hold for its sub-team's web repository only; the organization's for the tools repository only
      // (its report of April 1 is 50 days old on May 20's check, today May 21, the others' under 30).
      const first = await checker.check();
      expect(first.opened.map((a) => [a.kind, a.key])).toEqual([
        ['readiness-stale', 'github.com/acme/tools'],
        ['criterion-failing', `github.com/acme/web#${IDS[3]}`],
        ['criterion-failing', `github.com/acme/web#${IDS[4]}`],
        ['readiness-drop', 'github.com/acme/web'],
      ]);
      expect(first.opened.find((a) => a.kind === 'readiness-drop')).toMatchObject({
        scope: 'Eng',
        summary: 'acme/web fell from readiness level 3 to 2 in its report of May 10, 2026.',
        link: '/readiness/github.com%2Facme%2Fweb?team=Eng',
      });
      expect(first.opened[0]).toMatchObject({
        summary: 'acme/tools: its latest readiness report is 50 days old, from Apr 1, 2026.',
        link: '/readiness/github.com%2Facme%2Ftools',
      });
      // Checked again the same day: nothing opens twice.
      expect(await checker.check()).toMatchObject({ opened: [], resolved: [] });
      // The next day: nothing new either; the alerts stay open.
      today.day = '2026-05-21';
      expect(await checker.check()).toMatchObject({ opened: [], resolved: [] });
      expect((await listAlerts(db, 10)).open).toHaveLength(4);

      // A new report of the web repository back at level 3 and of the tools repository: each of their alerts resolves.
      await writeReports(db, [report('web', '2026-05-21', 5), report('tools', '2026-05-21', 5)]);
      const back = await checker.check();
      expect(back.opened).toEqual([]);
      expect(back.resolved.map((a) => a.kind).sort()).toEqual([
        'criterion-failing',
        'criterion-failing',
        'readiness-drop',
        'readiness-stale',
      ]);
      const after = await listAlerts(db, 10);
      expect([after.open.length, after.past.length]).toEqual([0, 4]);
    },
  );

  it.skipIf(!available)('the readiness answer says after how many days each repository’s report is stale', async () => {
    const o = await open();
    opened.push(o);
    const readiness = createReadinessRoutes({
      store: o.store,
      source: fixedMappingSource(MAPPING, 'csv', 'the test mapping'),
      refresh: async () => {},
    });
    await writeReports(o.store.db, [
      report('web', '2026-05-01', 5),
      report('pipeline', '2026-05-02', 5),
      report('tools', '2026-04-01', 5),
    ]);
    const stale = async () =>
      Object.fromEntries((await readiness.selection([])).repos.map((r) => [r.key, r.staleAfter]));
    // No rule: the default.
    expect(await stale()).toEqual({
      'github.com/acme/pipeline': READINESS_STALE_DAYS,
      'github.com/acme/tools': READINESS_STALE_DAYS,
      'github.com/acme/web': READINESS_STALE_DAYS,
    });
    // The organization's rule for every repository, a team's (Eng, above Eng/Web) for its own where it says fewer
    // days, Unassigned's for the repository no team owns; a rule turned off counts for nothing.
    await addAlertRule(o.store.db, { kind: 'readiness-stale', scope: '', threshold: 60, enabled: true }, null);
    await addAlertRule(o.store.db, { kind: 'readiness-stale', scope: 'Eng', threshold: 14, enabled: true }, null);
    await addAlertRule(o.store.db, { kind: 'readiness-stale', scope: 'Unassigned', threshold: 7, enabled: true }, null);
    await addAlertRule(o.store.db, { kind: 'readiness-stale', scope: 'Data', threshold: 3, enabled: false }, null);
    expect(await stale()).toEqual({
      'github.com/acme/pipeline': 60,
      'github.com/acme/tools': 7,
      'github.com/acme/web': 14,
    });
    // A team's selection, whose repositories the route sends as they are, in the answer's shape.
    const eng = await readiness.selection(['Eng']);
    expect(readinessAnswerSchema.parse({ ownership: eng.ownership, repos: eng.repos, reports: [] }).repos).toEqual([
      { key: 'github.com/acme/web', team: 'Eng/Web', staleAfter: 14 },
    ]);
  });
});
