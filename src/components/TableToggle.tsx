import type { Dispatch, SetStateAction } from 'react';

/** A chart widget's "Table" button: shows `what` as its table view, pressed while it does. */
export function TableToggle({
  what,
  pressed,
  onChange,
}: {
  what: string;
  pressed: boolean;
  onChange: Dispatch<SetStateAction<boolean>>;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={() => onChange((t) => !t)}
      className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
      aria-label={`Show ${what} as a table`}
    >
      Table
    </button>
  );
}
