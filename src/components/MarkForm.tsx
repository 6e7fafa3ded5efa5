import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../api/errors';
import { MARK_TEXT_MAX, MARKS_PATHS, type MarkInput } from '../api/marks';
import { useAppConfig } from '../data/config';
import { MARKS_KEY } from '../data/marks';
import { sendJson } from '../data/send';

/** A scope a mark may be written for: '' the organization, else a team's path; and how the form names it. */
export interface MarkScope {
  team: string;
  label: string;
}

export const primaryClass =
  'rounded bg-accent px-3 py-1.5 text-sm font-medium text-fg-inverse hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50';
export const secondaryClass =
  'rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted';
const fieldClass = 'rounded border border-line-strong bg-surface px-2 py-1 text-sm text-fg';

/** What a refused write says, in the server's words. */
export const failure = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));

/** Adds a mark (`POST /api/marks`); every chart's and the marks screen's marks are asked again once it is in. */
export function useAddMark() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (m: MarkInput) => sendJson('POST', MARKS_PATHS.marks, m),
    onSuccess: () => client.invalidateQueries({ queryKey: MARKS_KEY }),
  });
}

/**
 * A mark's day, scope and text, as the marks screen and a chart's "Add a mark" ask for them; what is wrong with
 * them the server says (its 400's detail, shown here).
 */
export function MarkForm({
  scopes,
  initial,
  submit,
  pending,
  error,
  onSubmit,
  onCancel,
  label,
  focusText,
}: {
  scopes: readonly MarkScope[];
  initial: MarkInput;
  submit: string;
  pending: boolean;
  error: string | null;
  onSubmit: (m: MarkInput, reset: () => void) => void;
  onCancel?: () => void;
  label?: string;
  /** Puts the keyboard in the text at once (a form opened from a chart: its day and scope are given). */
  focusText?: boolean;
}) {
  const [m, setM] = useState(initial);
  const id = useId();
  const { historyStart } = useAppConfig();
  return (
    <form
      aria-label={label}
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onSubmit(m, () => setM({ ...m, text: '' }));
      }}
    >
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm text-fg-soft">
          Day (UTC)
          <input
            type="date"
            required
            min={historyStart}
            value={m.day}
            onChange={(e) => setM({ ...m, day: e.target.value })}
            className={fieldClass}
          />
        </label>
        <label className="flex min-w-0 flex-col gap-1 text-sm text-fg-soft">
          For
          <select value={m.team} onChange={(e) => setM({ ...m, team: e.target.value })} className={fieldClass}>
            {scopes.map((s) => (
              <option key={s.team} value={s.team}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="flex flex-col gap-1 text-sm text-fg-soft" htmlFor={`${id}-text`}>
        Text
      </label>
      <input
        id={`${id}-text`}
        type="text"
        required
        maxLength={MARK_TEXT_MAX}
        value={m.text}
        onChange={(e) => setM({ ...m, text: e.target.value })}
        autoFocus={focusText}
        placeholder="Rollout to every team"
        aria-describedby={`${id}-hint`}
        className={`${fieldClass} w-full`}
      />
      <p id={`${id}-hint`} className="text-xs text-fg-subtle">
        At most {MARK_TEXT_MAX} characters; shown on the charts with its day.
      </p>
      {error && (
        <p role="alert" className="rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        {/* Not disabled while sending: a disabled button would drop the keyboard focus. */}
        <button type="submit" className={primaryClass} aria-disabled={pending || undefined}>
          {pending ? 'Saving…' : submit}
        </button>
        {onCancel && (
          <button type="button" className={secondaryClass} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
