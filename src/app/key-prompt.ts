import { useSyncExternalStore } from 'react';

/**
 * Whether the service refused the key (a 401). Kept outside React so the query
 * client, created before the first render, can report it.
 */
let rejected = false;
const listeners = new Set<() => void>();

export function setKeyRejected(v: boolean): void {
  if (rejected === v) return;
  rejected = v;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const current = () => rejected;

export function useKeyPrompt() {
  return { keyRejected: useSyncExternalStore(subscribe, current, current), setKeyRejected };
}
