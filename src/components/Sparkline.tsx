/** The path of a polyline through `values`, spread over the box (a flat line when every value is equal). */
export function sparklinePoints(values: readonly number[], width: number, height: number, pad = 1.5): string {
  if (values.length === 0) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo;
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = values.length > 1 ? pad + i * step : width / 2;
      const y = span > 0 ? height - pad - ((v - lo) / span) * (height - 2 * pad) : height / 2;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * A small inline trend: one line, no axes. It is an image named by `label`, which says in words what
 * the line shows (the figures are read from the row or page around it).
 */
export function Sparkline({
  values,
  label,
  width = 96,
  height = 24,
}: {
  values: readonly number[];
  label: string;
  width?: number;
  height?: number;
}) {
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="inline-block align-middle text-chart-1"
    >
      <title>{label}</title>
      {values.length > 0 && (
        <polyline
          points={sparklinePoints(values, width, height)}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}
