import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { getApiKey } from '../data/client';
import type { ClientConfig } from '../api/schemas';
import { prefetchActivityPage } from '../features/activity/queries';
import { prefetchProductivityPage } from '../features/productivity/queries';
import { prefetchTeamsPage } from '../features/teams/queries';
import { prefetchToolsPage } from '../features/tools/queries';
import { prefetchUsagePage } from '../features/usage/queries';
import { prefetchUsersPage } from '../features/users/table-query';
// The landing page is in the first bundle: no lazy-chunk round trip before the first chart.
import UsagePage from '../features/usage/UsagePage';
import type { DayRange } from '../lib/dates';
import { parseRange } from '../lib/url-state';
import { parseTeams } from '../data/search';

type Prefetch = (
  client: QueryClient,
  r: DayRange,
  teams?: readonly string[],
  params?: URLSearchParams,
  config?: ClientConfig,
) => Promise<unknown>;

/**
 * The pages, each but the landing one split into its own chunk. Hovering or focusing a link loads the
 * chunk and the page's first queries; the page opened first gets its queries asked for before React
 * renders anything. (The readiness page, and the users page when each reader brings a key, stream many
 * pages of rows: they start on arrival.)
 */
type Page = { default: React.ComponentType };

export const NAV: readonly {
  path: string;
  label: string;
  load: () => Promise<Page>;
  prefetch?: Prefetch;
  /** Shown only when the server has teams (`config.teams`). */
  needsTeams?: boolean;
}[] = [
  { path: '/', label: 'Usage', load: () => Promise.resolve({ default: UsagePage }), prefetch: prefetchUsagePage },
  { path: '/tools', label: 'Tools', load: () => import('../features/tools/ToolsPage'), prefetch: prefetchToolsPage },
  {
    path: '/activity',
    label: 'Activity',
    load: () => import('../features/activity/ActivityPage'),
    prefetch: prefetchActivityPage,
  },
  {
    path: '/productivity',
    label: 'Productivity',
    load: () => import('../features/productivity/ProductivityPage'),
    prefetch: prefetchProductivityPage,
  },
  {
    path: '/users',
    label: 'Users',
    load: () => import('../features/users/UsersPage'),
    prefetch: prefetchUsersPage,
  },
  {
    path: '/teams',
    label: 'Teams',
    load: () => import('../features/teams/TeamsPage'),
    prefetch: prefetchTeamsPage,
    needsTeams: true,
  },
  { path: '/readiness', label: 'Readiness', load: () => import('../features/readiness/ReadinessPage') },
];

/**
 * Asks for the first queries of the page at `location` (settles when they have), when the server gave
 * its configuration and a key is at hand.
 */
export function prefetchPage(
  client: QueryClient,
  config: ClientConfig | undefined,
  location: { pathname: string; search: string },
): Promise<unknown> {
  if (!config || (config.keyRequired && !getApiKey())) return Promise.resolve();
  const page = NAV.find((n) => n.path === location.pathname);
  if (page?.needsTeams && !config.teams) return Promise.resolve();
  const params = new URLSearchParams(location.search);
  return (
    page?.prefetch?.(client, parseRange(params, config.latestDay), parseTeams(params, config), params, config) ??
    Promise.resolve()
  );
}

export const PAGES: { path: string; Component: React.ComponentType }[] = [
  { path: '/', Component: UsagePage },
  ...NAV.slice(1).map((n) => ({ path: n.path, Component: lazy(n.load) })),
  { path: '/users/:userId', Component: lazy(() => import('../features/users/UserPage')) },
  { path: '/readiness/:repo', Component: lazy(() => import('../features/readiness/RepoPage')) },
  // A team's path has slashes (`/teams/Engineering/Platform`), each part encoded: a splat.
  { path: '/teams/*', Component: lazy(() => import('../features/teams/TeamPage')) },
  { path: '/settings/teams', Component: lazy(() => import('../features/teams/MappingPage')) },
  { path: '/settings/budgets', Component: lazy(() => import('../features/teams/BudgetsPage')) },
];
