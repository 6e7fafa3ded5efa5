/**
 * The alerts' webhook message: what comes from data (a team's name in an alert's summary) is escaped for
 * Slack everywhere it goes, the `text` Slack shows in notifications as well as the blocks.
 */
import { describe, expect, it } from 'vitest';
import { alertMessage } from './webhook';

const TEAM = '<!channel> & <@U123>';

describe('the alerts’ Slack message', () => {
  it('escapes a team’s name in its text and its blocks: it mentions nobody', () => {
    const message = alertMessage(
      [
        { summary: `${TEAM} passed 80 % of its monthly budget`, link: `/teams/${encodeURIComponent(TEAM)}` },
        { summary: `Active people in ${TEAM} fell 40 %`, link: '/' },
      ],
      new URL('https://dashboard.acme.example/'),
      'slack',
    ) as { text: string; blocks: { text: { text: string } }[] };
    const posted = JSON.stringify(message);
    expect(posted).not.toContain('<!');
    expect(posted).not.toContain('<@');
    expect(message.text.split('\n')[1]).toBe(
      '&lt;!channel&gt; &amp; &lt;@U123&gt; passed 80 % of its monthly budget ' +
        'https://dashboard.acme.example/teams/%3C!channel%3E%20%26%20%3C%40U123%3E',
    );
    expect(message.blocks[1]!.text.text.split('\n')[1]).toBe(
      '• <https://dashboard.acme.example/|Active people in &lt;!channel&gt; &amp; &lt;@U123&gt; fell 40 %>',
    );
  });
});
