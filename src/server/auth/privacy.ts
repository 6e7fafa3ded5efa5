/**
 * Privacy mode (`PRIVACY_MIN_GROUP=k`, with sign-in only): what a reader who is not an admin is shown of
 * people. The decisions are made here once; the gate (routes.ts) and each route apply them through the
 * reader's scope (`ViewScope.privacy`), so every route enforces the same rules:
 *
 * - a person is named by a stable pseudonym (`Person 7f3a2c91d0`: HMAC-SHA256 of their user id under
 *   PRIVACY_SECRET, else SESSION_SECRET), never by email or id; the same id is the same pseudonym on every
 *   replica and after every restart, and nobody without the secret can tell whose it is;
 * - a figure about fewer than k people is withheld, and so is one from which such a group can be derived by
 *   difference: the teams shown are decided once from the tree (teams/tree.ts `shownTeams`), the others folded
 *   into their parents (`foldSmall`, `shownTeamOf`), asked alone they are refused (`smallTeamRefusal`); a filter leaving
 *   fewer than k people says so, and a count of 1 to k−1 people is not given;
 * - organization and team totals are computed before anything is withheld, so they stay exact.
 */
import { createHmac } from 'node:crypto';
import { canonicalEmail } from '../core/text';

export interface PrivacyConfig {
  /** The smallest group a figure may describe (2 or more). */
  minGroup: number;
  /** The pseudonyms' key: PRIVACY_SECRET, else SESSION_SECRET. */
  secret: string;
}

/** PRIVACY_MIN_GROUP (and PRIVACY_SECRET), or undefined when the mode is off; a bad value stops the server naming it. */
export function readPrivacyConfig(env: NodeJS.ProcessEnv, sessionSecret: string): PrivacyConfig | undefined {
  const raw = env.PRIVACY_MIN_GROUP;
  if (raw === undefined || raw === '') {
    if (env.PRIVACY_SECRET) throw new Error('PRIVACY_SECRET is set without PRIVACY_MIN_GROUP: set both, or neither');
    return undefined;
  }
  const k = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(k) || k < 2)
    throw new Error(`PRIVACY_MIN_GROUP must be a whole number of people, 2 or more; got ${JSON.stringify(raw)}`);
  const secret = env.PRIVACY_SECRET ?? sessionSecret;
  if (secret.length < 32)
    throw new Error('PRIVACY_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  return { minGroup: k, secret };
}

/** A person's pseudonym: the same for the same id under the same secret, and 40 bits so 50,000 people do not collide. */
export function pseudonym(secret: string, userId: string): string {
  return `Person ${createHmac('sha256', secret).update(`user:${userId}`).digest('hex').slice(0, 10)}`;
}

/** What a reader in privacy mode is shown of people (the scope's `privacy`; absent for admins and with the mode off). */
export interface PrivacyLens {
  minGroup: number;
  /** The person as named to this reader: their pseudonym in place of both id and email. */
  person<T extends { userId: string; email: string | null }>(p: T): T;
  /** A name for a person in a sentence. */
  name(userId: string): string;
  /** Whether a count of people is too small to be shown (0 names nobody: shown). */
  tooFew(people: number): boolean;
}

/**
 * The names given so far under each configuration: the users table's view names everyone of the copy again when it
 * changes, and an HMAC each is the bulk of that.
 */
const named = new WeakMap<PrivacyConfig, Map<string, string>>();

export function privacyLens(cfg: PrivacyConfig): PrivacyLens {
  let names = named.get(cfg);
  if (!names) named.set(cfg, (names = new Map()));
  const name = (userId: string) => {
    let n = names.get(userId);
    if (n === undefined) names.set(userId, (n = pseudonym(cfg.secret, userId)));
    return n;
  };
  return {
    minGroup: cfg.minGroup,
    name,
    person: (p) => ({ ...p, userId: name(p.userId), email: null }),
    tooFew: (n) => n > 0 && n < cfg.minGroup,
  };
}

/** The refusal of a team asked for alone that is not shown (`shownTeams`). */
export const smallTeamRefusal = (team: string, k: number) =>
  `Privacy mode (PRIVACY_MIN_GROUP=${k}): ${JSON.stringify(team)} has fewer than ${k} members, or its figures beside its parent team’s would single out fewer than ${k} people, so they are not shown on their own; they are counted in its parent team’s and the organization’s.`;

/**
 * Emails as the answers carry them (JSON strings, CSV cells), letters of any script included: an address
 * with a non-ASCII letter is replaced whole, not from its first ASCII letter on (`Ömer@…` left `Ö` before it).
 */
const EMAIL = /[\p{L}\p{M}\p{N}._%+-]+@[\p{L}\p{M}\p{N}.-]+\.[\p{L}\p{M}]{2,}/gu;

/**
 * PSEUDONYMIZE=1's rewrite of a text: every email in it replaced by an address that is stable per deployment
 * and unguessable without the secret; the same person (the same address as sign-in compares them) is the same
 * pseudonym, and a look-alike (`\u212Aim@…` for `kim@…`) another one.
 */
export function emailPseudonyms(secret: string): (text: string) => string {
  const of = (email: string) =>
    `person-${createHmac('sha256', secret).update(canonicalEmail(email)).digest('hex').slice(0, 10)}@pseudonym.invalid`;
  return (text) => text.replace(EMAIL, of);
}

/** What a channel (the alerts' webhook, the weekly digest) is told of people; see `channelView`. */
export interface ChannelView {
  /** How it names a person (a pseudonym, never an email or id), and which groups it is told of. */
  lens: PrivacyLens;
  /** Privacy mode's k: a channel is told of the teams `shownTeams` shows for it, and of no other; none without it. */
  minGroup: number | undefined;
  /** A message as posted: with PSEUDONYMIZE=1 every email left in it rewritten as the pages rewrite them. */
  told: <T>(message: T) => T;
}

/**
 * A channel is no signed-in reader, and who reads it is not known: it is told what a reader who is not an admin is.
 * In privacy mode, people by pseudonym and no figure of a team under k; with PSEUDONYMIZE=1, people by pseudonym as
 * well (a page's pseudonym addresses come beside ids, which a channel is not given: the key is SESSION_SECRET, as
 * the mode's default) and every other email rewritten. Undefined when neither is on: a channel names people.
 */
export function channelView(
  auth: { privacy: PrivacyConfig | undefined; pseudonymize: boolean; sessionSecret: string } | undefined,
): ChannelView | undefined {
  if (!auth || (!auth.privacy && !auth.pseudonymize)) return undefined;
  const k = auth.privacy?.minGroup;
  const rewrite = auth.pseudonymize ? emailPseudonyms(auth.sessionSecret) : undefined;
  return {
    // Without privacy mode no group is too small (a group of 1 or more is told of).
    lens: privacyLens(auth.privacy ?? { minGroup: 1, secret: auth.sessionSecret }),
    minGroup: k,
    told: (message) => (rewrite ? (JSON.parse(rewrite(JSON.stringify(message))) as typeof message) : message),
  };
}
