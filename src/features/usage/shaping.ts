import type { TokenDay } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { fillDays, sumBy } from '../../lib/series';

export interface CreditPoint {
  date: string;
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const ZERO = { billable: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function toDailyCredits(range: DayRange, rows: readonly TokenDay[]): CreditPoint[] {
  return fillDays(
    range,
    rows,
    (r) => ({
      billable: r.billable_tokens,
      input: r.input_tokens,
      output: r.output_tokens,
      cacheRead: r.cache_read_tokens,
      cacheWrite: r.cache_write_tokens,
    }),
    ZERO,
  );
}

export function creditTotals(points: readonly CreditPoint[]) {
  return {
    billable: sumBy(points, (p) => p.billable),
    input: sumBy(points, (p) => p.input),
    output: sumBy(points, (p) => p.output),
    cacheRead: sumBy(points, (p) => p.cacheRead),
    cacheWrite: sumBy(points, (p) => p.cacheWrite),
  };
}
