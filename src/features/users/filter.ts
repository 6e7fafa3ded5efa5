import type { MergedUser } from './merge';

export interface UserFilter {
  search: string;
  delegation: string;
  tier: string;
  language: string;
}

/** Search by email or id (case-insensitive, substring); exact match on the chosen facets. */
export function filterUsers(users: readonly MergedUser[], f: UserFilter): MergedUser[] {
  const q = f.search.trim().toLowerCase();
  return users.filter(
    (u) =>
      (!q || u.userId.toLowerCase().includes(q) || (u.email?.toLowerCase().includes(q) ?? false)) &&
      (!f.delegation || u.delegationLevel === f.delegation) &&
      (!f.tier || u.primaryModelTier === f.tier) &&
      (!f.language || u.languages.includes(f.language)),
  );
}

/** The values present, for the filter menus. */
export function facetValues(users: readonly MergedUser[]) {
  const delegation = new Set<string>();
  const tier = new Set<string>();
  const language = new Set<string>();
  for (const u of users) {
    if (u.delegationLevel) delegation.add(u.delegationLevel);
    if (u.primaryModelTier) tier.add(u.primaryModelTier);
    for (const l of u.languages) language.add(l);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { delegation: sorted(delegation), tier: sorted(tier), language: sorted(language) };
}
