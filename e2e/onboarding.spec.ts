import { expect, test } from '@playwright/test';
import { seriousInBothThemes } from './helpers';

const RANGE = 'start=2026-03-02&end=2026-05-31';
const TITLE = 'From access to a first pull request';

for (const width of [1440, 390])
  test(`onboarding at ${width} px: the weekly cohorts as a chart and a table, each team's funnel, and a team's`, async ({
    page,
    request,
  }) => {
    // Two pages, each in two themes, beside the other specs' servers.
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/onboarding?${RANGE}`);
    const widget = page.getByRole('region', { name: TITLE, exact: true });
    const chart = widget.getByRole('figure');
    await expect(chart).toHaveAttribute('aria-label', /^Of the organization's [\d,]+ starters? from the week of/);
    await expect(widget).toContainText(/starters? of [\d,]+ still within 14 days of access (is|are) in grace/);
    await expect(widget).toContainText('the history’s first day, came before it: they are no starters.');
    // No list of people: the funnel names none.
    await expect(widget).not.toContainText('@');
    const teams = page.getByRole('region', { name: `${TITLE}, per team` });
    await expect(teams.getByRole('row')).not.toHaveCount(0);
    expect(await seriousInBothThemes(page)).toEqual([]);
    await widget.getByRole('button', { name: `Show ${TITLE} as a table` }).click();
    const table = widget.getByRole('table', { name: `${TITLE}, the organization, per weekly cohort` });
    await expect(table.getByRole('row')).not.toHaveCount(0);
    // A phone's table is a card a row, without column headers.
    if (width === 1440)
      await expect(table.getByRole('columnheader', { name: /First pull request \(share\)/ })).toBeVisible();
    const download = page.waitForEvent('download');
    await widget.getByRole('button', { name: `Download CSV of ${TITLE}` }).click();
    expect((await download).suggestedFilename()).toMatch(/^onboarding-weekly.*\.csv$/);
    expect(await seriousInBothThemes(page)).toEqual([]);

    // The largest team's page has its own weekly cohorts.
    const tree = (await (await request.get('/api/teams')).json()) as { teams: { path: string; members: number }[] };
    const team = [...tree.teams].sort((a, b) => b.members - a.members)[0]!.path;
    await page.goto(`/teams/${encodeURIComponent(team)}?${RANGE}`);
    const mine = page.getByRole('region', { name: TITLE, exact: true });
    await mine.scrollIntoViewIfNeeded();
    await expect(mine.getByRole('figure')).toHaveAttribute('aria-label', new RegExp(`^Of ${team}'s [\\d,]+ starters?`));
    expect(await seriousInBothThemes(page)).toEqual([]);
  });
