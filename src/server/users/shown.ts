/**
 * What a reader is shown of the users answers (users/routes.ts): the managers' emails for the teams whose details
 * they may see, and in privacy mode (auth/privacy.ts) each person by pseudonym under the nearest team shown, the
 * counts of 1 to k−1 people withheld, and the questions a pseudonymous table cannot answer refused.
 */
import type { UsersTableAnswer } from '../../api/users';
import type { MergedUser } from '../../lib/user-merge';
import { nameKey, type GraceCounts, type PersonView, type SeatCounts } from '../analytics/users-question';
import type { ViewScope } from '../auth/access';
import type { PrivacyLens } from '../auth/privacy';
import { shownTeamOf } from '../teams/tree';

/**
 * Managers' emails go to readers who may see that team's details (with sign-in: admins, the team's managers);
 * each row's team is the one its table was made with.
 */
export const managersShown =
  (place: { managersOf: (team: string) => string[] } | null | undefined, scope: ViewScope | undefined) =>
  (u: MergedUser): MergedUser =>
    u.team === undefined
      ? u
      : {
          ...u,
          // Privacy mode: managers are people too (a reader's own page shows no one else's email).
          managers:
            place && (!scope || (scope.seesTeamDetails(u.team) && !scope.privacy)) ? place.managersOf(u.team) : [],
        };

/**
 * Privacy mode: how the reader sees each person, given to the table to label and order its rows by (the nearest team
 * shown up the tree, none when there is none; the pseudonym). `shownTeams`: the teams shown for k, with a key.
 */
export async function personViewOf(
  lens: PrivacyLens,
  shownTeams?: (k: number) => Promise<{ teams: ReadonlySet<string>; key: string }>,
): Promise<PersonView> {
  const shown = (await shownTeams?.(lens.minGroup)) ?? { teams: new Set<string>(), key: 'none' };
  return { key: `${lens.minGroup}|${shown.key}`, team: (t) => shownTeamOf(t, shown.teams), name: lens.name };
}

/**
 * Privacy mode: a row (its team already the one shown) named by its pseudonym (a person the mapping names by email
 * alone by one of their email), without managers' emails.
 */
export const privately =
  (lens: PrivacyLens) =>
  (u: MergedUser): MergedUser => ({
    ...lens.person({ ...u, userId: nameKey(u.userId, u.email) }),
    managers: u.team === undefined ? undefined : [],
  });

/** Privacy mode: the seats' counts, each of 1 to k−1 people not given (as their list is not). */
export const seatsShown = (seats: SeatCounts | null, lens: PrivacyLens | undefined) =>
  seats && lens
    ? (Object.fromEntries(Object.entries(seats).map(([k, n]) => [k, lens.tooFew(n) ? null : n])) as Record<
        keyof SeatCounts,
        number | null
      >)
    : seats;

/** Privacy mode: the new starters in grace each unused list leaves out, as the seats' counts (1 to k−1 not given). */
export function graceShown(g: GraceCounts, lens: PrivacyLens | undefined): NonNullable<UsersTableAnswer['grace']> {
  const n = (x: number) => (lens?.tooFew(x) ? null : x);
  return {
    days: g.days,
    inactive: n(g.inactive),
    seats: g.seats && { idle7: n(g.seats.idle7), idle30: n(g.seats.idle30), never: n(g.seats.never) },
  };
}

/** Why a users question is refused in privacy mode, or undefined. */
export const privacyRefusal = (lens: PrivacyLens | undefined, q: string, sort: string) =>
  lens && q.trim() !== ''
    ? `Privacy mode (PRIVACY_MIN_GROUP=${lens.minGroup}): people are pseudonymous to managers, so the table cannot be searched by email or id.`
    : lens && sort === 'user'
      ? `Privacy mode (PRIVACY_MIN_GROUP=${lens.minGroup}): people are pseudonymous to managers, so the table cannot be sorted by person.`
      : undefined;

/** Privacy mode: why a table of fewer than k people is withheld. */
export const withheldDetail = (k: number) =>
  `Privacy mode (PRIVACY_MIN_GROUP=${k}): these filters leave fewer than ${k} people, so neither their rows nor their count are shown.`;
