import type { RouteObject } from 'react-router-dom';
// The landing page is in the first bundle: no lazy-chunk round trip before the first chart.
import UsagePage from '../features/usage/UsagePage';

/** The pages, each split into its own chunk. */
export const NAV = [
  { path: '/', label: 'Usage', load: () => Promise.resolve({ default: UsagePage }) },
  { path: '/tools', label: 'Tools', load: () => import('../features/tools/ToolsPage') },
  { path: '/activity', label: 'Activity', load: () => import('../features/activity/ActivityPage') },
  { path: '/productivity', label: 'Productivity', load: () => import('../features/productivity/ProductivityPage') },
  { path: '/users', label: 'Users', load: () => import('../features/users/UsersPage') },
  { path: '/readiness', label: 'Readiness', load: () => import('../features/readiness/ReadinessPage') },
] as const;

export const pageRoutes: RouteObject[] = [
  ...NAV.map((n) =>
    n.path === '/'
      ? { index: true, Component: UsagePage }
      : { path: n.path.slice(1), lazy: async () => ({ Component: (await n.load()).default }) },
  ),
  { path: 'users/:userId', lazy: async () => ({ Component: (await import('../features/users/UserPage')).default }) },
  {
    path: 'readiness/:repo',
    lazy: async () => ({ Component: (await import('../features/readiness/RepoPage')).default }),
  },
];
