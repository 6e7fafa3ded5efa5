/** After `vite build`: brotli and gzip copies of text assets, which the server sends as they are. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(js|css|svg|json)$/.test(name)) yield p;
  }
}

let count = 0;
for (const f of files('dist')) {
  const data = readFileSync(f);
  if (data.length < 1024) continue;
  writeFileSync(`${f}.gz`, gzipSync(data, { level: 9 }));
  writeFileSync(`${f}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  count++;
}
console.log(`precompressed ${count} files`);
