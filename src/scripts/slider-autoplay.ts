// Sliders that turn on their own (`[data-slider][data-autoplay="<ms>"]`, the wallet's facts), as
// WCAG 2.2.2 allows it: never when the reader asks for reduced motion, and paused while the
// pointer is over the slider, while anything in it has focus, while the page is hidden, and after
// its pause button (`[data-rotation]`, whose label says what it does next) is pressed. Every slide
// stays in the document, so screen readers read them all whatever is scrolled into view. Each turn
// is a `slider:advance` event that src/scripts/slider.ts answers.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

for (const root of document.querySelectorAll<HTMLElement>('[data-slider][data-autoplay]')) {
  const interval = Number(root.dataset.autoplay);
  if (interval > 0) autoplay(root, interval);
}

/** Turns the slides every `interval` ms while nothing asks it to wait (see the top). */
function autoplay(root: HTMLElement, interval: number) {
  const toggle = root.querySelector<HTMLButtonElement>('[data-rotation]');
  const waits = { hover: false, focus: false, stopped: reducedMotion.matches };
  let timer: ReturnType<typeof setInterval> | undefined;
  const advance = () => root.dispatchEvent(new Event('slider:advance'));

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
