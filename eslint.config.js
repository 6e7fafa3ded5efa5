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
const zones = [
  { target: './src/lib', from: ['./src/api', ...SPA, './src/server'] },
  { target: './src/api', from: [...SPA, './src/server'] },
  { target: './src/data', from: ['./src/components', './src/features', './src/app', './src/server'] },
  { target: './src/components', from: ['./src/features', './src/app', './src/server'] },
  { target: './src/features', from: ['./src/app', './src/server'] },
  { target: './src/server', from: SPA },
  { target: './src/app', from: ['./src/server'] },
  { target: './src/server/core', from: './src/server/demo', message: 'The server core never imports the demo.' },
  {
    target: './src/server/analytics',
    from: [
      './src/server/users',
      './src/server/insights',
      './src/server/digest',
      './src/server/auth',
      './src/server/app.ts',
    ],
    message: 'The analytics engine is below the pages that use it.',
  },
  {
    target: './src/server/analytics',
    from: './src/server/teams',
    except: ['./mapping.ts', './tree.ts'],
    message: 'The analytics engine takes the mapping and its tree rules, not the teams routes.',
  },
];
const features = ['usage', 'tools', 'activity', 'productivity', 'users', 'readiness', 'teams'];
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
);
