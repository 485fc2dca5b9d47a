// Sliders (`[data-slider]`: the home page's testimonials, the wallet's facts): previous/next
// buttons and dots over a scroll-snap track, which works on its own without this script (swipe,
// scroll). Positions use |scrollLeft| so right-to-left pages (negative scrollLeft) work too.
//
// `data-autoplay="<ms>"` also turns the slides on their own, as WCAG 2.2.2 allows it: never when
// the reader asks for reduced motion, and paused while the pointer is over the slider, while
// anything in it has focus, while the page is hidden, and after its pause button
// (`[data-rotation]`, whose label says what it does next) is pressed. Every slide stays in the
// document, so screen readers read them all whatever is scrolled into view.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

for (const root of document.querySelectorAll<HTMLElement>('[data-slider]')) {
  const track = root.querySelector<HTMLElement>('[data-track]');
  if (!track) continue;
  const slides = [...track.children] as HTMLElement[];
  const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
  const prev = root.querySelector<HTMLButtonElement>('[data-prev]');
  const next = root.querySelector<HTMLButtonElement>('[data-next]');
  const step = () => Math.abs((slides[1]?.offsetLeft ?? 0) - (slides[0]?.offsetLeft ?? 0)) || 1;
  const position = () => Math.abs(track.scrollLeft);
  const atEnd = () => position() + track.clientWidth >= track.scrollWidth - 4;
  const current = () => (atEnd() ? slides.length - 1 : Math.round(position() / step()));

  const go = (index: number) => {
    const slide = slides[Math.max(0, Math.min(index, slides.length - 1))];
    // scrollIntoView would also scroll the page to the slider: only the track moves.
    const left = (slide?.offsetLeft ?? 0) - (slides[0]?.offsetLeft ?? 0);
    const sign = getComputedStyle(track).direction === 'rtl' ? -1 : 1;
    track.scrollTo({ left: sign * Math.abs(left), behavior: reducedMotion.matches ? 'auto' : 'smooth' });
  };

  let queued = false;
  const update = () => {
    queued = false;
    const index = current();
    dots.forEach((dot, i) => {
      if (i === index) dot.setAttribute('aria-current', 'true');
      else dot.removeAttribute('aria-current');
    });
    if (prev) prev.disabled = position() < 4;
    if (next) next.disabled = atEnd();
  };

  track.addEventListener(
    'scroll',
    () => {
      if (!queued) {
        queued = true;
        requestAnimationFrame(update);
      }
    },
    { passive: true },
  );
  prev?.addEventListener('click', () => go(Math.round(position() / step()) - 1));
  next?.addEventListener('click', () => go(Math.round(position() / step()) + 1));
  dots.forEach((dot, i) => {
    dot.addEventListener('click', () => go(i));
  });
  addEventListener('resize', update, { passive: true });
  update();
  const interval = Number(root.dataset.autoplay);
  if (interval > 0) autoplay(root, interval, () => go(atEnd() ? 0 : Math.round(position() / step()) + 1));
}

/** Turns the slides every `interval` ms while nothing asks it to wait (see the top). */
function autoplay(root: HTMLElement, interval: number, advance: () => void) {
  const toggle = root.querySelector<HTMLButtonElement>('[data-rotation]');
  const waits = { hover: false, focus: false, stopped: reducedMotion.matches };
  let timer: ReturnType<typeof setInterval> | undefined;

  const sync = () => {
    const turning = !waits.hover && !waits.focus && !waits.stopped && !document.hidden;
    if (turning && !timer) timer = setInterval(advance, interval);
    if (!turning && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    root.dataset.rotating = String(!waits.stopped);
    if (toggle) {
      toggle.setAttribute('aria-label', (waits.stopped ? toggle.dataset.playLabel : toggle.dataset.pauseLabel) ?? '');
    }
  };

  const wait = (reason: 'hover' | 'focus', on: boolean) => () => {
    waits[reason] = on;
    sync();
  };
  root.addEventListener('pointerenter', wait('hover', true));
  root.addEventListener('pointerleave', wait('hover', false));
  // Focus on the pause button itself does not wait: pressing "play" there starts the slides.
  root.addEventListener('focusin', (event) => wait('focus', event.target !== toggle)());
  root.addEventListener('focusout', (event) => {
    if (!root.contains(event.relatedTarget as Node | null)) wait('focus', false)();
  });
  toggle?.addEventListener('click', () => {
    waits.stopped = !waits.stopped;
    sync();
  });
  document.addEventListener('visibilitychange', sync);
  reducedMotion.addEventListener('change', () => {
    if (reducedMotion.matches) waits.stopped = true;
    sync();
  });
  sync();
}

// A module, not a global script: its top-level names stay private to it.
export {};
