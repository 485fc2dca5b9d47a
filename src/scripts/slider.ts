// Testimonials slider (`[data-slider]`): previous/next buttons and dots over a scroll-snap
// track. Positions use |scrollLeft| so right-to-left pages (negative scrollLeft) work too.

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
    slide?.scrollIntoView({ block: 'nearest', inline: 'start', behavior: 'smooth' });
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
}

// A module, not a global script: its top-level names stay private to it.
export {};
