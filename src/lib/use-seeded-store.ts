import { useStore } from '@nanostores/react';
import type { WritableAtom } from 'nanostores';

// A shared store (src/stores/) with what the server rendered as its first value. The stores are
// module singletons, and on the server one module serves every request: there they are never
// written and the component renders `initial`. In the browser an empty store is seeded with
// `initial` before it is read, so the first render equals the server's (no hydration mismatch);
// later renders follow the store.
export function useSeededStore<T>(store: WritableAtom<T | undefined>, initial: T): T {
  if (typeof window !== 'undefined' && store.get() === undefined) store.set(initial);
  return useStore(store) ?? initial;
}
