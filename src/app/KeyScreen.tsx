import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { setApiKey } from '../data/client';

/** Asks for an API key when the server holds none and runs no demo service. */
export function KeyScreen({ rejected, onDone }: { rejected: boolean; onDone: () => void }) {
  const [key, setKey] = useState('');
  const qc = useQueryClient();
  return (
    <main className="mx-auto mt-16 max-w-lg rounded-lg border border-line bg-surface p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Enter an API key</h1>
      <p className="mt-2 text-sm text-fg-muted">
        This dashboard reads your organization&apos;s usage with an API key from the key settings page of the web
        application. The analytics need a key of a user with the Manager or Owner role. The key stays in this browser
        tab&apos;s session and is sent only to this dashboard&apos;s server.
      </p>
      {rejected && (
        <p role="alert" className="mt-3 rounded bg-danger-surface p-2 text-sm text-danger-fg">
          The service did not accept the key (401). Check it and try again.
        </p>
      )}
      <form
        className="mt-4 flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!key.trim()) return;
          setApiKey(key.trim());
          onDone();
          // Answers given to the previous key (a 401, a 403) are dropped, not just marked stale: a query
          // that failed is not asked again on mount, and these failed because of the key.
          void qc.resetQueries();
        }}
      >
        <label className="text-sm font-medium" htmlFor="api-key">
          API key
        </label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          className="rounded border border-line-strong px-3 py-2"
        />
        <button
          type="submit"
          className="self-start rounded bg-accent px-4 py-2 font-medium text-fg-inverse hover:bg-accent-strong"
        >
          Use this key
        </button>
      </form>
    </main>
  );
}
