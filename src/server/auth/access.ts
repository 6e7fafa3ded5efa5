/**
 * Who may enter and what each may ask for, as pure decisions over the request's path and query:
 *
 * - admins (`ADMIN_EMAILS`) see everything and edit the team mapping;
 * - managers (named in the mapping) see their teams and sub-teams: the users table, its CSV and the
 *   top users are limited to their people, a user page or a team's figures outside them is refused,
 *   and the organization-wide figures stay visible unless `RESTRICT_ORG_VIEW=1`;
 * - anyone else with an allowed email (`ALLOWED_DOMAINS`, `ALLOWED_EMAILS`) sees organization-wide
 *   figures and their own user page, never another person's row;
 * - the service's per-user answers (`/users` rows, and `/tokens` days' `by_user` split) are limited to
 *   the people the reader may see (`ViewScope.rows`): a manager's people, a viewer's own row.
 */
import type { IncomingMessage } from 'node:http';
import { canonicalEmail } from '../core/text';
import { isWithin } from '../teams/tree';
import type { AuthConfig } from './config';
import { emailPseudonyms, privacyLens, type PrivacyLens } from './privacy';

export type Role = 'admin' | 'manager' | 'viewer';

export interface Viewer {
  email: string;
  name: string | null;
  role: Role;
  /** A manager's teams (sub-teams included by the rules); empty for the others. */
  teams: string[];
}

/**
 * What a signed-in reader's answers may show beyond the decisions below, for the endpoints that shape
 * an answer to its reader (the teams tree and summary): whether the organization's own figures are
 * shown, and whose managers' emails. Without sign-in there is no scope: everything is shown.
 */
export interface ViewScope {
  orgView: boolean;
  /** Whether this team's managers (emails) and a refused mapping's messages may be shown. */
  seesTeamDetails: (team: string) => boolean;
  admin: boolean;
  /** Who the reader is (`canonicalEmail`), for what they write (a mark's author); not part of `key`. */
  email: string;
  /** Privacy mode's rules for this reader (PRIVACY_MIN_GROUP; never for admins): pseudonyms, small groups withheld. */
  privacy?: PrivacyLens;
  /** Whose rows of the service's per-person answers the reader gets; absent for admins (everyone's). */
  rows?: PersonRows;
  /** PSEUDONYMIZE=1 (never for admins): every email in an answer replaced by its pseudonym address. */
  pseudonymize?: (text: string) => string;
  /** The same for every reader whose answers are shaped alike (their role and teams): an answer kept for one fits the other. */
  key: string;
}

/** The rows of people a reader who is not an admin gets from the service's per-person answers. */
export interface PersonRows {
  /** Whether a person's row (their id, their email) is one the reader may see: a manager's people, a viewer's own. */
  sees: (userId: string, email: string | null) => boolean;
  /** A `/users` cursor names the page's last person, who may be beyond the reader's rows: given sealed, taken back so. */
  seal: (cursor: string) => string;
  /** The cursor sealed by `seal`, or null. */
  open: (sealed: string) => string | null;
}

export function scopeOfViewer(v: Viewer, cfg: AuthConfig, rows?: PersonRows): ViewScope {
  return {
    ...(v.role !== 'admin' && rows ? { rows } : {}),
    ...(cfg.pseudonymize && v.role !== 'admin' ? { pseudonymize: emailPseudonyms(cfg.sessionSecret) } : {}),
    admin: v.role === 'admin',
    email: v.email,
    orgView: v.role !== 'manager' || !cfg.restrictOrgView,
    seesTeamDetails: (team) => v.role === 'admin' || v.teams.some((m) => isWithin(team, m)),
    ...(cfg.privacy && v.role !== 'admin' ? { privacy: privacyLens(cfg.privacy) } : {}),
    key: JSON.stringify([v.role, cfg.restrictOrgView, [...v.teams].sort(), cfg.privacy?.minGroup ?? 0]),
  };
}

/**
 * Whether the reader may set what is kept for a team ('' the organization), a mark or an alert rule: everyone
 * without sign-in (where they write from is checked apart), admins any, managers their teams' and sub-teams'.
 */
export const setsFor = (scope: ViewScope | undefined, team: string): boolean =>
  !scope || scope.admin || (team !== '' && scope.seesTeamDetails(team));

/** The MCP endpoint (server/mcp): an API path to the gate (a 401 without credentials, never the sign-in page). */
export const MCP_PATH = '/mcp';

const acting = new WeakMap<IncomingMessage, Viewer>();
/**
 * Sets who a request acts as: the gate, for each request it lets through with a reader; the MCP endpoint, on each
 * request it makes in-process for its caller, which the gate then takes as that reader's without reading their
 * credentials again (a request object made here, never one that came in, can carry one).
 */
export const actAs = (req: IncomingMessage, v: Viewer) => void acting.set(req, v);
/** Who a request acts as, once the gate let it through (or the MCP endpoint made it); undefined without sign-in. */
export const actingAs = (req: IncomingMessage): Viewer | undefined => acting.get(req);

const scopes = new WeakMap<IncomingMessage, ViewScope>();
/** Set by the sign-in gate on each request it lets through. */
export const setScope = (req: IncomingMessage, scope: ViewScope) => void scopes.set(req, scope);
/** The request's reader's scope; undefined without sign-in (everything is shown). */
export const scopeOf = (req: IncomingMessage): ViewScope | undefined => scopes.get(req);

/** What the mapping tells about managers: team path → its managers' emails (as `canonicalEmail` gives them). */
export type Managers = ReadonlyMap<string, ReadonlySet<string>>;

/** An address as it is compared here and everywhere else (src/server/core/text.ts). */
export { canonicalEmail };

/** Whether the settings or the mapping name this address itself (as `canonicalEmail` gives it), not by its domain. */
const named = (email: string, cfg: AuthConfig, managers: Managers | undefined) =>
  cfg.admins.has(email) || cfg.allowedEmails.has(email) || [...(managers?.values() ?? [])].some((s) => s.has(email));

/**
 * The address an email is taken for only by Unicode folding (compatibility forms and full lowercasing,
 * NFKC), when that address would be let in as someone else than the email itself: a claim to refuse.
 * An address the settings or the mapping name as it is (`Ömer@…` in ADMIN_EMAILS) is that person, whatever
 * its folded form (`ömer@…`, let in by its domain) would be.
 */
export function foldedInto(email: string, cfg: AuthConfig, managers: Managers | undefined): string | null {
  const exact = canonicalEmail(email);
  const folded = exact.normalize('NFKC').toLowerCase().normalize('NFKC');
  if (folded === exact || named(exact, cfg, managers)) return null;
  const grant = (e: string) => {
    const v = viewerOf({ email: e, name: null }, cfg, managers);
    return v && `${v.role} ${v.teams.join('\n')}`;
  };
  const as = grant(folded);
  return as && as !== grant(exact) ? folded : null;
}

/** The signed-in person's role, or null when they may not enter. */
export function viewerOf(
  who: { email: string; name: string | null },
  cfg: AuthConfig,
  managers: Managers | undefined,
): Viewer | null {
  const email = canonicalEmail(who.email);
  if (cfg.admins.has(email)) return { email, name: who.name, role: 'admin', teams: [] };
  const teams = [...(managers ?? new Map<string, ReadonlySet<string>>()).entries()]
    .filter(([, emails]) => emails.has(email))
    .map(([team]) => team)
    .sort();
  // A team managed under another managed team adds nothing: keep the outermost.
  const outermost = teams.filter((t) => !teams.some((o) => o !== t && isWithin(t, o)));
  if (outermost.length > 0) return { email, name: who.name, role: 'manager', teams: outermost };
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (cfg.allowedEmails.has(email) || cfg.allowedDomains.has(domain)) {
    return { email, name: who.name, role: 'viewer', teams: [] };
  }
  return null;
}

export type Decision =
  | { allow: true }
  /** Allowed, with the `team` parameters replaced: the request is limited to these teams. */
  | { allow: true; teams: string[] }
  /** Allowed if the user asked about is one the viewer may see (decided with the store's email). */
  | { allow: 'user'; userId: string }
  | { allow: false; status: 403; detail: string };

const refuse = (detail: string): Decision => ({ allow: false, status: 403, detail });

/** A manager's request's teams: all within theirs (none asked: theirs), or a refusal naming the first outside. */
function withinTeams(v: Viewer, asked: readonly string[]): Decision {
  if (asked.length === 0) return { allow: true, teams: v.teams };
  const outside = asked.find((t) => !v.teams.some((m) => isWithin(t, m)));
  if (outside !== undefined) {
    return refuse(
      `You see the figures of ${v.teams.join(', ')} and their sub-teams; ${JSON.stringify(outside)} is not one of them.`,
    );
  }
  return { allow: true };
}

/** What a rule reads of the request. */
export interface Ask {
  method: string;
  path: string;
  search: URLSearchParams;
}

/**
 * Who may call one of the dashboard's own routes, for a reader who is not an admin (admins may call every
 * route): each route of the table (src/server/http) names its rule.
 */
export type AccessRule = (v: Viewer, cfg: AuthConfig, ask: Ask) => Decision;

const orgFigures = (v: Viewer, cfg: AuthConfig): Decision =>
  v.role === 'viewer' || !cfg.restrictOrgView
    ? { allow: true }
    : refuse('Organization-wide figures are not shown to managers here (RESTRICT_ORG_VIEW).');

/** A rule for figures of teams: the organization's (`org`, when no team is asked), or a manager's teams'. */
const teamsRule =
  (viewerRefusal: string, org?: (v: Viewer, cfg: AuthConfig) => Decision): AccessRule =>
  (v, cfg, { search }) => {
    const asked = search.getAll('team');
    if (asked.length === 0 && org) return org(v, cfg);
    return v.role === 'viewer' ? refuse(viewerRefusal) : withinTeams(v, asked);
  };

export const ACCESS = {
  /** Holds no person's data, or shapes its answer to the reader (the teams tree). */
  everyone: (() => ({ allow: true })) as AccessRule,
  /** The mapping names everyone's team: for admins only, as are its changes. */
  mapping: ((_v, _cfg, { method }) =>
    refuse(
      method === 'GET' || method === 'HEAD'
        ? 'The team mapping names every person’s team: it is shown to admins (ADMIN_EMAILS).'
        : 'Only an admin (ADMIN_EMAILS) can change the team mapping.',
    )) as AccessRule,
  /** People's rows (the users table, its CSV, the top users): a manager's people. */
  peopleRows: ((v, cfg, { path, search }) => {
    if (v.role === 'viewer')
      return refuse('Other people’s rows are shown to their managers and admins; your own page is under your name.');
    const asked = search.getAll('team');
    if (path === '/api/teams/top-users' && asked.length === 0 && !cfg.restrictOrgView)
      return refuse('The organization’s top users are shown to admins; choose one of your teams.');
    return withinTeams(v, asked);
  }) as AccessRule,
  /** One person's page: their own, or a manager's person's (decided with the store's email). */
  onePerson: ((_v, _cfg, { path }) => {
    try {
      return { allow: 'user', userId: decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) };
    } catch {
      return { allow: true }; // the route answers the bad encoding itself
    }
  }) as AccessRule,
  /** A team's usage answers; without a team, the organization's days without the per-user split. */
  teamAnalytics: teamsRule('A team’s figures are shown to its managers and admins.', orgFigures),
  /** They name people (spikes, newcomers, idle members): for managers (their teams) and admins. */
  highlights: teamsRule('The highlights name people: they are shown to managers and admins.'),
  cohorts: teamsRule('A team’s cohorts are shown to its managers and admins.', (v, cfg) =>
    v.role === 'manager' && cfg.restrictOrgView ? withinTeams(v, []) : { allow: true },
  ),
  /** The organization's spend, a manager's teams', or one person's (as their page). */
  spend: ((v, cfg, ask) => {
    const user = ask.search.get('user');
    if (user !== null) return { allow: 'user', userId: user };
    return teamsRule('A team’s spend is shown to its managers and admins.', orgFigures)(v, cfg, ask);
  }) as AccessRule,
  budgets: ((v, _cfg, { method }) => {
    if (method !== 'GET' && method !== 'HEAD') return refuse('Only an admin (ADMIN_EMAILS) can set the budgets.');
    return v.role === 'viewer' ? refuse('The budgets are shown to managers and admins.') : { allow: true };
  }) as AccessRule,
  spendTeams: teamsRule('The teams’ spend is shown to their managers and admins.'),
  /**
   * Repositories' readiness: the organization's (every repository) for a reader who may see the
   * organization's figures, and then any team's; a manager kept to their teams (RESTRICT_ORG_VIEW) asks
   * for their teams (sub-teams included), and is refused the organization's or another team's.
   */
  readiness: ((v, cfg, { search }) => {
    const asked = search.getAll('team');
    const org = orgFigures(v, cfg);
    if (org.allow || v.role !== 'manager') return asked.length === 0 ? org : { allow: true };
    if (asked.length === 0)
      return refuse(
        `The organization’s readiness is not shown to managers here (RESTRICT_ORG_VIEW); choose one of your teams: ${v.teams.join(', ')}.`,
      );
    return withinTeams(v, asked);
  }) as AccessRule,
  /** The team tree counts each team's people: for managers (their teams' counts shown by the route) and admins. */
  teamTree: ((v) =>
    v.role === 'viewer'
      ? refuse('The team tree counts each team’s people: it is shown to managers and admins.')
      : { allow: true }) as AccessRule,
  /** A manager's teams page: their teams' rows (and the organization's), not the other teams'. */
  teamsSummary: teamsRule('The teams’ figures are shown to their managers and admins.'),
  /**
   * `/api/figures`, as the page asking the same question: one person's (`user=`) as their page; people's rows
   * (`by=person`) as the users table; each team's (`by=team`) as the teams summary; the others as a team's figures
   * (the organization's unless RESTRICT_ORG_VIEW keeps a manager to their teams).
   */
  figures: ((v, cfg, ask) => {
    const user = ask.search.get('user');
    if (user !== null) return { allow: 'user', userId: user };
    const by = ask.search.get('by');
    const as: AccessRule =
      by === 'person' ? ACCESS.peopleRows : by === 'team' ? ACCESS.teamsSummary : ACCESS.teamAnalytics;
    return as(v, cfg, ask);
  }) as AccessRule,
  /** Intensity's thresholds are the organization's, frozen for a quarter: only an admin refreshes them. */
  intensityThresholds: (() =>
    refuse('Only an admin (ADMIN_EMAILS) can refresh the intensity thresholds.')) as AccessRule,
  /**
   * The service's organization figures (its days, its readiness reports): every reader but a manager kept to
   * their teams (RESTRICT_ORG_VIEW). Their per-person rows are limited by the route's shape, not here.
   */
  serviceOrg: ((v, cfg) => orgFigures(v, cfg)) as AccessRule,
  /**
   * The service's `/users` rows, limited by the route's shape to the reader's people. Its pages walk the whole
   * organization (a page's `has_more` counts people the reader does not see): not for a manager kept to their teams.
   */
  serviceUsers: ((v, cfg) =>
    orgFigures(v, cfg).allow
      ? { allow: true }
      : refuse(
          'The service’s list of everyone active is not shown to managers here (RESTRICT_ORG_VIEW); the users page shows your teams’ people.',
        )) as AccessRule,
} satisfies Record<string, AccessRule>;

/**
 * Whether the viewer may make this request (the API's paths; pages and assets are not asked about): admins every
 * route, the others by the rule of the route the request would reach (`rule`), none for a path of no route (a 404).
 */
export function decide(
  v: Viewer,
  cfg: AuthConfig,
  method: string,
  path: string,
  search: URLSearchParams,
  rule: AccessRule | undefined,
): Decision {
  if (v.role === 'admin') return { allow: true };
  return rule ? rule(v, cfg, { method, path, search }) : { allow: true };
}
