/**
 * The page the server rendered: the configuration it inlined, and with it the path the dashboard is
 * served under (BASE_PATH). Read once, when the app loads.
 */
import { clientConfigSchema, type ClientConfig } from '../api/schemas';

/** The configuration the server inlined in the page, if it did (it does in production). */
export function configFromPage(): ClientConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const raw = document.querySelector('meta[name="dashboard-config"]')?.getAttribute('content');
  if (!raw) return undefined;
  try {
    const parsed = clientConfigSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path the dashboard is served under: '' at the root, else like `/dashboard`. Every address of the
 * server's the app asks for or links to (`/api/…`, `/auth/…`) is put under it with `atBase`; the router
 * puts the app's own pages under it (its basename).
 */
export const basePath: string = configFromPage()?.basePath ?? '';

/** An absolute path of the server's (`/api/users.csv?…`) under the base. */
export const atBase = (path: string): string => `${basePath}${path}`;

/** A page's address in the browser (`/dashboard/users`) as the app's routes name it (`/users`). */
export function appPath(pathname: string): string {
  if (!basePath) return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
}
