/**
 * A test OpenID provider on loopback for the end-to-end sign-in (playwright.config.ts): its own
 * sign-in page takes any password; accounts are named by their email. Never for real use.
 */
import { startProvider } from '../src/test/oidc';

const port = Number(process.env.PORT ?? 5315);
const redirect = process.env.REDIRECT_URI ?? 'http://127.0.0.1:5316/auth/callback';
const p = await startProvider(redirect, 'dashboard', 'dashboard-secret', port);
process.stdout.write(`test OpenID provider at ${p.issuer}\n`);
