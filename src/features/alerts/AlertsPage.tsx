import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ALERT_KIND_INFO, ALERT_PATHS, alertSchema, type Alert } from '../../api/alerts';
import { ApiError } from '../../api/errors';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { useAppConfig } from '../../data/config';
import { ALERTS_KEY, alertsQuery, syncStateQuery } from '../../data/alerts';
import { useReader } from '../../data/me';
import { useLinkTo } from '../../data/search';
import { sendJson } from '../../data/send';
import { formatDayShort } from '../../lib/dates';

/** A moment as the page shows it: day and time, UTC. */
export const when = (iso: string) => `${formatDayShort(iso.slice(0, 10))} ${iso.slice(11, 16)} UTC`;
export const scopeLabel = (scope: string) => (scope === '' ? 'Organization' : scope);

/**
 * The alerts: those open first (each with its rule, scope, when it opened, who acknowledged it, and a link to
 * the page that shows it), then the past ones; and the sync's state, which the no-data alerts link to.
 */
export default function AlertsPage() {
  const { teams, signIn } = useAppConfig();
  const me = useReader();
  const open = useQuery({ ...alertsQuery, enabled: teams, select: (d) => d.open });
  const past = useQuery({ ...alertsQuery, enabled: teams, select: (d) => d.past });
  const webhook = useQuery({ ...alertsQuery, enabled: teams, select: (d) => d.webhook }).data;
  const mayEditRules = !signIn || me?.role === 'admin' || me?.role === 'manager';
  const linkTo = useLinkTo();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Alerts">
        {mayEditRules && (
          <Link to={linkTo('/settings/alerts')} className="text-sm text-accent-strong underline">
            Alert rules
          </Link>
        )}
      </PageHeader>
      {!teams ? (
        <p role="status" className="rounded bg-surface-muted p-3 text-sm">
          Alerts are kept in the dashboard server’s store: they exist when the server holds the key (API_KEY).
        </p>
      ) : (
        <>
          <Widget
            title="Open alerts"
            description="Open until their condition clears; each is posted to the alerts webhook once."
            query={open}
            isEmpty={(l) => l.length === 0}
            emptyText="No alert is open."
          >
            {(l) => <AlertList alerts={l} webhook={webhook} />}
          </Widget>
          <Widget
            title="Past alerts"
            description="Resolved when their condition cleared (or their rule was removed), the latest first."
            query={past}
            isEmpty={(l) => l.length === 0}
            emptyText="No alert has been resolved yet."
          >
            {(l) => <AlertList alerts={l} webhook={webhook} />}
          </Widget>
          <SyncState />
        </>
      )}
    </div>
  );
}

/** `webhook`: whether the server posts alerts (unknown: not said). */
function AlertList({ alerts, webhook }: { alerts: readonly Alert[]; webhook: boolean | undefined }) {
  return (
    <ul className="flex flex-col divide-y divide-line-subtle text-sm">
      {alerts.map((a) => (
        <AlertItem key={a.id} alert={a} webhook={webhook} />
      ))}
    </ul>
  );
}

function AlertItem({ alert: a, webhook }: { alert: Alert; webhook: boolean | undefined }) {
  const client = useQueryClient();
  const ack = useMutation({
    mutationFn: async () =>
      alertSchema.parse(await sendJson('POST', `${ALERT_PATHS.alerts}/${encodeURIComponent(a.id)}/ack`)),
    onSuccess: () => void client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
      <div className="flex min-w-0 flex-col gap-0.5">
        <Link to={a.link} className="font-medium break-words text-accent-strong underline">
          {a.summary}
        </Link>
        <p className="text-xs text-fg-muted">
          {ALERT_KIND_INFO[a.kind].name} · {scopeLabel(a.scope)} · opened {when(a.openedAt)}
          {a.resolvedAt && ` · resolved ${when(a.resolvedAt)}`}
          {a.acknowledgedAt &&
            ` · acknowledged${a.acknowledgedBy ? ` by ${a.acknowledgedBy}` : ''} ${when(a.acknowledgedAt)}`}
          {!a.resolvedAt &&
            !a.posted &&
            (webhook === false ? ' · not posted: no alerts webhook is set (ALERT_WEBHOOK_URL)' : ' · not posted yet')}
        </p>
        {ack.isError && (
          <p role="alert" className="text-danger">
            {ack.error instanceof ApiError ? ack.error.detail : String(ack.error)}
          </p>
        )}
      </div>
      {!a.acknowledgedAt && !a.resolvedAt && (
        <button
          type="button"
          onClick={() => !ack.isPending && ack.mutate()}
          aria-disabled={ack.isPending || undefined}
          aria-label={`Acknowledge: ${a.summary}`}
          className="self-start rounded border border-line-strong px-2.5 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
        >
          {ack.isPending ? 'Acknowledging…' : 'Acknowledge'}
        </button>
      )}
    </li>
  );
}

/** The sync's state: the newest people's day stored and the last run (what a no-data alert is about). */
function SyncState() {
  const sync = useQuery(syncStateQuery);
  return (
    <section id="sync" aria-label="Sync status" className="scroll-mt-4">
      <Widget title="Sync status" description="What the dashboard has stored from the service." query={sync}>
        {(s) => (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-fg-muted">Newest day stored</dt>
            <dd>{s.stored?.users?.last ? formatDayShort(s.stored.users.last) : 'none yet'}</dd>
            <dt className="text-fg-muted">Last sync finished</dt>
            <dd>
              {s.lastRun?.finishedAt
                ? `${when(s.lastRun.finishedAt)}${s.lastRun.failures ? `, ${s.lastRun.failures} steps failed` : ''}`
                : 'not since the server started'}
            </dd>
            {s.lastError && (
              <>
                <dt className="text-fg-muted">Last error</dt>
                <dd>
                  {when(s.lastError.at)}: {s.lastError.message}
                </dd>
              </>
            )}
          </dl>
        )}
      </Widget>
    </section>
  );
}
