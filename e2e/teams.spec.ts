import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { serviceJson } from './helpers';

const START = '2026-05-02';
const END = '2026-05-31';

interface UserRow {
  user_id: string;
  user_email: string | null;
  billable_tokens: number;
  git_commits: number;
}

/** The demo service's `/users` rows of the range, every page. */
async function serviceRows(request: APIRequestContext): Promise<UserRow[]> {
  const rows: UserRow[] = [];
  let cursor = '';
  for (;;) {
    const page = await serviceJson<{ data: UserRow[]; meta: { has_more: boolean; next_cursor?: string } }>(
      request,
      `/api/v1/analytics/users?startDate=${START}&endDate=${END}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    rows.push(...page.data);
    if (!page.meta.has_more) return rows;
    cursor = page.meta.next_cursor!;
  }
}

/** Who is in a team (sub-teams included), read from the mapping in force as the server gives it. */
async function membersOf(request: APIRequestContext, team: string) {
  const mapping = await serviceJson<{ text: string }>(request, '/api/teams/mapping');
  const entries = parse(mapping.text, { columns: true, skip_empty_lines: true }) as {
    email?: string;
    user_id?: string;
    team: string;
  }[];
  const inTeam = entries.filter((e) => e.team === team || e.team.startsWith(`${team}/`));
  const ids = new Set(inTeam.map((e) => e.user_id).filter(Boolean));
  const emails = new Set(inTeam.map((e) => e.email?.toLowerCase()).filter(Boolean));
  return (r: UserRow) => ids.has(r.user_id) || (r.user_email !== null && emails.has(r.user_email.toLowerCase()));
}

test('teams: pick a team, the page and the users follow it; the teams page sorts, opens a team, and its CSV matches the service rows', async ({
  page,
  request,
}) => {
  const tree = await serviceJson<{ teams: { path: string; members: number }[] }>(request, '/api/teams');
  const team = [...tree.teams].sort((a, b) => b.members - a.members)[0]!.path;
  const rows = await serviceRows(request);
  const inTeam = await membersOf(request, team);
  const mine = rows.filter(inTeam);
  const active = new Set(mine.map((r) => r.user_id)).size;
  const credits = mine.reduce((s, r) => s + r.billable_tokens, 0);
  expect(active).toBeGreaterThan(0);

  // The organization first, then the team: the URL, the header and the KPIs change.
  await page.goto(`/?start=${START}&end=${END}`);
  // The card's value carries the exact figure in its title.
  const kpi = page.getByText('Standard credits', { exact: true }).locator('..').locator('p[title]');
  const orgCredits = rows.reduce((s, r) => s + r.billable_tokens, 0);
  await expect(kpi).toHaveAttribute('title', orgCredits.toLocaleString('en-US'));
  await page.getByRole('button', { name: /^Team:/ }).click();
  await page.getByRole('checkbox', { name: team, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`[?&]team=${encodeURIComponent(team)}(&|$)`));
  await expect(page.getByText('figures for its members only, sub-teams included')).toBeVisible();
  await expect(kpi).toHaveAttribute('title', credits.toLocaleString('en-US'));
  // Cache tokens are the organization's only: a note, not a number.
  await expect(page.getByText(/whole organization only/).first()).toBeVisible();

  // The users page keeps the team, and lists its active people only.
  await page.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page).toHaveURL(/\/users\?.*team=/);
  await expect(page.getByText(`${active} of ${active} people active in the range`)).toBeVisible();

  // The teams page: sort by adoption, highest first, among the top-level teams.
  await page.getByRole('link', { name: 'Teams', exact: true }).click();
  await expect(page).toHaveURL(/\/teams\?.*team=/);
  const table = page.getByRole('table', { name: 'Teams, with their sub-teams' });
  // The chosen team follows the reader to the teams page: its own tree alone, no organization row.
  await expect(table.getByRole('rowheader')).toHaveText([new RegExp(`${team.split('/').at(-1)!}$`)]);
  // All teams again, for the whole tree.
  await page.getByRole('button', { name: /^Team:/ }).click();
  await page.getByRole('button', { name: /^All teams/ }).click();
  await expect(page).not.toHaveURL(/team=/);
  await expect(table.getByRole('rowheader').first()).toHaveText(/Whole organization/);
  const summary = await serviceJson<{ rows: { team: string; depth: number; current: { adoption: number | null } }[] }>(
    request,
    `/api/teams/summary?start=${START}&end=${END}`,
  );
  const adoption = table.getByRole('columnheader', { name: /^Adoption/ });
  // The first click sorts by adoption in the header's first direction; wait for it to show before
  // deciding whether a second click is needed (reading at once raced the render).
  await expect(adoption).toHaveAttribute('aria-sort', 'none');
  await table.getByRole('button', { name: /^Adoption/ }).click();
  await expect(adoption).not.toHaveAttribute('aria-sort', 'none');
  if ((await adoption.getAttribute('aria-sort')) !== 'descending') {
    await table.getByRole('button', { name: /^Adoption/ }).click();
  }
  await expect(adoption).toHaveAttribute('aria-sort', 'descending');
  const expected = summary.rows
    .filter((r) => r.depth === 1 && r.team !== 'Unassigned')
    .sort((a, b) => (b.current.adoption ?? -1) - (a.current.adoption ?? -1))
    .map((r) => r.team);
  const shown = (await table.getByRole('rowheader').getByRole('link').allTextContents()).map((t) => t.trim());
  const tops = shown.filter((t) => expected.includes(t));
  expect(tops).toEqual(expected);

  // The CSV holds every team; the chosen team's credits and active people are the service's rows.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /CSV/ }).first().click();
  const csv = parse(readFileSync(await (await download).path(), 'utf8'), { columns: true }) as Record<string, string>[];
  const line = csv.find((r) => r.team_path === team)!;
  expect(Number(line.credits)).toBe(credits);
  expect(Number(line.active_users)).toBe(active);
  const org = csv.find((r) => r.team_path === '')!;
  expect(Number(org.credits)).toBe(orgCredits);

  // A team's page: its KPIs and its members, linked with the range.
  await table.getByRole('link', { name: team, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${encodeURIComponent(team)}\\?`));
  await expect(page.getByRole('heading', { name: team.split('/').at(-1), exact: true })).toBeVisible();
  await expect(page.getByText(`${active} of`).first()).toBeVisible();
  const top = [...mine].sort((a, b) => b.billable_tokens - a.billable_tokens)[0]!;
  const member = page.getByRole('link', { name: top.user_email ?? top.user_id }).first();
  await expect(member).toHaveAttribute('href', new RegExp(`start=${START}&end=${END}`));
});
