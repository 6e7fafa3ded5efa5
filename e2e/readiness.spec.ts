import { expect, test } from '@playwright/test';
import type { ReadinessAnswer } from '../src/api/readiness';
import { levelFor, passRate, repoName } from '../src/lib/readiness';
import { normalizeRepoUrl } from '../src/lib/repos';

test('readiness: overview, search, a repository scorecard, grouping, rationale, an earlier report and its changes', async ({
  page,
}) => {
  // A fresh server filling its store beside the other worker's specs, on a loaded machine: up to a minute seen.
  test.slow();
  await page.goto('/readiness');
  // The first answer of a fresh server waits for the store to fill the reports from the service, while the server's
  // backfill and the other worker's readiness spec (the same server) run beside it: up to 20 s seen under load.
  const status = page.getByText(/^\d+ reports of \d+ repositories/);
  await expect(status).toBeVisible({ timeout: 30_000 });
  const repositories = Number((await status.textContent())!.match(/of (\d+) repositories/)![1]);
  // The repositories per level, each level named and said what it means, add up to every repository.
  const spread = page.getByRole('table', { name: 'Repositories per level' });
  await expect(
    spread.getByRole('rowheader', { name: /^3 · Standardized\s*target\s*pass rate from 40\s%\sto under 60\s%$/ }),
  ).toBeVisible();
  const counts = (await spread.locator('tbody tr td:nth-child(2)').allTextContents()).map(Number);
  expect(counts).toHaveLength(5);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(repositories);
  const atTarget = counts[0]! + counts[1]! + counts[2]!; // rows run from level 5 down to level 1
  await expect(spread.locator('tfoot td').first()).toHaveText(String(atTarget));
  // The target says plainly whether it is met, and by how many it is missed.
  await expect(page.getByTestId('readiness-target')).toHaveText(
    atTarget === repositories
      ? /^✓ Target met/
      : `✗ Target not met: ${repositories - atTarget} of ${repositories} repositories ${repositories - atTarget === 1 ? 'is' : 'are'} below level 3 · Standardized.`,
  );
  await expect(page.getByRole('figure', { name: /share of repositories at each level per day/ })).toBeVisible();
  // The date range belongs to the analytics pages only.
  await expect(page.getByRole('group', { name: 'Date range' })).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Repositories and their latest readiness' });
  const first = table.getByRole('link').first();
  const name = (await first.textContent())!;
  await page.getByLabel('Search repositories').fill(name.split('/')[1]!);
  await expect(page).toHaveURL(/q=/);
  await expect(table.getByRole('link', { name, exact: true })).toBeVisible();

  // Pick a repository with several reports, so an earlier one can be opened.
  await page.getByLabel('Search repositories').fill('');
  await table.getByRole('button', { name: /^Reports/ }).click();
  // Read the first row only once the table shows the new order, and open that repository by name.
  await expect(table.getByRole('columnheader', { name: /^Reports/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/reposSort=reports/);
  const repo = (await table.getByRole('link').first().textContent())!;
  await table.getByRole('link', { name: repo, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: repo })).toBeVisible();

  const scorecard = page.getByRole('region', { name: 'Scorecard' });
  await expect(scorecard.getByRole('heading', { name: /^Level 1 · Functional/ })).toBeVisible();
  await scorecard.getByRole('button', { name: 'By pillar' }).click();
  await expect(page).toHaveURL(/group=pillar/);
  await expect(scorecard.getByRole('heading', { name: /^Style & Validation/ })).toBeVisible();

  const item = scorecard.locator('details').first();
  await expect(item.locator('p').first()).toBeHidden();
  await item.locator('summary').click();
  await expect(item.locator('p').first()).toBeVisible();
  await expect(item.locator('p').first()).not.toBeEmpty();

  // Failed only: the URL keeps it, and every criterion listed failed; the plan's criteria are among them, marked.
  const failedOnly = scorecard.getByRole('button', { name: /^Failed only \(\d+\)$/ });
  const failed = Number((await failedOnly.textContent())!.match(/\((\d+)\)/)![1]);
  await failedOnly.click();
  await expect(page).toHaveURL(/criteria=failed/);
  await expect(scorecard.locator('li')).toHaveCount(failed);
  await expect(scorecard.locator('li', { hasText: '✗ Failed' })).toHaveCount(failed);
  const plan = page.getByRole('region', { name: 'What to fix first' });
  const steps = await plan
    .getByRole('listitem')
    .getByRole('link')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  if (steps.length === 0) await expect(plan).toContainText('At the top level');
  for (const [i, href] of steps.entries()) {
    await expect(scorecard.locator(href).getByText(`fix first · ${i + 1}`, { exact: true })).toBeVisible();
    await expect(scorecard.locator(href)).toContainText('✗ Failed');
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(scorecard.locator('li').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });

  const select = page.getByRole('combobox', { name: 'Report' });
  const options = await select.locator('option').allTextContents();
  expect(options.length).toBeGreaterThan(2);
  await select.selectOption({ index: 2 });
  await expect(page).toHaveURL(/report=/);
  await expect(page.getByText('an earlier report')).toBeVisible();
  const changes = page.getByRole('region', { name: 'Changes since the previous report' });
  await expect(changes.getByText(/^Against .*: pass rate .* → .*, level \d → \d\.$/)).toBeVisible();
  // The filter stays with an earlier report too.
  await expect(page).toHaveURL(/criteria=failed/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(changes).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('readiness at a phone’s width: nothing scrolls sideways, and the level names do not run into each other', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/readiness');
  await expect(page.getByText(/^\d+ reports of \d+ repositories/)).toBeVisible({ timeout: 30_000 });
  const spread = page.getByRole('table', { name: 'Repositories per level' });
  await expect(spread).toBeVisible();
  await expect(page.getByRole('figure', { name: /share of repositories at each level per day/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Each level's name sits in a row of its own: no two boxes overlap.
  const boxes = await spread
    .getByRole('rowheader')
    .evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom, right: r.right })),
    );
  expect(boxes).toHaveLength(6);
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 0.5);
  for (const b of boxes) expect(b.right).toBeLessThanOrEqual(390);
  // The pillars' names on the bar chart do not overlap either.
  const labels = await page
    .getByRole('region', { name: 'Pass rate per pillar' })
    .locator('.recharts-yAxis .recharts-cartesian-axis-tick')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
  expect(labels.length).toBeGreaterThan(3);
  const sorted = labels.sort((a, b) => a.top - b.top);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.top).toBeGreaterThanOrEqual(sorted[i - 1]!.bottom - 1);
});

test('readiness: unsafe repository URLs never become links', async ({ page }) => {
  await page.goto('/readiness');
  // The page shows every repository at once, from one answer: a fresh server fills its reports first (see above).
  await expect(page.getByText(/^\d+ reports of \d+ repositories/)).toBeVisible({ timeout: 30_000 });
  const links = page.getByRole('table', { name: 'Repositories and their latest readiness' }).getByRole('link');
  await expect.poll(() => links.count()).toBeGreaterThan(5);
  for (const href of await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    expect(href).not.toMatch(/^\s*javascript:/i);
  }
});

test('what to fix next is for level 3: only repositories below it, as many fixes by level; a repository opened from a team keeps it, its plan in level order', async ({
  page,
  request,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  // Each repository's level by its latest report (the answer's reports are oldest first), under its shown name.
  const answer = (await (await request.get('/api/readiness')).json()) as ReadinessAnswer;
  const latest = new Map(answer.reports.map((r) => [normalizeRepoUrl(r.repoUrl), r]));
  const levels = new Map([...latest].map(([k, r]) => [repoName(k), levelFor(passRate(Object.values(r.report)))]));
  const below = [...levels.values()].filter((l) => l < 3).length;
  expect(below).toBeGreaterThan(1);
  expect(below).toBeLessThan(levels.size);

  await page.goto('/readiness');
  await expect(page.getByText(/^\d+ reports of \d+ repositories/)).toBeVisible({ timeout: 30_000 });
  const widget = page.getByRole('region', { name: 'What to fix next' });
  await expect(widget).toContainText(
    `Ranked for the target, level 3 · Standardized: by how many of the organization’s ${below} repositories below it each fix brings there, with the fewest other fixes; as many, the lowest level first.`,
  );
  const rows = (
    await widget
      .getByRole('table', { name: 'What to fix next' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  ).map(([name, level, brings, which]) => {
    const [, count, of] = brings!.match(/^(\d+) of (\d+)/)!;
    return { name: name!, level: Number(level) || 6, count: Number(count), of: Number(of), which: which!.split(', ') };
  });
  expect(rows.length).toBeGreaterThan(3);
  for (const r of rows) {
    expect(r.of).toBe(below);
    expect(r.which).toHaveLength(r.count);
    // A repository at level 3 or above counts for no fix.
    for (const name of r.which) expect(levels.get(name), `${r.name}: ${name}`).toBeLessThan(3);
  }
  // The most repositories first; as many, the lowest level first.
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    expect(a.count > b.count || (a.count === b.count && a.level <= b.level), `${a.name} before ${b.name}`).toBe(true);
  }

  // A team's repository below level 3, opened from the team's readiness: the team stays in its address and its links.
  const repo = answer.repos.find((r) => r.team !== null && (levels.get(repoName(`https://${r.key}`)) ?? 3) === 2)!;
  const team = repo.team!.split('/')[0]!;
  await page.goto(`/readiness?team=${encodeURIComponent(team)}`);
  await page.getByLabel('Search repositories').fill(repoName(`https://${repo.key}`));
  const table = page.getByRole('table', { name: 'Repositories and their latest readiness' });
  await table.getByRole('link', { name: repoName(`https://${repo.key}`), exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: repoName(`https://${repo.key}`) })).toBeVisible();
  expect(new URL(page.url()).searchParams.getAll('team')).toEqual([team]);
  await expect(page.getByRole('link', { name: '← All repositories' })).toHaveAttribute(
    'href',
    `/readiness?team=${encodeURIComponent(team)}`,
  );
  // Its 2 → 3 plan: in level order, each criterion named as the scorecard names it.
  const plan = page.getByRole('region', { name: 'What to fix first' });
  await expect(plan).toContainText(/to go from level 2 · Documented \(.*\) to level 3 · Standardized/);
  const steps = await plan.getByRole('listitem').allTextContents();
  expect(steps.length).toBeGreaterThan(0);
  const stepLevels = steps.map((s) => Number(s.match(/ level (\d) · /)?.[1] ?? 6));
  expect(stepLevels).toEqual([...stepLevels].sort((a, b) => a - b));
  const scorecard = page.getByRole('region', { name: 'Scorecard' });
  for (const link of await plan.getByRole('listitem').getByRole('link').all()) {
    const name = (await link.textContent())!;
    expect(name).not.toMatch(/_/);
    await expect(scorecard.locator((await link.getAttribute('href'))!).locator('summary')).toContainText(name);
  }
});
