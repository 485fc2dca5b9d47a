// Sliders (`[data-slider]`: the home page's testimonials, the wallet's facts): previous/next
// buttons and dots over a scroll-snap track, which works on its own without this script (swipe,
// scroll). Positions use |scrollLeft| so right-to-left pages (negative scrollLeft) work too.
// A `slider:advance` event on the slider moves it one slide on, back to the first after the last:
// src/scripts/slider-autoplay.ts sends it, imported only where a slider turns on its own (the
// wallet), so the static home page does not carry the autoplay (its script budget). The tracks'
// CSS scrolls smoothly unless the reader asks for reduced motion; this script never animates.

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
  const nearest = () => Math.round(position() / step());
  const current = () => (atEnd() ? slides.length - 1 : nearest());

  const go = (index: number) => {
    const slide = slides[Math.max(0, Math.min(index, slides.length - 1))];
    // scrollIntoView would also scroll the page to the slider: only the track moves.
    const left = (slide?.offsetLeft ?? 0) - (slides[0]?.offsetLeft ?? 0);
    const sign = getComputedStyle(track).direction === 'rtl' ? -1 : 1;
    track.scrollTo({ left: sign * Math.abs(left) });
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

  // Scroll and resize events cannot be cancelled: no `passive` needed.
  track.addEventListener('scroll', () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(update);
    }
  });
  prev?.addEventListener('click', () => go(nearest() - 1));
  next?.addEventListener('click', () => go(nearest() + 1));
  dots.forEach((dot, i) => {
    dot.addEventListener('click', () => go(i));
  });
  addEventListener('resize', update);
  update();
  root.addEventListener('slider:advance', () => go(atEnd() ? 0 : nearest() + 1));
}

// A module, not a global script: its top-level names stay private to it.
export {};
