/** A row of mutually exclusive buttons (aria-pressed), e.g. Daily / Weekly. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  size = 'sm',
}: {
  label: string;
  options: readonly { id: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  size?: 'xs' | 'sm';
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className={`inline-flex rounded border border-slate-300 ${size === 'xs' ? 'text-xs' : 'text-sm'}`}
    >
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          aria-pressed={value === o.id}
          onClick={() => onChange(o.id)}
          className={`px-2.5 py-1 font-medium first:rounded-l last:rounded-r ${
            value === o.id ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100'
          }`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
