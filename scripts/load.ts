/**
 * The server half of `npm run bench`: 50 concurrent keep-alive clients per
 * endpoint, a warm-up, then the measured requests; prints one JSON line.
 * Usage: tsx scripts/load.ts http://127.0.0.1:5411 (LOAD_PATHS=a,b to load
 * other paths; LOAD_ACCEPT_ENCODING to send another Accept-Encoding).
 */
import { Agent, request as httpRequest } from 'node:http';

const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

async function main(base: string) {
  const endpoints = process.env.LOAD_PATHS?.split(',') ?? [
    '/api/v1/analytics/tokens?startDate=2026-10-23&endDate=2026-11-21',
    '/api/v1/analytics/tools?startDate=2026-10-23&endDate=2026-11-21',
    '/api/v1/analytics/activity?startDate=2026-10-23&endDate=2026-11-21&group_by=client',
    '/api/v1/analytics/productivity?startDate=2026-10-23&endDate=2026-11-21',
    '/api/v1/analytics/users?startDate=2026-10-23&endDate=2026-11-21&limit=100',
    '/api/organization/maturity-level-reports?limit=100',
  ];
  const rows: { name: string; rps: number; p50: number; p99: number; errors: number }[] = [];
  const CONCURRENCY = 50;
  const WARMUP = 300;
  const PER_ENDPOINT = 2000;
  // A lean client (keep-alive, bytes counted, not decompressed) so the figures are the server's, not the load generator's.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  // What Chromium sends to this origin (brotli is offered over HTTPS and to localhost); LOAD_ACCEPT_ENCODING=gzip
  // measures a client that takes gzip only.
  const ACCEPT = process.env.LOAD_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd';
  const { hostname, port } = new URL(base);
  const hit = (path: string) =>
    new Promise<number>((resolve) => {
      const req = httpRequest({ host: hostname, port, path, agent, headers: { 'accept-encoding': ACCEPT } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  /** `count` requests over `CONCURRENCY` connections; latencies of each. */
  const load = async (path: string, count: number) => {
    const lat: number[] = [];
    let errors = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          next++;
          const s = performance.now();
          const status = await hit(path);
          if (status !== 200) errors++;
          lat.push(performance.now() - s);
        }
      }),
    );
    return { lat, errors };
  };
  // The load generator's own start-up is not the first path's to pay: against a server answering a fixed buffer,
  // whichever path came first ran at half the rate of the same path measured again, until this process had made
  // some thousands of requests (V8 compiling this client, its connections and heap growing). One full round first.
  for (const path of endpoints) await load(path, PER_ENDPOINT);
  for (const path of endpoints) {
    // Steady state, not start-up: the first few hundred requests of a path run while V8 compiles it.
    await load(path, WARMUP);
    const t0 = performance.now();
    const { lat, errors } = await load(path, PER_ENDPOINT);
    const secs = (performance.now() - t0) / 1000;
    const name = path.split('?')[0]!.split('/').pop()!;
    rows.push({ name, rps: PER_ENDPOINT / secs, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), errors });
  }
  agent.destroy();
  console.log(JSON.stringify(rows));
}

await main(process.argv[2] ?? 'http://127.0.0.1:5411');
