import { expect, test } from '@playwright/test';
import { SIGN_IN_BASE, seriousInBothThemes, signIn } from './helpers';

const BASE = SIGN_IN_BASE;
const teamPage = (path: string) => `/teams/${path.split('/').map(encodeURIComponent).join('/')}`;

interface TeamView {
  path: string;
  name: string;
  managers: string[];
  children: TeamView[];
}

// Each width sets the goal of a team of its own (the two run side by side on one server).
for (const [i, width] of [1440, 390].entries())
  test(`goals at ${width} px: a manager sets their team's goal, reads its line and status on the team's page and in the teams table`, async ({
    browser,
  }) => {
    // Two readers, three pages, each in two themes, beside the other specs' servers.
    test.slow();
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, 'admin@acme.example', '/teams');
    const tops = ((await (await admin.request.get(`${BASE}/api/teams`)).json()) as { teams: TeamView[] }).teams.filter(
      (t) => t.managers.length > 0,
    );
    // The last top-level teams: the marks' and alerts' journeys take the first ones.
    const team = tops[tops.length - 1 - i]!;
    // A mark of the team's, which the goal's chart shows on its week.
    const mark = `Pairing with the agent ${Date.now().toString(36)}`;
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    const m = await ctx.newPage();
    await signIn(m, team.managers[0]!, teamPage(team.path));
    const made = await m.request.post(`${BASE}/api/marks`, {
      data: { day: '2026-05-13', team: team.path, text: mark },
      headers: { origin: BASE },
    });
    expect(made.status(), await made.text()).toBe(201);

    await m.reload();
    const widget = m.getByRole('region', { name: 'Goal', exact: true });
    await widget.scrollIntoViewIfNeeded();
    await expect(widget.getByText(`No goal is set for ${team.name}.`)).toBeVisible();
    await widget.getByRole('button', { name: 'Set a goal' }).click();
    const form = widget.getByRole('form', { name: 'Set a goal' });
    await form.getByLabel('Target (%)').fill('80');
    await form.getByLabel('By (UTC)').fill('2026-07-31');
    const saved = m.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/goals' && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Set the goal' }).click();
    const goal = (await (await saved).json()) as {
      progress: { status: string; current: { value: number } | null; targetWeek: string };
    };
    // Jul 31 is a Friday: the goal is read in the last whole week ending by then.
    expect(goal.progress.targetWeek).toBe('2026-07-20');
    const status = goal.progress.status.replace('-', ' ');
    // The goal in words with its status, the chart of its weeks against the line to it, and the team's mark.
    await expect(widget.getByText(`80\u00a0% of members weekly active by Jul 31`)).toBeVisible();
    await expect(widget.getByText(new RegExp(`^${status}$`, 'i'))).toBeVisible();
    const chart = widget.getByRole('figure');
    await expect(chart).toHaveAttribute(
      'aria-label',
      new RegExp(`^${team.name}'s members weekly active, per week .* against the line to 80\u00a0% by Jul 31, 2026`),
    );
    for (const line of ['Line to the goal', 'Projection'])
      await expect(chart.getByRole('listitem').filter({ hasText: new RegExp(`^${line}$`) })).toBeVisible();
    await expect(
      chart.getByRole('button', { name: new RegExp(`^Mark \\d+, May 13, 2026, ${team.path}: ${mark}$`) }),
    ).toHaveCount(1);
    await widget.getByText('How this is counted').click();
    await expect(widget.getByText(/least-squares straight line through the last 6 whole weeks/)).toBeVisible();
    expect(await seriousInBothThemes(m)).toEqual([]);
    // The page fits a phone's width.
    expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Its table view, the mark under it, and its CSV.
    await widget.getByRole('button', { name: 'Show the goal as a table' }).click();
    const table = widget.getByRole('table', { name: `The goal of ${team.name}, per week` });
    // On a phone, its first weeks and a "Show more" for the rest.
    if (width < 640) await m.getByRole('button', { name: `Show more of The goal of ${team.name}, per week` }).click();
    // A row a week, from five weeks before the goal was set to the week it is read in.
    await expect(table.getByRole('row').filter({ has: m.getByRole('cell') })).toHaveCount(14);
    await expect(widget.getByRole('table', { name: 'Marks' })).toContainText(mark);
    const download = m.waitForEvent('download');
    await widget.getByRole('button', { name: 'Download CSV of Goal' }).click();
    expect((await download).suggestedFilename()).toBe(`team-${team.path}-goal.csv`);
    expect(await seriousInBothThemes(m)).toEqual([]);

    // The teams table: the team's goal beside its adoption, as the team's page says it.
    await m.goto(`${BASE}/teams`);
    const teams = m.getByRole('table', { name: 'Teams, with their sub-teams' });
    const row = teams.getByRole('row').filter({ has: m.getByRole('link', { name: team.name, exact: true }) });
    const share = `${Number((goal.progress.current!.value * 100).toFixed(1))}\u00a0%`;
    await expect(row).toContainText(`${share} of 80\u00a0% by Jul 31 · ${status}`);
    expect(await seriousInBothThemes(m)).toEqual([]);
    expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Removed on the team's page: the teams table has no goal column left for it.
    await m.goto(`${BASE}${teamPage(team.path)}`);
    await widget.getByRole('button', { name: 'Remove the goal' }).click();
    await expect(widget.getByText(`No goal is set for ${team.name}.`)).toBeVisible();
    await ctx.close();
  });
