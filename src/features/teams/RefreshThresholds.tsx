import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { INTENSITY_THRESHOLDS_PATH, thresholdsSchema } from '../../api/figures';
import { failure, secondaryClass } from '../../components/MarkForm';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { sendJson } from '../../data/send';
import { formatDayLong } from '../../lib/dates';
import { TEAMS } from './queries';

/**
 * An admin's refresh of a quarter's frozen intensity thresholds (`POST /api/intensity/thresholds`), asked to confirm
 * first because every person's band in the quarter may move with it; the intensity answers are asked again after. The
 * server refuses anyone else (and, without sign-in, anyone not on its own machine); the button only spares the others
 * a refusal.
 */
export function RefreshThresholds({ quarter }: { quarter: string }) {
  const { signIn } = useAppConfig();
  const me = useReader();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = useMutation({
    mutationFn: async () => thresholdsSchema.parse(await sendJson('POST', INTENSITY_THRESHOLDS_PATH, { quarter })),
    onSuccess: () => {
      setConfirming(false);
      return Promise.all([
        client.invalidateQueries({ queryKey: [TEAMS, 'intensity'] }),
        client.invalidateQueries({ queryKey: ['figures', 'intensity'] }),
      ]);
    },
  });
  if (signIn && me?.role !== 'admin') return null;
  if (!confirming)
    return (
      <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
        <button
          type="button"
          className={secondaryClass}
          onClick={() => {
            refresh.reset();
            setConfirming(true);
          }}
        >
          Refresh {quarter}’s thresholds
        </button>
        {refresh.isSuccess && (
          <span role="status">
            Refreshed from {formatDayLong(refresh.data.basis.start)} to {formatDayLong(refresh.data.basis.end)}.
          </span>
        )}
      </p>
    );
  return (
    <div
      role="group"
      aria-label={`Refresh ${quarter}’s thresholds`}
      className="mt-2 flex flex-wrap items-center gap-2 rounded border border-line p-2 text-xs text-fg-soft"
    >
      <span>
        Compute {quarter}’s thresholds again from its latest four whole weeks with data? Every band in {quarter} is then
        placed by them, so people may move band without changing their use.
      </span>
      <button
        type="button"
        className={secondaryClass}
        aria-disabled={refresh.isPending || undefined}
        onClick={() => !refresh.isPending && refresh.mutate()}
      >
        {refresh.isPending ? 'Refreshing…' : 'Refresh them'}
      </button>
      <button type="button" className={secondaryClass} onClick={() => setConfirming(false)}>
        Keep them
      </button>
      {refresh.isError && (
        <span role="alert" className="w-full rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
          {failure(refresh.error)}
        </span>
      )}
    </div>
  );
}
