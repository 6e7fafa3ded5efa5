/**
 * "How to read this page": a few sentences per page, shown folded under its title (components/Page.tsx). What a
 * figure means is said once, in definitions.ts, behind each figure's info button; these say how the page works.
 */
import { LEVEL_THRESHOLDS, TARGET_LEVEL } from './readiness';

const pct = (x: number) => `${Math.round(x * 100)} %`;

export const HOW_TO_READ = {
  usage: [
    'Every figure counts whole UTC days: the latest is yesterday, and the range is the one in the bar at the top.',
    'A card gives the range’s total and its change against the period before it of the same length (a calendar month against the month before). The arrow is green or red only where a direction is good or bad for that figure; grey where it is neither, as for credits.',
    'Standard credits are the service’s unit of consumption; tokens are raw counts. With a price list, spend is each day’s credits at that day’s price for the model.',
    'Daily or Weekly switches every chart’s grain (a week the range cuts is hatched and starred); Hide weekends leaves Saturdays, Sundays and the organization’s listed holidays out of the daily charts, never out of the totals. Each chart has a table view and a CSV.',
  ],
  tools: [
    'Tool calls, tool servers (MCP), skills, slash commands and hooks over the range, as the service counts them.',
    'Tool calls per user turn on the card divides the range’s sums; the chart is the service’s own daily figure, the average of each person’s ratio of the day: they differ on purpose, and each says which it is.',
    'With a team chosen, the page shows the team’s own counts; which tools, servers and skills ran is given by the service for the whole organization only, listed once in a note.',
  ],
  activity: [
    'Sessions, messages and the people active (a day of activity reported by the service) per day, and per client.',
    'Daily active people are the distinct people of a day; weekly and monthly, of the trailing 7 and 30 days.',
    'Adoption cohorts group people by the week they were first active and show the share of them active again 1, 2, 4 … weeks later; a week not over yet is blank, not zero.',
  ],
  productivity: [
    'Files created and edited, commits and pull requests made through the agent, and operations per language and file extension.',
    'The service counts only what the agent made: these are not a team’s whole output, and a ratio to them (credits per commit) is the agent’s cost of its own commits.',
  ],
  users: [
    'One row per person over the range: the people active in it. With the dashboard’s store, Not active lists the known people with no day of activity in it, each with their last active day (unused access), and Everyone known both.',
    'Search, filters, sort and the columns shown live in the address, so a link opens the same view; the CSV holds every column, whatever is shown.',
    'Open a person for their days: credits, models, tool calls and sessions, day by day.',
  ],
  teams: [
    'Teams come from the team mapping: a team’s figures include its sub-teams, and the top-level teams plus Unassigned add up to the organization.',
    'Members are the people the mapping puts in a team (including people who have not used the agent yet); active people had a day of activity in the range; adoption is active people divided by members.',
    'With a price list, spend and each team’s budget state for the month sit beside the credits; open a team for its charts, people and repositories.',
  ],
  compare: [
    'Two to five teams side by side over the range in the bar at the top: the table gives each team the figures of its own page, and the charts draw one line per team, each team in one colour on every chart.',
    'Each team counts its own people, sub-teams included, as on its own page: a person in two of the teams (a team and one of its sub-teams) counts in both, so the figures do not add up to a total.',
    'The teams are in the address (team=…, one per team), so a link opens the same comparison; change them with the Team selector at the top, or choose them on the Teams page.',
    'Daily or Weekly switches every chart’s grain; Hide weekends leaves Saturdays, Sundays and the organization’s listed holidays out of the daily charts, never out of the table. Each chart has a table view and a CSV.',
  ],
  readiness: [
    `A repository’s level comes from its latest report’s pass rate: level 1 below ${pct(LEVEL_THRESHOLDS[1])}, ${LEVEL_THRESHOLDS.slice(
      1,
    )
      .map((t, i) => `${i + 2} from ${pct(t)}`)
      .join(', ')}. Level ${TARGET_LEVEL} is the usual target.`,
    'The page counts the repositories at each level and says whether the target is met, rather than averaging levels; the chart shows how those shares moved over the period.',
    'Open a repository for its criteria by pillar and what to fix first: the failing criteria that take it to its next level soonest.',
  ],
} as const satisfies Record<string, readonly string[]>;

export type PageKey = keyof typeof HOW_TO_READ;
