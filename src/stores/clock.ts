import { atom } from 'nanostores';
import { onClientMount } from './client-mount.ts';

// The time in milliseconds, ticking every second while something shows it (a countdown); it stops
// when the last listener leaves. Read only in the browser: what a server rendered would differ.

export const $now = atom(0);

onClientMount($now, () => {
  $now.set(Date.now());
  const timer = setInterval(() => $now.set(Date.now()), 1000);
  return () => clearInterval(timer);
});
