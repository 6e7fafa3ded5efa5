import { useQuery } from '@tanstack/react-query';
import { syncStatusQuery } from '../data/sync';

/** One quiet line while the server fills its store from the service; nothing otherwise. */
export function SyncProgress() {
  const { data } = useQuery(syncStatusQuery);
  const running = data?.running ?? [];
  return (
    <p aria-live="polite" className="min-h-4 text-xs text-fg-subtle">
      {running.length > 0 && (
        <>
          <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-accent" />
          Filling the store from the service: {running[0]}
          {running.length > 1 ? ` and ${running.length - 1} more` : ''}…
        </>
      )}
    </p>
  );
}
