const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const EXACT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** 1234567 → "1.2M"; small numbers stay exact. */
export function formatCompact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return Math.abs(n) < 10_000 ? EXACT.format(n) : COMPACT.format(n);
}

/** 1234567 → "1,234,567". */
export function formatExact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return EXACT.format(n);
}

/** 0.1234 → "12.3%". */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction == null || !Number.isFinite(fraction)) return '–';
  return PERCENT.format(fraction);
}

/** Relative change from `before` to `now`, or null when there is no base. */
export function relativeChange(now: number, before: number): number | null {
  if (!Number.isFinite(now) || !Number.isFinite(before) || before === 0) return null;
  return (now - before) / Math.abs(before);
}

/** "+12.3%" / "−4%" for a change, with an explicit sign. */
export function formatChange(fraction: number | null): string {
  if (fraction == null) return '–';
  const s = PERCENT.format(Math.abs(fraction));
  return fraction > 0 ? `+${s}` : fraction < 0 ? `−${s}` : s;
}
