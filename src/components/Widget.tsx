import { useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import type { CsvValue } from '../lib/csv';
import { downloadCsv } from './download';
import { Empty, ErrorState, Loading } from './states';

export interface CsvSpec {
  filename: string;
  header: readonly string[];
  rows: readonly (readonly CsvValue[])[];
}

/**
 * What a widget shows, from any source: a `useQuery` result fits as it is, and
 * data computed in place is just `{ data }`.
 */
export interface WidgetSource<T> {
  data: T | undefined;
  /** 'pending' with no data shows the loading state (default: 'success'). */
  status?: 'pending' | 'error' | 'success';
  /** Shown with the service's request id; with data, above the data that is still shown. */
  error?: unknown;
  /** Data of a previous range, shown dimmed while the new one loads. */
  isPlaceholderData?: boolean;
  /** A refresh is under way: a stale error is not shown meanwhile. */
  isFetching?: boolean;
  /** What the Retry button does; without it the error has no Retry button. */
  refetch?: () => unknown;
}

interface WidgetProps<T> {
  title: string;
  /** The grain of a chart's points, said in its heading after the title ("per day", "per week"). */
  grain?: string;
  description?: string;
  query: WidgetSource<T>;
  isEmpty?: (data: T) => boolean;
  emptyText?: string;
  csv?: (data: T) => CsvSpec;
  actions?: React.ReactNode;
  className?: string;
  children: (data: T) => React.ReactNode;
}

/**
 * A widget's description: on a phone a long one shows its first two lines and a button for the rest, so
 * the widget's figures come into the first screen.
 */
function Description({ text }: { text: string }) {
  const [full, setFull] = useState(false);
  const long = text.length > 120;
  return (
    <>
      <p className={`text-sm text-fg-subtle ${long && !full ? 'max-sm:line-clamp-2' : ''}`}>{text}</p>
      {long && (
        <button
          type="button"
          aria-expanded={full}
          onClick={() => setFull((f) => !f)}
          className="text-xs font-medium text-accent-strong underline sm:hidden"
        >
          {full ? 'Less' : 'More about this'}
        </button>
      )}
    </>
  );
}

/** Calls a widget's render function in a component of its own, so the widget's error boundary catches what it throws. */
function Rendered<T>({ render, data }: { render: (data: T) => React.ReactNode; data: T }) {
  return render(data);
}

/**
 * One dashboard widget: its own loading, empty and error states and its own
 * error boundary, so one failure never blanks the page. While a new range
 * loads it keeps showing the previous data, dimmed.
 */
export function Widget<T>({
  title,
  grain,
  description,
  query,
  isEmpty,
  emptyText = 'No data for this range.',
  csv,
  actions,
  className = '',
  children,
}: WidgetProps<T>) {
  const { data, error, status = 'success', isPlaceholderData = false, refetch, isFetching = false } = query;
  const retry = refetch ? () => void refetch() : undefined;
  let body: React.ReactNode;
  if (data === undefined) {
    body = error ? (
      <ErrorState error={error} onRetry={retry} />
    ) : status === 'pending' ? (
      <Loading />
    ) : (
      <Empty>{emptyText}</Empty>
    );
  } else if (isEmpty?.(data)) {
    body = <Empty>{emptyText}</Empty>;
  } else {
    body = (
      <>
        {error && !isFetching ? <ErrorState error={error} onRetry={retry} /> : null}
        <div
          className={isPlaceholderData ? 'opacity-50 transition-opacity' : 'transition-opacity'}
          aria-busy={isPlaceholderData}
        >
          <ErrorBoundary
            resetKeys={[data]}
            fallbackRender={({ error: e, resetErrorBoundary }) => <ErrorState error={e} onRetry={resetErrorBoundary} />}
          >
            <Rendered render={children} data={data} />
          </ErrorBoundary>
        </div>
      </>
    );
  }
  // The CSV is made when asked for, not on every render (a table's is every row, sorted and formatted).
  const download = data !== undefined && csv && !isEmpty?.(data) ? () => csv(data) : undefined;
  return (
    <section
      aria-label={title}
      className={`flex min-w-0 flex-col rounded-lg border border-line bg-surface p-4 shadow-sm ${className}`}
    >
      <header className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold text-fg">
            {title}
            {grain && <span className="font-normal text-fg-muted"> {grain}</span>}
          </h2>
          {description && <Description text={description} />}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          {download && (
            <button
              type="button"
              onClick={() => {
                const spec = download();
                downloadCsv(spec.filename, spec.header, spec.rows);
              }}
              className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
              aria-label={`Download CSV of ${title}`}
            >
              CSV
            </button>
          )}
        </div>
      </header>
      <div className="min-h-0 flex-1">{body}</div>
    </section>
  );
}
