import { externalValue } from '../components/external-value';

/**
 * Whether the service refused the key (a 401). Kept outside React so the query
 * client, created before the first render, can report it.
 */
const rejected = externalValue(false);

export const setKeyRejected = rejected.set;

export function useKeyPrompt() {
  return { keyRejected: rejected.useValue(), setKeyRejected };
}
