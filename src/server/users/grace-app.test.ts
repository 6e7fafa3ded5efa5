/**
 * The users endpoints of the app without the new starters in grace (ONBOARDING_GRACE_DAYS) in their lists of people
 * not using the agent: the never used list and its CSV leave out the people the mapping gives access to within the
 * days of grace to the range's end, the answer says how many, and privacy mode gives that count as the seats' (none
 * of 1 to k−1 people to a manager).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highlightsSchema } from '../../api/insights';
import { usersTableSchema } from '../../api/users';
import { addDays } from '../../lib/dates';
import { appHarness } from '../../test/app-harness';
import { raw } from '../../test/http';
import { request, signedIn, signInEnv, startProvider, type TestProvider } from '../../test/oidc';
import { createDemoService } from '../demo/service';
import { readDemoConfig } from '../demo/config';

const dir = mkdtempSync(join(tmpdir(), 'grace-app-'));
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'grace-app', DEMO_USERS: '30' };
const START = '2026-04-01';
const END = '2026-04-30';
const RANGE = `start=${START}&end=${END}`;
const LEAD = 'small-lead@acme.example';

const { listen, dashboard, atEnd } = appHarness(DEMO);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The demo's people with an email active in the range, and one active before it but not in it (idle). */
const { active, idle } = (() => {
  const org = createDemoService(readDemoConfig(DEMO)).world().org;
  const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
  const days = (i: number) => org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]!;
  return {
    active: org.users.filter((u, i) => u.email !== null && days(i) > 0),
    idle: org.users.find((_, i) => days(i) === 0 && org.activeCount[i]![lo]! > 0),
  };
})();

// New: three people given access two days before the range's end, three long before; none of them seen. Small: four
// people active in the range, one given access the day before its end, three long before, none of them seen. Back: one
// person seen before the range but not in it, given access anew two days before its end (back from a long leave).
const recent = ['usr_new_1', 'usr_new_2', 'usr_new_3'];
const old = ['usr_old_1', 'usr_old_2', 'usr_old_3'];
const smallOld = ['usr_small_1', 'usr_small_2', 'usr_small_3'];
const MAPPING = [
  'email,user_id,team,manager,since',
  `,,Small,${LEAD},`,
  ...recent.map((id) => `,${id},New,,${addDays(END, -2)}`),
  ...old.map((id) => `,${id},New,,2026-02-02`),
  ...active.slice(0, 4).map((u) => `${u.email},,Small,,`),
  `,usr_small_new,Small,,${addDays(END, -1)}`,
  ...smallOld.map((id) => `,${id},Small,,2026-02-02`),
  `,${idle!.id},Back,,${addDays(END, -2)}`,
].join('\n');

describe('the users endpoints without the new starters in grace', () => {
  let provider: TestProvider;
  const base = { grace10: '', grace2: '', private: '' };
  const SECRET = 'grace-app-privacy-secret-of-32-characters!';

  beforeAll(async () => {
    expect(active.length).toBeGreaterThanOrEqual(4);
    expect(idle).toBeDefined();
    const teams = join(dir, 'teams.csv');
    writeFileSync(teams, `${MAPPING}\n`);
    base.grace10 = await dashboard({ TEAMS_FILE: teams, ONBOARDING_GRACE_DAYS: '10' });
    base.grace2 = await dashboard({ TEAMS_FILE: teams, ONBOARDING_GRACE_DAYS: '2' });
    const at = await listen();
    provider = await startProvider(`${at.base}/auth/callback`);
    atEnd(() => provider.close());
    base.private = await dashboard(
      { TEAMS_FILE: teams, ...signInEnv(provider.issuer, at.base), PRIVACY_MIN_GROUP: '3', PRIVACY_SECRET: SECRET },
      { at },
    );
  }, 60_000);

  const table = async (where: string, query: string, range = RANGE) => {
    const r = await raw(where, `/api/users?${range}&limit=100&${query}`);
    expect(r.status, r.body).toBe(200);
    return usersTableSchema.parse(JSON.parse(r.body));
  };
  const ids = (t: { users: { userId: string }[] }) => t.users.map((u) => u.userId).sort();

  it('lists those long given access as never used, not those in their days of grace, and says how many', async () => {
    const never = await table(base.grace10, 'who=never&team=New');
    expect(ids(never)).toEqual(old);
    expect(never.total).toBe(3);
    expect(never.seats).toMatchObject({ named: 6, never: 3 });
    expect(never.grace).toEqual({ days: 10, inactive: 0, seats: { idle7: 0, idle30: 0, never: 3 } });
    // The CSV is the list.
    const csv = await raw(base.grace10, `/api/users.csv?${RANGE}&who=never&team=New&sort=user&dir=asc`);
    expect(
      csv.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(old);
    // They are named: in the seats' first list.
    expect(ids(await table(base.grace10, 'who=named&team=New'))).toEqual([...old, ...recent].sort());
    // Access after the range's end is no lag either.
    const before = await table(base.grace10, 'who=never&team=New', `start=${START}&end=${addDays(END, -3)}`);
    expect([ids(before), before.grace?.seats?.never]).toEqual([old, 3]);
  });

  it('lists them once their days of grace have ended', async () => {
    const never = await table(base.grace2, 'who=never&team=New');
    expect(ids(never)).toEqual([...old, ...recent].sort());
    expect(never.seats?.never).toBe(6);
    expect(never.grace).toEqual({ days: 2, inactive: 0, seats: { idle7: 0, idle30: 0, never: 0 } });
  });

  it('leaves them out of the highlights as the users page does: no activity in 30 days, never used', async () => {
    // The whole history stored, as the background sync leaves it: the highlights read only what is stored.
    await table(base.grace10, 'who=all', `start=2026-01-14&end=${END}`);
    await table(base.grace2, 'who=all', `start=2026-01-14&end=${END}`);
    const highlights = async (where: string, team: string) => {
      const r = await raw(where, `/api/highlights?team=${team}`);
      expect(r.status, r.body).toBe(200);
      return highlightsSchema.parse(JSON.parse(r.body));
    };
    const neverNote = (h: { notes: string[] }) => h.notes.filter((n) => n.includes('never used the agent'));
    expect(neverNote(await highlights(base.grace10, 'New'))).toEqual([
      '3 people named in the team mapping have never used the agent (the service has reported no day for them).',
    ]);
    expect(neverNote(await highlights(base.grace2, 'New'))).toEqual([
      '6 people named in the team mapping have never used the agent (the service has reported no day for them).',
    ]);
    // Back's one person, idle for the 30 days but given access two days ago: in grace with 10 days, not with 2.
    const inactive = (h: { highlights: { kind: string; title: string }[] }) =>
      h.highlights.filter((x) => x.kind === 'inactive').map((x) => x.title);
    expect(inactive(await highlights(base.grace10, 'Back'))).toEqual([]);
    expect((await table(base.grace10, 'who=inactive&team=Back')).grace?.inactive).toBe(1);
    expect(inactive(await highlights(base.grace2, 'Back'))).toEqual(['1 person had no activity in 30 days']);
    expect(ids(await table(base.grace2, 'who=inactive&team=Back'))).toEqual([idle!.id]);
  });

  it('gives a manager in privacy mode no count of 1 to k−1 new starters, an admin the count', async () => {
    const as = async (email: string) => {
      const jar = await signedIn(base.private, email);
      return async (query: string) => {
        const r = await request(jar, new URL(`/api/users?${RANGE}&limit=100&${query}`, base.private));
        expect(r.res.status, r.body).toBe(200);
        return usersTableSchema.parse(JSON.parse(r.body));
      };
    };
    const lead = await (await as(LEAD))('who=never&team=Small');
    expect(lead.users).toHaveLength(3);
    expect(lead.seats?.never).toBe(3);
    expect(lead.grace).toEqual({ days: 14, inactive: 0, seats: { idle7: 0, idle30: 0, never: null } });
    const admin = await (await as('admin@acme.example'))('who=never&team=Small');
    expect(ids(admin)).toEqual(smallOld);
    expect(admin.grace?.seats?.never).toBe(1);
  });
});
