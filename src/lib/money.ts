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

/** 1234.5 → "€1,235"; under 100, cents: "€12.34". */
export function formatMoney(n: number | null | undefined, currency: string): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return format(currency, Math.abs(n) < 100 ? 2 : 0).format(n);
}

/** Exact to the cent, for tooltips and CSV: "€1,234.50". */
export function formatMoneyExact(n: number, currency: string): string {
  return format(currency, 2).format(n);
}
