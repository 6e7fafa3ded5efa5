/**
 * Privacy mode's `person_view` for the users tables (analytics/users.ts): each person of the copy with the team shown
 * for theirs and the name the reader sees.
 */
import { INTEGER, VARCHAR, type DuckDBValue } from '@duckdb/node-api';
import { UNASSIGNED } from '../../api/teams';
import type { Mapping } from '../teams/mapping';
import type { Analytics } from './engine';
import { membershipOf } from './teams';
import { nameKey, type PersonView } from './users-question';

export function createPersonView(a: Analytics) {
  const membership = membershipOf(a);
  /** What `person_view` was last made for (a `PersonView`'s key, who is in which team, the people of the copy). */
  let viewMade = '';
  /** One making of it at a time: readers asking together wait for one. */
  let viewTurn: Promise<unknown> = Promise.resolve();
  /**
   * Privacy mode's `person_view`: each person of the copy with the team shown for theirs and their name, made in
   * JavaScript (a name is an HMAC, which the engine does not compute) when what it is made of changes.
   */
  return async function personView(v: PersonView, mapping: Mapping | null): Promise<void> {
    if (mapping) await membership.current(mapping);
    const key = `${v.key}|${mapping ? membership.writes() : 'none'}|${a.generation()}`;
    if (key === viewMade) return;
    const next = viewTurn.then(async () => {
      if (key === viewMade) return;
      const rows: DuckDBValue[][] = [];
      // With a mapping, the people it names whom the copy has not seen too (the seats' never used).
      for await (const part of a.rowParts<{ pid: number; user_id: string; email: string | null; team: string | null }>(
        mapping
          ? `SELECT pid, user_id, NULL AS email, coalesce(m.team, $unassigned) AS team FROM person LEFT JOIN member m USING (pid)
             UNION ALL SELECT pid, coalesce(user_id, '') AS user_id, email, team FROM unseen_member JOIN member USING (pid)`
          : 'SELECT pid, user_id, NULL AS email, NULL AS team FROM person',
        mapping ? { unassigned: UNASSIGNED } : {},
      ))
        for (const r of part)
          rows.push([r.pid, r.team === null ? null : v.team(r.team), v.name(nameKey(r.user_id, r.email))]);
      await a.replaceTable(
        'person_view',
        [
          ['pid', INTEGER],
          ['team', VARCHAR],
          ['name', VARCHAR],
        ],
        rows,
      );
      viewMade = key;
    });
    viewTurn = next.catch(() => undefined);
    return next;
  };
}
