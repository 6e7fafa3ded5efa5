/**
 * Spend from a range's per-user facts (pure): each `/tokens` day's `by_user` element's `by_model`
 * credits at the price of that model on that day (prices.ts). The organization's spend is everyone's;
 * a team's is its people's, so teams add up to the organization as their credits do.
 */
import type { Day } from '../../lib/dates';
import type { Facts } from '../teams/facts';
import type { Mask } from '../teams/masks';
import { priceOf, type PriceList } from './prices';

/** The price of a million credits per day, model and tier of the facts: [day][model][tier]. */
function priceTable(f: Facts, prices: PriceList): (d: number, model: number, tier: number) => number {
  const nm = Math.max(1, f.modelIds.length);
  const nt = Math.max(1, f.tiers.length);
  const table = new Float64Array(f.days.length * nm * nt).fill(-1);
  return (d, model, tier) => {
    const i = (d * nm + model) * nt + tier;
    let p = table[i]!;
    if (p < 0) p = table[i] = priceOf(prices, f.days[d]!, f.modelIds[model] ?? '', f.tiers[tier] ?? '');
    return p;
  };
}

const tables = new WeakMap<Facts, WeakMap<PriceList, ReturnType<typeof priceTable>>>();
function pricesOf(f: Facts, prices: PriceList) {
  let byList = tables.get(f);
  if (!byList) tables.set(f, (byList = new WeakMap()));
  let t = byList.get(prices);
  if (!t) byList.set(prices, (t = priceTable(f, prices)));
  return t;
}

/**
 * Walks every `by_user` element of the days [start, end] whose user is in the mask (all without one),
 * with its credits and its spend.
 */
function walk(
  f: Facts,
  prices: PriceList,
  mask: Mask | null,
  start: Day,
  end: Day,
  visit: (user: number, day: number, credits: number, spend: number) => void,
) {
  const price = pricesOf(f, prices);
  const a = f.dayIndex.get(start);
  const b = f.dayIndex.get(end);
  if (a === undefined || b === undefined) throw new Error(`the facts do not hold ${start} … ${end}`);
  const { user, day, billable, modelsFrom } = f.tokens;
  const m = f.models;
  for (let i = 0; i < user.length; i++) {
    const d = day[i]!;
    if (d < a || d > b) continue;
    const u = user[i]!;
    if (mask && !mask[u]) continue;
    let spend = 0;
    const from = modelsFrom[i]!;
    const to = modelsFrom[i + 1]!;
    // An element without a per-model split is priced at the default price of its day.
    if (from === to) spend = (billable[i]! * priceOf(prices, f.days[d]!, '', '')) / 1e6;
    else for (let j = from; j < to; j++) spend += (m.billable[j]! * price(d, m.model[j]!, m.tier[j]!)) / 1e6;
    visit(u, d, billable[i]!, spend);
  }
}

export interface SpendDays {
  /** Per day of [start, end]: credits and spend. */
  credits: Float64Array;
  spend: Float64Array;
}

/** Daily credits and spend of the mask's people (everyone without one) over [start, end]. */
export function spendDays(f: Facts, prices: PriceList, mask: Mask | null, start: Day, end: Day): SpendDays {
  const a = f.dayIndex.get(start)!;
  const n = f.dayIndex.get(end)! - a + 1;
  const credits = new Float64Array(n);
  const spend = new Float64Array(n);
  walk(f, prices, mask, start, end, (_u, d, c, s) => {
    credits[d - a]! += c;
    spend[d - a]! += s;
  });
  return { credits, spend };
}

/** Each group's daily spend over [start, end] (users grouped by `groupOf`, e.g. their direct team). */
export function spendByGroup(
  f: Facts,
  prices: PriceList,
  groupOf: Int32Array,
  groups: number,
  start: Day,
  end: Day,
): Float64Array[] {
  const a = f.dayIndex.get(start)!;
  const n = f.dayIndex.get(end)! - a + 1;
  const out = Array.from({ length: groups }, () => new Float64Array(n));
  walk(f, prices, null, start, end, (u, d, _c, s) => {
    out[groupOf[u]!]![d - a]! += s;
  });
  return out;
}

/** Spend per model (and tier) over [start, end], for the mask's people. */
export function spendByModel(
  f: Facts,
  prices: PriceList,
  mask: Mask | null,
  start: Day,
  end: Day,
): { model: string; tier: string; credits: number; spend: number }[] {
  const price = pricesOf(f, prices);
  const a = f.dayIndex.get(start)!;
  const b = f.dayIndex.get(end)!;
  const sums = new Map<string, { model: string; tier: string; credits: number; spend: number }>();
  const { user, day, modelsFrom } = f.tokens;
  const m = f.models;
  for (let i = 0; i < user.length; i++) {
    const d = day[i]!;
    if (d < a || d > b || (mask && !mask[user[i]!])) continue;
    for (let j = modelsFrom[i]!; j < modelsFrom[i + 1]!; j++) {
      const model = f.modelIds[m.model[j]!] ?? '';
      const tier = f.tiers[m.tier[j]!] ?? '';
      const key = `${model}\u0000${tier}`;
      let s = sums.get(key);
      if (!s) sums.set(key, (s = { model, tier, credits: 0, spend: 0 }));
      s.credits += m.billable[j]!;
      s.spend += (m.billable[j]! * price(d, m.model[j]!, m.tier[j]!)) / 1e6;
    }
  }
  return [...sums.values()].sort((x, y) => y.spend - x.spend || x.model.localeCompare(y.model));
}
