/**
 * Repositories as the readiness reports name them (`repoUrl`), and as a team mapping may claim them:
 * one identity for every spelling (`https://`, `http://`, `ssh://`, `git@host:owner/name`, a `.git`
 * suffix, a trailing slash, the case of host, owner and name), and patterns with `*`.
 */

/**
 * A repository's identity: lower-case host and path, no `.git`, no trailing slash, `git@host:owner/repo`
 * read as `https://host/owner/repo`.
 */
export function normalizeRepoUrl(url: string): string {
  let u = url.trim();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(u);
  if (scp) u = `https://${scp[1]}/${scp[2]}`;
  u = u.replace(/^ssh:\/\/[^@/]+@/i, 'https://').replace(/^git:\/\//i, 'https://');
  u = u.replace(/^https?:\/\//i, 'https://');
  u = u
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return u.toLowerCase();
}

/** `host/owner/name`: the identity without its scheme, as a mapping writes it. */
export const repoKey = (url: string): string => normalizeRepoUrl(url).replace(/^https:\/\//, '');

// eslint-disable-next-line no-control-regex
const UNFIT = /[\s\u0000-\u001f\u007f"'<>\\|]/;

/**
 * A repository or a pattern as a mapping writes it (a URL in any spelling, or `host/owner/name`; `*`
 * stands for any part of one path segment), as its key: `github.com/acme/*`. Null with the reason when
 * it cannot name a repository.
 */
export function repoPattern(raw: string): { key: string } | { problem: string } {
  const t = raw.trim();
  if (t === '') return { problem: 'is empty' };
  if (UNFIT.test(t)) return { problem: 'holds a space, a quote or a control character' };
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^[\w.-]+@[^:/]+:/.test(t) ? t : `https://${t}`;
  const key = repoKey(url);
  const parts = key.split('/');
  if (parts.length < 2 || parts.some((p) => p === ''))
    return { problem: 'is not a repository: write host/owner/name or its URL (github.com/acme/api)' };
  if (parts[0]!.includes('*')) return { problem: 'has a * in its host: name the host, a * may stand in the path' };
  return { key };
}

/** Whether a repository's key matches a pattern's key (`*` within one segment). */
export function matchesRepo(pattern: string, key: string): boolean {
  if (!pattern.includes('*')) return pattern === key;
  const re = new RegExp(`^${pattern.split('*').map(escape).join('[^/]*')}$`);
  return re.test(key);
}

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * How specific a pattern is: an exact repository before any pattern; among patterns, the one with the
 * most written characters. The owner of a repository two patterns claim is the more specific one's team.
 */
export const specificity = (pattern: string): number =>
  pattern.includes('*') ? pattern.replace(/\*/g, '').length : Number.MAX_SAFE_INTEGER;
