/**
 * `BASE_PATH`: the path prefix the dashboard is served under (`/dashboard`), for a reverse proxy that
 * forwards it unchanged. Everything lives under it (the page, its assets, the API, sign-in); the server
 * takes the prefix off a request once, at the top of its handler, so every route below is written as
 * if the dashboard were at the root.
 */

/** One path segment: letters, digits, `.`, `_`, `~`, `-` (nothing a URL, an HTML attribute or a cookie must escape). */
const SEGMENTS = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * `BASE_PATH` as the server uses it: `''` at the root (unset, empty or `/`), else a leading `/` and no
 * trailing one (`/dashboard/` is taken as `/dashboard`). Refused: no leading `/`, empty segments (`//`),
 * `.` or `..` segments, and any other character (`?`, `#`, `%`, spaces…).
 */
export function readBasePath(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.BASE_PATH ?? '';
  if (raw === '' || raw === '/') return '';
  const path = raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (!SEGMENTS.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
    throw new Error(
      `BASE_PATH must be a path like /dashboard (segments of letters, digits, '.', '_', '~' and '-', none of them . or ..), got ${JSON.stringify(raw.slice(0, 80))}`,
    );
  return path;
}

/**
 * A request's target with the base taken off (`/dashboard/users?x` → `/users?x`, `/dashboard` → `/`),
 * or null when it is not under the base. At the root every target is under it, unchanged.
 */
export function stripBase(base: string, target: string): string | null {
  if (!base) return target;
  if (!target.startsWith(base)) return null;
  const rest = target.slice(base.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  return rest.startsWith('/') ? rest : null;
}
