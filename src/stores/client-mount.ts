import { onMount, type Store } from 'nanostores';

// nanostores' `onMount`, in the browser only. A store mounts on its first listener, and also for a
// moment on a `get()` without listeners, which a server render makes (`useStore` reads the store):
// sockets, timers and history must not start there. In the browser the first `get()` happens in
// the first render; what the callback starts must change the store later (events, answers,
// timers), or the component reads it with `useStore(store, { ssr: 'initial' })` so hydration
// still sees the server's value.
export function onClientMount(store: Store, start: () => (() => void) | undefined): void {
  onMount(store, () => (typeof window === 'undefined' ? undefined : start()));
}
