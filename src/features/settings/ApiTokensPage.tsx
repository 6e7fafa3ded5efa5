import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../../api/errors';
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKENS_PATHS,
  newApiTokenSchema,
  TOKENS_NEED_SIGN_IN,
  TOKENS_NEED_STORE,
  type ApiToken,
  type ApiTokenInput,
  type NewApiToken,
} from '../../api/api-tokens';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { allApiTokensQuery, API_TOKENS_KEY, apiTokensQuery } from '../../data/api-tokens';
import { atBase } from '../../data/base';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { sendJson } from '../../data/send';
import { formatDayLong } from '../../lib/dates';

const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';
const secondaryClass =
  'rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted';
const fieldClass = 'rounded border border-line-strong bg-surface px-2 py-1 text-sm text-fg';

/** The lifetimes offered, in days: a year at most. */
const LIFETIMES = [7, 30, 90, 180, API_TOKEN_MAX_DAYS];
const lifetimeLabel = (days: number) => (days === API_TOKEN_MAX_DAYS ? `1 year (${days} days)` : `${days} days`);
const failure = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));
const day = (iso: string) => formatDayLong(iso.slice(0, 10));

/**
 * Personal API tokens: a signed-in person makes a token to read the dashboard's API as themself from a script or a
 * tool, sees it once, and lists and revokes theirs; an admin lists and revokes everyone's. The token lives in this
 * screen's memory until the reader is done with it: never stored in the browser, never in an address.
 */
export default function ApiTokensPage() {
  const { signIn, teams: stored } = useAppConfig();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="API tokens" />
      <p className="max-w-3xl text-sm text-fg-muted">
        A personal API token reads this dashboard&apos;s API as you, from a script, a spreadsheet, a BI tool or an AI
        assistant (MCP): it sees what you see, with your role and teams as they stand when it is used. It only reads,
        and it cannot make other tokens. It is not the service&apos;s API key.
      </p>
      {!signIn || !stored ? (
        <p role="status" className="max-w-3xl rounded-lg border border-line bg-surface p-4 text-sm text-fg-soft">
          {!signIn ? TOKENS_NEED_SIGN_IN : TOKENS_NEED_STORE}
        </p>
      ) : (
        <Tokens />
      )}
    </div>
  );
}

function Tokens() {
  const me = useReader();
  const client = useQueryClient();
  const mine = useQuery(apiTokensQuery);
  const changed = () => client.invalidateQueries({ queryKey: API_TOKENS_KEY });
  const make = useMutation({
    mutationFn: async (t: ApiTokenInput) => newApiTokenSchema.parse(await sendJson('POST', API_TOKENS_PATHS.tokens, t)),
    onSuccess: changed,
  });
  return (
    <>
      <section aria-labelledby="make-token" className="rounded-lg border border-line bg-surface p-4 shadow-sm">
        <h2 id="make-token" className="mb-2 text-base font-semibold text-fg">
          Make a token
        </h2>
        {make.data ? (
          <NewToken made={make.data} onDone={() => make.reset()} />
        ) : (
          <TokenForm
            pending={make.isPending}
            error={make.isError ? failure(make.error) : null}
            onSubmit={(t) => make.mutate(t)}
          />
        )}
      </section>
      <Widget
        title="Your tokens"
        description="Revoked and expired tokens stay listed for 30 days."
        query={mine}
        isEmpty={(d) => d.tokens.length === 0}
        emptyText="No tokens yet."
      >
        {(d) => <TokenList tokens={d.tokens} owners={false} onChanged={changed} />}
      </Widget>
      {me?.role === 'admin' && <Everyone onChanged={changed} />}
    </>
  );
}

function Everyone({ onChanged }: { onChanged: () => unknown }) {
  const all = useQuery(allApiTokensQuery);
  return (
    <Widget
      title="Everyone’s tokens"
      description="Shown to admins: revoke a token that should not read the dashboard any more."
      query={all}
      isEmpty={(d) => d.tokens.length === 0}
      emptyText="Nobody has a token."
    >
      {(d) => <TokenList tokens={d.tokens} owners onChanged={onChanged} />}
    </Widget>
  );
}

function TokenForm({
  pending,
  error,
  onSubmit,
}: {
  pending: boolean;
  error: string | null;
  onSubmit: (t: ApiTokenInput) => void;
}) {
  const [name, setName] = useState('');
  const [days, setDays] = useState(90);
  const id = useId();
  // The day it would expire, counted from when the form opened (the server counts from when it is made).
  const [opened] = useState(() => Date.now());
  const until = new Date(opened + days * 86_400_000).toISOString();
  return (
    <form
      aria-label="Make a token"
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onSubmit({ name, days });
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-0 max-w-md flex-1 basis-56 flex-col gap-1 text-sm text-fg-soft">
          Name
          <input
            type="text"
            required
            maxLength={API_TOKEN_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Weekly report"
            aria-describedby={`${id}-hint`}
            className={`${fieldClass} h-8 w-full`}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm text-fg-soft">
          Expires after
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} className={`${fieldClass} h-8`}>
            {LIFETIMES.map((d) => (
              <option key={d} value={d}>
                {lifetimeLabel(d)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-fg-subtle">
        Say what it is for, so that you know which to revoke. It expires on {day(until)}.
      </p>
      {error && (
        <p role="alert" className="rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
          {error}
        </p>
      )}
      <div>
        {/* Not disabled while sending: a disabled button would drop the keyboard focus. */}
        <button type="submit" className={primaryClass} aria-disabled={pending || undefined}>
          {pending ? 'Making…' : 'Make token'}
        </button>
      </div>
    </form>
  );
}

/** The new token, shown this once: copied, then gone from the screen when the reader is done. */
function NewToken({ made, onDone }: { made: NewApiToken; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const id = useId();
  const at = new URL(atBase('/api/me'), window.location.origin).href;
  const mcp = new URL(atBase('/mcp'), window.location.origin).href;
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="rounded-md bg-warning-surface p-2 text-sm font-medium text-warning-fg">
        Copy “{made.about.name}” now: it is shown this once. The dashboard keeps only a fingerprint of it.
      </p>
      <label htmlFor={`${id}-token`} className="text-sm text-fg-soft">
        Your new token (expires on {day(made.about.expiresAt)})
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-token`}
          readOnly
          value={made.token}
          onFocus={(e) => e.target.select()}
          spellCheck={false}
          autoComplete="off"
          className={`${fieldClass} min-w-0 flex-1 basis-64 font-mono text-xs`}
        />
        <button
          type="button"
          className={secondaryClass}
          onClick={() =>
            void navigator.clipboard.writeText(made.token).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy
        </button>
      </div>
      {copied !== null && (
        <p role="status" className="text-xs text-fg-muted">
          {copied ? 'Copied.' : 'The browser did not let the page copy it: select it and copy it yourself.'}
        </p>
      )}
      <p className="text-xs text-fg-muted">Send it as a bearer token, say from a shell, without it in the history:</p>
      {/* Scrolled, not wrapped: a command broken inside a word is copied broken. Focusable: scrolled by keys too. */}
      <pre tabIndex={0} className="overflow-x-auto rounded bg-surface-muted p-2 text-xs whitespace-pre text-fg-soft">
        {`read -rs DASHBOARD_TOKEN   # paste the token\ncurl -H "Authorization: Bearer $DASHBOARD_TOKEN" ${at}`}
      </pre>
      <p className="text-xs text-fg-muted">
        For an AI assistant, give it the MCP server <code className="break-all text-fg-soft">{mcp}</code> with the token
        as its bearer (<code>Authorization: Bearer …</code>). Every endpoint is described at{' '}
        <a className="text-accent-strong underline" href={atBase('/api/openapi.json')} target="_blank" rel="noreferrer">
          /api/openapi.json
        </a>
        .
      </p>
      <div>
        <button type="button" className={primaryClass} onClick={onDone}>
          Done: I have copied it
        </button>
      </div>
    </div>
  );
}

const STATE_CLASS: Record<ApiToken['state'], string> = {
  active: 'bg-success-surface text-success-fg',
  expired: 'bg-surface-muted text-fg-muted',
  revoked: 'bg-danger-surface text-danger-fg',
};

function TokenList({
  tokens,
  owners,
  onChanged,
}: {
  tokens: readonly ApiToken[];
  owners: boolean;
  onChanged: () => unknown;
}) {
  return (
    <ul className="flex flex-col divide-y divide-line-subtle text-sm">
      {tokens.map((t) => (
        <TokenItem key={t.id} token={t} owner={owners} onChanged={onChanged} />
      ))}
    </ul>
  );
}

function TokenItem({ token: t, owner, onChanged }: { token: ApiToken; owner: boolean; onChanged: () => unknown }) {
  const [asking, setAsking] = useState(false);
  const revoke = useMutation({
    mutationFn: () => sendJson('DELETE', `${API_TOKENS_PATHS.tokens}/${encodeURIComponent(t.id)}`),
    onSuccess: onChanged,
  });
  const what = `the token “${t.name}”${owner ? ` of ${t.email}` : ''}`;
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-3">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-words font-medium text-fg">{t.name}</span>
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_CLASS[t.state]}`}>
            {t.state === 'active' ? 'Active' : t.state === 'expired' ? 'Expired' : 'Revoked'}
          </span>
        </p>
        {owner && <p className="break-all text-xs text-fg-soft">{t.email}</p>}
        <p className="text-xs text-fg-muted">
          Made {day(t.createdAt)} · {t.state === 'expired' ? 'expired' : 'expires'} {day(t.expiresAt)} ·{' '}
          {t.lastUsedAt ? `last used ${day(t.lastUsedAt)}` : 'never used'}
          {t.revokedAt && (
            <>
              {' '}
              · revoked {day(t.revokedAt)}
              {t.revokedBy && t.revokedBy !== t.email ? ` by ${t.revokedBy}` : ''}
            </>
          )}
        </p>
        {revoke.isError && (
          <p role="alert" className="mt-1 text-danger">
            {failure(revoke.error)}
          </p>
        )}
      </div>
      {t.state === 'active' &&
        (asking ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-fg-soft">It stops working at once.</span>
            <button
              type="button"
              className={secondaryClass}
              onClick={() => revoke.mutate()}
              aria-disabled={revoke.isPending || undefined}
              aria-label={`Yes, revoke ${what}`}
            >
              {revoke.isPending ? 'Revoking…' : 'Yes, revoke'}
            </button>
            <button type="button" className={secondaryClass} onClick={() => setAsking(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <button
            type="button"
            className={secondaryClass}
            onClick={() => setAsking(true)}
            aria-label={`Revoke ${what}`}
          >
            Revoke
          </button>
        ))}
    </li>
  );
}
