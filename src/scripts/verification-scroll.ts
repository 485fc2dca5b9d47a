// Verification scroll (spec section 2): the step links of the verification page scroll to their
// section with the anchor offset of the spec, the navbar's height plus 40 px. The navbar shrinks
// past 32 px (the `short` class), so its height is measured as it will be there. Without this
// script the CSS `scroll-padding-block-start` of global.css gives nearly the same result.

const ANCHOR_GAP_PX = 40;

/** Past this scroll position the header has its `short` class (src/scripts/header.ts). */
const SHORT_AFTER_PX = 32;

/** The navbar's height once the page sits at `scrollTop`: measured in the state it will be in. */
function navbarHeightAt(scrollTop: number): number {
  const navbar = document.getElementById('site-header');
  if (!navbar) return 0;
  // The bar eases between its heights: measure the end state with the transition held off.
  const parts = [navbar, ...Array.from(navbar.children)].filter((el): el is HTMLElement => el instanceof HTMLElement);
  const transitions = parts.map((el) => el.style.transition);
  for (const el of parts) el.style.transition = 'none';
  const was = navbar.classList.contains('short');
  navbar.classList.toggle('short', scrollTop > SHORT_AFTER_PX);
  const height = navbar.getBoundingClientRect().height;
  navbar.classList.toggle('short', was);
  navbar.getBoundingClientRect(); // the old height again before the transition comes back
  parts.forEach((el, i) => {
    el.style.transition = transitions[i] ?? '';
  });
  return height;
}

function jumpTo(id: string, smooth: boolean): void {
  const target = document.getElementById(id);
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY;
  // Where the page lands decides whether the navbar is short there.
  const guess = top - navbarHeightAt(window.scrollY) - ANCHOR_GAP_PX;
  const destination = top - navbarHeightAt(guess) - ANCHOR_GAP_PX;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: Math.max(0, destination), behavior: smooth && !reduce ? 'smooth' : 'auto' });
  // Keyboard and screen-reader users continue from the section they chose.
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

for (const nav of document.querySelectorAll<HTMLElement>('[data-verification-scroll]')) {
  nav.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href^="#"]');
    if (!link) return;
    event.preventDefault();
    const id = decodeURIComponent(link.hash.slice(1));
    history.pushState(null, '', `#${id}`);
    jumpTo(id, true);
  });
}

// After a form posts and the page comes back to #identity or #address.
if (location.hash.length > 1 && document.querySelector('[data-verification-scroll]')) {
  const id = decodeURIComponent(location.hash.slice(1));
  requestAnimationFrame(() => jumpTo(id, false));
}
