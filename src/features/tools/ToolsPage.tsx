import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRange } from '../../components/app-config';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget } from '../../components/Widget';
import { fillDays } from '../../lib/series';
import { toolsQuery } from './queries';

export default function ToolsPage() {
  const { range } = useRange();
  const q = useQuery({
    ...toolsQuery(range),
    placeholderData: keepPreviousData,
    select: (res) => fillDays(range, res.data, (r) => ({ toolCalls: r.tool_calls }), { toolCalls: 0 }),
  });
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Tools</h1>
      <Widget
        title="Daily tool calls"
        query={q}
        isEmpty={(d) => d.length === 0}
        csv={(d) => ({
          filename: `tool-calls-${range.start}-${range.end}.csv`,
          header: ['date', 'tool_calls'],
          rows: d.map((p) => [p.date, p.toolCalls]),
        })}
      >
        {(d) => (
          <TimeSeriesChart
            data={d}
            kind="bar"
            series={[{ key: 'toolCalls', label: 'Tool calls', color: seriesColor(1) }]}
            summary={`Daily tool calls from ${range.start} to ${range.end}.`}
          />
        )}
      </Widget>
    </div>
  );
}
