/** Pure shaping of daily rows into chart series. */
import { HISTORY_START, eachDay, isWeekend, maxDay, weekStart, type Day, type DayRange } from './dates';

/**
 * One point per day of the range (from history start on), taking values from
 * `rows` by date and zero where the service returned no row.
 */
export function fillDays<T extends { date: string }, P extends Record<string, number>>(
  range: DayRange,
  rows: readonly T[],
  pick: (row: T) => P,
  zero: P,
): (P & { date: Day })[] {
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const start = maxDay(range.start, HISTORY_START);
  if (start > range.end) return [];
  return eachDay(start, range.end).map((date) => {
    const row = byDate.get(date);
    return { ...(row ? pick(row) : zero), date };
  });
}

/** Sum of a numeric field over rows. */
export function sumBy<T>(rows: readonly T[], f: (r: T) => number): number {
  let s = 0;
  for (const r of rows) s += f(r);
  return s;
}

export type Interval = 'day' | 'week';
export type Rollup = 'sum' | 'last' | 'mean';

/**
 * Rolls daily points up to ISO weeks (Monday first). Additive fields are
 * summed; levels such as weekly active users take the week's last day; ratios
 * take the mean of the days that have one (a day without, `null`, is a gap,
 * not a zero; a week of gaps is a gap). Each week is labelled by its Monday,
 * and `days` says how many days of the range it covers (edge weeks can be
 * partial).
 */
export function rollupWeeks<P extends { date: Day }>(
  points: readonly P[],
  how: Readonly<Partial<Record<keyof P, Rollup>>>,
): (P & { days: number })[] {
  const out: (P & { days: number })[] = [];
  let cur: (P & { days: number }) | undefined;
  /** The days of the week so far that have each mean's value. */
  let counted = new Map<keyof P, number>();
  const finish = (w: P & { days: number }) => out.push(finishMeans(w, how, counted));
  for (const p of points) {
    const wk = weekStart(p.date);
    if (!cur || cur.date !== wk) {
      if (cur) finish(cur);
      cur = { ...p, date: wk, days: 1 };
      counted = new Map();
      for (const k of Object.keys(how) as (keyof P)[]) if (how[k] === 'mean') counted.set(k, p[k] == null ? 0 : 1);
      continue;
    }
    cur.days++;
    for (const k of Object.keys(p) as (keyof P)[]) {
      if (k === 'date') continue;
      const mode = how[k] ?? 'sum';
      const v = p[k] as unknown as number | null;
      if (mode === 'last') (cur as Record<keyof P, unknown>)[k] = v;
      else if (v != null) {
        (cur as Record<keyof P, unknown>)[k] = ((cur[k] as unknown as number | null) ?? 0) + v;
        if (mode === 'mean') counted.set(k, (counted.get(k) ?? 0) + 1);
      }
    }
  }
  if (cur) finish(cur);
  return out;
}

/** A week the range covers only part of (its first or last): fewer than its seven days are summed in it. */
export const isPartialWeek = (p: { days?: number }) => p.days !== undefined && p.days < 7;

/**
 * The points of Monday to Friday that are not among `holidays` (UTC days): a daily chart without its
 * weekends and the organization's holidays.
 */
export function workingDaysOnly<P extends { date: Day }>(points: readonly P[], holidays: ReadonlySet<Day>): P[] {
  return points.filter((p) => !isWeekend(p.date) && !holidays.has(p.date));
}

function finishMeans<P extends { date: Day }>(
  w: P & { days: number },
  how: Readonly<Partial<Record<keyof P, Rollup>>>,
  counted: ReadonlyMap<keyof P, number>,
): P & { days: number } {
  for (const k of Object.keys(how) as (keyof P)[]) {
    if (how[k] !== 'mean') continue;
    const n = counted.get(k) ?? 0;
    (w as Record<keyof P, unknown>)[k] = n > 0 ? (w[k] as unknown as number) / n : null;
  }
  return w;
}

/** Totals per name over all rows of all days (e.g. `by_tool` over a range). */
export function totalsByName<R>(
  days: readonly R[],
  list: (day: R) => readonly { name: string; value: number }[],
): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of days) for (const { name, value } of list(d)) m.set(name, (m.get(name) ?? 0) + value);
  return m;
}

export interface NamedTotal {
  name: string;
  value: number;
  share: number;
}

/** Sorted largest first, with each entry's share of the total. */
export function rankTotals(m: ReadonlyMap<string, number>): NamedTotal[] {
  let total = 0;
  for (const v of m.values()) total += v;
  return [...m.entries()]
    .map(([name, value]) => ({ name, value, share: total > 0 ? value / total : 0 }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}

export interface CaseMerge {
  totals: Map<string, number>;
  /** Display name → the spellings merged into it (only where there were several). */
  merged: Map<string, string[]>;
}

/**
 * Merges names that differ only in letter case (a known quirk of tool-server
 * names). The spelling with the most uses names the group.
 */
export function mergeCaseDuplicates(m: ReadonlyMap<string, number>): CaseMerge {
  const groups = new Map<string, [string, number][]>();
  for (const [name, v] of m) {
    const k = name.toLowerCase();
    const g = groups.get(k);
    if (g) g.push([name, v]);
    else groups.set(k, [[name, v]]);
  }
  const totals = new Map<string, number>();
  const merged = new Map<string, string[]>();
  for (const g of groups.values()) {
    g.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const display = g[0]![0];
    totals.set(
      display,
      g.reduce((s, [, v]) => s + v, 0),
    );
    if (g.length > 1)
      merged.set(
        display,
        g.map(([n]) => n),
      );
  }
  return { totals, merged };
}

/** The series of pivoted points: every point has the same keys, top groups first, then Other. */
export function pointKeys(points: readonly Record<string, unknown>[] | undefined): string[] {
  return points?.[0] ? Object.keys(points[0]).filter((k) => k !== 'date') : [];
}

/**
 * Pivots grouped rows (`date`, `group_key`, value) into one point per day
 * with the top `n` groups of the range as series and the rest as `other`.
 */
export function pivotTopN<G extends { date: string; group_key: string }>(
  range: DayRange,
  rows: readonly G[],
  value: (g: G) => number,
  n: number,
): { keys: string[]; hasOther: boolean; points: ({ date: Day } & Record<string, number | string>)[] } {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.group_key, (totals.get(r.group_key) ?? 0) + value(r));
  const ranked = rankTotals(totals).map((t) => t.name);
  const keys = ranked.slice(0, n);
  const top = new Set(keys);
  const hasOther = ranked.length > n;
  const byDay = new Map<string, Record<string, number>>();
  for (const r of rows) {
    let p = byDay.get(r.date);
    if (!p) byDay.set(r.date, (p = {}));
    const k = top.has(r.group_key) ? r.group_key : OTHER;
    p[k] = (p[k] ?? 0) + value(r);
  }
  const zero = Object.fromEntries([...keys, ...(hasOther ? [OTHER] : [])].map((k) => [k, 0]));
  const start = maxDay(range.start, HISTORY_START);
  const points =
    start > range.end ? [] : eachDay(start, range.end).map((date) => ({ ...zero, ...byDay.get(date), date }));
  return { keys, hasOther, points };
}

export const OTHER = 'Other';

/** FNV-1a: a string's stable 32-bit hash. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Colour slots (0 … slots − 1) that follow each key (a model, a client, a tool), not its rank or position:
 * the first time a key is drawn it takes the slot its name hashes to, or the next one no key has taken yet
 * (keys taken in name order, so the order they come in never matters), and keeps it from then on, whatever
 * the filter, the range or the order of a later chart. Once every slot is taken, a new key shares its hashed
 * slot's colour with an earlier one; within one chart two keys never share a colour while there are no more
 * keys than slots (the later-named one moves to the next slot free in that chart).
 */
export function keyColorSlots(slots: number): (keys: readonly string[]) => Map<string, number> {
  const kept = new Map<string, number>();
  const next = (slot: number, taken: (s: number) => boolean) => {
    for (let i = 0; i < slots && taken(slot); i++) slot = (slot + 1) % slots;
    return slot;
  };
  return (keys) => {
    const sorted = [...new Set(keys)].sort();
    for (const k of sorted) {
      if (kept.has(k)) continue;
      const used = new Set(kept.values());
      kept.set(k, used.size < slots ? next(hash(k) % slots, (x) => used.has(x)) : hash(k) % slots);
    }
    const out = new Map<string, number>();
    const inChart = new Set<number>();
    for (const k of sorted) {
      const slot = inChart.size < slots ? next(kept.get(k)!, (x) => inChart.has(x)) : kept.get(k)!;
      inChart.add(slot);
      out.set(k, slot);
    }
    return out;
  };
}
