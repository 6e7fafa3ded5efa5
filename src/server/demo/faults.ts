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
 */
export const FAULT_MODES = ['500', '429', 'malformed', 'truncated', 'hang', 'schema'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

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

/** Markup and script that must only ever be shown as text. */
export const HOSTILE_PREFIX = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
const HOSTILE_FIELDS = new Set([
  'user_email',
  'tool',
  'server',
  'name',
  'event',
  'matcher',
  'command',
  'rationale',
  'description',
  'model_id',
  'primary_model',
  'language',
  'extension',
  'branch',
  'agentVersion',
]);

/** Hostile-content mode: markup in every free-text field, and `javascript:` repository URLs. */
export function makeHostile(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => makeHostile(v, key));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // Free-text map keys (application paths) get the same treatment.
      const kk = key === 'apps' ? `${HOSTILE_PREFIX}${k}` : k;
      out[kk] = makeHostile(v, k);
    }
    return out;
  }
  if (typeof value === 'string') {
    if (key === 'repoUrl') return `javascript:window.__xss=1//${value}`;
    if (key === 'group_key' || HOSTILE_FIELDS.has(key)) return `${HOSTILE_PREFIX}${value}`;
  }
  return value;
}
