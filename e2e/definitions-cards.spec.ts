import { expect, test, type Page } from '@playwright/test';
import { LATEST, serviceJson } from './helpers';

// Issue #46: every headline card says how it is counted, as the glossary says it, on a desk and on a phone.
const RANGE = `start=2026-05-02&end=${LATEST}`;

const TOOLS = [
  'Tool calls',
  'External tool-server calls',
  'Skill activations',
  'Slash commands',
  'Hook executions',
  'Tool calls per user turn',
];

/** Each page, how to reach it (some addresses come from the server's own answers), and its cards in order. */
const PAGES: { name: string; path: (page: Page) => Promise<string>; cards: string[] }[] = [
  {
    name: 'usage',
    path: async () => `/?${RANGE}`,
    cards: [
      'Active people',
      'Adoption',
      'Standard credits',
      'Credits per pull request',
      'Input tokens',
      'Output tokens',
      'Cache read tokens',
      'Cache write tokens',
    ],
  },
  { name: 'tools', path: async () => `/tools?${RANGE}`, cards: TOOLS },
  {
    name: 'activity',
    path: async () => `/activity?${RANGE}`,
    cards: [
      'Daily active people',
      'Weekly active people',
      'Monthly active people',
      'Sessions',
      'Messages',
      'User messages',
    ],
  },
  {
    name: 'productivity',
    path: async () => `/productivity?${RANGE}`,
    cards: ['Files created', 'Files edited', 'Commits', 'Pull requests'],
  },
  {
    name: 'readiness',
    path: async () => '/readiness',
    cards: ['At level 3 · Standardized or above', 'Repositories tracked', 'Last updated (UTC)'],
  },
  {
    name: 'repository',
    path: async () => '/readiness/github.com%2Facme%2Fcheckout-api',
    cards: ['Level', 'Pass rate', 'To next level', 'Passed', 'Failed', 'Skipped'],
  },
  {
    name: 'team',
    path: async (page) => {
      const summary = await serviceJson<{ rows: { team: string; depth: number }[] }>(
        page.request,
        `/api/teams/summary?${RANGE}`,
      );
      const team = summary.rows.find((r) => r.depth === 1 && r.team !== 'Unassigned')!.team;
      return `/teams/${encodeURIComponent(team)}?${RANGE}`;
    },
    cards: [
      'Members',
      'Active people',
      'Adoption',
      'Credits',
      'Credits per active person',
      'Tool calls per user turn',
      'Sessions',
      'Commits',
      'Pull requests',
    ],
  },
  {
    name: 'person',
    path: async (page) => {
      const users = await serviceJson<{ users: { userId: string }[] }>(page.request, `/api/users?${RANGE}&limit=1`);
      return `/users/${encodeURIComponent(users.users[0]!.userId)}?${RANGE}`;
    },
    cards: [
      'Standard credits',
      'Share of organization credits',
      'Tool calls',
      'Sessions',
      'Active days',
      'Tool calls per user turn',
    ],
  },
];

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  for (const p of PAGES) {
    test(`every card of the ${p.name} page says how it is counted (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.goto(await p.path(page));
      const cards = page.locator('main [data-kpi]');
      // A fresh server fills its readiness reports first: allow for it.
      await expect(cards).toHaveCount(p.cards.length, { timeout: 30_000 });
      expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-kpi')))).toEqual(p.cards);

      for (const card of await cards.all()) {
        const label = (await card.getAttribute('data-kpi'))!;
        // The usage page's sentences come after its first chart: wait for each button.
        const about = card.getByRole('button', { name: /^About / });
        await expect(about, `"${label}" has its "About …" button`).toBeVisible();
        await about.click();
        const tip = page.getByRole('tooltip').filter({ visible: true });
        // "<label>: <one sentence>."
        await expect(tip, `"${label}" says how it is counted`).toHaveText(/^[^:]+: [A-Z].{20,}\.$/);
        // The sentence stays on the screen, a phone's too.
        const box = (await tip.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await page.keyboard.press('Escape');
        await expect(tip).toHaveCount(0);
      }

      // The info button never sits on its card's label: no line of the label's text meets it.
      const overlaps = await cards.evaluateAll((els) =>
        els.flatMap((card) => {
          const label = card.querySelector('p')!;
          const button = card.querySelector('button')!.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(label);
          const meets = [...range.getClientRects()].some(
            (r) => r.left < button.right && r.right > button.left && r.top < button.bottom && r.bottom > button.top,
          );
          return meets ? [card.getAttribute('data-kpi')] : [];
        }),
      );
      expect(overlaps).toEqual([]);
    });
  }
}
