/**
 * The alerts' evaluation (pure): the rules, the figures of the day and the alerts open now give the alerts to
 * open and those to resolve. An alert is one rule's condition holding for one thing in its scope (the scope's
 * budget or active people, one person's day, the store's data, one repository or one of its criteria): it opens
 * once, stays open while the condition holds, resolves when it clears, and a new one opens if it holds again later.
 */
import type { AlertKind } from '../../api/alerts';
import { CRITERIA_BY_ID, criterionName } from '../../api/criteria';
import { GOAL_KIND_INFO, type GoalKind } from '../../api/goals';
import type { GoalProgress } from '../../lib/goals';
import { addDays, daysBetween, formatDayLong, msToDay, type Day } from '../../lib/dates';
import {
  criterionState,
  isStale,
  repoName,
  reportAgeDays,
  scoreReport,
  type CriterionScore,
  type CriterionState,
} from '../../lib/readiness';

export interface RuleView {
  id: string;
  kind: AlertKind;
  scope: string;
  threshold: number | null;
  enabled: boolean;
}

/** The figures of one scope ('' the organization, else a team with its sub-teams); a figure left out could not be read. */
export interface ScopeFigures {
  /** The scope's budget this month (null: none set, or no price list). */
  budget?: { budget: number; monthToDate: number; forecastHigh: number | null; currency: string } | null;
  /** Active people in the week to the day and in the week before. */
  active?: { before: number; now: number };
  /** The people whose day was far above their usual on the day (the highlights' spike rule). */
  spikes?: readonly { userId: string; email: string | null; value: number; median: number }[];
  /** The repositories the scope's teams own (the organization's: every one), each with its reports. */
  repos?: readonly RepoReports[];
  /** The scope's goal (server/goals) and its progress to the day; null when it has none. */
  goal?: {
    kind: GoalKind;
    target: number;
    by: Day;
    progress: Pick<GoalProgress, 'status' | 'projected' | 'current' | 'targetWeek'>;
  } | null;
}

/** A repository's readiness reports, oldest first. */
export interface RepoReports {
  /** `host/owner/name` (lib/repos.ts). */
  key: string;
  reports: readonly { createdAt: number; report: Readonly<Record<string, CriterionScore>> }[];
}

export interface Figures {
  /** The latest day (yesterday, UTC). */
  day: Day;
  /** The newest day the store holds people's activity for; null when it holds none; left out if unknown. */
  newestDataDay?: Day | null;
  scopes: ReadonlyMap<string, ScopeFigures>;
}

/** What is true now for a rule: one per thing it holds for. */
export interface Holding {
  key: string;
  summary: string;
  /** The app page that shows it (path and query). */
  link: string;
}

export interface OpenAlert {
  id: string;
  ruleId: string;
  scope: string;
  key: string;
}

export interface Opening extends Holding {
  ruleId: string;
  kind: AlertKind;
  scope: string;
}

const teamPath = (t: string) => `/teams/${t.split('/').map(encodeURIComponent).join('/')}`;
const label = (scope: string) => (scope === '' ? 'The organization' : scope);
const withRange = (path: string, start: Day, end: Day) => `${path}?start=${start}&end=${end}`;
/** The range a link carries (its query, with the `?`), or ''. */
const range = (link: string) => {
  const q = new URLSearchParams(link.split('?')[1] ?? '');
  const start = q.get('start');
  const end = q.get('end');
  return start !== null && end !== null ? withRange('', start, end) : '';
};
const money = (v: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(v);
const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
/** A share as a percentage: "62 %", "79.7 %" (one decimal when the whole number would hide it). */
const share = (x: number) => `${Number((x * 100).toFixed(1)).toLocaleString('en-US')}\u00a0%`;

/**
 * A person-day alert as privacy mode shows it (to a reader who is not an admin, and to the webhook's channel):
 * the person by their pseudonym, never their email or id, linked to their scope's page rather than theirs, over
 * the same days. The summary is the person's name, then " used …" (the only " used " after the name, whatever the
 * name holds).
 */
export function pseudonymous<T extends { kind: string; scope: string; key: string; summary: string; link: string }>(
  a: T,
  name: (userId: string) => string,
): T {
  if (a.kind !== 'person-day' || a.key === '') return a;
  const who = name(a.key);
  const at = a.summary.lastIndexOf(' used ');
  return {
    ...a,
    key: who,
    summary: at >= 0 ? `${who}${a.summary.slice(at)}` : `${who} had a day far above their usual credits.`,
    link: `${a.scope === '' ? '/users' : teamPath(a.scope)}${range(a.link)}`,
  };
}

/** Where each alert kind is shown (the page the alert links to). */
export const SYNC_STATUS_LINK = '/alerts#sync';

const levelOf = (id: string) => CRITERIA_BY_ID.get(id)?.level;
const reportDay = (r: { createdAt: number }) => formatDayLong(msToDay(r.createdAt));
const nameOf = (key: string) => repoName(`https://${key}`);

/**
 * A repository's scorecard (the readiness page's address of it), with the rule's team kept so the page reads that
 * team's repositories (`extra`: more of the query).
 */
function scorecard(key: string, scope: string, extra = ''): string {
  const q = [...(scope === '' ? [] : [`team=${encodeURIComponent(scope)}`]), ...(extra ? [extra] : [])].join('&');
  return `/readiness/${encodeURIComponent(key)}${q ? `?${q}` : ''}`;
}

/**
 * Holdings by `at`, the largest first (a change's time: the latest changes first), then by key, without `at`: the
 * rules screen lists a rule's first few.
 */
const newestFirst = (hs: (Holding & { at: number })[]): Holding[] =>
  hs
    .sort((a, b) => b.at - a.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ key, link, summary }) => ({ key, link, summary }));

/**
 * Where a repository's level last changed: the first report of the run of reports at its latest level, and the
 * report before that run (undefined when every report is at that level).
 */
function lastLevelChange(repo: RepoReports) {
  const levels = repo.reports.map((r) => scoreReport(r, levelOf).level);
  const now = levels.at(-1)!;
  let i = levels.length - 1;
  while (i > 0 && levels[i - 1] === now) i--;
  return {
    now,
    since: repo.reports[i]!,
    before: i > 0 ? { level: levels[i - 1]!, report: repo.reports[i - 1]! } : undefined,
  };
}

/**
 * The criteria failing in a repository's latest report whose evaluation before the current run of failures
 * passed (reports that skipped or left it out do not count): each with the first failing report and the passing
 * one before it.
 */
function newlyFailing(repo: RepoReports) {
  const reports = repo.reports;
  const latest = reports.at(-1)!;
  const out: { id: string; since: RepoReports['reports'][number]; passed: RepoReports['reports'][number] }[] = [];
  for (const id of Object.keys(latest.report)) {
    if (criterionState(latest.report[id]!) !== 'failed') continue;
    let since = latest;
    for (let i = reports.length - 2; i >= 0; i--) {
      const c = reports[i]!.report[id];
      const state: CriterionState = c ? criterionState(c) : 'skipped';
      if (state === 'failed') since = reports[i]!;
      else if (state === 'passed') {
        out.push({ id, since, passed: reports[i]! });
        break;
      }
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a rule holds for on these figures; undefined when a figure it reads is not known (nothing changes). */
export function holds(rule: RuleView, f: Figures): Holding[] | undefined {
  const s = f.scopes.get(rule.scope);
  const n = rule.threshold ?? 0;
  switch (rule.kind) {
    case 'budget-spent':
    case 'budget-forecast': {
      if (s?.budget === undefined) return undefined;
      const b = s.budget;
      if (b === null) return [];
      // The scope's page (the organization's is the overview, with its month's spend and budget) over the month so
      // far: the days the budget speaks of.
      const link = withRange(rule.scope === '' ? '/' : teamPath(rule.scope), `${f.day.slice(0, 8)}01`, f.day);
      if (rule.kind === 'budget-spent') {
        const share = b.budget > 0 ? (b.monthToDate / b.budget) * 100 : 0;
        if (share < n) return [];
        return [
          {
            key: '',
            link,
            summary: `${label(rule.scope)} has spent ${Math.floor(share).toLocaleString('en-US')} % of its monthly budget: ${money(b.monthToDate, b.currency)} of ${money(b.budget, b.currency)} to ${formatDayLong(f.day)}.`,
          },
        ];
      }
      if (b.forecastHigh === null || b.forecastHigh <= b.budget) return [];
      // A budget already passed is said to be passed, not one the forecast may pass.
      const passed = b.monthToDate > b.budget;
      return [
        {
          key: '',
          link,
          summary: passed
            ? `${label(rule.scope)} has passed its monthly budget of ${money(b.budget, b.currency)}: ${money(b.monthToDate, b.currency)} so far to ${formatDayLong(f.day)}, and the forecast to month end reaches ${money(b.forecastHigh, b.currency)}.`
            : `${label(rule.scope)} may pass its monthly budget of ${money(b.budget, b.currency)}: the forecast to month end reaches ${money(b.forecastHigh, b.currency)}.`,
        },
      ];
    }
    case 'active-drop': {
      if (s?.active === undefined) return undefined;
      const { before, now } = s.active;
      if (before === 0 || now > before * (1 - n / 100)) return [];
      const weekStart = addDays(f.day, -6);
      const beforeStart = addDays(f.day, -13);
      return [
        {
          key: '',
          link: withRange(rule.scope === '' ? '/' : teamPath(rule.scope), beforeStart, f.day),
          summary: `${label(rule.scope)}: ${people(now)} active ${formatDayLong(weekStart)} – ${formatDayLong(f.day)}, down ${Math.round((1 - now / before) * 100)} % from ${before} the week before.`,
        },
      ];
    }
    case 'person-day': {
      if (s?.spikes === undefined) return undefined;
      return s.spikes.map((p) => ({
        key: p.userId,
        link: withRange(`/users/${encodeURIComponent(p.userId)}`, addDays(f.day, -27), f.day),
        summary: `${p.email ?? p.userId} used ${p.median > 0 ? `${(p.value / p.median).toFixed(1)}× ` : 'far above '}their usual credits on ${formatDayLong(f.day)} (${Math.round(p.value).toLocaleString('en-US')} against a usual ${Math.round(p.median).toLocaleString('en-US')}).`,
      }));
    }
    case 'goal-off-course': {
      if (s?.goal === undefined) return undefined;
      const g = s.goal;
      if (g === null) return [];
      const { status, projected, current } = g.progress;
      if (status !== 'off-course' && status !== 'missed') return [];
      const goal = `its goal of ${share(g.target)} of ${GOAL_KIND_INFO[g.kind].label.toLowerCase()} by ${formatDayLong(g.by)}`;
      const now = current ? `${share(current.value)} in the week of ${formatDayLong(current.week)}` : 'no week yet';
      return [
        {
          key: '',
          // The team's page draws the goal; the organization's is on the teams table.
          link: rule.scope === '' ? '/teams' : teamPath(rule.scope),
          summary:
            status === 'missed'
              ? `${label(rule.scope)} missed ${goal}: ${share(current?.week === g.progress.targetWeek ? current.value : 0)} in the week it is read in, that of ${formatDayLong(g.progress.targetWeek)}.`
              : `${label(rule.scope)} is off course for ${goal}: ${now}, projected ${share(projected ?? 0)} by the week of ${formatDayLong(g.progress.targetWeek)}.`,
        },
      ];
    }
    case 'no-data': {
      if (f.newestDataDay === undefined) return undefined;
      const newest = f.newestDataDay;
      // Days the store has no data for, up to the latest day.
      const missing = newest === null ? Infinity : daysBetween(newest, f.day);
      if (missing < n) return [];
      return [
        {
          key: '',
          link: SYNC_STATUS_LINK,
          summary:
            newest === null
              ? 'No data has been synced from the service yet.'
              : `No data synced for ${missing} days: the newest day stored is ${formatDayLong(newest)}.`,
        },
      ];
    }
    // The readiness kinds hold while what the reports say holds: a drop until a report is back at or above the
    // level before it, a failing criterion until it passes again (or is no longer evaluated), a stale report
    // until a newer one comes.
    case 'readiness-drop': {
      if (s?.repos === undefined) return undefined;
      return newestFirst(
        s.repos.flatMap((repo) => {
          if (repo.reports.length === 0) return [];
          const { now, since, before } = lastLevelChange(repo);
          if (!before || before.level <= now) return [];
          return [
            {
              at: since.createdAt,
              key: repo.key,
              link: scorecard(repo.key, rule.scope),
              summary: `${nameOf(repo.key)} fell from readiness level ${before.level} to ${now} in its report of ${reportDay(since)}.`,
            },
          ];
        }),
      );
    }
    case 'criterion-failing': {
      if (s?.repos === undefined) return undefined;
      return newestFirst(
        s.repos.flatMap((repo) =>
          repo.reports.length === 0
            ? []
            : newlyFailing(repo).map((c) => ({
                at: c.since.createdAt,
                key: `${repo.key}#${c.id}`,
                link: scorecard(repo.key, rule.scope, 'criteria=failed'),
                summary: `${nameOf(repo.key)}: “${criterionName(c.id)}” has failed since its report of ${reportDay(c.since)}, after passing in the one of ${reportDay(c.passed)}.`,
              })),
        ),
      );
    }
    case 'readiness-stale': {
      if (s?.repos === undefined) return undefined;
      // `at` is the report's age: the stalest first.
      return newestFirst(
        s.repos.flatMap((repo) => {
          const latest = repo.reports.at(-1);
          if (!latest) return [];
          const age = reportAgeDays(latest.createdAt, f.day);
          if (!isStale(age, n)) return [];
          return [
            {
              at: age,
              key: repo.key,
              link: scorecard(repo.key, rule.scope),
              summary: `${nameOf(repo.key)}: its latest readiness report is ${age} days old, from ${reportDay(latest)}.`,
            },
          ];
        }),
      );
    }
  }
}

/**
 * The alerts to open (a rule's condition holding for something without an open alert) and to resolve (an open
 * alert whose condition no longer holds, or whose rule is gone, disabled or moved to another scope). A rule whose
 * figures are not known leaves its open alerts as they are.
 */
export function evaluate(
  rules: readonly RuleView[],
  figures: Figures,
  open: readonly OpenAlert[],
): { open: Opening[]; resolve: string[] } {
  const opening: Opening[] = [];
  const keep = new Set<string>();
  const byRule = new Map<string, OpenAlert[]>();
  for (const a of open) byRule.set(a.ruleId, [...(byRule.get(a.ruleId) ?? []), a]);
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const mine = (byRule.get(rule.id) ?? []).filter((a) => a.scope === rule.scope);
    const now = holds(rule, figures);
    if (now === undefined) {
      for (const a of mine) keep.add(a.id);
      continue;
    }
    for (const h of now) {
      const already = mine.find((a) => a.key === h.key);
      if (already) keep.add(already.id);
      else opening.push({ ...h, ruleId: rule.id, kind: rule.kind, scope: rule.scope });
    }
  }
  return { open: opening, resolve: open.filter((a) => !keep.has(a.id)).map((a) => a.id) };
}
