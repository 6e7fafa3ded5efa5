import { expect, test } from '@playwright/test';
import { seriousInBothThemes } from './helpers';

const RANGE = 'start=2026-03-02&end=2026-05-31';

for (const width of [1440, 390])
  test(`intensity at ${width} px: a team's weekly bands as a chart and a table, said as use, and a person's band with the thresholds`, async ({
    page,
    request,
  }) => {
    // Two pages, each in two themes, beside the other specs' servers.
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    const tree = (await (await request.get('/api/teams')).json()) as { teams: { path: string; members: number }[] };
    const team = [...tree.teams].sort((a, b) => b.members - a.members)[0]!.path;
    await page.goto(`/teams/${encodeURIComponent(team)}?${RANGE}`);
    const widget = page.getByRole('region', { name: 'Intensity per week' });
    await widget.scrollIntoViewIfNeeded();
    const chart = widget.getByRole('figure');
    await expect(chart).toHaveAttribute('aria-label', new RegExp(`^The share of ${team}'s members in each band`));
    await expect(widget.getByRole('note')).toHaveText(/^Intensity is use, not merit: /);
    await expect(widget.getByRole('list', { name: 'Intensity thresholds' })).toContainText('2026-Q2: Light from');
    // No list of people: the widget names none.
    await expect(widget).not.toContainText('@');
    expect(await seriousInBothThemes(page)).toEqual([]);
    await widget.getByRole('button', { name: 'Show Intensity per week as a table' }).click();
    const table = widget.getByRole('table', { name: `Intensity of ${team}, per week` });
    await expect(table.getByRole('row')).not.toHaveCount(0);
    const download = page.waitForEvent('download');
    await widget.getByRole('button', { name: 'Download CSV of Intensity per week' }).click();
    expect((await download).suggestedFilename()).toBe(`team-${team}-intensity-weekly-2026-03-02-2026-05-31.csv`);
    expect(await seriousInBothThemes(page)).toEqual([]);

    // The team's heaviest user of the range: their page gives their band and the quarter's thresholds.
    const users = (await (
      await request.get(`/api/users?${RANGE}&team=${encodeURIComponent(team)}&sort=credits&dir=desc&limit=1`)
    ).json()) as { users: { userId: string }[] };
    await page.goto(`/users/${encodeURIComponent(users.users[0]!.userId)}?${RANGE}`);
    const mine = page.getByRole('region', { name: 'Intensity', exact: true });
    await expect(mine).toContainText(/Band: (Heavy|Moderate|Light|Minimal|None)/);
    await expect(mine).toContainText('Intensity thresholds of 2026-Q2');
    await expect(mine.getByRole('note')).toHaveText(/^Intensity is use, not merit: /);
    expect(await seriousInBothThemes(page)).toEqual([]);
  });
