/*
 * Numbers written the way Intl.NumberFormat('en-US') writes them, without
 * Intl: the first Intl formatter a tab creates loads ICU data, 10–75 ms of
 * main thread on a cold page, right on the path to the first chart. A
 * property test holds these to Intl's output.
 */

type Digits = [int: string, frac: string];

/** The decimal digits of |x| from its shortest round-trip representation (what Intl rounds, too). */
function digitsOf(x: number): Digits {
  const s = String(Math.abs(x));
  const [mantissa, exp] = s.split('e') as [string, string | undefined];
  const [i, f = ''] = mantissa.split('.') as [string, string | undefined];
  if (exp === undefined) return [i, f];
  const all = i + f;
  const point = i.length + Number(exp);
  if (point <= 0) return ['0', '0'.repeat(-point) + all];
  if (point >= all.length) return [all + '0'.repeat(point - all.length), ''];
  return [all.slice(0, point), all.slice(point)];
}

/** × 10^k, moving the decimal point. */
function shift([i, f]: Digits, k: number): Digits {
  if (k >= 0) {
    const g = f.padEnd(k, '0');
    return [(i + g.slice(0, k)).replace(/^0+(?=\d)/, ''), g.slice(k)];
  }
  const j = i.padStart(1 - k, '0');
  return [j.slice(0, j.length + k).replace(/^0+(?=\d)/, ''), j.slice(j.length + k) + f];
}

/** Rounded half away from zero to at most `d` fraction digits; trailing zeros dropped. */
function round([i, f]: Digits, d: number): Digits {
  if (f.length > d) {
    const kept = (i + f.slice(0, d)).split('');
    if (f[d]! >= '5') {
      let k = kept.length - 1;
      for (; k >= 0 && kept[k] === '9'; k--) kept[k] = '0';
      if (k >= 0) kept[k] = String(Number(kept[k]) + 1);
      else kept.unshift('1');
    }
    i = kept.slice(0, kept.length - d).join('') || '0';
    f = kept.slice(kept.length - d).join('');
  }
  return [i, f.replace(/0+$/, '')];
}

const sign = (x: number) => (x < 0 || Object.is(x, -0) ? '-' : '');
const group = (i: string) => i.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const join = ([i, f]: Digits) => group(i) + (f ? `.${f}` : '');

const SUFFIXES = ['', 'K', 'M', 'B', 'T'];

/** 45_210_000 → "45.2M" (one decimal at most; 999,960 → "1M"). */
function compact(x: number): string {
  const digits = digitsOf(x);
  let m = Math.min(Math.floor((digits[0].replace(/^0$/, '').length - 1) / 3), SUFFIXES.length - 1);
  if (m <= 0) return sign(x) + join(round(digits, 1));
  let r = round(shift(digits, -3 * m), 1);
  if (r[0].length > 3 && m < SUFFIXES.length - 1) r = round(shift(digits, -3 * ++m), 1);
  return `${sign(x)}${m === SUFFIXES.length - 1 ? join(r) : r[0] + (r[1] ? `.${r[1]}` : '')}${SUFFIXES[m]}`;
}

const exact = (x: number) => sign(x) + join(round(digitsOf(x), 2));
const percent = (x: number) => `${sign(x)}${join(round(shift(digitsOf(x), 2), 1))}%`;

/** `d` fraction digits exactly, zeros kept: fixed(8800, 1) → "8,800.0". */
function fixed(digits: Digits, d: number, negative: boolean): string {
  const [i, f] = round(digits, d);
  return `${negative ? '-' : ''}${group(i)}${d > 0 ? `.${f.padEnd(d, '0')}` : ''}`;
}

/**
 * A number format. One that knows how a whole column of its numbers should read carries `forColumn`: given
 * every value of the column, the one format all its cells use ("1.0M" above "0.9M", never above "877K").
 * `exact` writes the value in full, for the cell's title.
 */
export interface NumberFormat {
  (n: number): string;
  forColumn?: (values: readonly number[]) => (n: number) => string;
  exact?: (n: number) => string;
}

/** The largest magnitude among the finite values (0 for none). */
export function largest(values: readonly number[]): number {
  let m = 0;
  for (const v of values) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** The most fraction digits (at most `max`) any finite value needs once rounded to `max`. */
function decimalsOf(values: readonly number[], max: number, scale = 0): number {
  let d = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    d = Math.max(d, round(shift(digitsOf(v), scale), max)[1].length);
    if (d === max) break;
  }
  return d;
}

const guarded = (f: (n: number) => string) => (n: number) => (Number.isFinite(n) ? f(n) : '–');

/**
 * Every value in the unit of `top` (K, M…; none below a thousand) with `d` decimals: a value too small for them
 * "<0.1M", none "0".
 */
function inUnitOf(top: number, d: number): (n: number) => string {
  const m = top < 1_000 ? 0 : Math.min(Math.floor((digitsOf(top)[0].length - 1) / 3), SUFFIXES.length - 1);
  return guarded((n) => {
    if (n === 0) return '0';
    const [i, f] = round(shift(digitsOf(n), -3 * m), d);
    return `${sign(n)}${i === '0' && !f ? `<${d ? `0.${'0'.repeat(d - 1)}1` : '1'}` : fixed([i, f], d, false)}${SUFFIXES[m]}`;
  });
}

/**
 * A column of counts, in one unit: exact with the same decimals in every cell below 10,000, whole numbers below
 * a million ("12,800" above "540", never "12.8K" above "540"); from a million, in the largest's unit with the
 * same decimals ("1.0M" above "0.9M", never "1M" above "877K"), a count too small for it "<0.1M", none "0".
 */
export function countColumn(values: readonly number[]): (n: number) => string {
  const top = largest(values);
  if (top < 1_000_000) {
    const d = top < 10_000 ? decimalsOf(values, 2) : 0;
    return guarded((n) => fixed(digitsOf(n), d, sign(n) === '-'));
  }
  // One decimal while the largest has one or two digits in its unit ("45.2M"), none from three ("487M").
  return inUnitOf(top, /^\d\d?\D/.test(compact(top)) ? 1 : 0);
}

/**
 * An axis's ticks in one unit, that of the largest, each with the decimals the finest needs: "0.5M" under "1.0M",
 * never "500K" under "1M"; below a thousand, as they are.
 */
export function tickColumn(ticks: readonly number[]): (n: number) => string {
  const top = largest(ticks);
  return inUnitOf(top, decimalsOf(ticks, 2, top < 1_000 ? 0 : -3 * Math.floor((digitsOf(top)[0].length - 1) / 3)));
}

/** A column of percentages: the same decimals (none or one) in every cell, "18.0%" beside "41.1%". */
export function percentColumn(values: readonly number[]): (n: number) => string {
  const d = decimalsOf(values, 1, 2);
  return guarded((n) => `${fixed(shift(digitsOf(n), 2), d, sign(n) === '-')}%`);
}

/** 1234567 → "1.2M"; small numbers stay exact. */
export const formatCompact = Object.assign(
  (n: number | null | undefined): string => {
    if (n == null || !Number.isFinite(n)) return '–';
    return Math.abs(n) < 10_000 ? exact(n) : compact(n);
  },
  { forColumn: countColumn },
);

/** 1234567 → "1,234,567". */
export function formatExact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return exact(n);
}

/** 0.1234 → "12.3%"; in full (a title), "12.34%". */
export const formatPercent = Object.assign(
  (fraction: number | null | undefined): string => {
    if (fraction == null || !Number.isFinite(fraction)) return '–';
    return percent(fraction);
  },
  {
    forColumn: percentColumn,
    exact: (n: number) => `${sign(n)}${join(round(shift(digitsOf(n), 2), 2))}%`,
  },
);

/** Relative change from `before` to `now`, or null when there is no base. */
export function relativeChange(now: number, before: number): number | null {
  if (!Number.isFinite(now) || !Number.isFinite(before) || before === 0) return null;
  return (now - before) / Math.abs(before);
}

/**
 * "+12.3%" / "−4.0%" for a change, with an explicit sign and always one decimal: changes side by side (a row of
 * cards, a column) read alike, "+8.0%" beside "+7.9%". A share's change in percentage points: unit " pts".
 */
export function formatChange(fraction: number | null, unit = '%'): string {
  if (fraction == null) return '–';
  const s = `${fixed(shift(digitsOf(fraction), 2), 1, false)}${unit}`;
  return fraction > 0 ? `+${s}` : fraction < 0 ? `−${s}` : s;
}

/** `digits` fraction digits, zeros kept, with the thousands separator: formatDecimal(1141.66, 1) → "1,141.7". */
export function formatDecimal(n: number | null | undefined, digits: number): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return fixed(digitsOf(n), digits, sign(n) === '-');
}
