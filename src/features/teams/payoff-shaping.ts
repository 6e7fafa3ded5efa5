/** Pure shaping of "Did it pay off" for the teams pages: readiness answers and team figures into what is drawn. */
import type { TeamSummaryRow } from '../../api/teams';
import type { ChartMarker } from '../../components/chart-frame';
import type { DayRange } from '../../lib/dates';
import { perCommit, perPullRequest } from '../../lib/definitions';
import type { WeekFigures } from '../../lib/outcomes';
import {
  acrossTeams,
  latestLevels,
  levelChanges,
  levelsByTeam,
  payoffComparisons,
  type Comparison,
  type LevelChange,
  type LevelPoint,
  type TeamPoint,
} from '../../lib/payoff';

/** `host/owner/name` → `owner/name`, for labels. */
export const shortRepo = (key: string) => key.split('/').slice(1).join('/') || key;

/** The readiness answer as the payoff reads it: the repositories with their owners, and each report's level. */
export interface OwnedLevels {
  ownership: boolean;
  repos: readonly { key: string; team: string | null }[];
  points: readonly LevelPoint[];
}

export interface TeamPayoff {
  /** The team's repositories (its own and its sub-teams'), and how many have a report. */
  repos: number;
  reported: number;
  changes: LevelChange[];
  comparisons: Comparison[];
  /**
   * One line per comparison, on the week of its change(s), labelled by its number in the comparisons' table
   * (`↑ #1`): names would run into each other on a phone; the chart's accessible name says them in full.
   */
  markers: ChartMarker[];
  /** Whole weeks of the range: what the comparisons can draw on. */
  wholeWeeks: number;
}

/** "↑ acme/api" or "↑ 3 repositories": a change's marker on the chart. */
export function markerLabel(c: Pick<Comparison, 'direction' | 'changes' | 'repos'>): string {
  const arrow = c.direction === 'rise' ? '↑' : '↓';
  return c.repos === 1 ? `${arrow} ${shortRepo(c.changes[0]!.repo)}` : `${arrow} ${c.repos} repositories`;
}

/** A team's level changes in the range, and its weekly figures before and after each. */
export function teamPayoff(owned: OwnedLevels, weeks: readonly WeekFigures[], range: DayRange): TeamPayoff {
  const keys = new Set(owned.repos.map((r) => r.key));
  const points = owned.points.filter((p) => keys.has(p.repo));
  const changes = levelChanges(points, range);
  const comparisons = payoffComparisons(changes, weeks);
  return {
    repos: keys.size,
    reported: new Set(points.map((p) => p.repo)).size,
    changes,
    comparisons,
    markers: comparisons.map((c, i) => ({ x: c.week, label: `${c.direction === 'rise' ? '↑' : '↓'} #${i + 1}` })),
    wholeWeeks: weeks.filter((w) => w.days === 7).length,
  };
}

/**
 * Each team owning repositories (as the mapping names it, not its parents): the mean latest level of its
 * repositories on the range's last day, against its figures over the range (its summary row).
 */
export function crossTeamPayoff(
  owned: OwnedLevels,
  rows: readonly TeamSummaryRow[],
  range: DayRange,
): { points: (TeamPoint & { name: string })[]; reason: string | null } {
  const levels = levelsByTeam(owned.repos, latestLevels(owned.points, range.end));
  const byTeam = new Map(rows.map((r) => [r.team, r]));
  const teams = [...levels].flatMap(([team, ls]) => {
    const row = byTeam.get(team);
    if (!row) return [];
    const c = row.current;
    return [
      {
        team,
        levels: ls,
        figures: {
          toolCallsPerTurn: c.toolCallsPerTurn,
          creditsPerCommit: perCommit(c.credits, c.commits),
          creditsPerPr: perPullRequest(c.credits, c.prs),
          activePeople: c.active,
        },
      },
    ];
  });
  const { points, reason } = acrossTeams(teams);
  // Two leaf teams may share a name (API under Auth, API under Platform): those are named with their parent.
  const names = points.map((p) => byTeam.get(p.team)!.name);
  const shared = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  const nameOf = (team: string, name: string) => (shared.has(name) ? team.split('/').slice(-2).join('/') : name);
  return { points: points.map((p, i) => ({ ...p, name: nameOf(p.team, names[i]!) })), reason };
}
