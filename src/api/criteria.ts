/**
 * The known readiness criteria (a copy of shared/spec/readiness-criteria.json,
 * kept in the repository so a clone builds on its own; a unit test checks the
 * copy against the shared file when it is present).
 */
import file from './readiness-criteria.json';

export interface KnownCriterion {
  id: string;
  name: string;
  pillar: string;
  level: number;
  scope: 'repo' | 'app';
  skippable: boolean;
}

export const KNOWN_CRITERIA = file.criteria as KnownCriterion[];
export const LEVEL_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  file.levels.map((l) => [l.level, l.name]),
);
export const CRITERIA_BY_ID: ReadonlyMap<string, KnownCriterion> = new Map(KNOWN_CRITERIA.map((c) => [c.id, c]));

/**
 * What the pages call a criterion: its name in the known list, or, for one outside it, its id made readable
 * ("agents_md_freshness" → "Agents md freshness"; the scorecard gives the id itself beside it).
 */
export function criterionName(id: string): string {
  const known = CRITERIA_BY_ID.get(id)?.name;
  if (known) return known;
  const words = id.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : id;
}
