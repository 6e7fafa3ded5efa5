import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRange } from '../../components/app-config';
import { KpiCard } from '../../components/KpiCard';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { formatCompact } from '../../lib/format';
import { tokensQuery } from './queries';
import { creditTotals, toDailyCredits } from './shaping';

export default function UsagePage() {
  const { range } = useRange();
  const q = useQuery({
    ...tokensQuery(range),
    placeholderData: keepPreviousData,
    select: (res) => toDailyCredits(range, res.data),
  });
  const totals = q.data ? creditTotals(q.data) : undefined;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Usage</h1>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <KpiCard label="Standard credits" value={totals?.billable} />
        <KpiCard label="Input tokens" value={totals?.input} />
        <KpiCard label="Output tokens" value={totals?.output} />
        <KpiCard label="Cache read tokens" value={totals?.cacheRead} />
      </div>
      <Widget
        title="Daily standard credits"
        description="Billable credits per UTC day, as reported by the service."
        query={q}
        isEmpty={(d) => d.length === 0}
        csv={(d) => ({
          filename: `credits-${range.start}-${range.end}.csv`,
          header: [
            'date',
            'billable_tokens',
            'input_tokens',
            'output_tokens',
            'cache_read_tokens',
            'cache_write_tokens',
          ],
          rows: d.map((p) => [p.date, p.billable, p.input, p.output, p.cacheRead, p.cacheWrite]),
        })}
      >
        {(d) => (
          <TimeSeriesChart
            data={d}
            series={[{ key: 'billable', label: 'Standard credits', color: seriesColor(0) }]}
            summary={`Daily standard credits from ${range.start} to ${range.end}; total ${formatCompact(totals?.billable)}.`}
          />
        )}
      </Widget>
    </div>
  );
}
