/**
 * Who was in which team when, as the analytics engine's tables. The mapping keeps no history, so the store records it
 * (store/membership-queries.ts): each time the mapping in force gives a member another team, from that day. Made from
 * that record, by the number the copy gives each person:
 * - `person_access (pid, since, named)`: each member of the mapping in force with its `since` and the first day the
 *   mapping named them (the funnel's access day, lib/funnel.ts);
 * - `member_history (pid, from_day, team)`: each person's team from a day on, the first known reaching back to the
 *   start of the history (before the dashboard was first told the mapping, the team it first gave is the best known).
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { INTEGER, VARCHAR } from '@duckdb/node-api';
import { addDays, HISTORY_START, type Day } from '../../lib/dates';
import { canonicalEmail } from '../core/text';
import { memoryMembership, type MemberTeamRow, type MembershipKeeper } from '../store/membership-queries';
import type { Mapping, MemberKey } from '../teams/mapping';
import { UNASSIGNED } from '../teams/tree';
import type { Analytics } from './engine';
import { membershipOf } from './teams';

export interface MemberHistoryOptions {
  /** Where the members' teams over time are kept (memory by default). */
  keeper?: MembershipKeeper;
  /** The latest day of the history: a mapping recorded takes effect the day after (the clock's yesterday by default). */
  latestDay?: () => Day;
}

/** A member of the mapping as the store records it: its email, else its user id. */
/** How many people are placed between two lets-go of the event loop. */
const LET_GO_EVERY = 2_000;

export const memberKey = (k: MemberKey): string => k.email ?? `id:${k.userId}`;

export type MemberHistory = ReturnType<typeof createMemberHistory>;

export function createMemberHistory(a: Analytics, opts: MemberHistoryOptions = {}) {
  const membership = membershipOf(a);
  const keeper = opts.keeper ?? memoryMembership();
  const today = () => addDays(opts.latestDay?.() ?? addDays(new Date().toISOString().slice(0, 10), -1), 1);
  let recorded: { mapping: Mapping; day: Day; done: Promise<void> } | undefined;
  let made: { writes: number; mapping: Mapping | null; recorded: unknown; done: Promise<void> } | undefined;

  /** Records the teams the mapping gives its members as of today, once per mapping and day (none: nothing to record). */
  function record(mapping: Mapping | null): Promise<void> {
    if (!mapping) return Promise.resolve();
    const day = today();
    if (recorded?.mapping === mapping && recorded.day === day) return recorded.done;
    const done = keeper.record(new Map(mapping.members.map((m) => [memberKey(m.key), m.team])), day);
    recorded = { mapping, day, done };
    done.catch(() => {
      if (recorded?.done === done) recorded = undefined;
    });
    return done;
  }

  /** `person_access` and `member_history` for the mapping (recorded first), made again when `member` is. */
  async function tables(mapping: Mapping | null): Promise<void> {
    await membership.current(mapping);
    await record(mapping);
    const writes = membership.writes();
    if (made?.writes === writes && made.mapping === mapping && made.recorded === recorded) return made.done;
    const done = make(mapping);
    made = { writes, mapping, recorded, done };
    done.catch(() => {
      if (made?.done === done) made = undefined;
    });
    return done;
  }

  async function make(mapping: Mapping | null): Promise<void> {
    const rows = mapping ? await keeper.rows() : [];
    const pids = new Map(
      (await a.rows<{ pid: number; user_id: string }>('SELECT pid, user_id FROM person')).map((r) => [
        r.user_id,
        r.pid,
      ]),
    );
    const unseen = await a.rows<{ pid: number; user_id: string | null; email: string | null }>(
      'SELECT pid, user_id, email FROM unseen_member',
    );
    const members = mapping?.members ?? [];
    const byId = new Map(members.flatMap((m) => (m.key.userId === undefined ? [] : [[m.key.userId, m]])));
    const byEmail = new Map(members.flatMap((m) => (m.key.email === undefined ? [] : [[m.key.email, m]])));
    const first = new Map<string, Day>();
    for (const r of rows) if (!first.has(r.member)) first.set(r.member, r.from);
    const access: [number, string | null, string | null][] = [];
    // Each person's keys: the member of the mapping in force `member` placed them as (by id, else by email), and
    // their id and latest email as any other mapping may have named them.
    const keysOf = new Map<number, string[]>();
    const add = (pid: number | undefined, userId: string | null, email: string | null) => {
      if (pid === undefined) return;
      const e = email ? canonicalEmail(email) : null;
      const m = (userId !== null ? byId.get(userId) : undefined) ?? (e ? byEmail.get(e) : undefined);
      if (m) access.push([pid, m.since ?? null, first.get(memberKey(m.key)) ?? null]);
      keysOf.set(pid, [
        ...new Set([...(m ? [memberKey(m.key)] : []), ...(userId !== null ? [`id:${userId}`] : []), ...(e ? [e] : [])]),
      ]);
    };
    // The event loop let go every few thousand people: at 50,000 they held the probes and readers for about 1 s.
    let n = 0;
    for (const p of membership.people()) {
      add(pids.get(p.userId), p.userId, p.email);
      if (++n % LET_GO_EVERY === 0) await letGo();
    }
    for (const u of unseen) {
      add(u.pid, u.user_id, u.email);
      if (++n % LET_GO_EVERY === 0) await letGo();
    }
    await a.replaceTable(
      'person_access',
      [
        ['pid', INTEGER],
        ['since', VARCHAR],
        ['named', VARCHAR],
      ],
      access,
    );
    await a.replaceTable(
      'member_history',
      [
        ['pid', INTEGER],
        ['from_day', VARCHAR],
        ['team', VARCHAR],
      ],
      personHistory(rows, keysOf),
    );
  }

  return { record, tables };
}

/**
 * Each person's team from each day it changed, of the rows recorded by member key (by key, then day): a member's
 * unrecorded team (null) is the next one recorded; two keys of one person (a mapping naming them by email, a later
 * one by id) give the team either gives, the later set first; none is Unassigned. The first reaches back to the start.
 */
export function personHistory(
  rows: readonly MemberTeamRow[],
  keysOf: ReadonlyMap<number, readonly string[]>,
): [number, Day, string][] {
  const byKey = new Map<string, MemberTeamRow[]>();
  for (const r of rows) {
    const kr = byKey.get(r.member);
    if (kr) kr.push(r);
    else byKey.set(r.member, [r]);
  }
  const out: [number, Day, string][] = [];
  for (const [pid, keys] of keysOf) {
    const list: { day: Day; key: string; team: string }[] = [];
    for (const key of keys) {
      const kr = byKey.get(key) ?? [];
      kr.forEach((r, i) => {
        const team = r.team ?? kr.slice(i + 1).find((x) => x.team !== null)?.team ?? null;
        if (team !== null) list.push({ day: r.from, key, team });
      });
    }
    list.sort((x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : 0));
    const now = new Map<string, string>();
    let shown: string | undefined;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      now.delete(e.key);
      now.set(e.key, e.team);
      if (list[i + 1]?.day === e.day) continue;
      const team = [...now.values()].reverse().find((t) => t !== '') ?? UNASSIGNED;
      if (team === shown) continue;
      out.push([pid, shown === undefined ? HISTORY_START : e.day, team]);
      shown = team;
    }
  }
  return out;
}
