/**
 * The users CSV's figures as the engine writes them (src/server/users/routes.ts writes each row's person and team):
 * the same cells as the browser's CSV of the same rows (src/lib/csv.ts, `usersCsvColumns` in src/lib/user-merge.ts),
 * a row's figures one text in JavaScript, not an object of values.
 */
import { csvCell } from '../../lib/csv';
import { CSV_HUNDREDTHS, SUMS, type MergedSums, type UserColumnId } from '../../lib/user-merge';

/**
 * Each figure column of the CSV from a row of the range's table: a number (`number`; to the hundredth as
 * `usersCsvColumns` writes it, CSV_HUNDREDTHS), else a text (days included) for csvCell.
 */
const CSV_CELLS: Record<Exclude<UserColumnId, 'user' | 'team'>, { sql: string; number?: true }> = {
  ...(Object.fromEntries(SUMS.map(([k]) => [k, { sql: `coalesce("${k}", 0)`, number: true }])) as Record<
    keyof MergedSums,
    { sql: string; number: true }
  >),
  spend: { sql: 'spend', number: true },
  activeDays: { sql: 'active_days', number: true },
  firstDay: { sql: 'first_day::VARCHAR' },
  lastDay: { sql: 'last_day::VARCHAR' },
  lastActiveDay: { sql: 'last_active_day::VARCHAR' },
  autonomy: { sql: 'autonomy_ratio', number: true },
  model: { sql: 'model' },
  tier: { sql: 'tier' },
  delegation: { sql: 'level' },
  languages: { sql: "array_to_string(langs, ', ')" },
};

/**
 * A run of numbers of the CSV from their JSON text: DuckDB's JSON writes the shortest digits, as JavaScript does,
 * with `.0` after a whole number. Anything else in it (a sign, an exponent, a null, a non-finite number) is rare:
 * then each is written as csvCell writes it.
 */
export function csvNumbers(json: string): string {
  const s = json.slice(1, -1).replace(/\.0(?=,|$)/g, '');
  return /[^\d.,]/.test(s)
    ? s
        .split(',')
        .map((n) => csvCell(Number(n)))
        .join(',')
    : s;
}

/**
 * The figures of the CSV in `ids`' order, in parts: each text alone, each run of numbers as the JSON text of their
 * list. `write` makes the row's figures' text of its parts: a whole table's values never become objects.
 */
export function csvFigures(ids: readonly UserColumnId[]) {
  const parts: { sql: string[]; number: boolean }[] = [];
  for (const id of ids) {
    const c = CSV_CELLS[id as keyof typeof CSV_CELLS];
    // JavaScript's Math.round and DuckDB's round agree on these, none below zero.
    const sql = CSV_HUNDREDTHS.has(id) ? `round(${c.sql} * 100) / 100` : c.sql;
    const last = parts.at(-1);
    if (c.number && last?.number) last.sql.push(sql);
    else parts.push({ sql: [sql], number: c.number === true });
  }
  return {
    sql: `[${parts.map((p) => (p.number ? `to_json([${p.sql.join(', ')}])::VARCHAR` : p.sql[0])).join(', ')}]`,
    write: (values: (string | null)[]) =>
      values.map((v, i) => (parts[i]!.number ? csvNumbers(v!) : csvCell(v))).join(','),
  };
}
