/**
 * The reader's place in the users list, kept across a visit to a person's page: the list's own parameters (its
 * search, filters, columns, list and sort) travel in the person's address and back in "← All users", and where the
 * reader had scrolled to is kept for the session, given back when the same list is drawn again (by that link or by
 * the browser's Back).
 */
import { CARRIED } from '../../data/search';

/** The users list's own parameters, beside those every link carries (the range, the teams). */
export const LIST_PARAMS = ['q', 'delegation', 'tier', 'lang', 'cols', 'who', 'usersSort'] as const;

/** `href` (a `linkTo` address) with the list's parameters of `current` added. */
export function withList(href: string, current: URLSearchParams): string {
  const [path, query = ''] = href.split('?');
  const next = new URLSearchParams(query);
  for (const k of LIST_PARAMS) {
    const v = current.get(k);
    if (v) next.set(k, v);
  }
  const s = next.toString();
  return s ? `${path}?${s}` : path!;
}

/** What a list is, from its address's search: the parameters that decide its rows, in one order. */
export function listKey(search: string): string {
  const params = new URLSearchParams(search);
  const kept: [string, string][] = [];
  for (const k of [...CARRIED, ...LIST_PARAMS]) for (const v of params.getAll(k)) if (v) kept.push([k, v]);
  kept.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return new URLSearchParams(kept).toString();
}

/** Where the reader was: the page's scroll and the table's. */
export interface ListPlace {
  page: number;
  table: number;
}

const KEY = 'users-list-place';
/** A place older than this is the reader's no longer (they went elsewhere and came back by another way). */
const KEPT_MS = 30 * 60_000;

const storage = () => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);

/** Keeps where the reader is in the list (`search`: its address's), as they open a person. */
export function keepPlace(search: string, place: ListPlace): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ list: listKey(search), at: Date.now(), ...place }));
  } catch {
    // A full or refused storage loses the place, nothing else.
  }
}

/** The place kept for this list (none for another list, or one kept too long ago). */
export function placeOf(search: string): ListPlace | undefined {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return undefined;
    const kept = JSON.parse(raw) as { list?: unknown; at?: unknown; page?: unknown; table?: unknown };
    if (kept.list !== listKey(search) || typeof kept.at !== 'number' || Date.now() - kept.at > KEPT_MS)
      return undefined;
    return { page: Number(kept.page) || 0, table: Number(kept.table) || 0 };
  } catch {
    return undefined;
  }
}

/** Forgets the place kept, once given back: the list opened again another day starts at its top. */
export function forgetPlace(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}
