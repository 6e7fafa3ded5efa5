/**
 * Highlights and adoption cohorts (shapes: src/api/insights.ts), computed from the store's per-user
 * facts with the rules of rules.ts.
 *
 *   GET /api/highlights[?team=A…]  what stands out in the week to the latest day: people far above
 *       their usual credits, teams whose active people fell sharply week over week, known people with
 *       no activity in 30 days, new people this week, budgets passed or at risk. Each links to the
 *       page that shows it. Nothing stands out: no highlight.
 *   GET /api/cohorts[?team=A…]     people by the week they were first active, and the share of each
 *       week's cohort active again 1, 2, 4, 8 … weeks later.
 */
import { cohortsSchema, highlightsSchema, type Highlight } from '../../api/insights';
import type { TeamSpendRow } from '../../api/spend';
import {
  addDays,
  daysBetween,
  formatDayLong,
  HISTORY_START,
  maxDay,
  weekStart,
  type Day,
  type DayRange,
} from '../../lib/dates';
import { json } from '../core/response';
import type { StoreDb } from '../store/db';
import { rangeVersion } from '../store/users-queries';
import type { Analytics } from '../analytics/engine';
import { cohortCounts, COHORT_OFFSETS, firstActiveIn, SPIKE_WINDOW, weekSpikes } from '../analytics/insights';
import { ACCESS } from '../auth/access';
import type { PrivacyLens } from '../auth/privacy';
import { queryParser } from '../http/query';
import { route, type Route } from '../http/router';
import type { MappingSource } from '../teams/source';
import { inSelection, shownTeamOf, teamResolver, UNASSIGNED } from '../teams/tree';
import { weekTo, type FiguresRunner } from '../analytics/figures';
import { idleIn, neverSeenOn } from '../analytics/users-question';
import { sharpDrop } from './rules';

export interface InsightsRoutesOptions {
  store: StoreDb;
  /** Fills the `/users` days of a range from the service (the digest's highlights, not a reader's). */
  fill: (r: DayRange) => Promise<void>;
  analytics: Promise<Analytics>;
  teams: MappingSource;
  latestDay: () => Day;
  /** The budgets set and their state this month (none without a price list). */
  budgetStates: () => Promise<{ currency: string; rows: TeamSpendRow[] }>;
  /** The figures runner (analytics/figures.ts): the week's active people by team, the teams privacy mode shows. */
  runner: Promise<FiguresRunner>;
}

/** Spikes listed at most (the largest first); the rest are counted. */
const MAX_SPIKES = 5;
const INACTIVE_DAYS = 30;

const teamLabel = (t: string) => (t === '' ? 'the organization' : t);
const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;

export function createInsightsRoutes(opts: InsightsRoutesOptions) {
  const { store, teams: source, latestDay } = opts;

  /**
   * The week's highlights. From the dashboard's pages they read what the store holds and never walk
   * the service themselves (at 50,000 people five weeks of `/users` is thousands of pages): until the
   * background sync has stored the five weeks they say so (`complete` false). The digest, a job of its
   * own, fills what is missing first (`fill`).
   */
  async function highlights(selected: string[], o: { fill?: boolean; privacy?: PrivacyLens } = {}) {
    // Privacy mode: people by their pseudonyms, and no link to a person's page (shown to admins and themself only).
    const lens = o.privacy;
    const named = (p: { userId: string; email: string | null }) => (lens ? lens.name(p.userId) : (p.email ?? p.userId));
    // Privacy mode: a count of fewer than k people (a team's active people, its idle ones, the new ones) is not
    // shown; the highlight or the team in it is left out, and a note says some were.
    let withheld = false;
    const small = (...counts: number[]) => {
      const too = lens !== undefined && counts.some((n) => lens.tooFew(n));
      withheld ||= too;
      return too;
    };
    // Privacy mode: a team not shown is named nowhere (its figures beside its parent's would single out a few).
    const runner = await opts.runner;
    const mapping = source.current().mapping;
    const shown = lens && (await runner.shown(mapping, lens.minGroup));
    const latest = latestDay();
    const { week, before } = weekTo(latest);
    /** The teams chosen, as the links to other pages carry them. */
    const teamQuery: Record<string, string[]> = selected.length ? { team: selected } : {};
    const from = maxDay(HISTORY_START, addDays(week.start, -SPIKE_WINDOW));
    if (!o.fill) {
      const held = await rangeVersion(store.db, from, latest);
      const needed = daysBetween(from, latest) + 1;
      if (held.storedDays < needed)
        return {
          week,
          teams: selected,
          complete: false,
          highlights: [],
          notes: [
            `The highlights come once the dashboard has stored the last five weeks from the service: ${held.storedDays} of ${needed} days so far.`,
          ],
        };
    } else await opts.fill({ start: from, end: latest });
    const a = await opts.analytics;
    const out: Highlight[] = [];
    const notes: string[] = [];
    // Only the whole history tells who is new, and who is known but idle: until the store holds it, say so instead
    // of guessing.
    const held = await rangeVersion(store.db, HISTORY_START, latest);
    const historyDays = daysBetween(HISTORY_START, latest) + 1;
    const whole = held.storedDays >= historyDays;
    const quiet = { start: maxDay(HISTORY_START, addDays(latest, -(INACTIVE_DAYS - 1))), end: latest };
    // Every figure is asked at once (the engine's readers answer side by side), each read below in its turn; a
    // failure is thrown where it is read.
    const early = <T>(p: Promise<T>) => (p.catch(() => undefined), p);
    const asked = {
      spikes: early(weekSpikes(a, mapping, selected, week, MAX_SPIKES)),
      drops: early(
        mapping
          ? runner.ask({
              mapping,
              measures: ['active'],
              range: week,
              compare: before,
              by: 'team',
              scope: {
                people: selected.length > 0 ? selected : null,
                ...(lens && { privacy: { minGroup: lens.minGroup, name: lens.name } }),
              },
            })
          : Promise.resolve(undefined),
      ),
      idle: early(whole ? idleIn(a, quiet, mapping) : Promise.resolve([])),
      never: early(whole && mapping ? neverSeenOn(a, latest, mapping) : Promise.resolve([])),
      fresh: early(whole ? firstActiveIn(a, mapping, selected, week) : Promise.resolve([])),
      budgets: early(opts.budgetStates()),
    };

    // 1. Spikes: each person's most extreme day of the week against their own 28 days before it.
    const spikes = await asked.spikes;
    for (const s of spikes.top) {
      const times = s.median > 0 ? `${(s.value / s.median).toFixed(1)}× ` : '';
      out.push({
        kind: 'spike',
        severity: 'warning',
        title: `${named(s)} used ${times}their usual credits on ${formatDayLong(s.day)}`,
        detail: `${Math.round(s.value).toLocaleString('en-US')} credits against a usual ${Math.round(s.median).toLocaleString('en-US')} (the median of their active days in the 28 days before).`,
        link: {
          path: lens ? '/users' : `/users/${encodeURIComponent(s.userId)}`,
          query: { ...(lens && teamQuery), start: addDays(latest, -27), end: latest },
        },
      });
    }
    if (spikes.count > MAX_SPIKES)
      notes.push(`${spikes.count - MAX_SPIKES} more people had a day far above their usual level.`);
    if (spikes.unjudged > 0 && !small(spikes.unjudged))
      notes.push(
        `${people(spikes.unjudged)} active this week had too little history (under 7 active days) to tell a spike from their usual level.`,
      );

    if (mapping) {
      // 2. Teams whose active people fell sharply, week over week (a team's count includes its sub-teams; in privacy
      // mode the runner gives no team it does not show).
      const drops = (await asked.drops)!.rows
        .map((r) => ({ t: r.key, b: r.previous?.active ?? 0, a: r.current.active ?? 0 }))
        .filter((x) => sharpDrop(x.b, x.a))
        // The outermost team that fell says it; its sub-teams that fell too are in its page.
        .filter((x, _, all) => !all.some((o) => o.t !== x.t && x.t.startsWith(`${o.t}/`)))
        .filter((x) => !small(x.a, x.b))
        .sort((x, y) => x.a / x.b - y.a / y.b);
      // Teams not shown are named nowhere: said in the note.
      if (shown && mapping.teams.some((t) => (selected.length === 0 || inSelection(t, selected)) && !shown.has(t)))
        withheld = true;
      for (const d of drops) {
        out.push({
          kind: 'drop',
          severity: 'warning',
          title: `${d.t}: ${people(d.a)} active this week, down from ${d.b}`,
          detail: `Active people ${formatDayLong(before.start)} – ${formatDayLong(before.end)}: ${d.b}; ${formatDayLong(week.start)} – ${formatDayLong(week.end)}: ${d.a} (−${Math.round((1 - d.a / d.b) * 100)} %).`,
          link: { path: '/activity', query: { team: [d.t], start: addDays(latest, -27), end: latest } },
        });
      }
    }

    if (!whole)
      notes.push(
        `New and idle people are named once the store holds the whole history (${held.storedDays} of ${historyDays} days so far).`,
      );

    // 3. Known people (of the teams chosen) with no activity in 30 days: exactly the users page's "Not active" list
    // of the same range and teams, which the highlight opens. People the mapping names who never used the agent are
    // not known to the service: a note says how many.
    const teamOf = mapping ? teamResolver(mapping) : () => UNASSIGNED;
    const idle = new Map<string, string[]>();
    for (const k of await asked.idle) {
      const real = teamOf(k.userId, k.email);
      if (selected.length > 0 && !inSelection(real, selected)) continue;
      // Privacy mode: each under the nearest team shown (none: the organization's).
      const team = shown ? (shownTeamOf(real, shown) ?? '') : real;
      const names = idle.get(team);
      if (names) names.push(named(k));
      else idle.set(team, [named(k)]);
    }
    // The count is of everyone chosen (as the users page's "Not active" counts them); a team of fewer than k of them is
    // not named with its people, only counted in the rest.
    const total = [...idle.values()].reduce((s, l) => s + l.length, 0);
    for (const [team, l] of idle) if (small(l.length)) idle.delete(team);
    if (total > 0 && !small(total)) {
      const worst = [...idle.entries()].sort((x, y) => y[1].length - x[1].length || (x[0] < y[0] ? -1 : 1));
      const names = (l: string[]) => `${l.slice(0, 3).join(', ')}${l.length > 3 ? ` and ${l.length - 3} more` : ''}`;
      const unnamed = total - worst.reduce((n, [, l]) => n + l.length, 0);
      const listed = worst
        .slice(0, 3)
        .map(([t, l]) => `${teamLabel(t)}: ${names(l)}`)
        .join('; ');
      const more = [
        ...(worst.length > 3 ? [`${worst.length - 3} more teams`] : []),
        ...(unnamed > 0 ? [`${people(unnamed)} in teams not named here`] : []),
      ];
      out.push({
        kind: 'inactive',
        severity: 'info',
        title: `${people(total)} had no activity in ${INACTIVE_DAYS} days`,
        detail: mapping
          ? `${[listed, more.length ? `${listed ? 'and ' : ''}${more.join(' and ')}` : ''].filter(Boolean).join('; ')}.`
          : `${names(worst[0]![1])}.`,
        link: { path: '/users', query: { ...teamQuery, ...quiet, who: 'inactive', usersSort: 'lastActiveDay:desc' } },
      });
    }
    // People the mapping names whom the service has never reported, as the users page's "Never used" counts them.
    const never = (await asked.never).filter((t) => selected.length === 0 || inSelection(t, selected)).length;
    if (never > 0 && !small(never))
      notes.push(
        `${people(never)} named in the team mapping ${never === 1 ? 'has' : 'have'} never used the agent (the service has reported no day for them).`,
      );

    // 4. New people this week: first active in the store's whole history during the week.
    const fresh = await asked.fresh;
    if (fresh.length > 0 && !small(fresh.length)) {
      // In privacy mode the names come in their pseudonyms' order: the query's (by email) would pair them with people.
      const names = lens ? fresh.map(named).sort().slice(0, 5) : fresh.slice(0, 5).map(named);
      out.push({
        kind: 'new-users',
        severity: 'info',
        title: `${people(fresh.length)} used the agent for the first time this week`,
        detail: `${names.join(', ')}${fresh.length > 5 ? ` and ${fresh.length - 5} more` : ''}.`,
        link: { path: '/users', query: { ...teamQuery, ...week, usersSort: 'firstDay:desc' } },
      });
    }

    // 5. Budgets passed, or heading over.
    const budgets = await asked.budgets;
    const money = (v: number) =>
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: budgets.currency,
        maximumFractionDigits: 0,
      }).format(v);
    for (const b of budgets.rows) {
      const s = b.month.budget!;
      if (s.state === 'on-track') continue;
      if (selected.length > 0 && (b.team === '' || !inSelection(b.team, selected))) continue;
      if (shown && b.team !== '' && !shown.has(b.team)) {
        withheld = true;
        continue;
      }
      out.push({
        kind: 'budget',
        severity: s.state === 'over' ? 'alert' : 'warning',
        title:
          s.state === 'over'
            ? `${teamLabel(b.team)} passed its monthly budget${s.crossing ? ` on ${formatDayLong(s.crossing)}` : ''}`
            : `${teamLabel(b.team)} is heading over its monthly budget${s.crossing ? ` (around ${formatDayLong(s.crossing)})` : ''}`,
        detail: `Month to date ${money(b.month.monthToDate)} of ${money(s.budget)}; forecast to month end ${
          b.month.forecast ? `${money(b.month.forecast.low)} – ${money(b.month.forecast.high)}` : 'not yet known'
        }.`,
        link:
          b.team === ''
            ? { path: '/', query: {} }
            : { path: `/teams/${b.team.split('/').map(encodeURIComponent).join('/')}`, query: {} },
      });
    }

    const order = { alert: 0, warning: 1, info: 2 } as const;
    out.sort((x, y) => order[x.severity] - order[y.severity]);
    if (withheld) notes.push(`Privacy mode: what would describe fewer than ${lens!.minGroup} people is not shown.`);
    return { week, teams: selected, complete: true, highlights: out, notes };
  }

  async function cohortsOf(selected: string[], lens?: PrivacyLens) {
    const latest = latestDay();
    const v = await rangeVersion(store.db, HISTORY_START, latest);
    const origin = weekStart(HISTORY_START);
    // Weeks that have ended by the latest day (a week runs Monday to Sunday, UTC).
    const completeWeeks = Math.floor((daysBetween(origin, latest) + 1) / 7);
    const counts = await cohortCounts(
      await opts.analytics,
      source.current().mapping,
      { people: selected.length > 0 ? selected : null, ...(lens && { minGroup: lens.minGroup }) },
      origin,
      latest,
    );
    return {
      teams: selected,
      offsets: [...COHORT_OFFSETS],
      completeWeeks,
      storedDays: v.storedDays,
      historyDays: daysBetween(HISTORY_START, latest) + 1,
      cohorts: counts.map((c) => ({
        week: addDays(origin, c.week * 7),
        size: c.size,
        retention: COHORT_OFFSETS.map((o, i) => (c.week + o < completeWeeks ? c.back[i]! / c.size : null)),
      })),
    };
  }

  const teamsOnly = queryParser({ teams: true });
  const routes: Route[] = [
    route({
      method: 'GET',
      path: '/api/highlights',
      memo: true,
      query: teamsOnly,
      access: ACCESS.highlights,
      what: 'the highlights',
      response: highlightsSchema,
      handle: async ({ query, scope }) =>
        json(200, await highlights(query.teams, scope?.privacy ? { privacy: scope.privacy } : {})),
    }),
    route({
      method: 'GET',
      path: '/api/cohorts',
      memo: true,
      query: teamsOnly,
      access: ACCESS.cohorts,
      what: 'the cohorts',
      response: cohortsSchema,
      handle: async ({ query, scope }) => json(200, await cohortsOf(query.teams, scope?.privacy)),
    }),
  ];

  return { routes, highlights };
}
