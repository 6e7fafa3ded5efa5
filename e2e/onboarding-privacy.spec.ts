import { expect, test } from '@playwright/test';
import { PORTS, PRIVACY_MIN_GROUP } from '../playwright.config';
import { signIn } from './helpers';

const BASE = `http://127.0.0.1:${PORTS.privacy}`;
const K = PRIVACY_MIN_GROUP;
const RANGE = 'start=2026-03-02&end=2026-05-31';
const TITLE = 'From access to a first pull request';

interface Answer {
  rows: { key: string; current: { funnelStarters: number | null } }[];
}

test('privacy mode: a manager’s onboarding gives no team or week of fewer than k starters, and no day', async ({
  browser,
}) => {
  test.slow();
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', '/', BASE);
  const tree = (await (await a.request.get(`${BASE}/api/teams`)).json()) as {
    teams: { path: string; members: number; managers: string[] }[];
  };
  // The manager of the largest team with a manager: the organization's weeks are theirs to read through it.
  const team = [...tree.teams].filter((t) => t.managers.length > 0).sort((x, y) => y.members - x.members)[0]!;
  await admin.close();

  const ctx = await browser.newContext();
  const m = await ctx.newPage();
  await signIn(m, team.managers[0]!, `/onboarding?${RANGE}`, BASE);
  const ask = async (by: string) => {
    const r = await m.request.get(`${BASE}/api/figures?${RANGE}&measure=funnelStarters&measure=funnelPrShare&by=${by}`);
    expect(r.status()).toBe(200);
    return ((await r.json()) as Answer).rows;
  };
  const [teams, weeks, days] = await Promise.all([ask('team'), ask('week'), ask('day')]);
  // Every figure given is of none or at least k starters; some are given, and no day is.
  for (const r of [...teams, ...weeks])
    if (r.current.funnelStarters !== null)
      expect(r.current.funnelStarters === 0 || r.current.funnelStarters >= K).toBe(true);
  expect(teams.some((r) => (r.current.funnelStarters ?? 0) >= K)).toBe(true);
  expect(days.length).toBe(91);
  expect(days.every((r) => r.current.funnelStarters === null)).toBe(true);

  // The page says how many weeks are withheld and why, under the chart of those given.
  const widget = m.getByRole('region', { name: TITLE, exact: true });
  const given = weeks.filter((w) => w.current.funnelStarters !== null);
  const starters = given.reduce((s, w) => s + w.current.funnelStarters!, 0);
  await expect(widget.getByRole('figure')).toHaveAttribute(
    'aria-label',
    new RegExp(`^Of .+'s ${starters.toLocaleString('en-US')} starters? from the week of`),
  );
  const withheld = weeks.length - given.length;
  if (withheld > 0)
    await expect(widget).toContainText(
      `${withheld} week${withheld === 1 ? '' : 's'} of ${weeks.length} withheld: privacy mode shows no cohort of fewer than ${K} starters`,
    );
  // Each team's funnel: a team given shows its starters, a team withheld no figure at all.
  const perTeam = m.getByRole('region', { name: `${TITLE}, per team` });
  const cellsOf = async (team: string) => {
    const row = perTeam.getByRole('row').filter({ has: m.getByRole('link', { name: team, exact: true }) });
    await expect(row).toHaveCount(1);
    return (await row.getByRole('cell').allInnerTexts()).map((c) => c.trim());
  };
  const shownTeam = teams.find((r) => (r.current.funnelStarters ?? 0) >= K)!;
  expect((await cellsOf(shownTeam.key))[1]).toBe(shownTeam.current.funnelStarters!.toLocaleString('en-US'));
  const hiddenTeam = teams.find((r) => r.current.funnelStarters === null);
  if (hiddenTeam) expect((await cellsOf(hiddenTeam.key)).slice(1).every((c) => c === '–' || c === '')).toBe(true);
  await m.screenshot({ path: test.info().outputPath('onboarding-privacy.png'), fullPage: true });
  await ctx.close();
});
