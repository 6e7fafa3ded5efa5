/**
 * Spend from the analytics engine: each person's credits by model and day joined to a price table made from the
 * price list's rules (prices.ts), for everyone, the teams chosen or one person. An element of `/tokens`' split
 * without a split by model is priced at its day's default. Teams add up to the organization as credits do.
 */
import { DATE, DOUBLE, VARCHAR } from '@duckdb/node-api';
import { eachDay, HISTORY_START, type Day, type DayRange } from '../../lib/dates';
import { priceListKey, priceOf, type PriceList } from '../spend/prices';
import type { Mapping } from '../teams/mapping';
import type { Analytics } from './engine';
import { dayValue, WEEK_OF_DAY } from './schema';
import { everyDay, scoped, type Selection } from './teams';

/**
 * The price of a million credits for every day of the copy and every model and tier in it, as a table: the
 * price list's rules (prices.ts) applied once per day, model and tier, then joined. Made again when the list,
 * the days or the models change.
 */
function createPriceTable(a: Analytics) {
  let made = '';
  /** The list and the copy's generation last looked at: the models and days change only with the copy. */
  let seen = '';
  /** The look under way, and for what: readers asking together wait for one (at 50,000 people two made it each). */
  let looking: { now: string; done: Promise<void> } | undefined;
  return (list: PriceList): Promise<void> => {
    const now = `${priceListKey(list)}|${a.generation()}`;
    if (now === seen) return Promise.resolve();
    if (looking?.now === now) return looking.done;
    const done = look(list, now).finally(() => {
      if (looking?.done === done) looking = undefined;
    });
    looking = { now, done };
    return done;
  };
  async function look(list: PriceList, now: string) {
    // From the week table (every week with a day of the copy has its rows): half the rows of the days'.
    const pairs = await a.rows<{ model: string; tier: string }>(
      'SELECT model, tier FROM person_model_week GROUP BY model, tier ORDER BY model, tier',
    );
    const [latest] = await a.rows<{ day: string | null }>('SELECT max(day) AS day FROM person_model_day');
    const last = (latest?.day ?? HISTORY_START) as Day;
    const key = `${priceListKey(list)}|${last}|${pairs.map((p) => `${p.model}\u0000${p.tier}`).join('\u0001')}`;
    if (key === made) return void (seen = now);
    const rows = [];
    for (const day of eachDay(HISTORY_START, last))
      for (const p of pairs) rows.push([dayValue(day), p.model, p.tier, priceOf(list, day, p.model, p.tier)]);
    await a.replaceTable(
      'price',
      [
        ['day', DATE],
        ['model', VARCHAR],
        ['tier', VARCHAR],
        ['per_million', DOUBLE],
      ],
      rows,
    );
    made = key;
    seen = now;
  }
}

const tables = new WeakMap<Analytics, (list: PriceList) => Promise<void>>();
/** The engine's price table (one per engine), brought up to the price list given. */
export function priceTableOf(a: Analytics) {
  let t = tables.get(a);
  if (!t) tables.set(a, (t = createPriceTable(a)));
  return t;
}

// The priced rows of people's credits over a range (`pid`, `spend`; parameters: the range and its whole weeks,
// `wholeWeeks`), several per person. Its whole weeks are priced by the week (each person's credits per model and tier
// summed as days are copied, engine.ts) where a model and tier's price holds all week; its edge days, and the weeks
// where a price changes, day by day. `only`: a condition on `pid` every part reads with (one person's spend reads their
// credits alone).
export const spendRows = (only = 'true') => `
WITH week_price AS (
  SELECT ${WEEK_OF_DAY} AS week, model, tier, min(per_million) AS lo, max(per_million) AS hi, count(*) AS n
  FROM price WHERE day BETWEEN $first AND $through GROUP BY ALL),
uniform AS (SELECT week, model, tier, lo AS per_million FROM week_price WHERE lo = hi AND n = 7),
changing AS (
  SELECT p.day, p.model, p.tier, p.per_million FROM price p
  JOIN week_price w ON w.week = ${WEEK_OF_DAY.replaceAll('day', 'p.day')} AND w.model = p.model AND w.tier = p.tier
  WHERE p.day BETWEEN $first AND $through AND NOT (w.lo = w.hi AND w.n = 7))
SELECT m.pid, m.credits * u.per_million / 1e6 AS spend
  FROM person_model_week m JOIN uniform u USING (week, model, tier) WHERE m.week BETWEEN $first AND $last AND ${only}
  UNION ALL
  SELECT m.pid, m.credits * p.per_million / 1e6 FROM person_model_day m JOIN price p USING (day, model, tier)
  WHERE m.day BETWEEN $start AND $end AND NOT (m.day BETWEEN $first AND $through) AND ${only}
  UNION ALL
  SELECT m.pid, m.credits * c.per_million / 1e6 FROM person_model_day m JOIN changing c USING (day, model, tier)
  WHERE m.day BETWEEN $first AND $through AND ${only}`;
/** Each person's spend over a range (`pid`, `spend`), as `spendRows`. */
export const spendOf = (only = 'true') => `SELECT pid, sum(spend) AS spend FROM (${spendRows(only)}) GROUP BY pid`;
/** Everyone's spend over a range (`spendOf`). */
export const SPEND = spendOf();

// Spend is priced per day, model and tier, each of those's credits summed first (over the selection's
// people, or a team's): a price per row joined the price table once per person, model and day.
export function createSpend(a: Analytics) {
  const prices = priceTableOf(a);
  const ask = async (mapping: Mapping | null, selected: Selection, r: DayRange, list: PriceList) => {
    const q = await scoped(a, mapping, selected, r);
    await prices(list);
    return q;
  };
  return {
    /** Daily credits (each person's `/tokens` split) and spend of the selection over the range. */
    async days(mapping: Mapping | null, selected: Selection, r: DayRange, list: PriceList) {
      const q = await ask(mapping, selected, r, list);
      const [credits, spent] = await Promise.all([
        q<{ day: string; credits: number }>(`
          SELECT day, sum(credits) AS credits FROM person_credits_day
          WHERE day BETWEEN $start AND $end AND <selected> GROUP BY day`),
        q<{ day: string; spend: number }>(`
          SELECT day, sum(m.credits * p.per_million / 1e6) AS spend FROM (
            SELECT day, model, tier, sum(credits) AS credits FROM person_model_day
            WHERE day BETWEEN $start AND $end AND <selected> GROUP BY day, model, tier) m
          JOIN price p USING (day, model, tier) GROUP BY day`),
      ]);
      const spendOn = new Map(spent.map((x) => [x.day, x.spend]));
      return everyDay(r, credits, (c, day) => ({ date: day, credits: c?.credits ?? 0, spend: spendOn.get(day) ?? 0 }));
    },

    /** Spend per model and tier of the selection (the split by model only), largest first. */
    async byModel(mapping: Mapping | null, selected: Selection, r: DayRange, list: PriceList) {
      const q = await ask(mapping, selected, r, list);
      return q<{ model: string; tier: string; credits: number; spend: number }>(`
        SELECT model, tier, sum(m.credits) AS credits, sum(m.credits * p.per_million / 1e6) AS spend FROM (
          SELECT day, model, tier, sum(credits) AS credits FROM person_model_day
          WHERE split AND day BETWEEN $start AND $end AND <selected> GROUP BY day, model, tier) m
        JOIN price p USING (day, model, tier)
        GROUP BY model, tier ORDER BY spend DESC, model`);
    },
  };
}

export type Spend = ReturnType<typeof createSpend>;
