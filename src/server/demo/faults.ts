/**
 * Fault injection for the demo service (off by default), so the dashboard can
 * be shown and tested against a misbehaving service.
 *
 * DEMO_FAULTS is a comma list of `endpoint=mode`, where endpoint is `tokens`,
 * `tools`, `activity`, `productivity`, `users`, `readiness` or `*`, optionally
 * with `.group` for grouped requests only (`tokens.model`); mode is one of
 * 500, 429, malformed, truncated, hang, schema; and an optional suffix says
 * how often: `xN` for the first N matching requests, `:0.25` for a share.
 * Example: `tokens.model=500x3,activity=429:0.5,readiness=hang`.
 *
 * Faults that are answers (500, 429, malformed, schema) are made here; the
 * transport faults (truncated, hang) and DEMO_LATENCY_MS ride on the answer
 * as instructions that only the demo's own writers carry out (transport.ts,
 * embedded.ts), so the dashboard's `send` knows nothing of them.
 */
import { errorResponse } from '../core/errors';
import type { HttpResponse } from '../core/response';

/** An answer of the demo service, with the transport instructions only the demo's writers read. */
export interface DemoResponse extends HttpResponse {
  /** Send half the body then drop the connection, or never answer. */
  fault?: 'truncated' | 'hang';
  /** Wait this long before answering. */
  delayMs?: number;
}

const FAULT_MODES = ['500', '429', 'malformed', 'truncated', 'hang', 'schema'] as const;
type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultRule {
  endpoint: string;
  group: string | undefined;
  mode: FaultMode;
  /** Requests still to fail (count mode), or Infinity. */
  remaining: number;
  share: number;
}

export function parseFaults(spec: string | undefined): FaultRule[] {
  if (!spec) return [];
  return spec.split(',').map((part) => {
    const m = /^\s*([\w*]+)(?:\.(\w+))?=([a-z]+|\d{3})(?:x(\d+)|:(0(?:\.\d+)?|1(?:\.0+)?))?\s*$/.exec(part);
    if (!m || !(FAULT_MODES as readonly string[]).includes(m[3]!)) {
      throw new Error(`DEMO_FAULTS: cannot read "${part}" (expected endpoint[.group]=mode[xN|:share])`);
    }
    return {
      endpoint: m[1]!,
      group: m[2],
      mode: m[3] as FaultMode,
      remaining: m[4] ? Number(m[4]) : Infinity,
      share: m[5] ? Number(m[5]) : 1,
    };
  });
}

/** The fault to apply to a request, if any; counts down count-limited rules. */
export function pickFault(
  rules: FaultRule[],
  endpoint: string,
  group: string | null,
  random = Math.random,
): FaultMode | undefined {
  for (const r of rules) {
    if (r.endpoint !== '*' && r.endpoint !== endpoint) continue;
    if (r.group !== undefined && r.group !== group) continue;
    if (r.remaining <= 0) continue;
    if (r.share < 1 && random() >= r.share) continue;
    r.remaining--;
    return r.mode;
  }
  return undefined;
}

/** Turns the first number of a known field into a string: a body that no longer matches the contract. */
export function breakSchema(body: string): string {
  return body.replace(
    /("(?:billable_tokens|tool_calls|daily_active_users|files_created|createdAt)":)(-?\d+(?:\.\d+)?)/,
    '$1"$2"',
  );
}

/** The answer with the fault configured for this request, if any, and the configured latency. */
export function injectFault(
  ok: DemoResponse,
  { faults, latencyMs }: { faults?: FaultRule[]; latencyMs?: number },
  endpoint: string,
  group: string | null,
): DemoResponse {
  const delayed = (r: DemoResponse): DemoResponse => (latencyMs ? { ...r, delayMs: latencyMs } : r);
  switch (faults?.length ? pickFault(faults, endpoint, group) : undefined) {
    case '500':
      return delayed(errorResponse(500, 'Injected fault: the service failed.'));
    case '429':
      return delayed(errorResponse(429, 'Injected fault: too many requests.', { 'retry-after': '1' }));
    case 'malformed':
      return delayed({ ...ok, body: `${ok.body.slice(0, 40)}<html><body>Proxy error</body></html>` });
    case 'truncated':
      return delayed({ ...ok, fault: 'truncated' });
    case 'hang':
      return { ...ok, fault: 'hang' };
    case 'schema':
      return delayed({ ...ok, body: breakSchema(ok.body) });
    default:
      return delayed(ok);
  }
}
