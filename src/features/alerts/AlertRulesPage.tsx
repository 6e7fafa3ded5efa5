import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  ALERT_KIND_INFO,
  ALERT_KINDS,
  ALERT_PATHS,
  alertsCheckSchema,
  type AlertKind,
  type AlertPreview,
  type AlertRule,
  type CheckResult,
} from '../../api/alerts';
import { ApiError } from '../../api/errors';
import type { TeamView } from '../../api/teams';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { ALERTS_KEY, alertPreviewQuery, alertRulesQuery } from '../../data/alerts';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { useLinkTo } from '../../data/search';
import { sendJson } from '../../data/send';
import { teamsQuery } from '../../data/teams';
import { formatDayLong } from '../../lib/dates';
import { scopeLabel } from './AlertsPage';

const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';
const secondaryClass =
  'rounded border border-line-strong px-2.5 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted';
const fieldClass = 'rounded border border-line-strong bg-surface px-2 py-1';
const badgeClass = 'mr-1.5 inline-block rounded px-1.5 py-px text-xs font-medium whitespace-nowrap';

/** The alerts of one rule listed at most in its preview (a person-day rule may hold for many people). */
const PREVIEW_LISTED = 5;

interface Draft {
  id?: string;
  kind: AlertKind;
  scope: string;
  threshold: string;
  enabled: boolean;
}
const EMPTY: Draft = {
  kind: 'budget-spent',
  scope: '',
  threshold: String(ALERT_KIND_INFO['budget-spent'].threshold?.default ?? ''),
  enabled: true,
};

/** Every team path in tree order. */
const paths = (ts: readonly TeamView[]): string[] => ts.flatMap((t) => [t.path, ...paths(t.children)]);
const within = (t: string, m: string) => t === m || t.startsWith(`${m}/`);

/** What is wrong with the draft, in the reader's words; null when it can be sent. */
function problem(d: Draft): string | null {
  const t = ALERT_KIND_INFO[d.kind].threshold;
  if (t) {
    const n = Number(d.threshold);
    if (d.threshold.trim() === '' || !Number.isFinite(n) || n < t.min || n > t.max)
      return `${t.label} must be a number from ${t.min} to ${t.max}.`;
  }
  if (ALERT_KIND_INFO[d.kind].orgOnly && d.scope !== '') return 'This rule is for the whole organization.';
  return null;
}

/**
 * The alert rules, under settings: admins set any (the organization's and every team's), managers their
 * teams'. Each rule is added, changed or removed here; the server says why it refuses one. Beside each rule, what
 * it would open or resolve if checked now (the preview), and a button that runs the check now for the reader's
 * rules, as the daily check does.
 */
export default function AlertRulesPage() {
  const { teams: hasTeams, signIn } = useAppConfig();
  const me = useReader();
  const rules = useQuery({ ...alertRulesQuery, enabled: hasTeams });
  const tree = useQuery({ ...teamsQuery, enabled: hasTeams });
  const admin = !signIn || me?.role === 'admin';
  const linkTo = useLinkTo();
  const scopes = [
    ...(admin ? [''] : []),
    ...paths(tree.data?.teams ?? []).filter((t) => admin || (me?.teams ?? []).some((m) => within(t, m))),
  ];
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Link to={linkTo('/alerts')} className="text-accent-strong underline">
          ← Alerts
        </Link>
      </p>
      <PageHeader title="Alert rules" />
      {!hasTeams ? (
        <p role="status" className="rounded bg-surface-muted p-3 text-sm">
          Alert rules are kept in the dashboard server’s store: they exist when the server holds the key (API_KEY).
        </p>
      ) : (
        <Widget
          title="Rules"
          description={`Checked after each daily sync, or now. ${admin ? 'Set for the organization or any team.' : 'You set rules for your teams and their sub-teams.'}`}
          query={rules}
        >
          {(r) => <Rules rules={r.rules} scopes={scopes} />}
        </Widget>
      )}
    </div>
  );
}

function Rules({ rules, scopes }: { rules: readonly AlertRule[]; scopes: readonly string[] }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const preview = useQuery({ ...alertPreviewQuery, enabled: rules.length > 0 });
  const done = () => void client.invalidateQueries({ queryKey: ALERTS_KEY });
  const remove = useMutation({
    mutationFn: (id: string) => sendJson('DELETE', `${ALERT_PATHS.rules}/${encodeURIComponent(id)}`),
    onSuccess: done,
  });
  const byRule = new Map(preview.data?.rules.map((r) => [r.ruleId, r]));
  return (
    <div className="flex flex-col gap-3 text-sm">
      {rules.length === 0 ? (
        <p className="text-fg-muted">No rule is set.</p>
      ) : (
        <>
          <p className="text-fg-muted" aria-live="polite">
            {preview.data
              ? `Now: what each rule would open or resolve if checked on the figures to ${formatDayLong(preview.data.day)}.`
              : preview.isError
                ? null
                : 'Now: reading the figures each rule checks…'}
          </p>
          {preview.isError && <Refusal error={preview.error} />}
          <ul className="flex flex-col divide-y divide-line-subtle" aria-label="Rules">
            {rules.map((r) => (
              // What the rule is, what it would do now, then its buttons (beside its name on a wide screen).
              <li
                key={r.id}
                className="flex flex-col gap-1.5 py-2 sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-x-2"
              >
                <span className="min-w-0">
                  <span className="font-medium">{ruleText(r)}</span>
                  <span className="text-fg-muted">
                    {' '}
                    · {scopeLabel(r.scope)}
                    {!r.enabled && ' · off'}
                  </span>
                </span>
                {/* While the preview is asked again (a rule changed, a check ran), what it said before is dimmed. */}
                {!preview.isError && (
                  <div
                    className={`sm:col-span-2 ${preview.isFetching ? 'opacity-60' : ''}`}
                    aria-busy={preview.isFetching || undefined}
                  >
                    <RuleNow rule={r} now={byRule.get(r.id)} />
                  </div>
                )}
                <span className="flex gap-2 sm:col-start-2 sm:row-start-1">
                  <button
                    type="button"
                    className={secondaryClass}
                    aria-label={`Edit: ${ruleText(r)}, ${scopeLabel(r.scope)}`}
                    onClick={() =>
                      setDraft({
                        id: r.id,
                        kind: r.kind,
                        scope: r.scope,
                        threshold: String(r.threshold ?? ''),
                        enabled: r.enabled,
                      })
                    }
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={secondaryClass}
                    aria-label={`Remove: ${ruleText(r)}, ${scopeLabel(r.scope)}`}
                    onClick={() => !remove.isPending && remove.mutate(r.id)}
                  >
                    Remove
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {remove.isError && <Refusal error={remove.error} />}
      {draft ? (
        <RuleForm
          key={draft.id ?? 'new'}
          draft={draft}
          scopes={scopes}
          onDone={() => (setDraft(null), done())}
          onCancel={() => setDraft(null)}
        />
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={primaryClass} onClick={() => setDraft({ ...EMPTY, scope: scopes[0] ?? '' })}>
            Add a rule
          </button>
          {rules.length > 0 && <CheckNow webhook={preview.data?.webhook} onDone={done} />}
        </div>
      )}
    </div>
  );
}

/** What one rule would do if checked now: the alerts it would open, those open already, those it would resolve. */
function RuleNow({ rule, now }: { rule: AlertRule; now: AlertPreview['rules'][number] | undefined }) {
  const quiet = (text: string) => <p className="text-fg-muted">{text}</p>;
  if (!now) return quiet('Checking…');
  if (!rule.enabled && now.resolving.length === 0) return quiet('Off: not checked.');
  if (!now.known) return quiet('Its figures cannot be read now: a check leaves its alerts as they are.');
  const items = [
    ...now.holding.map((h) => ({
      key: `h${h.key}`,
      badge: h.openId === null ? 'Would open' : 'Open',
      tone: h.openId === null ? 'bg-warning-surface text-warning-fg' : 'bg-danger-surface text-danger-fg',
      summary: h.summary,
      link: h.link,
    })),
    ...now.resolving.map((a) => ({
      key: `r${a.id}`,
      badge: 'Would resolve',
      tone: 'bg-success-surface text-success-fg',
      summary: a.summary,
      link: a.link,
    })),
  ];
  if (items.length === 0) return quiet('Nothing to alert on now.');
  const more = items.length - PREVIEW_LISTED;
  return (
    <ul className="flex flex-col gap-1">
      {items.slice(0, PREVIEW_LISTED).map((i) => (
        <li key={i.key} className="break-words">
          <span className={`${badgeClass} ${i.tone}`}>{i.badge}</span>
          {/* The alert's own link: the page and the days it speaks of. */}
          <Link to={i.link} className="text-accent-strong underline">
            {i.summary}
          </Link>
        </li>
      ))}
      {more > 0 && <li className="text-fg-muted">and {more} more</li>}
    </ul>
  );
}

const count = (n: number, one: string, many: string) => `${n === 0 ? 'no' : n} ${n === 1 ? one : many}`;

/** What a check did, in a sentence. */
function checkedText(r: CheckResult, webhook: boolean | undefined): string {
  const parts = [
    `${count(r.opened.length, 'alert', 'alerts')} opened`,
    `${count(r.resolved.length, 'alert', 'alerts')} resolved`,
  ];
  if (r.posted > 0) parts.push(`${r.posted} posted to the alerts webhook`);
  if (r.unposted > 0)
    parts.push(
      webhook === false
        ? `${r.unposted} not posted: no alerts webhook is set (ALERT_WEBHOOK_URL)`
        : `${r.unposted} not posted yet: the next check tries again`,
    );
  if (r.withheld > 0) parts.push(`${r.withheld} kept from the webhook (privacy mode)`);
  return `Checked on the figures to ${formatDayLong(r.day)}: ${parts.join(', ')}.`;
}

/**
 * The check, now, of the reader's rules (an admin's: every rule): it opens and resolves alerts and posts the new
 * ones to the webhook, as the daily check does.
 */
function CheckNow({ webhook, onDone }: { webhook: boolean | undefined; onDone: () => void }) {
  const linkTo = useLinkTo();
  const check = useMutation({
    mutationFn: async () => alertsCheckSchema.parse(await sendJson('POST', ALERT_PATHS.check)),
    onSuccess: onDone,
  });
  return (
    <>
      <button
        type="button"
        className="rounded border border-line-strong px-3 py-1.5 text-sm font-medium text-fg-soft hover:bg-surface-muted"
        aria-disabled={check.isPending || undefined}
        onClick={() => !check.isPending && check.mutate()}
      >
        {check.isPending ? 'Checking…' : 'Check now'}
      </button>
      <p className="basis-full text-xs text-fg-muted">
        Check now opens and resolves these alerts
        {webhook === false ? '' : ' and posts the new ones to the alerts webhook'}, as the daily check does.
      </p>
      {check.isSuccess && (
        <p role="status" className="basis-full rounded bg-surface-muted p-2">
          {checkedText(check.data, webhook)}{' '}
          <Link to={linkTo('/alerts')} className="text-accent-strong underline">
            See the alerts
          </Link>
        </p>
      )}
      {check.isError && (
        <div className="basis-full">
          <Refusal error={check.error} />
        </div>
      )}
    </>
  );
}

const ruleText = (r: Pick<AlertRule, 'kind' | 'threshold'>) =>
  ALERT_KIND_INFO[r.kind].label.replace(' N ', ` ${r.threshold ?? 'N'} `);

function Refusal({ error }: { error: unknown }) {
  return (
    <div role="alert" className="rounded-md bg-danger-surface p-3 text-danger-fg">
      {error instanceof ApiError ? error.detail : String(error)}
    </div>
  );
}

function RuleForm({
  draft: initial,
  scopes,
  onDone,
  onCancel,
}: {
  draft: Draft;
  scopes: readonly string[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState(initial);
  const [tried, setTried] = useState(false);
  const id = useId();
  const info = ALERT_KIND_INFO[d.kind];
  const bad = problem(d);
  const save = useMutation({
    mutationFn: () =>
      sendJson(d.id ? 'PUT' : 'POST', d.id ? `${ALERT_PATHS.rules}/${encodeURIComponent(d.id)}` : ALERT_PATHS.rules, {
        kind: d.kind,
        scope: d.scope,
        threshold: info.threshold ? Number(d.threshold) : null,
        enabled: d.enabled,
      }),
    onSuccess: onDone,
  });
  const options = info.orgOnly ? scopes.filter((s) => s === '') : scopes;
  return (
    <form
      aria-label={d.id ? 'Edit the rule' : 'Add a rule'}
      className="flex flex-col gap-3 rounded border border-line p-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!bad && !save.isPending) save.mutate();
      }}
    >
      <div className="flex flex-wrap gap-3">
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-kind`} className="text-fg-muted">
            When
          </label>
          <select
            id={`${id}-kind`}
            value={d.kind}
            className={`${fieldClass} max-w-full`}
            onChange={(e) => {
              const kind = e.target.value as AlertKind;
              const n = ALERT_KIND_INFO[kind].threshold?.default;
              setD((x) => ({
                ...x,
                kind,
                scope: ALERT_KIND_INFO[kind].orgOnly ? '' : x.scope,
                // The kind's usual N, rather than a number meant for another kind's.
                threshold: n === undefined ? x.threshold : String(n),
              }));
            }}
          >
            {ALERT_KINDS.map((k) => (
              <option key={k} value={k}>
                {ALERT_KIND_INFO[k].label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-scope`} className="text-fg-muted">
            For
          </label>
          <select
            id={`${id}-scope`}
            value={d.scope}
            className={`${fieldClass} max-w-full`}
            onChange={(e) => setD((x) => ({ ...x, scope: e.target.value }))}
          >
            {options.map((s) => (
              <option key={s} value={s}>
                {s === '' ? 'The whole organization' : s}
              </option>
            ))}
          </select>
        </div>
        {info.threshold && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-n`} className="text-fg-muted">
              N: {info.threshold.label.toLowerCase()}
            </label>
            <input
              id={`${id}-n`}
              type="number"
              inputMode="decimal"
              min={info.threshold.min}
              max={info.threshold.max}
              value={d.threshold}
              aria-invalid={tried && bad !== null ? true : undefined}
              aria-describedby={tried && bad ? `${id}-problem` : undefined}
              onChange={(e) => setD((x) => ({ ...x, threshold: e.target.value }))}
              className={`${fieldClass} w-28 tabular-nums`}
            />
          </div>
        )}
        <label className="flex items-center gap-2 self-end py-1">
          <input
            type="checkbox"
            checked={d.enabled}
            onChange={(e) => setD((x) => ({ ...x, enabled: e.target.checked }))}
          />
          <span>On</span>
        </label>
      </div>
      {tried && bad && (
        <p id={`${id}-problem`} role="alert" className="text-danger">
          {bad}
        </p>
      )}
      {save.isError && <Refusal error={save.error} />}
      <div className="flex gap-2">
        <button type="submit" className={primaryClass} aria-disabled={save.isPending || undefined}>
          {save.isPending ? 'Saving…' : d.id ? 'Save the rule' : 'Add the rule'}
        </button>
        <button type="button" className={secondaryClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
