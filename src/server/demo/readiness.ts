/**
 * Simulated readiness reports: repositories (some monorepos), each evaluated
 * several times over the months, mostly improving, some regressing. Report
 * metadata is built up front; a report's body is made on demand from its
 * seed, so 500 repositories × 20 reports cost little memory.
 */
import { KNOWN_CRITERIA } from '../../api/criteria';
import { HISTORY_START, dayToMs } from '../../lib/dates';
import { APP_KINDS, REPO_WORDS_A, REPO_WORDS_B, UNKNOWN_CRITERIA } from './catalog';
import { between, hashSeed, hex, normal, rng, uuid } from './rng';

interface DemoRepo {
  index: number;
  /** Canonical web URL; reports sometimes spell it differently. */
  url: string;
  slug: string;
  apps: [string, string][];
  skill0: number;
  slope: number;
  /** Report index after which the repository regresses, or -1. */
  dipAt: number;
}

export interface ReportMeta {
  reportId: string;
  createdAt: number;
  repo: number;
  n: number;
}

export interface ReadinessData {
  repos: DemoRepo[];
  /** Newest first (createdAt desc, then reportId). */
  reports: ReportMeta[];
  byId: Map<string, number>;
  body(meta: ReportMeta): Record<string, unknown>;
}

interface ReadinessOptions {
  seed: string;
  repos: number;
  /** Reports per repository at most (default 20). */
  maxReports?: number;
  /** ms of the demo's "today" 00:00 UTC: no report is newer. */
  todayMs: number;
}

function makeRepo(seed: string, index: number, used: Set<string>): DemoRepo {
  const r = rng(hashSeed(seed, 'repo', index));
  const a = REPO_WORDS_A[Math.floor(r() * REPO_WORDS_A.length)]!;
  const b = REPO_WORDS_B[Math.floor(r() * REPO_WORDS_B.length)]!;
  let name = `${a}-${b}`;
  if (used.has(name)) name = `${name}-${index}`;
  used.add(name);
  const slug = `acme/${name}`;
  const mono = r() < 0.3;
  const nApps = mono ? 2 + Math.floor(r() * 4) : 1;
  const kinds = [...APP_KINDS].sort(() => r() - 0.5).slice(0, nApps);
  const apps: [string, string][] = mono
    ? kinds.map(([p, d]) => [p, d])
    : [
        [
          '.',
          `${a[0]!.toUpperCase()}${a.slice(1)} ${b}: ${APP_KINDS[Math.floor(r() * APP_KINDS.length)]![1].toLowerCase()}`,
        ],
      ];
  return {
    index,
    url: `https://github.com/${slug}`,
    slug,
    apps,
    skill0: between(r, -1.4, 0.9),
    slope: between(r, 0.01, 0.09),
    dipAt: r() < 0.2 ? 2 + Math.floor(r() * 8) : -1,
  };
}

export function buildReadiness(opts: ReadinessOptions): ReadinessData {
  const maxReports = opts.maxReports ?? 20;
  const used = new Set<string>();
  const repos = Array.from({ length: opts.repos }, (_, i) => makeRepo(opts.seed, i, used));
  const startMs = dayToMs(HISTORY_START);
  const span = Math.max(1, opts.todayMs - startMs);
  const reports: ReportMeta[] = [];
  for (const repo of repos) {
    const r = rng(hashSeed(opts.seed, 'reports', repo.index));
    const count = Math.max(1, Math.round(maxReports * between(r, 0.2, 1)));
    // First evaluation somewhere in the first half of history; then spaced to now.
    let t = startMs + span * between(r, 0, 0.5);
    const step = (opts.todayMs - t) / count;
    for (let n = 0; n < count; n++) {
      const createdAt = Math.min(opts.todayMs - 60_000, Math.round(t + step * between(r, 0, 0.9)));
      reports.push({ reportId: uuid(r), createdAt, repo: repo.index, n });
      t += step;
    }
  }
  reports.sort((a, b) => b.createdAt - a.createdAt || (a.reportId < b.reportId ? -1 : 1));
  const byId = new Map(reports.map((m, i) => [m.reportId, i]));
  return { repos, reports, byId, body: (meta) => reportBody(opts.seed, repos[meta.repo]!, meta) };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const EFFORTS = ['low', 'medium', 'high', 'off'];
const AGENT_MODELS = ['claude-sonnet-4-5', 'claude-opus-4-20250514', 'gpt-5.4'];

/** Criteria added in later agent versions: absent from a repository's early reports. */
const LATE_CRITERIA = new Set(KNOWN_CRITERIA.filter((_, i) => i % 17 === 5).map((c) => c.id));

function urlSpelling(repo: DemoRepo, r: () => number): string {
  const x = r();
  if (x < 0.75) return repo.url;
  if (x < 0.85) return `${repo.url}.git`;
  if (x < 0.93) return `git@github.com:${repo.slug}.git`;
  return `https://GitHub.com/${repo.slug}`;
}

function reportBody(seed: string, repo: DemoRepo, meta: ReportMeta): Record<string, unknown> {
  const r = rng(hashSeed(seed, 'report', repo.index, meta.n));
  // Readiness grows with each report, with a setback after `dipAt`.
  const skill = repo.skill0 + repo.slope * meta.n - (repo.dipAt >= 0 && meta.n > repo.dipAt ? 0.5 : 0);
  const report: Record<string, { numerator: number | null; denominator: number; rationale: string }> = {};
  const criteria: { id: string; name: string; level: number; scope: string; skippable: boolean }[] = [
    ...KNOWN_CRITERIA,
    ...UNKNOWN_CRITERIA.map((id) => ({ id, name: id.replace(/_/g, ' '), level: 3, scope: 'repo', skippable: false })),
  ];
  for (const c of criteria) {
    const unknown = UNKNOWN_CRITERIA.includes(c.id);
    if (unknown && (repo.index % 3 !== 0 || meta.n < 2)) continue;
    if (LATE_CRITERIA.has(c.id) && meta.n < 2) continue;
    const cr = rng(hashSeed(seed, 'crit', repo.index, c.id));
    if (c.skippable && cr() < 0.35) {
      report[c.id] = {
        numerator: null,
        denominator: c.scope === 'app' ? repo.apps.length : 1,
        rationale: `Skipped: ${c.name} does not apply to this repository's stack.`,
      };
      continue;
    }
    const difficulty = (c.level - 2.6) * 0.9 + normal(cr) * 0.5;
    const p = sigmoid(2.2 * (skill - difficulty));
    const targets = c.scope === 'app' ? repo.apps : [['.', ''] as [string, string]];
    let passed = 0;
    const failing: string[] = [];
    for (const [path] of targets) {
      // A fixed threshold per (criterion, app) keeps results stable between reports.
      const threshold = rng(hashSeed(seed, 'thr', repo.index, c.id, path))();
      const jitter = (r() - 0.5) * 0.08;
      if (threshold + jitter < p) passed++;
      else failing.push(path);
    }
    const denominator = targets.length;
    report[c.id] = {
      numerator: passed,
      denominator,
      rationale:
        passed === denominator
          ? `${c.name}: configured and enforced${denominator > 1 ? ` in all ${denominator} applications` : ''}; evidence found in the repository configuration and CI workflow.`
          : `${c.name}: not satisfied${failing.length && failing[0] !== '.' ? ` in ${failing.join(', ')}` : ''}. No configuration or documentation for it was found; adding it would let the agent verify its own changes.`,
    };
  }
  const body: Record<string, unknown> = {
    reportId: meta.reportId,
    createdAt: meta.createdAt,
    repoUrl: urlSpelling(repo, r),
    apps: Object.fromEntries(repo.apps.map(([p, d]) => [p, { description: d }])),
    report,
  };
  // Optional fields are sometimes absent, as from older agents.
  if (r() < 0.92) body.commitHash = hex(r, 40);
  if (r() < 0.9) body.branch = r() < 0.85 ? 'main' : 'feature/readiness-fixes';
  if (r() < 0.9) body.hasLocalChanges = r() < 0.12;
  if (r() < 0.9) body.hasNonRemoteCommits = r() < 0.08;
  if (r() < 0.85)
    body.modelUsed = { id: AGENT_MODELS[Math.floor(r() * 3)], reasoningEffort: EFFORTS[Math.floor(r() * 3)] };
  if (r() < 0.9) body.agentVersion = `0.${18 + Math.floor(meta.n / 3)}.${Math.floor(r() * 10)}`;
  return body;
}
