/** The SPA's page as the server sends it: the client configuration inlined, the first data preloaded. */
import { buildQuery } from '../api/client';
import { PATHS } from '../api/paths';
import type { ClientConfig } from '../api/schemas';
import { usersTableParams, usersTablePageHref } from '../api/users-table-query';
import { parseRange } from '../lib/url-state';

/**
 * The page with the client configuration in a meta tag, so the app needs no
 * request before its first query; on the landing page the first chart's data,
 * and on the users page its first rows, are preloaded while the scripts load
 * (only when the browser sends no key: a preload cannot carry one).
 *
 * `url` is the page's address below the base path (`/users`), and every address the page is given is
 * under the base (`cfg.basePath`): the built page names its assets relatively (Vite's `base: './'`, so
 * one build serves any base), and those are named here from the base, which holds from any page's
 * address (`/dashboard/users/usr_1`). (A `<base href>` would do it too, but would also send the page's
 * own `#fragment` links, the skip link among them, to the base's address.)
 */
export function renderPage(html: string, url: string, cfg: ClientConfig): string {
  const [path, query = ''] = url.split('?');
  const base = cfg.basePath;
  const params = new URLSearchParams(query);
  let head = `<meta name="dashboard-config" content="${escapeAttr(JSON.stringify(cfg))}" />`;
  if (path === '/' && !cfg.keyRequired) {
    const r = parseRange(params, cfg.latestDay);
    const href = `${base}${PATHS.tokens}${buildQuery({ startDate: r.start, endDate: r.end, group_by: 'model' })}`;
    head += `\n    <link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(href)}" />`;
  }
  // The users page's first rows, asked for as the page will (unless its URL names teams, which the
  // page reads with the teams it may see): with a range not built ahead the server merges the table
  // while the app's code loads.
  if (path === '/users' && !cfg.keyRequired && !params.has('team')) {
    const p = usersTableParams(parseRange(params, cfg.latestDay), [], params, cfg.currency);
    head += `\n    <link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(base + usersTablePageHref(p, 0))}" />`;
  }
  return html.replace(/(\s(?:src|href)=")\.\//g, `$1${base}/`).replace('</head>', `${head}\n  </head>`);
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
