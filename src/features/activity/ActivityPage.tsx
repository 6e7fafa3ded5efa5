import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRange } from '../../components/app-config';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { fillDays } from '../../lib/series';
import { activityQuery } from './queries';

export default function ActivityPage() {
  const { range } = useRange();
  const q = useQuery({
    ...activityQuery(range),
    placeholderData: keepPreviousData,
    select: (res) =>
      fillDays(
        range,
        res.data,
        (r) => ({ dau: r.daily_active_users, wau: r.weekly_active_users, mau: r.monthly_active_users }),
        { dau: 0, wau: 0, mau: 0 },
      ),
  });
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Activity</h1>
      <Widget
        title="Active users"
        description="Daily, weekly (trailing 7 days) and monthly (trailing 30 days) active users."
        query={q}
        isEmpty={(d) => d.length === 0}
        csv={(d) => ({
          filename: `active-users-${range.start}-${range.end}.csv`,
          header: ['date', 'daily_active_users', 'weekly_active_users', 'monthly_active_users'],
          rows: d.map((p) => [p.date, p.dau, p.wau, p.mau]),
        })}
      >
        {(d) => (
          <TimeSeriesChart
            data={d}
            kind="line"
            series={[
              { key: 'dau', label: 'Daily', color: seriesColor(0) },
              { key: 'wau', label: 'Weekly', color: seriesColor(1) },
              { key: 'mau', label: 'Monthly', color: seriesColor(2) },
            ]}
            summary={`Active users per day from ${range.start} to ${range.end}.`}
          />
        )}
      </Widget>
    </div>
  );
}
