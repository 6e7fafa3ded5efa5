/**
 * The digest's Slack message: what comes from data (team names, the highlights' titles with people's names or
 * pseudonyms, a criterion's name from a report) is escaped for Slack in its text and its blocks.
 */
import { describe, expect, it } from 'vitest';
import type { MonthSpend } from '../../api/spend';
import { toSlack, type Digest } from './digest';

const TEAM = '<!channel> & <@U123>';

const month: MonthSpend = {
  month: 'April 2026',
  start: '2026-04-01',
  end: '2026-04-30',
  latest: '2026-04-30',
  daysElapsed: 30,
  daysLeft: 0,
  monthToDate: 900,
  forecast: null,
  basisDays: 28,
  budget: { budget: 1000, state: 'at-risk', crossing: null, crossingForecast: false },
  days: [],
};

const digest: Digest = {
  week: { start: '2026-04-24', end: '2026-04-30' },
  previous: { start: '2026-04-17', end: '2026-04-23' },
  kpis: [{ label: 'Active people', now: 10, before: 8 }],
  spend: { currency: 'USD', week: 200, before: 180, month },
  budgets: [{ team: TEAM, credits: 1, spend: 900, month }],
  highlights: {
    week: { start: '2026-04-24', end: '2026-04-30' },
    teams: [],
    complete: true,
    highlights: [
      {
        kind: 'drop',
        severity: 'warning',
        title: `Active people in ${TEAM} fell 40 %`,
        detail: '',
        link: { path: '/activity', query: { team: [TEAM] } },
      },
    ],
    notes: [],
  },
  readiness: { repositories: 3, top: { id: 'x', name: '<!here> linter', lifts: 3, helps: 3 } },
};

describe('the digest’s Slack message', () => {
  it('escapes team names, highlight titles and criteria in its text and blocks: it mentions nobody', () => {
    const message = toSlack(digest, new URL('https://dashboard.acme.example/'));
    const posted = JSON.stringify(message);
    expect(posted).not.toContain('<!');
    expect(posted).not.toContain('<@');
    expect(message.text).toContain('&lt;!channel&gt; &amp; &lt;@U123&gt; budget $1,000: at risk, $900 so far');
    expect(message.text).toContain('Readiness: Fix &lt;!here&gt; linter to bring 3 repositories to level 3');
    const blocks = message.blocks as { text: { text: string } }[];
    expect(blocks.map((b) => b.text.text).join('\n')).toContain(
      '• <https://dashboard.acme.example/activity?team=%3C%21channel%3E+%26+%3C%40U123%3E|' +
        'Active people in &lt;!channel&gt; &amp; &lt;@U123&gt; fell 40 %>',
    );
  });
});
