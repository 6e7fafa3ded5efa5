import type { QueryClient } from '@tanstack/react-query';
import { createElement, useEffect, useState } from 'react';
import { Loading } from '../components/states';
import { matchPath } from 'react-router-dom';
import { getApiKey } from '../data/client';
import type { ClientConfig } from '../api/schemas';
import { prefetchUsagePage } from '../features/usage/queries';
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

/**
 * Another page's first queries, their code loaded when first asked for: imported here, what they import (the readiness
 * scoring of the teams page, the users table's columns) would come with the landing page's code.
 */
const later =
  <M,>(load: () => Promise<M>, pick: (m: M) => Prefetch): Prefetch =>
  (...args) =>
    load().then((m) => pick(m)(...args));

/** Whether the app has drawn once (the opening page then draws in a render of its own). */
let shellDrawn = false;

/**
 * A page in a chunk of its own. It never suspends: until its code is in it shows a loading line, then
 * the page, in a render of its own. (Suspending would make React keep a boundary's placeholder for at
 * least 300 ms once shown; and waiting for the code before the first render made the shell and the page
 * one long task.) A chunk that cannot be fetched is thrown to the page's error boundary.
 */
export function lazyPage(importPage: () => Promise<Page>): {
  load: () => Promise<Page>;
  /** Whether the page's code is in (it then draws at once). */
  loaded: () => boolean;
  Component: React.ComponentType;
} {
  let loaded: React.ComponentType | undefined;
  let pending: Promise<Page> | undefined;
  const load = () =>
    (pending ??= importPage().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  function LazyPage() {
    // The page the app opens on draws in a render after the shell's, even when its code is in: together
    // they made one task of a quarter of a second on a slow machine, during which nothing else ran.
    const [C, setC] = useState<React.ComponentType | undefined>(() => (shellDrawn ? loaded : undefined));
    const [, fail] = useState<never>();
    useEffect(() => {
      shellDrawn = true;
      if (C) return;
      let live = true;
      load().then(
        (m) => live && setC(() => m.default),
        (e: unknown) =>
          live &&
          fail(() => {
            throw e;
          }),
      );
      return () => {
        live = false;
      };
    }, [C]);
    return C ? createElement(C) : createElement(Loading);
  }
  return { load, loaded: () => loaded !== undefined, Component: LazyPage };
}

const tools = lazyPage(() => import('../features/tools/ToolsPage'));
const activity = lazyPage(() => import('../features/activity/ActivityPage'));
const productivity = lazyPage(() => import('../features/productivity/ProductivityPage'));
const users = lazyPage(() => import('../features/users/UsersPage'));
const teams = lazyPage(() => import('../features/teams/TeamsPage'));
const readiness = lazyPage(() => import('../features/readiness/ReadinessPage'));
const alerts = lazyPage(() => import('../features/alerts/AlertsPage'));
const onboarding = lazyPage(() => import('../features/teams/OnboardingPage'));

export const NAV: readonly {
  path: string;
  label: string;
  load: () => Promise<Page>;
  Component: React.ComponentType;
  loaded?: () => boolean;
  prefetch?: Prefetch;
  /** Shown only when the server has teams (`config.teams`). */
  needsTeams?: boolean;
}[] = [
  {
    path: '/',
    label: 'Usage',
    load: () => Promise.resolve({ default: UsagePage }),
    Component: UsagePage,
    prefetch: prefetchUsagePage,
  },
  {
    path: '/tools',
    label: 'Tools',
    ...tools,
    prefetch: later(
      () => import('../features/tools/queries'),
      (m) => m.prefetchToolsPage,
    ),
  },
  {
    path: '/activity',
    label: 'Activity',
    ...activity,
    prefetch: later(
      () => import('../features/activity/queries'),
      (m) => m.prefetchActivityPage,
    ),
  },
  {
    path: '/productivity',
    label: 'Productivity',
    ...productivity,
    prefetch: later(
      () => import('../features/productivity/queries'),
      (m) => m.prefetchProductivityPage,
    ),
  },
  {
    path: '/users',
    label: 'Users',
    ...users,
    prefetch: later(
      () => import('../features/users/table-query'),
      (m) => m.prefetchUsersPage,
    ),
  },
  {
    path: '/teams',
    label: 'Teams',
    ...teams,
    prefetch: later(
      () => import('../features/teams/queries'),
      (m) => m.prefetchTeamsPage,
    ),
    needsTeams: true,
  },
  { path: '/onboarding', label: 'Onboarding', ...onboarding, needsTeams: true },
  { path: '/readiness', label: 'Readiness', ...readiness },
  { path: '/alerts', label: 'Alerts', ...alerts, needsTeams: true },
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

const user = lazyPage(() => import('../features/users/UserPage'));
const repo = lazyPage(() => import('../features/readiness/RepoPage'));
const team = lazyPage(() => import('../features/teams/TeamPage'));
const compare = lazyPage(() => import('../features/teams/ComparePage'));
const mapping = lazyPage(() => import('../features/teams/MappingPage'));
const budgets = lazyPage(() => import('../features/teams/BudgetsPage'));
const alertRules = lazyPage(() => import('../features/alerts/AlertRulesPage'));
const marks = lazyPage(() => import('../features/teams/MarksPage'));
const apiTokens = lazyPage(() => import('../features/settings/ApiTokensPage'));
const reconciliation = lazyPage(() => import('../features/reconciliation/ReconciliationPage'));

export const PAGES: {
  path: string;
  Component: React.ComponentType;
  load: () => Promise<Page>;
  loaded?: () => boolean;
}[] = [
  ...NAV.map((n) => ({ path: n.path, Component: n.Component, load: n.load, loaded: n.loaded })),
  { path: '/users/:userId', ...user },
  { path: '/readiness/:repo', ...repo },
  // A team's path has slashes (`/teams/Engineering/Platform`), each part encoded: a splat.
  { path: '/teams/*', ...team },
  // Not under /teams/: a top-level team may be called "compare". The teams compared are the URL's `team`s.
  { path: '/compare', ...compare },
  { path: '/settings/teams', ...mapping },
  { path: '/settings/budgets', ...budgets },
  { path: '/settings/alerts', ...alertRules },
  { path: '/settings/marks', ...marks },
  { path: '/settings/api-tokens', ...apiTokens },
  { path: '/reconciliation', ...reconciliation },
];

/** Loads the code of the page at `pathname` (settles at once when it is in the first bundle, or unknown). */
export function loadPageAt(pathname: string): Promise<void> {
  const page = PAGES.find((p) => matchPath(p.path, pathname));
  return page
    ? page.load().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}
