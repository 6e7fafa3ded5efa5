import { expect, test, type Page } from '@playwright/test';
import { serviceJson } from './helpers';

// Issue #26: the same figure over the same range reads the same on every page that shows it.
const START = '2026-05-02';
const END = '2026-05-31';
const RANGE = `start=${START}&end=${END}`;

/** A KPI card's shown value: the card is the label's parent, its value the paragraph with the exact figure. */
const kpiValue = (page: Page, label: string) =>
  page.getByText(label, { exact: true }).locator('..').locator('p[title]');

/** The teams table's cell of the organization's row under the column headed `column`. */
async function organizationCell(page: Page, column: string) {
  const table = page.getByRole('table', { name: 'Teams, with their sub-teams' });
  // The headers are read once the summary is in.
  await expect(table.getByRole('rowheader', { name: 'Whole organization' })).toBeVisible();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▲▼↕]/g, '').trim());
  const at = headers.indexOf(column);
  expect(at, `a "${column}" column among ${headers.join(', ')}`).toBeGreaterThan(0);
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Whole organization' }) });
  return row.locator('th, td').nth(at);
}

test('tool calls per user turn and active people read the same on the tools, teams and users pages', async ({
  page,
  request,
}) => {
  // The decided formula, from the service's own answers: Σ tool calls (/tools) ÷ Σ user messages (/activity).
  const tools = await serviceJson<{ data: { tool_calls: number }[] }>(
    request,
    `/api/v1/analytics/tools?startDate=${START}&endDate=${END}`,
  );
  const activity = await serviceJson<{ data: { user_messages: number }[] }>(
    request,
    `/api/v1/analytics/activity?startDate=${START}&endDate=${END}`,
  );
  const calls = tools.data.reduce((s, d) => s + d.tool_calls, 0);
  const turns = activity.data.reduce((s, d) => s + d.user_messages, 0);
  const expected = (calls / turns).toFixed(1);

  await page.goto(`/tools?${RANGE}`);
  const onTools = kpiValue(page, 'Tool calls per user turn');
  await expect(onTools).toHaveText(expected);
  // Its definition is one keyboard stop away, and read out as the button's description.
  const about = page.getByRole('button', { name: 'About Tool calls per user turn' });
  await about.focus();
  await expect(page.getByRole('tooltip')).toContainText('divided by all messages people sent in the range');
  await expect(about).toHaveAccessibleDescription(/^Tool calls per user turn: All tool calls in the range divided by/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toBeHidden();

  const shownOnTools = (await onTools.textContent())!;

  await page.goto(`/teams?${RANGE}`);
  const onTeams = await organizationCell(page, 'Tool calls per user turn');
  await expect(onTeams).toHaveText(shownOnTools);

  // Active people: the teams page's organization row, and the users page's count of the same range.
  await page.goto(`/teams?${RANGE}`);
  const active = (await (await organizationCell(page, 'Active people')).textContent())!.trim();
  expect(Number(active.replace(/,/g, ''))).toBeGreaterThan(0);
  await page.goto(`/users?${RANGE}`);
  await expect(page.getByText(new RegExp(`^[\\d,]+ of ${active} people active in the range$`))).toBeVisible();
  await expect(page.getByRole('button', { name: 'About Active people' })).toBeVisible();
});

test('the mapping screen says why the teams’ members exceed the known people', async ({ page }) => {
  await page.goto(`/settings/teams?${RANGE}`);
  // The store learns people as the background sync walks the history: read both counts from one answer.
  const count = async (label: string) =>
    Number(
      (await page.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]').textContent())!.replace(
        /,/g,
        '',
      ),
    );
  await expect(page.getByText('Known people', { exact: true })).toBeVisible();
  const known = await count('Known people');
  const members = await count('All members');
  // The demo's mapping names people who have not used the agent yet.
  expect(members).toBeGreaterThan(known);
  const unseen = members - known;
  await expect(
    page.getByText(
      `The teams' members and Unassigned add up to ${members.toLocaleString('en-US')}: the ${known.toLocaleString('en-US')} known people and ${unseen} ${unseen === 1 ? 'person' : 'people'} the mapping names who ${unseen === 1 ? 'has' : 'have'} not used the agent yet.`,
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'About Known people' }).hover();
  await expect(page.getByRole('tooltip')).toContainText('since the history starts (2026-01-14)');
});
