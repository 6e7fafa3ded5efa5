/**
 * How the demo's answers reach the wire. An answer may carry a transport
 * instruction (injected latency, a cut-off body, no answer at all) that no
 * status or body can express (`DemoResponse`, faults.ts); only the writers
 * here and the embedded origin (embedded.ts) read it, so the core's `send`
 * stays free of faults.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send, writeHead } from '../core/response';
import type { DemoResponse } from './faults';
import type { DemoService } from './service';

/** Writes an answer, cutting it off halfway if it says so; latency and hangs are the caller's to apply. */
export function writeDemoResponse(res: ServerResponse, r: DemoResponse, head = false, acceptEncoding = ''): void {
  // A faulty answer goes out uncompressed, so the bytes cut are the body's own.
  if (r.fault !== 'truncated' || head) return send(res, r, head, r.fault ? '' : acceptEncoding);
  writeHead(res, r);
  const bytes = Buffer.from(r.body);
  // Promise the whole body, send half, drop the connection.
  res.setHeader('content-length', bytes.length);
  res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
}

/** Serves a demo service over node:http (`npm run demo-service`), with its latency and hangs. */
export function demoListener(demo: DemoService) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const r = demo.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    if (r.fault === 'hang') return; // the client's timeout is what is being tested
    const write = () => {
      if (!res.destroyed) writeDemoResponse(res, r, req.method === 'HEAD');
    };
    if (r.delayMs) setTimeout(write, r.delayMs);
    else write();
  };
}
