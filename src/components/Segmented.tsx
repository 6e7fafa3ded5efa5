/** A row of mutually exclusive buttons (aria-pressed), e.g. Daily / Weekly. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  size = 'sm',
}: {
  label: string;
  options: readonly { id: T; label: React.ReactNode }[];
  value: T;
  onChange: (v: T) => void;
  size?: 'xs' | 'sm';
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className={`inline-flex rounded border border-line-strong ${size === 'xs' ? 'text-xs' : 'text-sm'}`}
    >
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          aria-pressed={value === o.id}
          onClick={() => onChange(o.id)}
          className={`px-2.5 py-1 font-medium first:rounded-l last:rounded-r ${
            value === o.id ? 'bg-surface-inverse text-fg-inverse' : 'text-fg-soft hover:bg-surface-muted'
          }`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
