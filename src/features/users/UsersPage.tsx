import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRange } from '../../components/app-config';
import { Widget } from '../../components/Widget';
import { formatCompact, formatExact } from '../../lib/format';
import { mergedUsersQuery } from './queries';

export default function UsersPage() {
  const { range } = useRange();
  const q = useQuery({
    ...mergedUsersQuery(range),
    placeholderData: keepPreviousData,
    select: (rows) => [...rows].sort((a, b) => b.credits - a.credits),
  });
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Users</h1>
      <Widget
        title="Users by standard credits"
        description="One row per user over the range, merged from the per-day rows."
        query={q}
        isEmpty={(d) => d.length === 0}
        emptyText="No user was active in this range."
        csv={(d) => ({
          filename: `users-${range.start}-${range.end}.csv`,
          header: [
            'user_id',
            'user_email',
            'billable_tokens',
            'tool_calls',
            'sessions',
            'active_days',
            'primary_model',
          ],
          rows: d.map((u) => [u.userId, u.email, u.credits, u.toolCalls, u.sessions, u.activeDays, u.primaryModel]),
        })}
      >
        {(d) => (
          <div className="max-h-[32rem] overflow-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Users active in the range, by standard credits</caption>
              <thead className="sticky top-0 bg-white text-left text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    User
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Credits
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Tool calls
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Sessions
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Active days
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Main model
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.map((u) => (
                  <tr key={u.userId} className="border-t border-slate-100">
                    <td className="py-1.5 pr-3">{u.email ?? <span className="text-slate-500">{u.userId}</span>}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums" title={formatExact(u.credits)}>
                      {formatCompact(u.credits)}
                    </td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{formatExact(u.toolCalls)}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{formatExact(u.sessions)}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{u.activeDays}</td>
                    <td className="py-1.5 pr-3">{u.primaryModel}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Widget>
    </div>
  );
}
