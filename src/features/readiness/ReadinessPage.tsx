import { useQuery } from '@tanstack/react-query';
import { LEVEL_NAMES } from '../../api/criteria';
import { KpiCard } from '../../components/KpiCard';
import { Widget } from '../../components/Widget';
import { formatDayLong, msToDay } from '../../lib/dates';
import { formatPercent } from '../../lib/format';
import { groupByRepo, organizationScore } from './history';
import { repoName, safeHref } from './levels';
import { allReportsQuery } from './queries';

export default function ReadinessPage() {
  const q = useQuery({
    ...allReportsQuery(),
    select: (reports) =>
      groupByRepo(reports).sort((a, b) => a.latest.score.level - b.latest.score.level || a.key.localeCompare(b.key)),
  });
  const repos = q.data;
  const score = repos ? organizationScore(repos) : null;
  const lastUpdated = repos?.length ? Math.max(...repos.map((r) => r.latest.report.createdAt)) : undefined;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Readiness</h1>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <KpiCard label="Organization level" value={score} format={(n) => `${n} · ${LEVEL_NAMES[n] ?? ''}`} />
        <KpiCard label="Repositories tracked" value={repos?.length} />
        <KpiCard label="Last updated" value={lastUpdated} format={(ms) => formatDayLong(msToDay(ms))} />
      </div>
      <Widget
        title="Repositories"
        description="Each repository's latest report. The level follows the pass rate: 20 %, 40 %, 60 % and 80 % unlock levels 2 to 5."
        query={q}
        isEmpty={(d) => d.length === 0}
        emptyText="No readiness report yet."
        csv={(d) => ({
          filename: 'readiness-repositories.csv',
          header: ['repository', 'level', 'pass_rate', 'last_evaluated'],
          rows: d.map((r) => [
            r.latest.report.repoUrl,
            r.latest.score.level,
            r.latest.score.passRate,
            new Date(r.latest.report.createdAt).toISOString(),
          ]),
        })}
      >
        {(d) => (
          <div className="max-h-[32rem] overflow-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Repositories with their latest readiness level</caption>
              <thead className="sticky top-0 bg-white text-left text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Repository
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Level
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Pass rate
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Last evaluated (UTC)
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.map((r) => {
                  const href = safeHref(r.latest.report.repoUrl);
                  return (
                    <tr key={r.key} className="border-t border-slate-100">
                      <td className="py-1.5 pr-3">
                        {href ? (
                          <a
                            href={href}
                            rel="noreferrer noopener"
                            target="_blank"
                            className="text-indigo-700 underline"
                          >
                            {repoName(r.key)}
                          </a>
                        ) : (
                          repoName(r.key)
                        )}
                      </td>
                      <td className="py-1.5 pr-3">
                        {r.latest.score.level} · {LEVEL_NAMES[r.latest.score.level]}
                      </td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{formatPercent(r.latest.score.passRate)}</td>
                      <td className="py-1.5 pr-3">{formatDayLong(msToDay(r.latest.report.createdAt))}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Widget>
    </div>
  );
}
