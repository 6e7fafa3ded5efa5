/** The store's record of each member's team over time (table `member_team`, 0016): the mapping keeps no history. */
import type { Kysely } from 'kysely';
import type { Day } from '../../lib/dates';
import type { Schema } from './schema';

/** A member (by key) from a day on: in `team`; '' named no more; null named before teams were recorded. */
export interface MemberTeamRow {
  member: string;
  from: Day;
  team: string | null;
}

/** Where the members' teams over time are kept: the store, or (without one, in tests and the bench) memory. */
export interface MembershipKeeper {
  /**
   * Records the teams the mapping in force gives its members (key → team) as of `day`: a row for each member whose
   * team is not the one last recorded, and one of '' for each member last recorded in a team whom it names no more.
   */
  record(teams: ReadonlyMap<string, string>, day: Day): Promise<void>;
  /** Every row, by member then day. */
  rows(): Promise<MemberTeamRow[]>;
}

/** What recording `teams` writes, given each member's last recorded team. */
export function changes(
  last: ReadonlyMap<string, string | null>,
  teams: ReadonlyMap<string, string>,
): [member: string, team: string][] {
  const out: [string, string][] = [];
  for (const [member, team] of teams) if (last.get(member) !== team) out.push([member, team]);
  for (const [member, team] of last) if (team !== '' && !teams.has(member)) out.push([member, '']);
  return out;
}

/** Each member's last recorded team, of rows by member then day. */
const lastTeams = (rows: readonly MemberTeamRow[]) => new Map(rows.map((r) => [r.member, r.team]));

/** Rows written in one statement at most (PostgreSQL takes 65,535 parameters, SQLite 32,766). */
const CHUNK = 5000;

export function storedMembership(db: Kysely<Schema>): MembershipKeeper {
  const rows = async (): Promise<MemberTeamRow[]> =>
    (await db.selectFrom('member_team').selectAll().orderBy('member').orderBy('from_day').execute()).map((r) => ({
      member: r.member,
      from: r.from_day,
      team: r.team,
    }));
  /** One recording at a time: two at once would both read the rows before either wrote. */
  let turn: Promise<unknown> = Promise.resolve();
  return {
    rows,
    record(teams, day) {
      const next = turn.then(async () => {
        const write = changes(lastTeams(await rows()), teams);
        for (let i = 0; i < write.length; i += CHUNK)
          await db
            .insertInto('member_team')
            .values(write.slice(i, i + CHUNK).map(([member, team]) => ({ member, from_day: day, team })))
            // Recorded again the same day: the later mapping is the day's.
            .onConflict((oc) =>
              oc.columns(['member', 'from_day']).doUpdateSet((eb) => ({ team: eb.ref('excluded.team') })),
            )
            .execute();
      });
      turn = next.catch(() => undefined);
      return next;
    },
  };
}

/** The rows kept in memory, for a runner without a store. */
export function memoryMembership(): MembershipKeeper {
  const kept = new Map<string, MemberTeamRow>();
  const rows = async () =>
    [...kept.values()].sort((x, y) =>
      x.member === y.member ? (x.from < y.from ? -1 : 1) : x.member < y.member ? -1 : 1,
    );
  return {
    rows,
    async record(teams, day) {
      for (const [member, team] of changes(lastTeams(await rows()), teams))
        kept.set(`${member}\n${day}`, { member, from: day, team });
    },
  };
}
