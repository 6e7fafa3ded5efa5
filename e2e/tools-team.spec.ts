import { expect, test } from '@playwright/test';

const RANGE = 'start=2026-05-02&end=2026-05-31';

test('the tools page for a team: the widgets a team has, one note for the rest, and the way back', async ({
  page,
  request,
}) => {
  const answer = (await (
    await request.get(`/api/teams/analytics/tools?startDate=2026-05-02&endDate=2026-05-31&team=Engineering`)
  ).json()) as { data: { skills_invocations: number }[] };
  const skills = answer.data.reduce((s, d) => s + d.skills_invocations, 0);
  expect(skills).toBeGreaterThan(0);

  await page.goto(`/tools?${RANGE}&team=Engineering`);
  await expect(page.getByText('figures for its members only, sub-teams included')).toBeVisible();
  // The team's skill activations (the sum of its members' own), and why no table names the skills.
  const card = page.getByText('Skill activations', { exact: true }).locator('..').locator('p[title]');
  await expect(card).toHaveAttribute('title', skills.toLocaleString('en-US'), { timeout: 30_000 });
  const note = page.getByRole('complementary', { name: 'For the whole organization only' });
  await expect(note).toContainText('which skills, slash commands and hooks ran');
  await expect(note).toContainText('are the sums of the team members’ own counts');
  // No box without figures: the organization-only widgets are not on the page, the team's are.
  for (const title of ['Tool calls per tool', 'Tools', 'External tool servers', 'Skills', 'Hooks', 'Autonomy levels'])
    await expect(page.getByRole('region', { name: title, exact: true })).toHaveCount(0);
  for (const title of [
    'Autonomy (the service’s figure): tool calls per user turn',
    'Per session',
    'People using external tool servers',
  ])
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
  await expect(page.getByText('External tool-server calls', { exact: true })).toHaveCount(0);

  // On a phone the note and its link fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const back = note.getByRole('link', { name: 'See the whole organization' });
  await back.scrollIntoViewIfNeeded();
  await expect(back).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The way back: the same range, no team, every widget with the organization's names.
  await back.click();
  await expect(page).toHaveURL(`/tools?${RANGE}`);
  await expect(page.getByRole('region', { name: 'Skills', exact: true }).getByRole('row').nth(1)).toBeVisible({
    timeout: 30_000,
  });
  await expect(note).toHaveCount(0);
});
