import { expect, test } from '@playwright/test';
import { serviceJson } from './helpers';

interface Answer {
  ownership: boolean;
  repos: { key: string; team: string | null }[];
  reports: { repoUrl: string }[];
}

/** "owner/name", as the pages name a repository. */
const shown = (key: string) => key.split('/').slice(1).join('/');

test('readiness by team: the team selector limits the repositories, a repository shows its plan and owner, the team view lists teams and Unowned', async ({
  page,
  request,
}) => {
  // A fresh server filling its store beside the other worker's specs, on a loaded machine: up to a minute seen.
  test.slow();
  const all = await serviceJson<Answer>(request, '/api/readiness');
  expect(all.ownership).toBe(true);
  // The top-level team owning the most repositories (its sub-teams' included).
  const counts = new Map<string, number>();
  for (const r of all.repos)
    if (r.team) counts.set(r.team.split('/')[0]!, (counts.get(r.team.split('/')[0]!) ?? 0) + 1);
  const team = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const theirs = all.repos.filter((r) => r.team === team || r.team?.startsWith(`${team}/`));
  expect(theirs.length).toBeGreaterThan(1);
  expect(theirs.length).toBeLessThan(all.repos.length);

  await page.goto('/readiness');
  const table = page.getByRole('table', { name: 'Repositories and their latest readiness' });
  await expect(page.getByText(new RegExp(`reports of ${all.repos.length} repositories`))).toBeVisible({
    timeout: 30_000,
  });
  // The team view: every owning team, and the Unowned row.
  const teams = page.getByRole('table', { name: 'Readiness by team' });
  await expect(teams.getByRole('cell', { name: 'Unowned', exact: true })).toBeVisible();
  const owning = new Set(all.repos.flatMap((r) => (r.team ? [r.team] : [])));
  await expect(teams.locator('tbody tr')).toHaveCount(owning.size + 1);
  const unowned = all.repos.filter((r) => r.team === null).length;
  await expect(teams.locator('tbody tr', { hasText: 'Unowned' }).getByRole('cell').nth(1)).toHaveText(String(unowned));
  // What to fix next, for the organization: criteria with the repositories they lift.
  const fixes = page.getByRole('region', { name: 'What to fix next' }).getByRole('table', { name: 'What to fix next' });
  await expect(fixes.locator('tbody tr').first()).toContainText(/\d/);

  // Choose the team in the header: the URL keeps it, and only its repositories remain.
  await page.getByRole('button', { name: /^Team:/ }).click();
  await page.getByRole('checkbox', { name: team, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/readiness\\?.*team=${encodeURIComponent(team)}`));
  await expect(page.getByRole('heading', { level: 1, name: `Readiness · ${team}` })).toBeVisible();
  await expect(page.getByText(new RegExp(`reports of ${theirs.length} repositories owned by ${team}`))).toBeVisible();
  const links = table.getByRole('link');
  await expect(links).toHaveCount(theirs.length);
  expect((await links.allTextContents()).sort()).toEqual(theirs.map((r) => shown(r.key)).sort());
  // The team's repositories per level add up to its repositories, and the target says plainly whether it is met.
  const spread = page.getByRole('table', { name: 'Repositories per level' });
  const perLevel = (await spread.locator('tbody tr td:nth-child(2)').allTextContents()).map(Number);
  expect(perLevel.reduce((a, b) => a + b, 0)).toBe(theirs.length);
  const below = perLevel[3]! + perLevel[4]!; // rows run from level 5 down to level 1
  await expect(page.getByTestId('readiness-target')).toHaveText(
    below === 0
      ? /^✓ Target met: /
      : new RegExp(`^✗ Target not met: ${below} of ${theirs.length} repositor(y|ies) (is|are) below level 3`),
  );
  await page.screenshot({ path: 'test-results/readiness-team-1280.png', fullPage: true });

  // A repository of the team: its owner and its next-level plan.
  const repo = theirs[0]!;
  await table.getByRole('link', { name: shown(repo.key), exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: shown(repo.key) })).toBeVisible();
  await expect(page.getByText(`Owned by ${repo.team}`)).toBeVisible();
  const plan = page.getByRole('region', { name: 'What to fix first' });
  await expect(
    plan.getByText(
      /^Fix (this criterion|these \d+ criteria) to go from level [1-4] · \w+ \(.*\) to level [2-5] · \w+ \(|^At the top level/,
    ),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/readiness-repo-1280.png', fullPage: true });

  // A phone's width: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(plan).toBeVisible();
  // Charts take the new width a frame or more after the viewport changes (compare.spec.ts waits so too).
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/readiness-repo-390.png', fullPage: true });
  await page.goBack();
  await expect(page).toHaveURL(/\/readiness\?/);
  await expect(links).toHaveCount(theirs.length);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/readiness-team-390.png', fullPage: true });
});
