/**
 * Personal API tokens in the store, on both engines: made, listed, revoked, expired, and kept as their SHA-256 only;
 * the token check (auth/tokens.ts) reads the person's role at each request and refuses what is no longer valid, on
 * every server sharing the store.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type OpenedStore } from '../../test/stores';
import { readAuthConfig } from '../auth/config';
import { createTokenCheck, issueToken, tokenBuckets, TOKEN_PREFIX } from '../auth/tokens';
import { openStore } from './db';
import {
  countLiveTokens,
  forgetOldTokens,
  readToken,
  readTokens,
  revokeToken,
  tokenByHash,
  touchToken,
} from './tokens-queries';

const DAY = 86_400_000;
const cfg = (extra: Record<string, string> = {}) =>
  readAuthConfig({
    OIDC_ISSUER: 'http://127.0.0.1:1',
    OIDC_CLIENT_ID: 'dashboard',
    OIDC_CLIENT_SECRET: 'dashboard-secret',
    PUBLIC_URL: 'http://127.0.0.1:2',
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters!',
    ADMIN_EMAILS: 'admin@acme.example',
    ALLOWED_DOMAINS: 'acme.example',
    ...extra,
  })!;

describe.each(STORE_ENGINES)('personal API tokens in the $name store', ({ available, open }) => {
  const opened: OpenedStore[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close();
      await o.drop();
    }
  });
  const fresh = async () => {
    const o = await open();
    opened.push(o);
    return o;
  };

  it.skipIf(!available)('keeps a token as its SHA-256 only, and finds it by that hash', async () => {
    const { store } = await fresh();
    const made = await issueToken(store.db, { email: 'ann@acme.example', name: 'Weekly report', days: 30 });
    expect(made.token).toMatch(new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(made.row.hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    // Nothing stored holds the token, or any 12 characters of its random part.
    const rows = await store.db.selectFrom('api_token').selectAll().execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    const secret = made.token.slice(TOKEN_PREFIX.length);
    for (let i = 0; i + 12 <= secret.length; i++) expect(stored).not.toContain(secret.slice(i, i + 12));
    expect(await tokenByHash(store.db, made.row.hash)).toEqual(made.row);
    expect(await tokenByHash(store.db, createHash('sha256').update(`${made.token}x`).digest('hex'))).toBeUndefined();
    // Lasting the days asked for.
    expect(Date.parse(made.row.expires_at) - Date.parse(made.row.created_at)).toBe(30 * DAY);
    // Two tokens never share a hash: the store refuses a second row with it.
    await expect(
      store.db
        .insertInto('api_token')
        .values({ ...made.row, id: 'other' })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it.skipIf(!available)('lists a person’s tokens newest first, everyone’s for admins', async () => {
    const { store } = await fresh();
    const t0 = new Date('2026-03-01T10:00:00Z');
    const a1 = await issueToken(store.db, { email: 'ann@acme.example', name: 'one', days: 10 }, t0);
    const b1 = await issueToken(store.db, { email: 'bo@acme.example', name: 'bo', days: 10 }, new Date(+t0 + 1000));
    const a2 = await issueToken(store.db, { email: 'ann@acme.example', name: 'two', days: 10 }, new Date(+t0 + 2000));
    expect((await readTokens(store.db, 'ann@acme.example')).map((t) => t.name)).toEqual(['two', 'one']);
    expect((await readTokens(store.db, null)).map((t) => t.id)).toEqual([a2.row.id, b1.row.id, a1.row.id]);
    expect(await readTokens(store.db, 'nobody@acme.example')).toEqual([]);
  });

  it.skipIf(!available)(
    'revokes a token once, expires it on time, and forgets both a while after; on every server sharing the store',
    async () => {
      const o = await fresh();
      const db = o.store.db;
      const now = new Date();
      const at = now.toISOString();
      const live = await issueToken(db, { email: 'ann@acme.example', name: 'live', days: 365 });
      const revoked = await issueToken(db, { email: 'ann@acme.example', name: 'revoked', days: 365 });
      const expired = await issueToken(
        db,
        { email: 'ann@acme.example', name: 'old', days: 1 },
        new Date(+now - 2 * DAY),
      );
      expect(await countLiveTokens(db, 'ann@acme.example', at)).toBe(2);
      expect(await revokeToken(db, revoked.row.id, 'admin@acme.example', at)).toBe(true);
      expect(await revokeToken(db, revoked.row.id, 'ann@acme.example', at)).toBe(false);
      expect(await revokeToken(db, 'no-such-id', 'ann@acme.example', at)).toBe(false);
      expect(await readToken(db, revoked.row.id)).toMatchObject({ revoked_at: at, revoked_by: 'admin@acme.example' });
      expect(await countLiveTokens(db, 'ann@acme.example', at)).toBe(1);
      await touchToken(db, live.row.id, at);
      expect((await readToken(db, live.row.id))?.last_used_at).toBe(at);

      // The check, as the gate makes it: the live token acts as its person; the others are refused with why.
      const other = o.url ? await openStore({ databaseUrl: o.url }) : undefined;
      const check = createTokenCheck({ cfg: cfg(), db: (other ?? o.store).db, managers: () => undefined });
      const ok = await check(live.token);
      expect(ok).toMatchObject({ ok: true, id: live.row.id, viewer: { email: 'ann@acme.example', role: 'viewer' } });
      for (const [t, words] of [
        [revoked.token, `revoked on ${at.slice(0, 10)}`],
        [expired.token, `expired on ${expired.row.expires_at.slice(0, 10)}`],
        [`${TOKEN_PREFIX}${'A'.repeat(43)}`, 'not known here'],
        [`${TOKEN_PREFIX}short`, 'not known here'],
      ] as const) {
        const r = await check(t);
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.answer.status).toBe(401);
        expect(r.answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
        expect(JSON.parse(r.answer.body)).toMatchObject({ title: 'Unauthorized', status: 401 });
        expect(JSON.parse(r.answer.body).detail).toContain(words);
      }
      // A person no longer allowed to sign in is refused, as the settings stand at the request.
      const closed = createTokenCheck({
        cfg: cfg({ ALLOWED_DOMAINS: 'other.example' }),
        db: o.store.db,
        managers: () => undefined,
      });
      expect(await closed(live.token)).toMatchObject({ ok: false, answer: { status: 403 } });
      await other?.close();

      // Expired and revoked tokens stay listed a while, then go; a live one stays.
      expect(await forgetOldTokens(db, new Date(+now - DAY / 2).toISOString())).toBe(1);
      expect(await forgetOldTokens(db, new Date(+now + DAY).toISOString())).toBe(1);
      expect((await readTokens(db, null)).map((t) => t.name)).toEqual(['live']);
    },
  );
});

describe('a token’s rate', () => {
  it('lets a bucket’s worth through at once, then one more each refill, and says how long to wait', () => {
    let t = 0;
    const b = tokenBuckets(3, () => t);
    expect([b.take('a'), b.take('a'), b.take('a')]).toEqual([0, 0, 0]);
    expect(b.take('a')).toBe(20);
    expect(b.take('b')).toBe(0);
    t += 10_000;
    expect(b.take('a')).toBe(10);
    t += 10_000;
    expect(b.take('a')).toBe(0);
    expect(b.take('a')).toBe(20);
  });
});
