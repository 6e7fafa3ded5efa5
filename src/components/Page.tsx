import { useDeferredValue } from 'react';

/** A page title with optional controls on the right. */
export function PageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-xl font-semibold text-fg">{title}</h1>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}

/**
 * What lies below the fold: rendered right after the first paint (a deferred,
 * interruptible render), so the page's first chart is not held up by it.
 */
export function BelowTheFold({ children }: { children: React.ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : null;
}
