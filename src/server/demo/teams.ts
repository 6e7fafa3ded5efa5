/**
 * The simulated organization's team mapping, written as the CSV file an organization would give the
 * dashboard (so the demo's teams go through the very parser a real file does): a few departments,
 * teams 3 to 6 levels deep, a manager for every team, and a few users left out of it (Unassigned).
 *
 * Every team above the leaves has one direct member, its manager; the other users sit in leaf
 * teams. A leaf's manager is one of its members or the manager of the team above it. Users without
 * an email are named by user_id; a few users with one are named by both.
 */
import { toCsv } from '../../lib/csv';
import { addDays, HISTORY_START } from '../../lib/dates';
import { hashSeed, rng, splitInteger, type Rng } from './rng';

export interface DemoUser {
  id: string;
  email: string | null;
  /** The day (an index from the history's start) the person joined, given as the mapping's `since`. */
  join?: number;
}

/** Share of users the mapping leaves out (at least 3 once there are 30 users). */
const OUTSIDE_SHARE = 0.04;
const MIN_DEPTH = 3;
const MAX_DEPTH = 6;
/** A single sub-team under a team, now and then ("Infrastructure" holding only "Storage"). */
const CHAIN_P = 0.05;
const COLUMNS = ['email', 'user_id', 'team', 'manager'];

/**
 * Mean people per leaf team: 7.5 in a demo-sized organization (leaves of 3 to 12), growing slowly
 * with its size, so 5,000 users make about 300 teams, as in the benchmark's scenario.
 */
export const meanLeafSize = (users: number): number => 7.5 * Math.max(1, users / 150) ** LEAF_GROWTH;
const LEAF_GROWTH = 0.33;

/**
 * Departments: their share of the leaf teams, the names of their groups (second level) and of the
 * teams further down.
 */
const DEPARTMENTS: readonly (readonly [name: string, weight: number, groups: string, teams: string])[] = [
  [
    'Engineering',
    40,
    'Platform, Product Engineering, Infrastructure, Developer Experience, Mobile, Core Services, AI, Payments, Web, Enterprise',
    'Storage, Compute, Networking, Observability, Build, Release, Databases, Caching, Messaging, Edge, Kubernetes, ' +
      'Reliability, API, SDK, Android, iOS, Desktop, Frontend, Accessibility, Localization, Notifications, Checkout, ' +
      'Integrations, Performance, Runtime, Compilers, Editor, Agents, Sandbox, Replication, Backups, Queues, ' +
      'Scheduling, Fleet, Auth, Permissions, Indexing, Ranking, Search, Identity, Billing, CI, Test Infrastructure, ' +
      'Deploys, Capacity',
  ],
  [
    'Product',
    12,
    'Core Product, Growth, Enterprise, Platform Product, Mobile',
    'Self-Serve, Pricing, Onboarding, Collaboration, Insights, Admin, Integrations, Discovery, Activation, ' +
      'Retention, Billing, Search, Workflows, Reporting',
  ],
  [
    'Data',
    12,
    'Analytics, Data Platform, Machine Learning, Data Science',
    'Warehouse, Pipelines, Ingestion, Experimentation, Forecasting, Data Quality, Reporting, Modeling, ' +
      'Evaluation, Training, Inference, Features, Streaming, Governance, Catalog',
  ],
  [
    'Sales',
    9,
    'EMEA, Americas, APAC, Sales Engineering',
    'Enterprise, Mid-Market, Small Business, Solutions, Partnerships, Renewals, Channel, Public Sector, ' +
      'Strategic Accounts, North, South, Central, Inside Sales',
  ],
  [
    'Operations',
    8,
    'IT, Support, Business Operations',
    'Help Desk, Endpoints, Tier 1, Tier 2, Escalations, Knowledge Base, Procurement, Workplace, Logistics, ' +
      'Business Systems, Automation, Vendor Management',
  ],
  [
    'Security',
    5,
    'Product Security, Security Operations, Governance, Risk and Compliance',
    'Application Security, Infrastructure Security, Detection, Response, Privacy, Red Team, Vulnerabilities, ' +
      'Audit, Identity, Trust',
  ],
  [
    'Marketing',
    5,
    'Brand, Growth Marketing, Product Marketing',
    'Content, Lifecycle, Events, Demand Generation, Communications, Community, Developer Relations, Social, Web',
  ],
  [
    'Design',
    4,
    'Product Design, Research',
    'Design Systems, Content Design, Motion, Illustration, Prototyping, Usability, Insights',
  ],
  ['Finance', 3, 'Accounting, Planning', 'Tax, Treasury, Payroll, Revenue, Audit, Billing Operations, Procurement'],
  ['People', 3, 'Talent, People Operations', 'Recruiting, Learning, Total Rewards, Benefits, HR Systems, Onboarding'],
];

const list = (s: string) => s.split(',').map((x) => x.trim());

interface Team {
  path: string;
  depth: number;
  children: Team[];
  /** Users of the team itself (not of its sub-teams). */
  members: DemoUser[];
  managers: string[];
}

export interface DemoTeams {
  /** Every team, in tree order (a team before its sub-teams). */
  teams: { path: string; depth: number; leaf: boolean; members: DemoUser[]; managers: string[] }[];
  /** Users the mapping leaves out: Unassigned on every page. */
  outside: DemoUser[];
}

/** The demo organization's teams, deterministic by seed (and independent of the users' order). */
export function demoTeams(users: readonly DemoUser[], seed: string): DemoTeams {
  const r = rng(hashSeed(seed, 'teams'));
  const pool = shuffle(
    r,
    [...users].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  );
  const n = pool.length;
  const outsideCount = Math.max(Math.round(n * OUTSIDE_SHARE), Math.min(3, Math.floor(n / 10)));
  const outside = pool.splice(0, outsideCount);
  if (pool.length === 0) return { teams: [], outside };

  const leaves = Math.max(1, Math.round(pool.length / meanLeafSize(pool.length)));
  const deptCount = Math.min(DEPARTMENTS.length, leaves, 3 + Math.floor(Math.log2(Math.max(1, n / 40))));
  const depts = DEPARTMENTS.slice(0, deptCount);
  const perDept = splitInteger(
    leaves - deptCount,
    depts.map((d) => d[1]),
  ).map((k) => k + 1);

  const roots = depts.map(([name, , groups, teams], i) =>
    grow(r, name, 1, perDept[i]!, { groups: list(groups), teams: list(teams) }, [name], i === 0),
  );
  const all: Team[] = [];
  const walk = (t: Team) => {
    all.push(t);
    t.children.forEach(walk);
  };
  roots.forEach(walk);

  // Managers first: one direct member, with an email, for every team above the leaves.
  const leafTeams = all.filter((t) => t.children.length === 0);
  for (const t of all) {
    if (t.children.length === 0) continue;
    const i = pool.findIndex((u) => u.email !== null);
    if (i < 0) break;
    const [manager] = pool.splice(i, 1);
    t.members.push(manager!);
    t.managers.push(manager!.email!);
  }
  // Everyone else in the leaves, sizes from 0.4 to 1.6 times the mean.
  const sizes = splitInteger(
    pool.length,
    leafTeams.map(() => 0.4 + 1.2 * r()),
  );
  let next = 0;
  leafTeams.forEach((t, i) => {
    t.members.push(...pool.slice(next, next + sizes[i]!));
    next += sizes[i]!;
  });
  // A leaf's manager: one of its own (and now and then a co-lead), or the manager of the team above.
  const parents = new Map<string, Team>();
  for (const t of all) for (const c of t.children) parents.set(c.path, t);
  for (const t of leafTeams) {
    const withEmail = t.members.filter((u) => u.email !== null);
    const above = parents.get(t.path)?.managers[0];
    if (withEmail.length > 0 && (r() < 0.75 || above === undefined)) {
      const k = Math.floor(r() * withEmail.length);
      t.managers.push(withEmail[k]!.email!);
      if (withEmail.length > 2 && r() < 0.1) t.managers.push(withEmail[(k + 1) % withEmail.length]!.email!);
    } else if (above !== undefined) t.managers.push(above);
  }
  return {
    teams: all.map((t) => ({
      path: t.path,
      depth: t.depth,
      leaf: t.children.length === 0,
      members: t.members,
      managers: t.managers,
    })),
    outside,
  };
}

/**
 * The demo organization's mapping as the CSV file of the documented format (header
 * `email,user_id,team,manager`, one row per user, sorted by team), deterministic by seed.
 */
export function demoTeamsCsv(
  users: readonly DemoUser[],
  seed: string,
  repos: readonly { slug: string }[] = [],
): string {
  const { teams } = demoTeams(users, seed);
  const r = rng(hashSeed(seed, 'teams-csv'));
  const owned = repos.length > 0 ? ownership(teams, repos, seed) : new Map<string, string[]>();
  // Each person's start, as an organization's HR data would give it: the day they were given the agent, so that the
  // people who never used it long after are listed (those named only now are new starters in grace).
  const since = users.some((u) => u.join !== undefined);
  const columns = [...COLUMNS, ...(since ? ['since'] : []), ...(repos.length > 0 ? ['repos'] : [])];
  const sinceOf = (u: DemoUser) => (since ? [u.join === undefined ? '' : addDays(HISTORY_START, u.join)] : []);
  const rows: string[][] = [];
  for (const t of teams) {
    const members = [...t.members].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const theirs = owned.get(t.path)?.join(';') ?? '';
    const extra = repos.length > 0 ? [theirs] : [];
    // A team without members of its own (possible in a tiny organization) still names its managers and repositories.
    if (members.length === 0 && (t.managers.length > 0 || theirs))
      rows.push(['', '', t.path, t.managers.join(';'), ...(since ? [''] : []), ...extra]);
    members.forEach((u, i) => {
      const byBoth = u.email !== null && r() < 0.1;
      // The team's repositories are listed once, on its first row.
      const listed = repos.length > 0 ? [i === 0 ? theirs : ''] : [];
      rows.push([
        u.email ?? '',
        u.email === null || byBoth ? u.id : '',
        t.path,
        t.managers.join(';'),
        ...sinceOf(u),
        ...listed,
      ]);
    });
  }
  return toCsv(columns, rows);
}

/** Share of the repositories no team claims (listed as Unowned). */
const UNOWNED_SHARE = 0.15;

/**
 * Which leaf team owns which repository, written as an organization would: each claimed repository in
 * one of the spellings the reports use, a few left to nobody, and the first leaf owning a pattern (every
 * repository named like the first one's first word) under which the exact claims of other teams win.
 */
function ownership(
  teams: readonly { path: string; leaf: boolean }[],
  repos: readonly { slug: string }[],
  seed: string,
): Map<string, string[]> {
  const r = rng(hashSeed(seed, 'teams-repos'));
  const leaves = teams.filter((t) => t.leaf);
  const out = new Map<string, string[]>();
  const claim = (team: string, repo: string) => out.set(team, [...(out.get(team) ?? []), repo]);
  if (leaves.length === 0) return out;
  const word = repos[0]!.slug.split('/')[1]!.split('-')[0]!;
  claim(leaves[0]!.path, `github.com/acme/${word}-*`);
  for (const { slug } of repos) {
    if (r() < UNOWNED_SHARE) continue;
    const team = leaves[Math.floor(r() * leaves.length)]!.path;
    const spellings = [
      `github.com/${slug}`,
      `https://github.com/${slug}.git`,
      `git@github.com:${slug}.git`,
      `https://GitHub.com/${slug}`,
    ];
    claim(team, spellings[Math.floor(r() * spellings.length)]!);
  }
  return out;
}

const key = (u: DemoUser) => u.email ?? u.id;

interface Names {
  groups: readonly string[];
  teams: readonly string[];
}

/**
 * A team holding `leaves` leaf teams somewhere below it (or being the one leaf itself). Leaves sit
 * 3 to 6 levels down; the `deep` branch (the first department's biggest) keeps enough leaves to
 * split at every level down to the sixth.
 */
function grow(r: Rng, path: string, depth: number, leaves: number, names: Names, used: string[], deep: boolean): Team {
  const team: Team = { path, depth, children: [], members: [], managers: [] };
  if (depth >= MAX_DEPTH) return team;
  let parts: number[];
  if (leaves === 1) {
    if (depth >= MIN_DEPTH && !deep && r() >= CHAIN_P) return team;
    parts = [1]; // a group holding one team
  } else if (depth === MAX_DEPTH - 1) parts = Array.from({ length: leaves }, () => 1);
  else if (deep) {
    const keep = Math.min(leaves - 1, Math.max(MAX_DEPTH - depth, Math.ceil(leaves / 2)));
    parts = [keep, ...spread(r, leaves - keep, 1 + Math.floor(r() * 3))];
  } else if (depth === 1) {
    // A department: a few groups, more in a big one.
    parts = spread(r, leaves, Math.min(8, 2 + Math.floor(r() * 2) + Math.floor(leaves / 6)));
  } else if (leaves <= 8 && r() < 0.8) {
    parts = spread(r, leaves, leaves); // mostly, a small group's sub-teams are its leaves
  } else parts = spread(r, leaves, 3 + Math.floor(r() * (leaves > 12 ? 6 : 4)));
  const childNames = pick(r, depth === 1 ? names.groups : names.teams, parts.length, used);
  team.children = parts.map((k, i) => {
    const name = childNames[i]!;
    return grow(r, `${path}/${name}`, depth + 1, k, names, [...used, name], deep && i === 0);
  });
  return team;
}

/** `total` split into at most `count` parts of at least 1, unevenly. */
function spread(r: Rng, total: number, count: number): number[] {
  const c = Math.min(total, count);
  const weights = Array.from({ length: c }, () => 0.3 + r());
  return splitInteger(total - c, weights).map((k) => k + 1);
}

/** `count` distinct names not already on the path; numbered when the list runs out. */
function pick(r: Rng, names: readonly string[], count: number, used: readonly string[]): string[] {
  const free = shuffle(
    r,
    names.filter((n) => !used.includes(n)),
  );
  const out = free.slice(0, count);
  for (let i = out.length; i < count; i++) out.push(`Team ${i + 1}`);
  return out;
}

function shuffle<T>(r: Rng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
