/**
 * Highlights and adoption cohorts (shapes: src/api/insights.ts), computed from the store's per-user
 * facts with the rules of rules.ts.
 *
 *   GET /api/highlights[?team=A…]  what stands out in the week to the latest day: people far above
 *       their usual credits, teams whose active people fell sharply week over week, people in the
 *       mapping idle for 30 days, new people this week, budgets passed or at risk. Each links to the
 *       page that shows it. Nothing stands out: no highlight.
 *   GET /api/cohorts[?team=A…]     people by the week they were first active, and the share of each
 *       week's cohort active again 1, 2, 4, 8 … weeks later.
 */
import { canonicalEmail } from '../core/text';
import type { Highlight } from '../../api/insights';
import type { TeamSpendRow } from '../../api/spend';
import { addDays, daysBetween, formatDayLong, HISTORY_START, maxDay, weekStart, type Day } from '../../lib/dates';
import { json } from '../core/response';
import type { StoreDb } from '../store/db';
import { rangeVersion } from '../store/users-queries';
import { activeWeeks, firstDays, type PersonDays } from '../analytics/person-days';
import type { Analytics } from '../analytics/engine';
import { ACCESS } from '../auth/access';
import { queryParser } from '../http/query';
import { route, type Route } from '../http/router';
import type { MappingSource } from '../teams/source';
import { inSelection, rollUp, teamResolver, UNASSIGNED } from '../teams/tree';
import { cohorts, COHORT_OFFSETS, sharpDrop, SPIKE_WINDOW, spikeVerdict } from './rules';

export interface InsightsRoutesOptions {
  store: StoreDb;
  /** Each person's `/users` days of a range, filled from the service first (the analytics engine's). */
  personDays: (first: Day, last: Day) => Promise<PersonDays>;
  analytics: Promise<Analytics>;
  teams: MappingSource;
  latestDay: () => Day;
  /** The budgets set and their state this month (none without a price list). */
  budgetStates: () => Promise<{ currency: string; rows: TeamSpendRow[] }>;
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
  async function highlights(selected: string[], o: { fill?: boolean } = {}) {
    const mapping = source.current().mapping;
    const latest = latestDay();
    const week = { start: addDays(latest, -6), end: latest };
    const before = { start: addDays(latest, -13), end: addDays(latest, -7) };
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
    }
    const f = await opts.personDays(from, latest);
    const resolveTeam = mapping ? teamResolver(mapping) : () => UNASSIGNED;
    const teamOf = f.userIds.map((id, u) => resolveTeam(id, f.emails[u] ?? null));
    const userIndex = new Map(f.userIds.map((id, u) => [id, u]));
    const inScope = (u: number) => selected.length === 0 || inSelection(teamOf[u]!, selected);
    const out: Highlight[] = [];
    const notes: string[] = [];

    // Each person's credits per day of the window, and their active days.
    const n = f.days.length;
    const credits = new Map<number, Float64Array>();
    const { user, day, cols } = f.rows;
    for (let i = 0; i < user.length; i++) {
      const u = user[i]!;
      if (!inScope(u)) continue;
      let a = credits.get(u);
      if (!a) credits.set(u, (a = new Float64Array(n).fill(NaN)));
      a[day[i]!] = (Number.isNaN(a[day[i]!]!) ? 0 : a[day[i]!]!) + cols.billable_tokens[i]!;
    }
    const weekFrom = f.dayIndex.get(week.start) ?? 0;

    // 1. Spikes: each person's most extreme day of the week against their own 28 days before it.
    const spikes: { u: number; d: number; value: number; median: number; ratio: number }[] = [];
    let unjudged = 0;
    for (const [u, a] of credits) {
      let best: (typeof spikes)[number] | undefined;
      let active = false;
      let judged = false;
      for (let d = weekFrom; d < n; d++) {
        const v = a[d]!;
        if (Number.isNaN(v)) continue;
        active = true;
        const history: number[] = [];
        for (let h = Math.max(0, d - SPIKE_WINDOW); h < d; h++) if (!Number.isNaN(a[h]!)) history.push(a[h]!);
        const verdict = spikeVerdict(history, v);
        if (verdict.status === 'too-little-history') continue;
        judged = true;
        if (verdict.status === 'spike') {
          const ratio = v / verdict.threshold;
          if (!best || ratio > best.ratio) best = { u, d, value: v, median: verdict.median, ratio };
        }
      }
      if (best) spikes.push(best);
      else if (active && !judged) unjudged++;
    }
    spikes.sort((x, y) => y.ratio - x.ratio);
    for (const s of spikes.slice(0, MAX_SPIKES)) {
      const who = f.emails[s.u] ?? f.userIds[s.u]!;
      const times = s.median > 0 ? `${(s.value / s.median).toFixed(1)}× ` : '';
      out.push({
        kind: 'spike',
        severity: 'warning',
        title: `${who} used ${times}their usual credits on ${formatDayLong(f.days[s.d]!)}`,
        detail: `${Math.round(s.value).toLocaleString('en-US')} credits against a usual ${Math.round(s.median).toLocaleString('en-US')} (the median of their active days in the 28 days before).`,
        link: {
          path: `/users/${encodeURIComponent(f.userIds[s.u]!)}`,
          query: { start: addDays(latest, -27), end: latest },
        },
      });
    }
    if (spikes.length > MAX_SPIKES)
      notes.push(`${spikes.length - MAX_SPIKES} more people had a day far above their usual level.`);
    if (unjudged > 0)
      notes.push(
        `${people(unjudged)} active this week had too little history (under 7 active days) to tell a spike from their usual level.`,
      );

    // 2. Teams whose active people fell sharply, week over week (a team's count includes its sub-teams).
    if (mapping) {
      const paths = [...mapping.teams, UNASSIGNED];
      const index = new Map(paths.map((t, i) => [t, i]));
      const now = new Float64Array(paths.length);
      const then = new Float64Array(paths.length);
      const beforeFrom = f.dayIndex.get(before.start);
      for (const [u, a] of credits) {
        let inWeek = false;
        let inBefore = false;
        for (let d = 0; d < n; d++) {
          if (Number.isNaN(a[d]!)) continue;
          if (d >= weekFrom) inWeek = true;
          else if (beforeFrom !== undefined && d >= beforeFrom) inBefore = true;
        }
        const g = index.get(teamOf[u]!) ?? index.get(UNASSIGNED)!;
        if (inWeek) now[g]!++;
        if (inBefore) then[g]!++;
      }
      const rolledNow = rollUp(new Map(paths.map((t, i) => [t, now[i]!])), (x, y) => x + y, 0);
      const rolledThen = rollUp(new Map(paths.map((t, i) => [t, then[i]!])), (x, y) => x + y, 0);
      const drops = [...rolledThen.entries()]
        .filter(([t, b]) => (selected.length === 0 || inSelection(t, selected)) && sharpDrop(b, rolledNow.get(t) ?? 0))
        .map(([t, b]) => ({ t, b, a: rolledNow.get(t) ?? 0 }))
        // The outermost team that fell says it; its sub-teams that fell too are in its page.
        .filter((x, _, all) => !all.some((o) => o.t !== x.t && x.t.startsWith(`${o.t}/`)))
        .sort((x, y) => x.a / x.b - y.a / y.b);
      for (const d of drops) {
        out.push({
          kind: 'drop',
          severity: 'warning',
          title: `${d.t}: ${people(d.a)} active this week, down from ${d.b}`,
          detail: `Active people ${formatDayLong(before.start)} – ${formatDayLong(before.end)}: ${d.b}; ${formatDayLong(week.start)} – ${formatDayLong(week.end)}: ${d.a} (−${Math.round((1 - d.a / d.b) * 100)} %).`,
          link: { path: '/activity', query: { team: [d.t], start: addDays(latest, -27), end: latest } },
        });
      }

      // 3. People the mapping names with no activity in 30 days (in the store's history of them).
      const lastSeen = new Map<number, Day>();
      const idFrom = f.dayIndex.get(addDays(latest, -(INACTIVE_DAYS - 1)));
      for (const [u, a] of credits) {
        for (let d = n - 1; d >= 0; d--)
          if (!Number.isNaN(a[d]!)) {
            lastSeen.set(u, f.days[d]!);
            break;
          }
      }
      const emailToId = new Map<string, number>();
      f.emails.forEach((e, u) => e && emailToId.set(canonicalEmail(e), u));
      const idle = new Map<string, string[]>();
      for (const m of mapping.members) {
        if (selected.length > 0 && !inSelection(m.team, selected)) continue;
        const u = m.key.userId !== undefined ? userIndex.get(m.key.userId) : emailToId.get(m.key.email ?? '');
        const seen = u === undefined ? undefined : lastSeen.get(u);
        const recent = seen !== undefined && idFrom !== undefined && seen >= f.days[idFrom]!;
        if (!recent) {
          const list = idle.get(m.team) ?? [];
          list.push(m.key.email ?? m.key.userId ?? '');
          idle.set(m.team, list);
        }
      }
      const total = [...idle.values()].reduce((s, l) => s + l.length, 0);
      if (total > 0) {
        const worst = [...idle.entries()].sort((x, y) => y[1].length - x[1].length);
        out.push({
          kind: 'inactive',
          severity: 'info',
          title: `${people(total)} in the team mapping had no activity in ${INACTIVE_DAYS} days`,
          detail: worst
            .slice(0, 3)
            .map(([t, l]) => `${t}: ${l.slice(0, 3).join(', ')}${l.length > 3 ? ` and ${l.length - 3} more` : ''}`)
            .join('; '),
          link: { path: `/teams/${worst[0]![0].split('/').map(encodeURIComponent).join('/')}`, query: {} },
        });
      }
    }

    // 4. New people this week: first active in the store's whole history during the week.
    // Only the whole history tells who is new: until the store holds it, say so instead of guessing.
    const held = await rangeVersion(store.db, HISTORY_START, latest);
    const historyDays = daysBetween(HISTORY_START, latest) + 1;
    const firsts = held.storedDays >= historyDays ? await firstDays(await opts.analytics, latest) : new Map();
    if (held.storedDays < historyDays)
      notes.push(
        `New people are named once the store holds the whole history (${held.storedDays} of ${historyDays} days so far).`,
      );
    const fresh = [...firsts]
      .filter(([, first]) => first >= week.start && first <= week.end)
      .map(([id]) => userIndex.get(id))
      .filter((u): u is number => u !== undefined && inScope(u));
    if (fresh.length > 0) {
      const names = fresh.slice(0, 5).map((u) => f.emails[u] ?? f.userIds[u]!);
      out.push({
        kind: 'new-users',
        severity: 'info',
        title: `${people(fresh.length)} used the agent for the first time this week`,
        detail: `${names.join(', ')}${fresh.length > 5 ? ` and ${fresh.length - 5} more` : ''}.`,
        link: {
          path: '/users',
          query: {
            ...(selected.length ? { team: selected } : {}),
            start: week.start,
            end: week.end,
            usersSort: 'firstDay:desc',
          },
        },
      });
    }

    // 5. Budgets passed, or heading over.
    const budgets = await opts.budgetStates();
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
    return { week, teams: selected, complete: true, highlights: out, notes };
  }

  async function cohortsOf(selected: string[]) {
    const latest = latestDay();
    const v = await rangeVersion(store.db, HISTORY_START, latest);
    const mapping = source.current().mapping;
    const resolve = mapping ? teamResolver(mapping) : () => UNASSIGNED;
    const origin = weekStart(HISTORY_START);
    // Weeks that have ended by the latest day (a week runs Monday to Sunday, UTC).
    const completeWeeks = Math.floor((daysBetween(origin, latest) + 1) / 7);
    const active = await activeWeeks(await opts.analytics, origin, latest);
    const perUser = active.weeks.filter(
      (_, i) => selected.length === 0 || inSelection(resolve(active.userIds[i]!, active.emails[i] ?? null), selected),
    );
    return {
      teams: selected,
      offsets: [...COHORT_OFFSETS],
      completeWeeks,
      storedDays: v.storedDays,
      historyDays: daysBetween(HISTORY_START, latest) + 1,
      cohorts: cohorts(perUser, (i) => addDays(origin, i * 7), completeWeeks),
    };
  }

  const teamsOnly = queryParser({ teams: true });
  const routes: Route[] = [
    route({
      method: 'GET',
      path: '/api/highlights',
      query: teamsOnly,
      access: ACCESS.highlights,
      what: 'the highlights',
      handle: async ({ query }) => json(200, await highlights(query.teams)),
    }),
    route({
      method: 'GET',
      path: '/api/cohorts',
      query: teamsOnly,
      access: ACCESS.cohorts,
      what: 'the cohorts',
      handle: async ({ query }) => json(200, await cohortsOf(query.teams)),
    }),
  ];

  return { routes, highlights };
}
