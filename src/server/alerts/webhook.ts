/**
 * The alerts' message in the webhook's format: Slack's (`{text, blocks}`, which Mattermost and others take too)
 * or Microsoft Teams' (an Adaptive Card message). ALERT_WEBHOOK_FORMAT chooses; without it, the address does
 * (a Teams or Power Automate workflow host: Teams; any other: Slack).
 */
import { slackText } from '../digest/digest';

export type WebhookFormat = 'slack' | 'teams';

/** The format a webhook takes: the setting's, else the one its host says. */
export function webhookFormat(url: URL, setting: WebhookFormat | undefined): WebhookFormat {
  if (setting) return setting;
  const host = url.hostname.toLowerCase();
  return /(^|\.)webhook\.office\.com$/.test(host) || /(^|\.)logic\.azure\.com$/.test(host) ? 'teams' : 'slack';
}

export interface PostedAlert {
  summary: string;
  /** The app path of the page that shows it. */
  link: string;
}

/** Alerts listed in one message at most; the rest are counted, on the alerts page. */
const MAX_LISTED = 20;

/** The message for alerts just opened, its links on the dashboard's public address (`base`, ending in `/`). */
export function alertMessage(alerts: readonly PostedAlert[], base: URL, format: WebhookFormat): unknown {
  const link = (path: string) => new URL(`.${path}`, base).href;
  const title = alerts.length === 1 ? 'Agent usage: an alert opened' : `Agent usage: ${alerts.length} alerts opened`;
  const listed = alerts.slice(0, MAX_LISTED);
  const more = alerts.length - listed.length;
  const moreLine = more > 0 ? `and ${more} more on the alerts page` : null;
  const page = link('/alerts');
  if (format === 'slack') {
    // Slack reads mrkdwn in `text` as in the blocks: the summaries escaped in both; a link is `<url|words>`.
    const lines = listed.map((a) => `• <${link(a.link)}|${slackText(a.summary)}>`);
    return {
      text: [
        title,
        ...listed.map((a) => `${slackText(a.summary)} ${link(a.link)}`),
        ...(moreLine ? [moreLine] : []),
        page,
      ].join('\n'),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: title } },
        { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
        ...(moreLine ? [{ type: 'section', text: { type: 'mrkdwn', text: moreLine } }] : []),
        { type: 'section', text: { type: 'mrkdwn', text: `<${page}|Open the alerts page>` } },
      ],
    };
  }
  // Adaptive Card markdown: a link is `[words](url)`; brackets in the words are escaped.
  const md = (t: string) => t.replace(/([[\]\\])/g, '\\$1');
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', size: 'Medium', weight: 'Bolder', text: title, wrap: true },
            ...listed.map((a) => ({ type: 'TextBlock', text: `- [${md(a.summary)}](${link(a.link)})`, wrap: true })),
            ...(moreLine ? [{ type: 'TextBlock', text: moreLine, wrap: true, isSubtle: true }] : []),
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open the alerts page', url: page }],
        },
      },
    ],
  };
}
