import { useState } from 'react';

/**
 * `value`, or the value last returned while `hold(last)` says to keep it. A widget showing placeholder
 * data (the previous range's or teams' answer, dimmed, while the new one loads) keeps drawing it as it
 * did: a new URL that changes how it would be drawn (a team's series, its links) but not the data does
 * not draw it again, only for the new answer to draw it once more.
 */
export function useHeld<T>(value: T, hold: (last: T) => boolean): T {
  const [last, setLast] = useState(value);
  const keep = last !== value && hold(last);
  // Remembers what is shown (React renders this component again at once, before its children).
  if (!keep && last !== value) setLast(value);
  return keep ? last : value;
}
