/**
 * The numbers reconcile, for any mapping: the top-level teams plus Unassigned add up to the
 * organization for every sliceable figure (sums, and distinct users through a set union), and each
 * team's roll-up is its own figure plus its sub-teams' roll-ups. Mappings are written as CSV or
 * JSON files and go through the parser, as a real one does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/csv';
import { parseMapping } from './mapping';
import { UNASSIGNED, parentOf } from './tree';
import { assignUsers, directByTeam, membersOf, rollUp, topLevel } from '../../test/teams-oracle';

interface Figures {
  credits: number;
  toolCalls: number;
  sessions: number;
  /** Distinct users active in the range: rolls up as a union, never a sum. */
  active: ReadonlySet<string>;
}

const ZERO: Figures = { credits: 0, toolCalls: 0, sessions: 0, active: new Set() };
const add = (a: Figures, b: Figures): Figures => ({
  credits: a.credits + b.credits,
  toolCalls: a.toolCalls + b.toolCalls,
  sessions: a.sessions + b.sessions,
  active: a.active.size === 0 ? b.active : b.active.size === 0 ? a.active : new Set([...a.active, ...b.active]),
});

/** Team paths up to four levels, from a small alphabet so that trees share ancestors. */
const teamPath = fc
  .array(fc.constantFrom('Eng', 'Data', 'Ops', 'Infra', 'ML', 'Web'), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('/'));

const user = fc.record({
  hasEmail: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  /** -1: not in the mapping; otherwise an index into the teams. */
  team: fc.integer({ min: -1, max: 30 }),
  /** How the file names the user: 0 email, 1 user_id, 2 both (by user_id when there is no email). */
  keyBy: fc.integer({ min: 0, max: 2 }),
  shout: fc.boolean(),
  credits: fc.double({ min: 0, max: 1e4, noNaN: true }),
  toolCalls: fc.nat(5000),
  sessions: fc.nat(50),
  active: fc.boolean(),
});

const scenario = fc.record({
  teams: fc.uniqueArray(teamPath, { minLength: 1, maxLength: 12 }),
  users: fc.array(user, { minLength: 1, maxLength: 60 }),
  format: fc.constantFrom('csv' as const, 'json' as const),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario) {
  const users = s.users.map((u, i) => ({ ...u, userId: `usr_${i}`, email: u.hasEmail ? `user${i}@acme.com` : null }));
  const rows: { email?: string; user_id?: string; team: string }[] = [];
  for (const u of users) {
    if (u.team < 0) continue;
    const team = s.teams[u.team % s.teams.length]!;
    const email = u.email && u.keyBy !== 1 ? (u.shout ? u.email.toUpperCase() : u.email) : undefined;
    const userId = !email || u.keyBy !== 0 ? u.userId : undefined;
    rows.push({ ...(email ? { email } : {}), ...(userId ? { user_id: userId } : {}), team });
  }
  // Someone the service does not know (a colleague who never used the agent) keeps every file non-empty.
  rows.push({ email: 'not.a.user@acme.com', team: s.teams[0]! });
  const text =
    s.format === 'csv'
      ? toCsv(
          ['email', 'user_id', 'team'],
          rows.map((r) => [r.email, r.user_id, r.team]),
        )
      : JSON.stringify(rows, null, 1);
  const parsed = parseMapping(text, s.format);
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
  const assignment = assignUsers(parsed.mapping, users);
  const perUser = users.map(
    (u) =>
      [
        u.userId,
        {
          credits: u.credits,
          toolCalls: u.toolCalls,
          sessions: u.sessions,
          active: u.active ? new Set([u.userId]) : new Set<string>(),
        },
      ] as const,
  );
  const org = perUser.reduce((acc, [, f]) => add(acc, f), ZERO);
  const direct = directByTeam(assignment, perUser, add, ZERO);
  return { users, mapping: parsed.mapping, assignment, direct, rolled: rollUp(direct, add, ZERO), org };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('teams reconcile with the organization (property-based)', () => {
  it('top-level teams plus Unassigned add up to the organization, for every figure', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { users, mapping, rolled, org, assignment } = build(s);
        const parts = [...topLevel(mapping.teams), UNASSIGNED].map((t) => rolled.get(t) ?? ZERO);
        const total = parts.reduce(add, ZERO);
        expect(total.toolCalls).toBe(org.toolCalls);
        expect(total.sessions).toBe(org.sessions);
        expect(close(total.credits, org.credits)).toBe(true);
        // Distinct users: the union over the parts is the organization's count…
        expect(total.active.size).toBe(org.active.size);
        // …and the parts never overlap, since a user is in one team.
        expect(parts.reduce((n, p) => n + p.active.size, 0)).toBe(org.active.size);
        // Every user is somewhere: a top-level team or Unassigned, never dropped.
        const counted = [...topLevel(mapping.teams), UNASSIGNED].map((t) => membersOf(t, assignment).length);
        expect(counted.reduce((a, b) => a + b, 0)).toBe(users.length);
      }),
      { numRuns: 300 },
    );
  });

  it("each team's roll-up is its own figure plus its sub-teams' roll-ups", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { direct, rolled } = build(s);
        const children = new Map<string, string[]>();
        for (const t of rolled.keys()) {
          const p = parentOf(t);
          if (p !== null) children.set(p, [...(children.get(p) ?? []), t]);
        }
        for (const [team, value] of rolled) {
          const expected = (children.get(team) ?? []).map((c) => rolled.get(c)!).reduce(add, direct.get(team) ?? ZERO);
          expect(value.toolCalls).toBe(expected.toolCalls);
          expect(value.sessions).toBe(expected.sessions);
          expect(close(value.credits, expected.credits)).toBe(true);
          expect([...value.active].sort()).toEqual([...expected.active].sort());
          // and a parent is never less than any of its sub-teams
          for (const c of children.get(team) ?? [])
            expect(value.toolCalls).toBeGreaterThanOrEqual(rolled.get(c)!.toolCalls);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a team holds the users of its sub-teams: the roll-up of distinct users is its members who were active', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { users, mapping, assignment, rolled } = build(s);
        const activeIds = new Set(users.filter((u) => u.active).map((u) => u.userId));
        for (const team of [...mapping.teams, UNASSIGNED]) {
          const expected = membersOf(team, assignment).filter((id) => activeIds.has(id));
          expect([...(rolled.get(team)?.active ?? [])].sort()).toEqual(expected.sort());
        }
      }),
      { numRuns: 200 },
    );
  });
});
