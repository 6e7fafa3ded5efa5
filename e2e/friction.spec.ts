import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { FrictionAnswer } from '../src/api/friction';
import { seriousInBothThemes } from './helpers';

const RANGE = 'start=2026-05-02&end=2026-05-31';

test('readiness priced in friction and delegation headroom: the readiness and teams pages, desk and phone', async ({
  page,
}) => {
  // Two widths, two themes each, two pages, on two cores beside the other specs' servers.
  test.slow();
  const answer = (await (await page.request.get(`/api/readiness/friction?${RANGE}`)).json()) as FrictionAnswer;
  const shown = answer.criteria.filter((c) => c.shown);
  // The demo's mapping gives enough owning teams on both sides of some criteria for the view to show.
  expect(shown.length).toBeGreaterThan(0);

  await page.goto(`/readiness?${RANGE}`);
  const friction = page.getByRole('region', { name: 'Friction by criterion' });
  await expect(friction.getByText(/a correlation across few teams, never a cause/)).toBeVisible();
  const table = friction.getByRole('table', { name: 'Friction by criterion' });
  await expect(table.getByRole('row')).toHaveCount(shown.length + 1);
  // The first criterion as the server gives it: its teams failing it, and their repositories.
  const first = shown.toSorted((a, b) => b.failing.teams - a.failing.teams)[0]!;
  const row = table.getByRole('row', { name: new RegExp(`^${first.name}`) }).first();
  await expect(row.locator('td[data-label="Teams failing"]')).toHaveText(String(first.failing.teams));
  await expect(row.locator('td[data-label="Repositories failing"]')).toHaveText(String(first.failing.repositories));
  // The table as CSV: each side's figures beside the other's.
  const download = page.waitForEvent('download');
  await friction.getByRole('button', { name: 'Download CSV of Friction by criterion' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('readiness-friction.csv');
  const lines = readFileSync(await file.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toContain('tool_calls_per_user_turn_failing');
  expect(lines[0]).toContain('manual_share_passing');
  expect(lines).toHaveLength(shown.length + 1);

  const headroom = page.getByRole('region', { name: 'Delegation headroom' });
  const risk = headroom.getByRole('region', { name: 'A risk to look at' });
  await expect(risk.getByRole('listitem')).toHaveCount(answer.headroom.risk.length);
  const room = headroom.getByRole('region', { name: 'Room to delegate more' });
  await expect(room.getByRole('listitem')).toHaveCount(answer.headroom.room.length);
  expect(await seriousInBothThemes(page)).toEqual([]);

  // The teams page lists the same headroom under the teams.
  await page.goto(`/teams?${RANGE}`);
  const teamsHeadroom = page.getByRole('region', { name: 'Delegation headroom' });
  await expect(teamsHeadroom.getByRole('region', { name: 'A risk to look at' }).getByRole('listitem')).toHaveCount(
    answer.headroom.risk.length,
  );
  expect(await seriousInBothThemes(page)).toEqual([]);

  // On a phone: each page fits its width, the criteria as cards.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/readiness?${RANGE}`, `/teams?${RANGE}`]) {
    await page.goto(path);
    await expect(page.getByRole('region', { name: 'Delegation headroom' })).toBeVisible();
    if (path.startsWith('/readiness'))
      await expect(page.getByRole('region', { name: 'Friction by criterion' }).getByRole('table')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    expect(await seriousInBothThemes(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});
