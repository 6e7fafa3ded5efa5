import { useSyncExternalStore } from 'react';

/** A value kept outside React (set from anywhere, before or after the first render) that components read and follow. */
export function externalValue<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const get = () => value;
  return {
    get,
    set(v: T) {
      if (Object.is(v, value)) return;
      value = v;
      for (const l of listeners) l();
    },
    useValue: () => useSyncExternalStore(subscribe, get, get),
  };
}
