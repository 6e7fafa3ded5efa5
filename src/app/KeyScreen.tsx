import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { setApiKey } from '../data/client';

/** Asks for an API key when the server holds none and runs no demo service. */
export function KeyScreen({ rejected, onDone }: { rejected: boolean; onDone: () => void }) {
  const [key, setKey] = useState('');
  const qc = useQueryClient();
  return (
    <main className="mx-auto mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Enter an API key</h1>
      <p className="mt-2 text-sm text-slate-600">
        This dashboard reads your organization&apos;s usage with an API key from the key settings page of the web
        application. The analytics need a key of a user with the Manager or Owner role. The key stays in this browser
        tab&apos;s session and is sent only to this dashboard&apos;s server.
      </p>
      {rejected && (
        <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-sm text-red-900">
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
          void qc.invalidateQueries();
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
          className="rounded border border-slate-300 px-3 py-2"
        />
        <button
          type="submit"
          className="self-start rounded bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
        >
          Use this key
        </button>
      </form>
    </main>
  );
}
