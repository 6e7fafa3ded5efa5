/**
 * The weekly digest: the week's KPIs against the week before, spend and budgets (with a price list),
 * the highlights, and links into the dashboard, as Slack-compatible JSON (`text` for notifications and
 * plain receivers, `blocks` for Slack). Posted to DIGEST_WEBHOOK_URL on DIGEST_SCHEDULE (a cron
 * expression in UTC, default Mondays 08:00) by the server, or printed by `npm run digest -- --dry-run`.
 * A failed post is tried again with growing waits and each failure is logged; the webhook's address
 * never appears in a log line.
 */
import { Cron } from 'croner';
import type { Highlights } from '../../api/insights';
import { CRITERIA_BY_ID } from '../../api/criteria';
import type { SpendAnswer, TeamSpendRow } from '../../api/spend';
import { TARGET_LEVEL, type SetFix } from '../../lib/readiness';
import { addDays, formatDayLong, type Day, type DayRange } from '../../lib/dates';
import type { MeasureId } from '../../lib/measures';
import { HttpError } from '../core/errors';
import { errorText, type Logger } from '../core/log';

export interface DigestSources {
  /**
   * The sums of two weeks (`before` then `now`), filled from the service first: active people (`active`) and each
   * of the columns.
   */
  weekFigures: (
    before: DayRange,
    now: DayRange,
    measures: readonly MeasureId[],
  ) => Promise<{ now: Record<string, number | null>; before: Record<string, number | null> }>;
  latestDay: () => Day;
  /** The organization's highlights of the week. */
  highlights: () => Promise<Highlights>;
  /** The organization's spend (throws a 404 HttpError without a price list). */
  spend: (range: DayRange) => Promise<SpendAnswer>;
  budgetStates: () => Promise<{ currency: string; rows: TeamSpendRow[] }>;
  /** The organization's repositories (by their latest reports) and the criteria whose fix brings them to level 3. */
  readiness?: () => Promise<{ repositories: number; fixes: SetFix[] }>;
  /** Where readers reach the dashboard. */
  publicUrl: URL;
}

/** The readiness line: the criterion whose fix brings the most repositories below level 3 up to it. */
export interface ReadinessLine {
  repositories: number;
  top: { id: string; name: string; lifts: number; helps: number } | null;
}

export interface Kpi {
  label: string;
  now: number;
  before: number;
}

export interface Digest {
  week: { start: Day; end: Day };
  previous: { start: Day; end: Day };
  kpis: Kpi[];
  spend: { currency: string; week: number; before: number | null; month: SpendAnswer['month'] } | null;
  budgets: TeamSpendRow[];
  highlights: Highlights;
  readiness: ReadinessLine | null;
}

/** The digest of the seven days to the latest day. */
export async function buildDigest(s: DigestSources): Promise<Digest> {
  const latest = s.latestDay();
  const week = { start: addDays(latest, -6), end: latest };
  const previous = { start: addDays(latest, -13), end: addDays(latest, -7) };
  const measures = [
    ['Active people', 'active'],
    ['Standard credits', 'credits'],
    ['Sessions', 'sessions'],
    ['Tool calls', 'toolCalls'],
    ['Commits', 'commits'],
    ['Pull requests', 'prs'],
  ] as const;
  const figures = await s.weekFigures(
    previous,
    week,
    measures.map(([, m]) => m),
  );
  const kpis: Kpi[] = measures.map(([label, m]) => ({
    label,
    now: figures.now[m] ?? 0,
    before: figures.before[m] ?? 0,
  }));
  let spend: Digest['spend'] = null;
  try {
    const a = await s.spend(week);
    spend = { currency: a.currency, week: a.spend, before: a.previous?.spend ?? null, month: a.month };
  } catch (e) {
    if (!(e instanceof HttpError && e.status === 404)) throw e;
  }
  const budgets = (await s.budgetStates()).rows;
  const highlights = await s.highlights();
  let readiness: ReadinessLine | null = null;
  if (s.readiness) {
    const r = await s.readiness();
    const f = r.fixes[0];
    readiness = {
      repositories: r.repositories,
      top: f
        ? { id: f.id, name: CRITERIA_BY_ID.get(f.id)?.name ?? f.id, lifts: f.lifts.length, helps: f.helps.length }
        : null,
    };
  }
  return { week, previous, kpis, spend, budgets, highlights, readiness };
}

/**
 * A text of ours or of the data (a team's name, a person's, a criterion's) as Slack reads it in `text` and in
 * mrkdwn: `&`, `<` and `>` escaped, so that a name like `<!channel>` is shown and never mentions anyone.
 */
export const slackText = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const exact = (n: number) => Math.round(n).toLocaleString('en-US');
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const c = (now - before) / before;
  return `${c >= 0 ? '+' : '−'}${Math.abs(c * 100).toFixed(0)} %`;
}

/**
 * The digest as a Slack-compatible message, its links on the dashboard's public address (`base`, ending in
 * `/`: under BASE_PATH it holds the base path, and an app path like `/teams` is taken below it).
 */
export function toSlack(d: Digest, base: URL): { text: string; blocks: unknown[] } {
  const link = (path: string, query: Record<string, string | string[]> = {}) => {
    const u = new URL(`.${path}`, base);
    for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) u.searchParams.append(k, x);
    return u.href;
  };
  const range = { start: d.week.start, end: d.week.end };
  const title = `Agent usage, ${formatDayLong(d.week.start)} – ${formatDayLong(d.week.end)}`;
  const kpiLines = d.kpis.map((k) => `• *${k.label}*: ${exact(k.now)} (${change(k.now, k.before)} on the week before)`);
  const money = (n: number, currency: string) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(n);
  const spendLines: string[] = [];
  if (d.spend) {
    const { currency, month: m } = d.spend;
    spendLines.push(
      `• *Spend this week*: ${money(d.spend.week, currency)}${d.spend.before !== null ? ` (${change(d.spend.week, d.spend.before)})` : ''}`,
      `• *${slackText(m.month)} to date*: ${money(m.monthToDate, currency)}${
        m.forecast
          ? `; forecast to month end ${money(m.forecast.low, currency)} – ${money(m.forecast.high, currency)}`
          : ''
      }`,
    );
    for (const b of d.budgets) {
      const st = b.month.budget!;
      const state = st.state === 'over' ? 'over budget' : st.state === 'at-risk' ? 'at risk' : 'on track';
      spendLines.push(
        `• *${b.team === '' ? 'Organization' : slackText(b.team)}* budget ${money(st.budget, currency)}: ${state}, ${money(b.month.monthToDate, currency)} so far`,
      );
    }
  }
  const readinessLine = d.readiness && d.readiness.repositories > 0 ? slackText(readinessText(d.readiness)) : null;
  const highlightLines = d.highlights.highlights.map(
    (h) => `• <${link(h.link.path, h.link.query)}|${slackText(h.title)}>`,
  );
  const text = [
    title,
    ...kpiLines.map((l) => l.replace(/\*/g, '')),
    ...spendLines.map((l) => l.replace(/\*/g, '')),
    d.highlights.highlights.length ? `${d.highlights.highlights.length} highlights` : 'Nothing stands out this week.',
    ...(readinessLine ? [`Readiness: ${readinessLine.replace(/\*/g, '')}`] : []),
    link('/', range),
  ].join('\n');
  const section = (t: string) => ({ type: 'section', text: { type: 'mrkdwn', text: t } });
  return {
    text,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title } },
      section(`*This week against the week before*\n${kpiLines.join('\n')}`),
      ...(spendLines.length ? [section(`*Spend and budgets*\n${spendLines.join('\n')}`)] : []),
      section(
        highlightLines.length
          ? `*Highlights*\n${highlightLines.join('\n')}`
          : '*Highlights*\nNothing stands out this week.',
      ),
      ...(readinessLine ? [section(`*Readiness*\n• <${link('/readiness')}|${readinessLine}>`)] : []),
      section(`<${link('/', range)}|Open the dashboard> · <${link('/teams', range)}|Teams>`),
    ],
  };
}

const repositories = (n: number) => `${exact(n)} ${n === 1 ? 'repository' : 'repositories'}`;

/**
 * "Fix Linter configured to bring 3 repositories to level 3" when the fix alone does it; else
 * "Fix Linter configured: one of the fewest fixes that bring 5 repositories to level 3 (1 on its own)".
 */
function readinessText(r: ReadinessLine): string {
  const t = r.top;
  if (!t) return `every one of the ${repositories(r.repositories)} is at level ${TARGET_LEVEL} or above`;
  if (t.lifts === t.helps) return `Fix ${t.name} to bring ${repositories(t.lifts)} to level ${TARGET_LEVEL}`;
  return `Fix ${t.name}: one of the fewest fixes that bring ${repositories(t.helps)} to level ${TARGET_LEVEL} (${exact(t.lifts)} on its own)`;
}

export interface PostOptions {
  attempts?: number;
  /** The first wait before trying again; each next one is twice as long. */
  firstWaitMs?: number;
  timeoutMs?: number;
  /** What is posted, for the log lines ("digest", "alert"). */
  what?: string;
  /** The log line's end after the last failed attempt: what happens next. */
  next?: string;
}

/**
 * Posts the message, trying again on a network failure, a 429 or a 5xx with growing waits; another
 * answer (a 4xx) will not change by trying again. Resolves true once posted; false after the last
 * attempt, every failure logged (status and attempt, never the address). The digest's and the alerts'.
 */
export async function postWebhook(url: URL, message: unknown, logger: Logger, o: PostOptions = {}): Promise<boolean> {
  const attempts = o.attempts ?? 6;
  const what = o.what ?? 'digest';
  let wait = o.firstWaitMs ?? 2000;
  const body = JSON.stringify(message);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let retry = true;
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(o.timeoutMs ?? 15_000),
      });
      await r.arrayBuffer().catch(() => undefined);
      if (r.ok) {
        logger.info(`${what} posted`, { attempt });
        return true;
      }
      retry = r.status === 429 || r.status >= 500;
      logger.error(`${what} post failed`, { attempt, attempts, status: r.status, retry });
    } catch (e) {
      // The error's message may carry the address: only its kind is logged.
      const kind = e instanceof Error ? (e.name === 'TimeoutError' ? 'timeout' : e.name) : 'error';
      logger.error(`${what} post failed`, { attempt, attempts, error: kind, retry });
    }
    if (!retry) break;
    if (attempt < attempts) {
      await new Promise((r) => setTimeout(r, wait));
      wait *= 2;
    }
  }
  logger.error(
    `${what} not delivered: the webhook refused it or could not be reached; ${o.next ?? 'the next digest is due on schedule'}`,
    { attempts },
  );
  return false;
}

/** The digest's post (`postWebhook` with the digest's log lines). */
export const postDigest = (url: URL, message: unknown, logger: Logger, o: PostOptions = {}) =>
  postWebhook(url, message, logger, { ...o, what: 'digest' });

/** The scheduled digest: built and posted on each tick of the cron expression, in UTC. */
export function scheduleDigest(
  schedule: string,
  run: () => Promise<unknown>,
  logger: Logger,
): { stop: () => void; next: () => Date | null } {
  let job: Cron;
  try {
    job = new Cron(schedule, { timezone: 'UTC', protect: true }, async () => {
      try {
        await run();
      } catch (e) {
        logger.error('digest could not be built', { error: errorText(e) });
      }
    });
  } catch (e) {
    throw new Error(
      `DIGEST_SCHEDULE ${JSON.stringify(schedule)} is not a cron expression (minute hour day month weekday, in UTC): ${errorText(e)}`,
    );
  }
  return { stop: () => job.stop(), next: () => job.nextRun() };
}
