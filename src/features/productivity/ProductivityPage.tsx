import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ProductivityDay } from '../../api/schemas';
import { analyticsQuery } from '../../data/analytics';
import { teamsFileTag, useRange, useTeams } from '../../data/search';
import { BreakdownWidget } from '../../components/TableWidget';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { OrgOnlyWidget } from '../../components/OrgOnly';
import { PageHeader } from '../../components/Page';
import { seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { previousPeriod } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { byExtension, byLanguage, productivityPoints, productivityTotals } from './shaping';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Files created and edited, commits and pull requests made through the agent, and operations per language and file extension.',
  'The service counts only what the agent made: these are not a team’s whole output, and a ratio to them (credits per commit) is the agent’s cost of its own commits.',
];

type Answer = { data: readonly ProductivityDay[] };
// Selectors are stable functions: a page's re-render (a new URL, another answer) does not shape an answer again.
const selectTotals = (r: Answer) => productivityTotals(r.data);
const selectLanguages = (r: Answer) => byLanguage(r.data);
const selectExtensions = (r: Answer) => byExtension(r.data);

export default function ProductivityPage() {
  const { range } = useRange();
  const [teams] = useTeams();
  // Operations per language and per file extension are given for the whole organization only.
  const teamed = teams.length > 0;
  const prevRange = previousPeriod(range);
  const base = { ...analyticsQuery('productivity', range, '', teams), placeholderData: keepPreviousData };
  const totals = useQuery({ ...base, select: selectTotals });
  const prev = useQuery({
    ...analyticsQuery('productivity', prevRange ?? range, '', teams),
    enabled: prevRange !== null,
    select: selectTotals,
  });
  const daily = useQuery({
    ...base,
    select: useCallback((r: Answer) => productivityPoints(range, r.data), [range]),
  });
  const languages = useQuery({ ...base, select: selectLanguages });
  const extensions = useQuery({ ...base, select: selectExtensions });
  const t = totals.data;
  const p = prev.data;
  const file = (name: string) => `${name}${teamsFileTag(teams)}-${range.start}-${range.end}`;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Productivity" teams={teams} howToRead={HOW_TO_READ}>
        <IntervalSwitch />
      </PageHeader>
      <KpiGrid
        hasPrevious={prevRange !== null}
        items={[
          { ...definedAs(DEFINITIONS.filesCreated), value: t?.created, previous: p?.created },
          { ...definedAs(DEFINITIONS.filesEdited), value: t?.edited, previous: p?.edited },
          { ...definedAs(DEFINITIONS.commits), value: t?.commits, previous: p?.commits },
          { ...definedAs(DEFINITIONS.pullRequests), value: t?.prs, previous: p?.prs },
        ]}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesWidget
          title="Files created and edited"
          query={daily}
          kind="bar"
          stacked
          series={[
            { key: 'edited', label: 'Edited', color: seriesColor(0), csv: 'files_edited' },
            { key: 'created', label: 'Created', color: seriesColor(4), csv: 'files_created' },
          ]}
          filename={file('files')}
          what="Files created and edited"
        />
        <TimeSeriesWidget
          title="Commits and pull requests"
          query={daily}
          kind="line"
          series={[
            { key: 'commits', label: 'Commits', color: seriesColor(2), csv: 'git_commits' },
            { key: 'prs', label: 'Pull requests', color: seriesColor(3), csv: 'git_prs_created' },
          ]}
          filename={file('commits-prs')}
          what="Commits and pull requests made through the agent"
        />
        {teamed ? (
          <>
            <OrgOnlyWidget title="Operations by language" />
            <OrgOnlyWidget title="Operations by file extension" />
          </>
        ) : (
          <>
            <BreakdownWidget
              id="languages"
              title="Operations by language"
              nameHeader="Language"
              valueHeader="File operations"
              query={languages}
              filename={file('languages')}
            />
            <BreakdownWidget
              id="extensions"
              title="Operations by file extension"
              nameHeader="Extension"
              valueHeader="File operations"
              query={extensions}
              filename={file('extensions')}
            />
          </>
        )}
      </div>
    </div>
  );
}
