/** Amounts of money in the price list's currency, read in English as the rest of the dashboard. */
const formats = new Map<string, Intl.NumberFormat>();

function format(currency: string, digits: number): Intl.NumberFormat {
  const key = `${currency}|${digits}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, f);
  }
  return f;
}

/**
 * Makes the currency's formats now: the first Intl.NumberFormat of a currency costs about 35 ms (ICU
 * start-up), which the app pays while its first data is on the way rather than in the first render.
 */
export function prepareMoneyFormats(currency: string | null | undefined): void {
  if (!currency) return;
  try {
    format(currency, 0);
    format(currency, 2);
  } catch {
    // Not a currency Intl knows: the amounts say so where they are written.
  }
}

/** 1234.5 → "€1,235"; under 100, cents: "€12.34". */
export function formatMoney(n: number | null | undefined, currency: string): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return format(currency, Math.abs(n) < 100 ? 2 : 0).format(n);
}

/** Exact to the cent, for tooltips and CSV: "€1,234.50". */
export function formatMoneyExact(n: number, currency: string): string {
  return format(currency, 2).format(n);
}

const axisFormats = new Map<string, Intl.NumberFormat>();

/** An axis label: short, with the currency: "€3.5K", "$600", "$0.5". */
export function formatMoneyAxis(n: number, currency: string): string {
  let f = axisFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
    axisFormats.set(currency, f);
  }
  return f.format(n);
}

/**
 * An axis's amounts in one unit, that of the largest tick, with the decimals the finest needs: "$0.5K" under
 * "$1.0K", never "$500" under "$1K" nor "$3.5K" beside "$3K"; under a thousand, cents in every tick or in none.
 */
export function moneyTicks(ticks: readonly number[], currency: string): (n: number) => string {
  const top = Math.max(0, ...ticks.map(Math.abs));
  const [unit, suffix] = top >= 1e9 ? [1e9, 'B'] : top >= 1e6 ? [1e6, 'M'] : top >= 1e3 ? [1e3, 'K'] : [1, ''];
  const off = (x: number) => Math.abs(x - Math.round(x)) > 1e-9;
  let digits = 0;
  for (const t of ticks) digits = Math.max(digits, !off(t / unit) ? 0 : off((t * 10) / unit) || unit === 1 ? 2 : 1);
  return (n) => (n === 0 ? format(currency, 0).format(0) : `${format(currency, digits).format(n / unit)}${suffix}`);
}

/**
 * Amounts in a column of a table: cents in every cell when every amount is under 100, whole units in
 * every cell otherwise ("$546" beside "$76", never beside "$76.13"); the exact amount for the title.
 */
export function moneyFormat(currency: string) {
  const money = (n: number) => formatMoney(n, currency);
  return Object.assign(money, {
    forColumn: (values: readonly number[]) => {
      const digits = values.some((v) => Number.isFinite(v) && Math.abs(v) >= 100) ? 0 : 2;
      return (n: number) => (Number.isFinite(n) ? format(currency, digits).format(n) : '–');
    },
    exact: (n: number) => formatMoneyExact(n, currency),
  });
}
