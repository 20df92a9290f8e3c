import { useEffect, useState } from 'react';

/**
 * State that goes back to null a while after it was set: the banners shown for a few seconds
 * after a save. `lifetime` gives the milliseconds for a value (a failure may stay longer).
 */
export function useExpiringState<T>(lifetime: (value: T) => number) {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    if (value === null) return;
    const timer = setTimeout(() => setValue(null), lifetime(value));
    return () => clearTimeout(timer);
    // The lifetime is read when a value is set; a new function each render must not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return [value, setValue] as const;
}
