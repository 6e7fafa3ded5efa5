/**
 * Hostile-content mode (DEMO_HOSTILE), so the dashboard can be shown to
 * render whatever the service sends as text, never as markup or a link.
 */

/** Markup and script that must only ever be shown as text. */
const HOSTILE_PREFIX = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
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
