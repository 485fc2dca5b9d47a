import { useEffect, useState } from 'react';

// Whether an island runs in the browser yet. What depends on the browser (its time zone, its
// host) must render the same on the server and in the hydration pass, or React reports a
// mismatch (#418) and throws the server's HTML away; it follows once this turns true.

/** False on the server and in the hydration render; true right after. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
