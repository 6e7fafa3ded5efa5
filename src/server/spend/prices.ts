/**
 * The price list (`PRICES_FILE`, JSON): what a million standard credits cost, from a day on, for
 * every model, or for one model tier, or for one model:
 *
 *     {
 *       "currency": "USD",
 *       "prices": [
 *         { "from": "2026-01-14", "perMillionCredits": 8 },
 *         { "from": "2026-01-14", "tier": "thinking", "perMillionCredits": 12 },
 *         { "from": "2026-09-01", "model": "model-large", "perMillionCredits": 15 }
 *       ]
 *     }
 *
 * A day's credits of a model are priced by the most specific entry in force that day: the model's own
 * (the latest `from` on or before the day), else its tier's, else the default. A default must apply
 * from the start of history, so every stored day has a price. A file with a problem is refused as a
 * whole, each problem named by its line; the caller keeps the list in force.
 */
import { createHash } from 'node:crypto';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { HISTORY_START, isDay, type Day } from '../../lib/dates';
import { lineAt, lineStarts } from '../core/text';

export interface PriceEntry {
  from: Day;
  perMillionCredits: number;
  model?: string;
  tier?: string;
  line: number;
}

export interface PriceList {
  currency: string;
  entries: PriceEntry[];
}

export interface PriceError {
  line: number | null;
  /** The whole sentence, place first: `line 7: "from" must be a day like 2026-01-14`. */
  message: string;
}

export type PricesResult = { ok: true; prices: PriceList } | { ok: false; errors: PriceError[] };

const FIELDS = new Set(['from', 'perMillionCredits', 'model', 'tier']);
const SHAPE =
  'the file must be a JSON object like {"currency": "USD", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}]}';

/** The value of an object node's property, as a node. */
const prop = (n: Node, key: string): Node | undefined =>
  n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];

export function parsePrices(input: string): PricesResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const starts = lineStarts(text);
  const at = (offset: number) => lineAt(starts, offset);
  const errors: PriceError[] = [];
  const fail = (line: number | null, message: string) =>
    errors.push({ line, message: line === null ? message : `line ${line}: ${message}` });

  if (text.trim() === '') return { ok: false, errors: [{ line: null, message: 'the file is empty' }] };
  const syntax: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, syntax, { disallowComments: true, allowTrailingComma: false });
  } catch (e) {
    // The parser recurses: a file nested thousands deep overflows the stack. Refused, never thrown (a change of the
    // file is read in a watch's callback, where a throw would end the process).
    if (!(e instanceof RangeError)) throw e;
    return { ok: false, errors: [{ line: null, message: 'not valid JSON (nested too deeply)' }] };
  }
  if (syntax.length > 0 || !root) {
    const e = syntax[0];
    return {
      ok: false,
      errors: [
        e
          ? { line: at(e.offset), message: `line ${at(e.offset)}: not valid JSON (${printParseErrorCode(e.error)})` }
          : { line: null, message: 'not valid JSON' },
      ],
    };
  }
  if (root.type !== 'object') {
    fail(at(root.offset), SHAPE);
    return { ok: false, errors };
  }

  for (const p of root.children ?? []) {
    const key = p.children?.[0]?.value as string;
    if (key !== 'currency' && key !== 'prices')
      fail(at(p.offset), `unknown field ${JSON.stringify(key)} (expected "currency" and "prices")`);
  }
  const cur = prop(root, 'currency');
  let currency = '';
  if (!cur) fail(null, 'no "currency": name it by its ISO code, like "USD" or "EUR"');
  else if (typeof cur.value !== 'string' || !/^[A-Z]{3}$/.test(cur.value))
    fail(at(cur.offset), '"currency" must be a three-letter ISO code in capitals, like "USD" or "EUR"');
  else currency = cur.value;

  const list = prop(root, 'prices');
  const entries: PriceEntry[] = [];
  if (!list) fail(null, 'no "prices": list at least the default price, from 2026-01-14');
  else if (list.type !== 'array') fail(at(list.offset), '"prices" must be a list of entries');
  else {
    const seen = new Map<string, number>();
    for (const node of list.children ?? []) {
      const line = at(node.offset);
      if (node.type !== 'object') {
        fail(line, 'an entry must be an object like {"from": "2026-01-14", "perMillionCredits": 8}');
        continue;
      }
      const before = errors.length;
      for (const p of node.children ?? []) {
        const key = p.children?.[0]?.value as string;
        if (!FIELDS.has(key))
          fail(
            at(p.offset),
            `unknown field ${JSON.stringify(key)} (an entry has "from", "perMillionCredits", and "model" or "tier")`,
          );
      }
      const from = prop(node, 'from')?.value as unknown;
      const price = prop(node, 'perMillionCredits')?.value as unknown;
      const model = prop(node, 'model')?.value as unknown;
      const tier = prop(node, 'tier')?.value as unknown;
      if (typeof from !== 'string' || !isDay(from)) fail(line, '"from" must be a day like 2026-01-14');
      if (typeof price !== 'number' || !Number.isFinite(price) || price < 0)
        fail(line, '"perMillionCredits" must be a number, zero or more');
      if (model !== undefined && (typeof model !== 'string' || model.trim() === ''))
        fail(line, '"model" must be a model id, as the service names it');
      if (tier !== undefined && (typeof tier !== 'string' || tier.trim() === ''))
        fail(line, '"tier" must be a model tier, as the service names it ("standard" or "thinking")');
      if (model !== undefined && tier !== undefined)
        fail(line, 'an entry prices a model or a tier, not both: write two entries');
      if (errors.length > before) continue;
      const e: PriceEntry = {
        from: from as Day,
        perMillionCredits: price as number,
        line,
        ...(model !== undefined ? { model: (model as string).trim() } : {}),
        ...(tier !== undefined ? { tier: (tier as string).trim() } : {}),
      };
      const key = `${e.model !== undefined ? `model ${e.model}` : e.tier !== undefined ? `tier ${e.tier}` : 'default'} from ${e.from}`;
      const twin = seen.get(key);
      if (twin !== undefined) {
        fail(line, `a second price for the ${key} (the first is on line ${twin})`);
        continue;
      }
      seen.set(key, line);
      entries.push(e);
    }
    if (
      errors.length === 0 &&
      !entries.some((e) => e.model === undefined && e.tier === undefined && e.from <= HISTORY_START)
    )
      fail(
        at(list.offset),
        `no default price (without "model" or "tier") applies from ${HISTORY_START}, the start of history: every day needs a price`,
      );
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, prices: { currency, entries } };
}

/**
 * The price of a million credits of a model on a day: the model's entry in force, else its tier's,
 * else the default's (each the latest `from` on or before the day).
 */
export function priceOf(prices: PriceList, day: Day, model: string, tier: string): number {
  let best: { rank: number; from: Day; price: number } | undefined;
  for (const e of prices.entries) {
    if (e.from > day) continue;
    const rank =
      e.model !== undefined ? (e.model === model ? 3 : 0) : e.tier !== undefined ? (e.tier === tier ? 2 : 0) : 1;
    if (rank === 0) continue;
    if (!best || rank > best.rank || (rank === best.rank && e.from > best.from))
      best = { rank, from: e.from, price: e.perMillionCredits };
  }
  // A valid list has a default from the start of history; a day before it costs nothing known.
  return best?.price ?? 0;
}

const keys = new WeakMap<PriceList, string>();
/** What a price list says, in a few characters: the same list gives the same key on every server. */
export function priceListKey(list: PriceList): string {
  let k = keys.get(list);
  if (k === undefined) {
    const said = JSON.stringify([
      list.currency,
      list.entries.map((e) => [e.from, e.perMillionCredits, e.model, e.tier]),
    ]);
    keys.set(list, (k = createHash('sha256').update(said).digest('base64url').slice(0, 16)));
  }
  return k;
}
