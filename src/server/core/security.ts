/** The headers that keep the page from being framed, sniffed or made to run foreign script. */
import type { ServerResponse } from 'node:http';

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Chart libraries set style attributes; no inline script is ever allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  // Nothing of an address leaves for another site; our own requests keep their real Origin (under no-referrer a
  // form post's Origin is `null`, which tells the server nothing about where it came from).
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** All of them in production; in development only nosniff, since Vite's dev server injects inline script. */
export function setSecurityHeaders(res: ServerResponse, production: boolean): void {
  if (production) for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
  else res.setHeader('x-content-type-options', 'nosniff');
}
