import type { ProductivityDay } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { fillDays, rankTotals, sumBy, totalsByName } from '../../lib/series';

export function productivityTotals(days: readonly ProductivityDay[]) {
  return {
    created: sumBy(days, (d) => d.files_created),
    edited: sumBy(days, (d) => d.files_edited),
    commits: sumBy(days, (d) => d.git_commits),
    prs: sumBy(days, (d) => d.git_prs_created),
  };
}

export function productivityPoints(range: DayRange, days: readonly ProductivityDay[]) {
  return fillDays(
    range,
    days,
    (d) => ({ created: d.files_created, edited: d.files_edited, commits: d.git_commits, prs: d.git_prs_created }),
    { created: 0, edited: 0, commits: 0, prs: 0 },
  );
}

export const byLanguage = (days: readonly ProductivityDay[]) =>
  rankTotals(totalsByName(days, (d) => d.by_language.map((x) => ({ name: x.language, value: x.count }))));
export const byExtension = (days: readonly ProductivityDay[]) =>
  rankTotals(totalsByName(days, (d) => d.by_extension.map((x) => ({ name: x.extension, value: x.count }))));
