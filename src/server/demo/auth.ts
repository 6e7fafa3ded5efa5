/** Who is calling: API keys with their roles, and which roles may read which endpoints. */
import { HttpError } from '../core/errors';

export const ROLES = ['owner', 'manager', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];

export const DEFAULT_KEYS: ReadonlyMap<string, Role> = new Map([
  ['demo-owner', 'owner'],
  ['demo-manager', 'manager'],
  ['demo-member', 'member'],
]);

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The caller's role from `Authorization: Bearer <key>`; 401 without a known key. */
export function authenticate(headers: RequestHeaders, keys: ReadonlyMap<string, Role>): Role {
  const raw = headers.authorization;
  const auth = Array.isArray(raw) ? raw[0] : raw;
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (!m) throw new HttpError(401, 'Missing API key: send the header "Authorization: Bearer <API_KEY>".');
  const role = keys.get(m[1]!);
  if (!role) throw new HttpError(401, 'Invalid API key.');
  return role;
}

/** Readiness reports are open to any valid key; the analytics only to managers and owners. */
export function authorize(role: Role, family: 'analytics' | 'readiness'): void {
  if (family === 'analytics' && role !== 'owner' && role !== 'manager') {
    throw new HttpError(403, 'The analytics endpoints require the Manager or Owner role.');
  }
}
