/**
 * The service's `/users` cursor as a reader whose rows are limited (a manager, a viewer: src/server/auth)
 * is given it. A cursor is the id of the last user of the page, whose rows the reader may not see: it is
 * sealed (AES-256-GCM, under a key from the session secret) so that it names nobody, and opened again
 * when the reader asks for the next page. A cursor not sealed here (a person's id, tried) is refused.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export function cursorSealer(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'agent-usage-dashboard', 'users cursor', 32));
  const seal = (cursor: string): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(cursor, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  };
  /** The cursor sealed here, or null. */
  const open = (sealed: string): string | null => {
    try {
      const b = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
      decipher.setAuthTag(b.subarray(12, 28));
      return Buffer.concat([decipher.update(b.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  };
  return { seal, open };
}
