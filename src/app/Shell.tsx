import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useReducer, useState } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { configQuery } from '../data/config';
import { parseTeams, useLinkTo, useRange } from '../data/search';
import { formatDayShort, rangeLength } from '../lib/dates';
import { parseRange } from '../lib/url-state';
import { atBase } from '../data/base';
import { getApiKey, setApiKey } from '../data/client';
import { pageRefusal, useMe } from '../data/me';
import { ErrorState, Loading } from '../components/states';
import { DateRangeBar } from './DateRangeBar';
import { useKeyPrompt } from '../data/client';
import { KeyScreen } from './KeyScreen';
import { SyncProgress } from './SyncProgress';
import { TeamSelect } from './TeamSelect';
import { getThemeChoice, setThemeChoice, type ThemeChoice } from './theme';
import { NAV } from './routes';
import { alertsQuery } from '../data/alerts';

export function Shell() {
  const config = useQuery(configQuery);
  const me = useMe(config.data?.signIn === true);
  const client = useQueryClient();
  const { keyRejected, setKeyRejected } = useKeyPrompt();
  // The key lives outside React (session storage); this re-renders once it is set.
  const [, keyChanged] = useReducer((n: number) => n + 1, 0);
  const [menuOpen, setMenuOpen] = useState(false);
  const [rangeOpen, setRangeOpen] = useState(false);
  const linkTo = useLinkTo();
  // Readiness reports are not bound to the analytics date range, nor is the team mapping. The readiness
  // pages take the team selection (the repositories the teams own) without the range.
  const { pathname, search } = useLocation();
  const readiness = pathname.startsWith('/readiness');
  // The alerts are of the latest day, whatever range the pages read.
  const dated = !readiness && !pathname.startsWith('/settings') && pathname !== '/alerts';
  // The teams overview takes it too: the chosen teams' trees. A team's own page names its team in its path.
  const selectable = (dated || readiness) && (!pathname.startsWith('/teams') || pathname === '/teams');

  if (config.isPending) return <Loading label="Connecting to the dashboard server…" />;
  if (config.isError) {
    return (
      <main className="mx-auto mt-16 max-w-lg">
        <ErrorState error={config.error} onRetry={() => void config.refetch()} />
      </main>
    );
  }
  // With sign-in, a 401 means the session ended: the server sends the reader to sign in again.
  if (config.data.signIn && keyRejected) {
    // `returnTo` is the page's address in the app (the router's, below the base path).
    window.location.assign(atBase(`/auth/login?returnTo=${encodeURIComponent(pathname + search)}`));
  }
  const needKey = config.data.keyRequired && (keyRejected || !getApiKey());
  if (needKey) {
    return (
      <KeyScreen
        rejected={keyRejected}
        onDone={() => {
          setKeyRejected(false);
          keyChanged();
        }}
      />
    );
  }

  // With sign-in, what the reader may open is known before any page is drawn.
  if (config.data.signIn && !me) return <Loading label="Reading who is signed in…" />;

  const prefetch = (n: (typeof NAV)[number]) => {
    void n.load();
    // What the link carries (the range and teams), and for the pages that read more of their URL (the users
    // page) that URL and the configuration.
    const carried = new URLSearchParams(linkTo(n.path).split('?')[1] ?? '');
    void n.prefetch?.(
      client,
      parseRange(carried, config.data.latestDay),
      parseTeams(carried, config.data),
      carried,
      config.data,
    );
  };
  // The teams pages exist only when the server keeps a store; a signed-in reader sees the pages their
  // role opens (a viewer: neither other people's rows nor the teams).
  const privacy = config.data.privacyMinGroup;
  const nav = NAV.filter((n) => (!n.needsTeams || config.data.teams) && pageRefusal(me, n.path, privacy) === null);
  const refused = pageRefusal(me, pathname, privacy);
  return (
    <div className="min-h-screen">
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2 md:py-3">
          <p className="font-semibold text-fg">
            Agent usage
            {config.data.demo && (
              <span className="ml-2 rounded bg-warning-surface-strong px-1.5 py-0.5 text-xs font-medium text-warning-fg">
                demo data
              </span>
            )}
          </p>
          <button
            type="button"
            className="ml-auto rounded border border-line-strong px-3 py-1 text-sm font-medium text-fg-soft md:hidden"
            aria-expanded={menuOpen}
            aria-controls="page-nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? 'Close menu' : 'Menu'}
          </button>
          <nav
            id="page-nav"
            aria-label="Pages"
            className={`${menuOpen ? 'flex' : 'hidden'} w-full flex-col gap-1 md:flex md:w-auto md:flex-row md:flex-wrap`}
          >
            {nav.map((n) => (
              <NavLink
                key={n.path}
                to={linkTo(n.path)}
                end={n.path === '/'}
                onMouseEnter={() => prefetch(n)}
                onFocus={() => prefetch(n)}
                onClick={() => setMenuOpen(false)}
                // The team comparison is one of the teams pages, at an address of its own (its breadcrumb says so).
                className={({ isActive }) =>
                  `rounded px-3 py-1.5 text-sm font-medium ${isActive || (n.path === '/teams' && pathname === '/compare') ? 'bg-accent-muted text-accent-strong' : 'text-fg-muted hover:bg-surface-muted'}`
                }
              >
                {n.label}
                {n.path === '/alerts' && <OpenAlerts />}
              </NavLink>
            ))}
          </nav>
          {/* On a phone the theme is in the menu: the first screen is for the figures. */}
          <ThemeSelect className={`${menuOpen ? 'flex' : 'hidden'} md:flex`} />
          {config.data.signIn && <SignedIn />}
          {privacy !== undefined && <PrivacyBadge k={privacy} admin={me?.role === 'admin'} />}
          {config.data.keyRequired && (
            <button
              type="button"
              className="text-sm text-fg-muted underline"
              onClick={() => {
                setApiKey(undefined);
                setKeyRejected(false);
                window.location.reload();
              }}
            >
              Forget key
            </button>
          )}
        </div>
        {(dated || (readiness && config.data.teams)) && (
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 pb-2 md:pb-1">
            {config.data.teams && selectable && me?.role !== 'viewer' && <TeamSelect />}
            {dated && <PhoneRange open={rangeOpen} onToggle={() => setRangeOpen((o) => !o)} />}
            {dated && (
              <div id="range-bar" className={`${rangeOpen ? 'block' : 'hidden'} w-full md:block md:w-auto`}>
                <DateRangeBar />
              </div>
            )}
          </div>
        )}
        {!config.data.keyRequired && (
          <div className="mx-auto max-w-7xl px-4 pb-1">
            <SyncProgress />
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-4 focus:outline-none md:py-6">
        {/* A page that throws (or whose chunk fails to load) is replaced by an error; leaving it resets. */}
        <ErrorBoundary FallbackComponent={RouteError} resetKeys={[pathname]}>
          <Suspense fallback={<Loading />}>{refused ? <NotYours reason={refused} /> : <Outlet />}</Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}

export function NotFound() {
  return (
    <div className="rounded-lg border border-line bg-surface p-6">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <p className="mt-1 text-sm text-fg-muted">
        <NavLink to="/" className="text-accent-strong underline">
          Back to usage
        </NavLink>
      </p>
    </div>
  );
}

/** A page that failed to render: the navigation and date bar stay usable. */
function RouteError({ error }: FallbackProps) {
  return (
    <div className="rounded-lg border border-line bg-surface p-6">
      <h1 className="text-lg font-semibold">This page failed to load</h1>
      <div className="mt-3">
        <ErrorState error={error} onRetry={() => window.location.reload()} />
      </div>
    </div>
  );
}

/**
 * On a phone, the range in one button ("Oct 28 – Nov 26 · 30 days") that shows the presets and dates
 * beneath it, so the controls take one line before the page's first figure.
 */
function PhoneRange({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { range } = useRange();
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls="range-bar"
      onClick={onToggle}
      className="flex items-center gap-1.5 rounded border border-line-strong px-2.5 py-1 text-sm text-fg-soft md:hidden"
    >
      <span className="sr-only">Range:</span>
      <span className="font-medium">
        {formatDayShort(range.start)} – {formatDayShort(range.end)} · {rangeLength(range)} days
      </span>
      <span aria-hidden className="text-xs">
        {open ? '▴' : '▾'}
      </span>
    </button>
  );
}

/** The count of open alerts beside the navigation's Alerts link (nothing while none is open). */
function OpenAlerts() {
  const n = useQuery(alertsQuery).data?.open.length ?? 0;
  if (n === 0) return null;
  return (
    <span className="ml-1.5 rounded-full bg-danger-surface px-1.5 text-xs font-semibold text-danger-fg tabular-nums">
      {n}
      <span className="sr-only"> open</span>
    </span>
  );
}

/** Light, dark, or as the system says; the choice persists. */
function ThemeSelect({ className }: { className: string }) {
  const [choice, setChoice] = useState<ThemeChoice>(getThemeChoice);
  return (
    <label className={`items-center gap-1 text-sm md:ml-auto ${className}`}>
      <span className="text-fg-muted">Theme</span>
      <select
        value={choice}
        onChange={(e) => {
          const c = e.target.value as ThemeChoice;
          setChoice(c);
          setThemeChoice(c);
        }}
        className="rounded border border-line-strong bg-surface px-2 py-1"
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

/**
 * Privacy mode (PRIVACY_MIN_GROUP), said on every page: what it withholds from managers, and to an admin that
 * they see names and that each view of a named person is logged.
 */
function PrivacyBadge({ k, admin }: { k: number; admin: boolean }) {
  return (
    <p
      role="note"
      className="w-full rounded bg-accent-muted px-2 py-1 text-xs font-medium text-accent-strong md:order-last"
    >
      Privacy mode: groups under {k} people are not shown; people are pseudonymous
      {admin ? ' to managers. You see names, and each view of a named person is logged.' : '.'}
    </p>
  );
}

/** A page the signed-in reader's role does not open (the server refuses its data too). */
function NotYours({ reason }: { reason: string }) {
  const me = useMe(true);
  const linkTo = useLinkTo();
  return (
    <div role="status" className="rounded-lg border border-line bg-surface p-6">
      <h1 className="text-lg font-semibold">Not shown to you</h1>
      <p className="mt-1 text-sm text-fg-muted">{reason}</p>
      <p className="mt-3 text-sm">
        {me?.userId ? (
          <NavLink to={linkTo(`/users/${encodeURIComponent(me.userId)}`)} className="text-accent-strong underline">
            Your own page
          </NavLink>
        ) : (
          <NavLink to={linkTo('/')} className="text-accent-strong underline">
            Back to usage
          </NavLink>
        )}
      </p>
    </div>
  );
}

/**
 * Who is signed in, a link to their own page (when the service has seen them), and Sign out (a POST,
 * so no other site can sign the reader out with a link).
 */
function SignedIn() {
  const me = useMe(true);
  const linkTo = useLinkTo();
  if (!me) return null;
  return (
    <form method="post" action={atBase('/auth/logout')} className="flex items-center gap-2 text-sm text-fg-muted">
      {me.userId ? (
        <NavLink
          to={linkTo(`/users/${encodeURIComponent(me.userId)}`)}
          title={`${me.email} (${me.role}): your own page`}
          className="text-accent-strong underline"
        >
          {me.name ?? me.email}
        </NavLink>
      ) : (
        <span title={`${me.email} (${me.role})`}>{me.name ?? me.email}</span>
      )}
      <NavLink to="/settings/api-tokens" className="text-fg-muted underline">
        API tokens
      </NavLink>
      <button type="submit" className="text-fg-muted underline">
        Sign out
      </button>
    </form>
  );
}
