import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRange } from '../../components/app-config';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { fillDays } from '../../lib/series';
import { productivityQuery } from './queries';

export default function ProductivityPage() {
  const { range } = useRange();
  const q = useQuery({
    ...productivityQuery(range),
    placeholderData: keepPreviousData,
    select: (res) =>
      fillDays(range, res.data, (r) => ({ created: r.files_created, edited: r.files_edited }), {
        created: 0,
        edited: 0,
      }),
  });
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Productivity</h1>
      <Widget
        title="Files created and edited"
        query={q}
        isEmpty={(d) => d.length === 0}
        csv={(d) => ({
          filename: `files-${range.start}-${range.end}.csv`,
          header: ['date', 'files_created', 'files_edited'],
          rows: d.map((p) => [p.date, p.created, p.edited]),
        })}
      >
        {(d) => (
          <TimeSeriesChart
            data={d}
            kind="bar"
            stacked
            series={[
              { key: 'edited', label: 'Edited', color: seriesColor(0) },
              { key: 'created', label: 'Created', color: seriesColor(4) },
            ]}
            summary={`Files created and edited per day from ${range.start} to ${range.end}.`}
          />
        )}
      </Widget>
    </div>
  );
}
