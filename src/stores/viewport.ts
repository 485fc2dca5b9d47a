import { atom } from 'nanostores';
import { onClientMount } from './client-mount.ts';

// Phones: below the 768 px breakpoint. False until an island listens in the browser (the server
// cannot know the width), then it follows the window.

export const $narrow = atom(false);

onClientMount($narrow, () => {
  const query = matchMedia('(max-width: 767.98px)');
  const update = () => $narrow.set(query.matches);
  update();
  query.addEventListener('change', update);
  return () => query.removeEventListener('change', update);
});
