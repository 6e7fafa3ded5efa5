import { formatDayLong } from '../lib/dates';
import type { MarkAdder } from './ChartMarkAdd';
import { failure, MarkForm, useAddMark } from './MarkForm';

/** The form of a chart's "Add a mark" (loaded when opened: `ChartMarkAdd.tsx`). */
export default function ChartMarkForm({ adder, chart, weekly }: { adder: MarkAdder; chart: string; weekly: boolean }) {
  const add = useAddMark();
  const day = adder.day!;
  return (
    <div className="mt-2 rounded-md border border-line bg-surface-muted p-3">
      <p className="mb-2 text-xs text-fg-muted">
        A mark on {formatDayLong(day)}, picked on the chart{weekly ? ' (the Monday of its week)' : ''}: click another{' '}
        {weekly ? 'week' : 'day'} to change it, or set the day here.
      </p>
      <MarkForm
        key={day}
        scopes={adder.scopes}
        initial={{ day, team: adder.scopes[0]!.team, text: '' }}
        submit="Add mark"
        pending={add.isPending}
        error={add.isError ? failure(add.error) : null}
        onSubmit={(m) =>
          add.mutate(m, {
            onSuccess: () => {
              adder.setAdded(
                `Added the mark of ${formatDayLong(m.day)} for ${m.team === '' ? 'the organization' : m.team}.`,
              );
              adder.close();
            },
          })
        }
        onCancel={adder.close}
        label={`New mark on ${chart}`}
        focusText
      />
    </div>
  );
}
