/**
 * The dashboard's definitions, decided once (issue #26): what each figure that two pages could count
 * differently means, its short label, and the formula that computes it. The SPA labels every card,
 * column and line that shows one of these with its `meaning` (components/Definition.tsx); the server
 * and the SPA compute them with the functions below, so a ratio over a range is one formula on every
 * page. README's Glossary says the same in prose.
 *
 * One word per concept: a person is a "person" ("people"), never a "user", in every label below; the
 * service's own field names (`daily_active_users`) stay in CSV headers only.
 */
import { HISTORY_START } from './dates';

export interface Definition {
  /** The label a card, column header or line shows. */
  label: string;
  /** One sentence a manager reads to know what is counted. */
  meaning: string;
}

export const DEFINITIONS = {
  toolCallsPerTurn: {
    label: 'Tool calls per user turn',
    meaning:
      'All tool calls in the range divided by all messages people sent in the range (a ratio of the sums, not an average of days or of people).',
  },
  serviceDailyRatio: {
    label: 'Tool calls per user turn, per day',
    meaning:
      "The service's own figure for each day: each person's tool calls per user turn that day, averaged over the day's people (and its median and 90th percentile); busy and quiet people weigh the same.",
  },
  creditsPerActivePerson: {
    label: 'Credits per active person',
    meaning: 'Standard credits of the range divided by the active people of the range.',
  },
  activePeople: {
    label: 'Active people',
    meaning:
      'Distinct people with at least one day of activity (a day the service reports for them) in the range, among the people shown.',
  },
  knownPeople: {
    label: 'Known people',
    meaning: `Everyone the service has reported a day of activity for since the history starts (${HISTORY_START}), active in the range or not.`,
  },
  members: {
    label: 'Members',
    meaning:
      'The people the team mapping puts in the team or its sub-teams, including people it names who have not used the agent yet.',
  },
  unassigned: {
    label: 'Unassigned',
    meaning: 'Known people the team mapping names in no team.',
  },
  adoption: {
    label: 'Adoption',
    meaning: 'Active people in the range divided by members.',
  },
  dailyActivePeople: {
    label: 'Daily active people',
    meaning: 'Distinct people active on a day; the card shows the average day of the range.',
  },
  weeklyActivePeople: {
    label: 'Weekly active people',
    meaning: 'Distinct people active in the 7 days ending on a day; the card shows the range’s last day.',
  },
  monthlyActivePeople: {
    label: 'Monthly active people',
    meaning: 'Distinct people active in the 30 days ending on a day; the card shows the range’s last day.',
  },
} as const satisfies Record<string, Definition>;

export type DefinitionId = keyof typeof DEFINITIONS;

/** A ratio of two sums over a range; null when there is nothing to divide by. */
export function ratioOfSums(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** Tool calls per user turn over a range (organization, team or person): Σ tool calls ÷ Σ user messages. */
export const toolCallsPerTurn = (toolCalls: number, userMessages: number): number | null =>
  ratioOfSums(toolCalls, userMessages);

/** Credits per active person: Σ credits ÷ active people of the range. */
export const creditsPerActivePerson = (credits: number, activePeople: number): number | null =>
  ratioOfSums(credits, activePeople);

/** Adoption: active people ÷ members. */
export const adoption = (activePeople: number, members: number): number | null => ratioOfSums(activePeople, members);

/**
 * How the teams' members relate to the known people: every known person is in one team or Unassigned, and
 * the mapping may name people the service has not reported yet. So members of the top-level teams plus
 * Unassigned = known people + people named but not yet seen.
 */
export function notYetSeen(membersWithUnassigned: number, knownPeople: number): number {
  return Math.max(0, membersWithUnassigned - knownPeople);
}

/** "1 person", "4 people". */
export const people = (n: number, format: (n: number) => string = String): string =>
  `${format(n)} ${n === 1 ? 'person' : 'people'}`;

/** A column or card headed by a definition's label, carrying its definition. */
export const labelled = (d: Definition) => ({ header: d.label, definition: d });
