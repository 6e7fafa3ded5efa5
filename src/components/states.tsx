import { ApiError } from '../api/errors';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex h-full min-h-32 items-center justify-center text-sm text-fg-subtle">
      <span className="mr-2 inline-block size-3 animate-pulse rounded-full bg-accent" aria-hidden />
      {label}
    </div>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex h-full min-h-32 items-center justify-center px-4 text-center text-sm text-fg-subtle">
      {children}
    </div>
  );
}

function explain(e: ApiError): string | undefined {
  if (e.status === 401) return 'The API key is missing or not valid.';
  if (e.status === 403) return 'The analytics require an API key of a user with the Manager or Owner role.';
  if (e.status === 429)
    return e.retryAfter !== undefined
      ? `The service is rate limiting requests; retry in ${e.retryAfter} s.`
      : 'The service is rate limiting requests; retry in a moment.';
  return undefined;
}

/** A failed request, inside the widget it affects, with what is known and a retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const e = error instanceof ApiError ? error : undefined;
  return (
    <div
      role="alert"
      className="flex h-full min-h-32 flex-col items-start justify-center gap-1 rounded-md bg-danger-surface p-4 text-sm text-danger-fg"
    >
      <p className="font-semibold">{e ? `${e.status ? `${e.status} ` : ''}${e.title}` : 'Something went wrong'}</p>
      <p>{e ? e.detail : error instanceof Error ? error.message : String(error)}</p>
      {e && explain(e) && <p>{explain(e)}</p>}
      {e?.requestId && (
        <p className="text-xs text-danger-fg">
          Request id: <code className="select-all">{e.requestId}</code>
        </p>
      )}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 rounded border border-danger-line bg-surface px-3 py-1 font-medium hover:bg-danger-surface-strong"
        >
          Retry
        </button>
      )}
    </div>
  );
}
