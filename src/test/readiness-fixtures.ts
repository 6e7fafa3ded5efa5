/** Readiness reports and a stubbed dashboard server answering them, for the readiness pages' tests. */
import { vi } from 'vitest';
import { KNOWN_CRITERIA } from '../api/criteria';
import type { ReadinessAnswer } from '../api/readiness';
import type { ReadinessReport } from '../api/schemas';

/** Ten known criteria from five pillars (two each), so pillar views have names to show. */
export const TEN = [...new Set(KNOWN_CRITERIA.map((c) => c.pillar))]
  .slice(0, 5)
  .flatMap((p) => KNOWN_CRITERIA.filter((c) => c.pillar === p).slice(0, 2));

/** A report of `repo` (`acme/<repo>` on github.com) passing the first `pass` of the ten criteria: pass × 10 %. */
export const tenReport = (id: string, repo: string, day: string, pass: number): ReadinessReport => ({
  reportId: id,
  createdAt: Date.parse(`${day}T12:00:00Z`),
  repoUrl: `https://github.com/acme/${repo}`,
  apps: { '.': { description: `${repo} service` } },
  report: Object.fromEntries(
    TEN.map((c, i) => [c.id, { numerator: i < pass ? 1 : 0, denominator: 1, rationale: `Why ${c.name}` }]),
  ),
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/**
 * Stubs `fetch` as the dashboard server: `/api/readiness[?team=…]` (a team's repositories: its own and its
 * sub-teams', each with the days after which it is stale when `staleAfter` says), and the service's readiness path
 * in one page. Returns the URLs asked for.
 */
export function stubReadiness(
  reports: readonly ReadinessReport[],
  owners: Record<string, string | null>,
  staleAfter: Record<string, number> = {},
) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://dashboard.test');
      urls.push(url);
      if (url.pathname === '/api/readiness') {
        const teams = url.searchParams.getAll('team');
        const chosen = (t: string | null) =>
          teams.length === 0 || (t !== null && teams.some((x) => t === x || t.startsWith(`${x}/`)));
        const repos = Object.entries(owners)
          .filter(([, t]) => chosen(t))
          .map(([key, team]) => ({ key, team, ...(key in staleAfter && { staleAfter: staleAfter[key] }) }));
        const keys = new Set(repos.map((r) => r.key));
        const answer: ReadinessAnswer = {
          ownership: true,
          repos,
          reports: reports.filter((r) => keys.has(r.repoUrl.replace('https://', ''))),
        };
        return json(answer);
      }
      if (url.pathname === '/api/organization/maturity-level-reports') return json({ reports });
      return new Response('not stubbed', { status: 404 });
    }),
  );
  return { asked: (path: string) => urls.filter((u) => u.pathname === path) };
}
