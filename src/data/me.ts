/**
 * Who is signed in (`GET /api/me`), when the dashboard has sign-in: the pages hide what the reader's
 * role cannot open. The server decides every request by itself; this only spares the reader a 403.
 */
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { api } from './client';
import { useAppConfig } from './config';

export const meSchema = z.object({
  email: z.string(),
  name: z.nullable(z.string()),
  role: z.enum(['admin', 'manager', 'viewer']),
  teams: z.array(z.string()),
  /** The reader's own user id in the store (their page), or null when the service has not seen them. */
  userId: z.nullable(z.string()),
  /** Whether the organization-wide figures are shown to them (not to managers with RESTRICT_ORG_VIEW). */
  orgView: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

/** The signed-in reader, or undefined (`signIn` off in the server's configuration, or not read yet). */
export function useMe(signIn: boolean): Me | undefined {
  return useQuery({
    queryKey: ['me'],
    queryFn: ({ signal }) => api.get('/api/me', meSchema, undefined, signal),
    enabled: signIn,
    staleTime: Infinity,
  }).data;
}

/** The signed-in reader on a page of the app (undefined without sign-in). */
export function useReader(): Me | undefined {
  return useMe(useAppConfig().signIn);
}

/**
 * Whether people are shown to this reader as pseudonyms (privacy mode, PRIVACY_MIN_GROUP, for everyone but
 * admins): no search by email, no link to another person's page.
 */
export function usePseudonymous(): boolean {
  const { signIn, privacyMinGroup } = useAppConfig();
  const me = useMe(signIn);
  return privacyMinGroup !== undefined && me?.role !== 'admin';
}

/**
 * Why the reader may not open this page, or null when they may (or nobody is signed in). The server
 * refuses the page's data anyway; this says so once, in words, instead of a failed widget per figure.
 * `privacyMinGroup`: privacy mode's, when on.
 */
export function pageRefusal(me: Me | undefined, pathname: string, privacyMinGroup?: number): string | null {
  if (!me || me.role === 'admin') return null;
  if (pathname.startsWith('/settings/teams'))
    return 'The team mapping names every person’s team: it is shown to the dashboard’s admins.';
  if (me.role === 'manager' && privacyMinGroup !== undefined && pathname.startsWith('/users/')) {
    const id = safeDecode(pathname.slice('/users/'.length));
    return id === me.userId
      ? null
      : `Privacy mode (PRIVACY_MIN_GROUP=${privacyMinGroup}): a person’s page is shown to admins and to the person themself; their figures are in the users table under a pseudonym.`;
  }
  if (pathname === '/reconciliation' && me.role === 'manager' && !me.orgView)
    return 'The reconciliation sets the dashboard beside the service’s organization totals, which are not shown to managers here.';
  if (me.role === 'manager') return null;
  if (pathname === '/alerts' || pathname.startsWith('/settings/alerts'))
    return 'The alerts name teams and people: they are shown to managers and admins.';
  if (pathname.startsWith('/settings/budgets')) return 'The budgets are shown to managers and admins.';
  if (pathname.startsWith('/settings/marks')) return 'Marks are added by managers, for their teams, and by admins.';
  if (pathname === '/users' || pathname === '/users/')
    return 'The users table shows other people’s rows: it is shown to their managers and admins.';
  if (pathname.startsWith('/users/')) {
    const id = safeDecode(pathname.slice('/users/'.length));
    return id === me.userId ? null : 'This person’s page is shown to their managers and admins.';
  }
  if (pathname === '/reconciliation') return 'The reconciliation is shown to managers (their teams’ share) and admins.';
  if (pathname === '/teams' || pathname.startsWith('/teams/') || pathname === '/compare')
    return 'The teams’ figures are shown to their managers and admins.';
  return null;
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * The teams a page's figures are for: the URL's, or, for a manager who may not see the organization's
 * figures (RESTRICT_ORG_VIEW), their own teams when the URL names none.
 */
export function effectiveTeams(me: Me | undefined, selected: readonly string[]): readonly string[] {
  return selected.length === 0 && me?.role === 'manager' && !me.orgView ? me.teams : selected;
}
