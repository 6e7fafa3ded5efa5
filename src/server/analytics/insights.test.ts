/**
 * The highlights' and cohorts' SQL (insights.ts) against plain walks of every stored day: the spike rule's cases
 * and random histories, the cohorts and the first days (they read the week tables, engine.ts) for a latest day
 * mid-week and after a day of a whole week is written again and another dropped, and who is in which team.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { addDays, daysBetween, eachDay, type Day } from '../../lib/dates';
import { putTokensDay, putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { rng, type Rng } from '../demo/rng';
import { openStore } from '../store/db';
import type { Mapping } from '../teams/mapping';
import { UNASSIGNED } from '../teams/tree';
import { openAnalytics } from './engine';
import { cohortCounts, COHORT_OFFSETS, firstActiveIn, SPIKE_MIN_HISTORY, weekSpikes } from './insights';
import { membershipOf } from './teams';

const pick = <T>(r: Rng, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

const row = (r: Rng, userId: string, date: string) =>
  ({
    user_id: userId,
    user_email: pick(r, [null, '', `${userId}@acme.example`, `${userId}.${date}@acme.example`]),
    date,
    billable_tokens: Math.floor(r() * 1000),
  }) as unknown as UserRow;

const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of closing.reverse()) await c();
});

/** What the cohorts want, walking every stored day up to `latest`. */
function bruteWeeks(stored: Map<string, UserRow[]>, origin: Day, latest: Day) {
  const by = new Map<string, { weeks: Set<number>; email: string | null; day: string }>();
  for (const [day, rows] of stored)
    for (const x of rows) {
      if (day > latest) continue;
      const p = by.get(x.user_id) ?? { weeks: new Set<number>(), email: null, day: '' };
      p.weeks.add(Math.floor(daysBetween(origin, day) / 7));
      if (x.user_email && day > p.day) [p.email, p.day] = [x.user_email, day];
      by.set(x.user_id, p);
    }
  return [...by]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([id, p]) => ({ id, email: p.email, weeks: [...p.weeks].sort((a, b) => a - b) }));
}

/** The spike rule, as insights.ts documents it, walked in plain code. */
function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
function spikeVerdict(history: readonly number[], value: number) {
  if (history.length < SPIKE_MIN_HISTORY) return { status: 'too-little-history' as const };
  const med = median(history);
  const deviation = Math.max(1.4826 * median(history.map((v) => Math.abs(v - med))), 0.1 * med);
  const threshold = Math.max(med + 4 * deviation, 2 * med);
  return { status: value > threshold && value > 0 ? ('spike' as const) : ('usual' as const), median: med, threshold };
}

/** Each person's credits per day, their spikes in the week to `latest`, walked day by day. */
function bruteSpikes(credits: Map<string, Map<Day, number>>, latest: Day) {
  const weekStart = addDays(latest, -6);
  const spikes: { userId: string; day: Day; value: number; median: number; ratio: number }[] = [];
  let unjudged = 0;
  for (const [userId, days] of [...credits].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let best: (typeof spikes)[number] | undefined;
    let active = false;
    let judged = false;
    for (const d of eachDay(weekStart, latest)) {
      const v = days.get(d);
      if (v === undefined) continue;
      active = true;
      const history = eachDay(addDays(d, -28), addDays(d, -1)).flatMap((h) => (days.has(h) ? [days.get(h)!] : []));
      const verdict = spikeVerdict(history, v);
      if (verdict.status === 'too-little-history') continue;
      judged = true;
      const ratio = v / verdict.threshold;
      if (verdict.status === 'spike' && (!best || ratio > best.ratio))
        best = { userId, day: d, value: v, median: verdict.median, ratio };
    }
    if (best) spikes.push(best);
    else if (active && !judged) unjudged++;
  }
  // The most credits above the person's usual first (what weighs on the organization), then the most past the bar.
  spikes.sort(
    (x, y) => y.value - y.median - (x.value - x.median) || y.ratio - x.ratio || (x.userId < y.userId ? -1 : 1),
  );
  return { spikes, unjudged };
}

describe('the spike rule (median + 4 robust deviations over the person’s own 28 days), in SQL', () => {
  const usual = [900, 1100, 1000, 950, 1050, 1000, 980, 1020, 990, 1010];
  const varied = [200, 3000, 800, 2500, 400, 1800, 1200, 2200, 600, 1500];
  /** Each person: their credits on the days before (one a day, ending 2026-03-10) and on 2026-03-14. */
  const cases: Record<string, [number[], number]> = {
    'a-usual-far-above': [usual, 6000],
    'b-usual-busy-day': [usual, 1900],
    'c-flat-a-little-above': [Array(20).fill(500), 900],
    'd-flat-above-twice': [Array(20).fill(500), 1001],
    'e-one-earlier-spike': [[...usual, 50_000], 6000],
    'f-varied-larger-jump': [varied, 5000],
    'g-varied-far-above': [varied, 9000],
    'h-too-little-history': [Array(6).fill(1000), 50_000],
    // Usually nothing: any day with credits is past a bar of zero, infinitely far.
    'i-usually-nothing': [Array(20).fill(0), 800],
  };

  it('flags a day far above the usual level, not a busy day, a flat habit’s small step or a varied person’s jump', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    closing.push(
      () => store.close(),
      () => analytics.close(),
    );
    const byDay = new Map<Day, UserRow[]>();
    const credits = new Map<string, Map<Day, number>>();
    for (const [id, [history, value]] of Object.entries(cases)) {
      const days = new Map<Day, number>();
      history.forEach((v, i) => days.set(addDays('2026-03-10', i - history.length + 1), v));
      days.set('2026-03-14', value);
      credits.set(id, days);
      for (const [d, v] of days)
        byDay.set(d, [...(byDay.get(d) ?? []), { user_id: id, date: d, billable_tokens: v } as unknown as UserRow]);
    }
    for (const d of eachDay('2026-02-01', '2026-03-19')) await putUsersDay(store, d, byDay.get(d) ?? [], 'v1');
    const week = { start: '2026-03-13', end: '2026-03-19' };
    const got = await weekSpikes(analytics, null, [], week, 10);
    // Ranked by the credits above the person's usual: the varied person's 9,000 is 7,650 above theirs.
    expect(got.top.map((s) => s.userId)).toEqual([
      'g-varied-far-above',
      'a-usual-far-above',
      'e-one-earlier-spike',
      'i-usually-nothing',
      'd-flat-above-twice',
    ]);
    // The usual level is 1000 and the bar twice that (the MAD of 20 is under a tenth of the median).
    expect(got.top[1]).toMatchObject({ day: '2026-03-14', value: 6000, median: 1000, ratio: 3 });
    expect(got.top[3]).toMatchObject({ median: 0, ratio: Infinity });
    expect(got.top[4]).toMatchObject({ median: 500, ratio: 1.001 });
    expect(got.count).toBe(5);
    expect(got.unjudged).toBe(1);
    expect(got.top).toEqual(
      bruteSpikes(credits, '2026-03-19').spikes.map((s) => ({ ...s, email: null, ratio: expect.closeTo(s.ratio, 9) })),
    );
    // Limited to a team: only its people are judged.
    const mapping: Mapping = {
      teams: ['T'],
      members: [{ key: { userId: 'g-varied-far-above' }, team: 'T', line: 2 }],
      managers: new Map(),
      repos: [],
    };
    const team = await weekSpikes(analytics, mapping, ['T'], week, 10);
    expect([team.top.map((s) => s.userId), team.count, team.unjudged]).toEqual([['g-varied-far-above'], 1, 0]);
  });

  it('finds what a walk of every day finds, on random histories', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    closing.push(
      () => store.close(),
      () => analytics.close(),
    );
    const r = rng(11);
    const credits = new Map<string, Map<Day, number>>();
    const people = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    for (const d of eachDay('2026-02-01', '2026-03-19')) {
      const rows = people
        .filter((_, i) => r() < 0.2 + (i % 5) * 0.15)
        .map((id, i) => {
          const v = Math.round(100 + (i % 7) * 300 * r() + (r() < 0.05 ? 20_000 * r() : 0));
          const days = credits.get(id) ?? new Map<Day, number>();
          credits.set(id, days.set(d, v));
          return { user_id: id, user_email: `${id}@acme.example`, date: d, billable_tokens: v } as unknown as UserRow;
        });
      await putUsersDay(store, d, rows, 'v1');
    }
    const want = bruteSpikes(credits, '2026-03-19');
    const got = await weekSpikes(analytics, null, [], { start: '2026-03-13', end: '2026-03-19' }, 5);
    expect(want.spikes.length).toBeGreaterThan(5);
    expect([got.count, got.unjudged]).toEqual([want.spikes.length, want.unjudged]);
    expect(got.top).toEqual(
      want.spikes
        .slice(0, 5)
        .map((s) => ({ ...s, email: `${s.userId}@acme.example`, ratio: expect.closeTo(s.ratio, 9) })),
    );
  });
});

/** The cohorts walked in plain code: people by their first week, and how many were back `offset` weeks later. */
function bruteCohorts(people: { weeks: number[] }[]) {
  const by = new Map<number, { size: number; back: number[] }>();
  for (const { weeks } of people) {
    const first = Math.min(...weeks);
    const c = by.get(first) ?? { size: 0, back: COHORT_OFFSETS.map(() => 0) };
    c.size++;
    COHORT_OFFSETS.forEach((o, i) => weeks.includes(first + o) && c.back[i]!++);
    by.set(first, c);
  }
  return [...by].sort(([a], [b]) => a - b).map(([week, c]) => ({ week, ...c }));
}

describe('the week tables behind the cohorts, the first days and the teams', () => {
  it('give what every day gives: mid-week latest days, any origin, days written again or dropped', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    closing.push(
      () => store.close(),
      () => analytics.close(),
    );
    const r = rng(3);
    const people = Array.from({ length: 12 }, (_, i) => `u${i}`);
    const stored = new Map<string, UserRow[]>();
    // Wednesday 4 February to Thursday 19 March 2026.
    for (const d of eachDay('2026-02-04', '2026-03-19')) {
      const rows = people.filter((_, i) => i > 0 && r() < 0.4).map((u) => row(r, u, d));
      stored.set(d, rows);
      await putUsersDay(store, d, rows, 'v1');
    }
    // u0 has credits in the /tokens split only, with an email there.
    await putTokensDay(
      store,
      '2026-03-11',
      JSON.stringify([
        { date: '2026-03-11', billable_tokens: 5, by_user: [{ user_id: 'u0', user_email: 'u0@acme.example' }] },
      ]),
      'v1',
    );
    const check = async () => {
      for (const latest of ['2026-03-18', '2026-03-15', '2026-02-10'] as const) {
        const got = await cohortCounts(analytics, null, { people: null }, '2026-02-02', latest);
        const brute = bruteCohorts(bruteWeeks(stored, '2026-02-02', latest));
        expect(got, `to ${latest}`).toEqual(brute);
        // Privacy mode: a week's cohort under k people is no row, whoever asks; the others are as they are.
        const k = Math.max(2, ...brute.map((c) => c.size));
        const kept = await cohortCounts(analytics, null, { people: null, minGroup: k }, '2026-02-02', latest);
        expect(kept, `to ${latest}, k = ${k}`).toEqual(brute.filter((c) => c.size >= k));
        expect(kept.length, `to ${latest}, k = ${k}`).toBeLessThan(brute.length);
      }
      const firsts = new Map<string, string>();
      for (const [day, rows] of [...stored].sort(([a], [b]) => (a < b ? -1 : 1)))
        for (const x of rows) if (!firsts.has(x.user_id)) firsts.set(x.user_id, day);
      const week = { start: '2026-03-09', end: '2026-03-15' };
      const fresh = [...firsts].filter(([, d]) => d >= week.start && d <= week.end).map(([id]) => id);
      expect((await firstActiveIn(analytics, null, [], week)).map((p) => p.userId).sort()).toEqual(fresh.sort());
      // Everyone of the copy is in `member`, under the latest email given on either side.
      const mapping: Mapping = {
        teams: ['T'],
        members: people.map((id, i) => ({ key: { email: `${id}@acme.example` }, team: 'T', line: i + 2 })),
        managers: new Map(),
        repos: [],
      };
      // Of every day the copy holds (the queries above copied only their ranges).
      await analytics.catchUp();
      await membershipOf(analytics).current(mapping);
      const latestEmail = new Map(bruteWeeks(stored, '2026-02-02', '2026-03-19').map((p) => [p.id, p.email]));
      latestEmail.set('u0', 'u0@acme.example');
      const members = await analytics.rows<{ user_id: string; team: string }>(
        'SELECT user_id, team FROM member JOIN person USING (pid) ORDER BY user_id',
      );
      expect(members).toEqual(
        [...latestEmail]
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .map(([id, email]) => ({ user_id: id, team: email === `${id}@acme.example` ? 'T' : UNASSIGNED })),
      );
    };
    await check();
    // A day of a whole week written again (other people, other emails), and a first day dropped.
    stored.set(
      '2026-02-25',
      ['u1', 'u2', 'u3'].map((u) => row(r, u, '2026-02-25')),
    );
    await putUsersDay(store, '2026-02-25', stored.get('2026-02-25')!, 'v2');
    stored.delete('2026-02-04');
    await store.db.deleteFrom('users_day').where('day', '=', '2026-02-04').execute();
    await store.db.deleteFrom('user_day').where('day', '=', '2026-02-04').execute();
    await check();
  });
});
