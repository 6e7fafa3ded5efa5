/**
 * A test OpenID provider on loopback for the end-to-end sign-in (playwright.config.ts): its own
 * sign-in page takes any password; accounts are named by their email. Never for real use.
 */
import { startProvider } from '../src/test/oidc';

const port = Number(process.env.PORT ?? 5315);
// One redirect URI, or several separated by commas (one per dashboard that signs in through it).
const redirects = (process.env.REDIRECT_URI ?? 'http://127.0.0.1:5316/auth/callback').split(',');
const p = await startProvider(redirects, 'dashboard', 'dashboard-secret', port);
process.stdout.write(`test OpenID provider at ${p.issuer}\n`);
