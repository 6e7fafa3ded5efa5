/**
 * `npm run build:server`: the server compiled to plain JavaScript in `dist-server/` (one ES module per entry,
 * dependencies left as imports of `node_modules`), run with `node`, no TypeScript runner in production.
 * Fails when the server imports a package that is not in package.json's `dependencies`, since a
 * production install (`npm ci --omit=dev`) would not have it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const OUT = 'dist-server';
rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: ['src/server/main.ts', 'src/server/sync-cli.ts', 'src/server/digest-cli.ts', 'src/server/alerts-cli.ts'],
  outbase: 'src/server',
  outdir: OUT,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const builtins = new Set(builtinModules);
const packageOf = (id: string) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const missing = new Set<string>();
for (const output of Object.values(result.metafile.outputs))
  for (const { path, external } of output.imports)
    if (external && !path.startsWith('node:') && !builtins.has(path) && !(packageOf(path) in pkg.dependencies))
      missing.add(packageOf(path));
if (missing.size > 0) {
  console.error(`The server imports packages that are not in dependencies: ${[...missing].join(', ')}`);
  process.exit(1);
}
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`server compiled to ${OUT}/ (${Math.round(bytes / 1024)} KB with source maps)`);
