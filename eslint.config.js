import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The one-way flow of the architecture: api ← lib ← data ← components ← features ← app.
 * (`api` may use `lib`; `server` may use `api` and `lib`, never the SPA's code.)
 */
const SPA = ['./src/data', './src/components', './src/features', './src/app'];
/** The server's folders answering the pages, and its composition root. */
const FEATURES = [
  'service',
  'teams',
  'spend',
  'users',
  'insights',
  'readiness',
  'digest',
  'alerts',
  'marks',
  'goals',
  'figures',
  'mcp',
  'tokens',
  'reconcile',
];
const APP = [
  './src/server/app.ts',
  './src/server/app-store.ts',
  './src/server/main.ts',
  './src/server/sync-cli.ts',
  './src/server/digest-cli.ts',
  './src/server/alerts-cli.ts',
];
const S = (dirs, more = []) => [...dirs.map((d) => `./src/server/${d}`), ...more];
const zones = [
  { target: './src/lib', from: ['./src/api', ...SPA, './src/server'] },
  { target: './src/api', from: [...SPA, './src/server'] },
  { target: './src/data', from: ['./src/components', './src/features', './src/app', './src/server'] },
  { target: './src/components', from: ['./src/features', './src/app', './src/server'] },
  { target: './src/features', from: ['./src/app', './src/server'] },
  { target: './src/server', from: SPA },
  { target: './src/app', from: ['./src/server'] },
];
/** Applied to the server's production code (its tests may drive the whole app). */
const serverZones = [
  // The server's layers, lowest first: core; upstream and store; sync; the analytics engine (with the mapping's
  // and the price list's rules it reads); auth; the route table (http); the features answering the pages
  // (teams, spend, users, insights, digest); the composition (app.ts, main.ts). Each imports only below it.
  {
    target: './src/server/core',
    from: S(['demo', 'upstream', 'store', 'sync', 'analytics', 'auth', 'http', ...FEATURES], APP),
    message: 'The server core is what every layer uses; it imports none of them (nor the demo).',
  },
  {
    target: ['./src/server/store', './src/server/upstream'],
    from: S(['sync', 'analytics', 'auth', 'http', ...FEATURES], APP),
    message: 'The store of record and the service client are below everything that reads them.',
  },
  {
    target: './src/server/sync',
    from: S(['analytics', 'auth', 'http', ...FEATURES], APP),
    message: 'The sync fills the store; nothing above it is its concern.',
  },
  {
    target: './src/server/analytics',
    from: S(['auth', 'http', 'users', 'insights', 'readiness', 'digest'], APP),
    message: 'The analytics engine is below the routes and pages that ask it.',
  },
  {
    target: './src/server/analytics',
    from: './src/server/teams',
    except: ['./mapping.ts', './tree.ts'],
    message: 'The analytics engine takes the mapping and its tree rules, not the teams routes.',
  },
  {
    target: './src/server/analytics',
    from: './src/server/spend',
    except: ['./prices.ts'],
    message: 'The analytics engine takes the price list’s rules, not the spend routes.',
  },
  {
    target: ['./src/server/auth', './src/server/http'],
    from: S(['analytics', 'service', 'users', 'spend', 'insights', 'readiness', 'digest'], APP),
    message: 'Sign-in and the route table are below the features whose routes they carry.',
  },
  {
    target: ['./src/server/auth', './src/server/http'],
    from: './src/server/teams',
    except: ['./mapping.ts', './tree.ts'],
    message: 'Sign-in and the route table take the mapping and its tree rules, not the teams routes.',
  },
  { target: './src/server/auth', from: './src/server/http', message: 'The route table applies sign-in’s rules.' },
  {
    target: S(FEATURES),
    from: APP,
    message: 'The composition root (app.ts, main.ts) puts the features together; none imports it.',
  },
];
const features = [
  'usage',
  'tools',
  'activity',
  'productivity',
  'users',
  'readiness',
  'teams',
  'alerts',
  'settings',
  'reconciliation',
];
const featureZones = features.map((f) => ({
  target: `./src/features/${f}`,
  from: './src/features',
  except: [`./${f}`],
  message: 'A feature never imports another feature; move shared code to components, data or lib.',
}));

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', 'playwright-report', 'test-results', 'bench-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      // Lets the cycle rule read the TypeScript modules it follows.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: [...zones, ...featureZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*-fixture.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...zones, ...serverZones] }] },
  },
);
