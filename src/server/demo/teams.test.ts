import { addDays, HISTORY_START } from '../../lib/dates';
import { describe, expect, it } from 'vitest';
import { parseMapping, repoOwner, type Mapping } from '../teams/mapping';
import { UNASSIGNED, depthOf, parentOf, type UserRef } from '../teams/tree';
import { assignUsers, directByTeam, membersOf, rollUp, topLevel } from '../../test/teams-oracle';
import { readDemoConfig } from './config';
import { buildOrg } from './org';
import { buildWorld } from './world';
import { makePersona } from './persona';
import { demoTeams, demoTeamsCsv, type DemoUser } from './teams';

const people = (seed: string, n: number): DemoUser[] =>
  Array.from({ length: n }, (_, i) => makePersona(seed, i, 200)).map(({ id, email }) => ({ id, email }));
const refs = (users: DemoUser[]): UserRef[] => users.map((u) => ({ userId: u.id, email: u.email }));

function parsed(users: DemoUser[], seed: string): Mapping {
  const r = parseMapping(demoTeamsCsv(users, seed), 'csv');
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r.mapping;
}

const leavesOf = (m: Mapping) => m.teams.filter((t) => !m.teams.some((u) => parentOf(u) === t));

describe('the demo organization’s teams', () => {
  const users = people('acme', 150);
  const mapping = parsed(users, 'acme');
  const assignment = assignUsers(mapping, refs(users));

  it('is a CSV file the parser reads without a single error, for any seed and size', () => {
    for (const seed of ['acme', 'globex', 'initech'])
      for (const n of [1, 7, 30, 150, 1000])
        expect(parseMapping(demoTeamsCsv(people(seed, n), seed), 'csv').ok).toBe(true);
    expect(demoTeamsCsv(users, 'acme').split('\r\n')[0]).toBe('email,user_id,team,manager');
  });

  it('has a few departments and teams 3 to 6 levels deep, the deepest at 6', () => {
    const tops = topLevel(mapping.teams);
    expect(tops.length).toBeGreaterThanOrEqual(3);
    expect(tops).toContain('Engineering');
    const depths = leavesOf(mapping).map(depthOf);
    expect(Math.min(...depths)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...depths)).toBe(6);
  });

  it('has leaf teams of 3 to 12 people, and every team above them its manager', () => {
    for (const leaf of leavesOf(mapping)) {
      const size = membersOf(leaf, assignment).length;
      expect(size, leaf).toBeGreaterThanOrEqual(3);
      expect(size, leaf).toBeLessThanOrEqual(12);
    }
    const direct = (t: string) => [...assignment].filter(([, team]) => team === t).map(([id]) => id);
    for (const t of mapping.teams) expect(direct(t).length, t).toBeGreaterThanOrEqual(1);
  });

  it('names a manager for every team: a member of the team or of the team above it', () => {
    const teamOfEmail = new Map(users.filter((u) => u.email).map((u) => [u.email!, assignment.get(u.id)!]));
    let coLeads = 0;
    for (const t of mapping.teams) {
      const managers = [...(mapping.managers.get(t) ?? [])];
      expect(managers.length, t).toBeGreaterThanOrEqual(1);
      if (managers.length > 1) coLeads++;
      for (const m of managers) expect([t, parentOf(t)], `${t}: ${m}`).toContain(teamOfEmail.get(m));
    }
    expect(coLeads).toBeGreaterThan(0); // a few teams list two managers, separated by ";"
  });

  it('leaves 3 to 5% of users (at least 3) Unassigned, and names users without an email by user_id', () => {
    const unassigned = membersOf(UNASSIGNED, assignment).length;
    expect(unassigned).toBeGreaterThanOrEqual(3);
    expect(unassigned / users.length).toBeGreaterThanOrEqual(0.03);
    expect(unassigned / users.length).toBeLessThanOrEqual(0.05);
    const noEmail = users.filter((u) => u.email === null);
    expect(noEmail.length).toBeGreaterThan(0);
    const byId = new Set(mapping.members.map((m) => m.key.userId));
    for (const u of noEmail) if (assignment.get(u.id) !== UNASSIGNED) expect(byId.has(u.id)).toBe(true);
    // every user is in one team or Unassigned
    expect(assignment.size).toBe(users.length);
    expect(mapping.members.length).toBe(users.length - unassigned);
  });

  it('is deterministic by seed, whatever the order of the users', () => {
    const a = demoTeamsCsv(users, 'acme');
    expect(demoTeamsCsv([...users].reverse(), 'acme')).toBe(a);
    expect(demoTeamsCsv(people('acme', 150), 'acme')).toBe(a);
    expect(demoTeamsCsv(users, 'globex')).not.toBe(a);
  });

  it('scales with the organization: about 40 teams at 150 users, about 300 at 5,000', () => {
    expect(mapping.teams.length).toBeGreaterThanOrEqual(30);
    expect(mapping.teams.length).toBeLessThanOrEqual(50);
    const big = people('acme', 5000);
    const m = parsed(big, 'acme');
    expect(m.teams.length).toBeGreaterThanOrEqual(270);
    expect(m.teams.length).toBeLessThanOrEqual(330);
    const depths = leavesOf(m).map(depthOf);
    expect(Math.min(...depths)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...depths)).toBe(6);
    const unassigned = membersOf(UNASSIGNED, assignUsers(m, refs(big))).length;
    expect(unassigned / big.length).toBeCloseTo(0.04, 2);
  });

  it('agrees with demoTeams, the structure the file is written from', () => {
    const d = demoTeams(users, 'acme');
    expect(d.teams.map((t) => t.path).sort()).toEqual([...mapping.teams].sort());
    expect(d.outside.map((u) => u.id).sort()).toEqual(membersOf(UNASSIGNED, assignment).sort());
  });

  it('writes a header only for an organization without users (which the parser refuses)', () => {
    expect(demoTeamsCsv([], 'acme')).toBe('email,user_id,team,manager\r\n');
  });
});

describe('the demo organization’s numbers reconcile by team', () => {
  it('top-level teams plus Unassigned equal the organization, day by day and over the range', () => {
    const org = buildOrg({ seed: 'acme', users: 150, today: '2026-03-01' });
    const users = org.users.map(({ id, email }) => ({ id, email }));
    const assignment = assignUsers(parsed(users, 'acme'), refs(users));
    type F = { credits: number; toolCalls: number; sessions: number; commits: number; active: ReadonlySet<string> };
    const zero: F = { credits: 0, toolCalls: 0, sessions: 0, commits: 0, active: new Set() };
    const add = (a: F, b: F): F => ({
      credits: a.credits + b.credits,
      toolCalls: a.toolCalls + b.toolCalls,
      sessions: a.sessions + b.sessions,
      commits: a.commits + b.commits,
      active: new Set([...a.active, ...b.active]),
    });
    const tops = [...topLevel([...assignment.values()].filter((t) => t !== UNASSIGNED)), UNASSIGNED];
    expect(tops.length).toBeGreaterThan(3);
    const whole: [string, F][] = [];
    org.days.forEach((_, d) => {
      const perUser: [string, F][] = [];
      org.users.forEach((p, u) => {
        const f = org.userDay(u, d);
        if (f)
          perUser.push([
            p.id,
            {
              credits: f.billable,
              toolCalls: f.toolCalls,
              sessions: f.sessions,
              commits: f.commits,
              active: new Set([p.id]),
            },
          ]);
      });
      whole.push(...perUser);
      const rolled = rollUp(directByTeam(assignment, perUser, add, zero), add, zero);
      const total = tops.map((t) => rolled.get(t) ?? zero).reduce(add, zero);
      const agg = org.aggs[d]!;
      expect([total.credits, total.toolCalls, total.sessions, total.commits, total.active.size]).toEqual([
        agg.billable,
        agg.toolCalls,
        agg.sessions,
        agg.commits,
        agg.active,
      ]);
    });
    // Over the whole range, distinct active users roll up as a union.
    const rolled = rollUp(directByTeam(assignment, whole, add, zero), add, zero);
    const everActive = org.activeCount.filter((c) => c[c.length - 1]! > 0).length;
    const parts = tops.map((t) => rolled.get(t)?.active.size ?? 0);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(everActive);
  });
});

describe('the demo organization’s repositories in its mapping', () => {
  it('gives teams the repositories its readiness reports name, some by a pattern, a few to nobody', () => {
    const world = buildWorld(readDemoConfig({}), '2026-06-01');
    const { repos } = world.readiness;
    const text = demoTeamsCsv(world.org.users, 'acme', repos);
    expect(text.split('\r\n')[0]).toBe('email,user_id,team,manager,since,repos');
    const parsed = parseMapping(text, 'csv');
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
    // Each person's start is the day they joined the simulated organization: the history's first day, or later.
    const joined = new Map(world.org.users.map((u) => [u.id, addDays(HISTORY_START, u.join)]));
    const named = parsed.mapping.members.filter((m) => m.key.userId !== undefined);
    expect(named.length).toBeGreaterThan(0);
    for (const m of named) expect(m.since, m.key.userId).toBe(joined.get(m.key.userId!));
    expect(parsed.mapping.members.some((m) => m.since !== undefined && m.since > HISTORY_START)).toBe(true);
    const owner = repoOwner(parsed.mapping);
    const owners = repos.map((r) => owner(r.url));
    const leaves = new Set(
      parsed.mapping.teams.filter((t) => !parsed.mapping.teams.some((o) => o.startsWith(`${t}/`))),
    );
    for (const o of owners) if (o !== null) expect(leaves.has(o), o).toBe(true);
    expect(owners.filter((o) => o === null).length).toBeGreaterThan(0);
    expect(owners.filter((o) => o !== null).length).toBeGreaterThan(repos.length / 2);
    // Every spelling the reports use finds the same team.
    for (const r of repos) expect(owner(`git@github.com:${r.slug}.git`)).toBe(owner(r.url));
    expect(parsed.mapping.repos.some((c) => c.pattern.endsWith('-*'))).toBe(true);
  });
});
