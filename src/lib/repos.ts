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

/**
 * Whether a repository's key matches a pattern's key (`*` within one segment). Segment by segment, each
 * a run of literal pieces found left to right, so that the time stays linear in the lengths whatever the
 * pattern: a regular expression of `[^/]*` per star backtracks exponentially on a run of stars.
 */
export function matchesRepo(pattern: string, key: string): boolean {
  if (!pattern.includes('*')) return pattern === key;
  const globs = pattern.split('/');
  const names = key.split('/');
  return globs.length === names.length && globs.every((glob, i) => matchesSegment(glob, names[i]!));
}

/** Whether one segment matches a glob of `*` and literal pieces. */
function matchesSegment(glob: string, name: string): boolean {
  // A run of stars means what one star means.
  const pieces = glob.split(/\*+/);
  if (pieces.length === 1) return glob === name;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const end = name.length - last.length;
  if (end < first.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  // The leftmost place of each middle piece leaves the most room for the ones after it.
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * How specific a pattern is: an exact repository before any pattern; among patterns, the one with the
 * most written characters. The owner of a repository two patterns claim is the more specific one's team.
 */
export const specificity = (pattern: string): number =>
  pattern.includes('*') ? pattern.replace(/\*/g, '').length : Number.MAX_SAFE_INTEGER;
