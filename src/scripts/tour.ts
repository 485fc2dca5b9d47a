// Wakes src/components/Tour.astro: walks through `[data-tour="<target>"]` elements with one
// popover placed under (or above) each. Esc or × ends it; ← and → step. Steps whose target is
// missing or hidden (display: none at this width) are left out, so one step list serves phones
// and desktops (spec section 2: "convert to tether (not on mobile)"). A second start within 500 ms
// of the last is ignored (spec section 9, the tour start throttle), so a double click does not
// restart a walk that has begun.
import { TOUR_START_THROTTLE_MS, throttle } from '../lib/shared/throttle.ts';

interface Step {
  target: string;
  title: string;
  text: string;
}

for (const root of document.querySelectorAll<HTMLElement>('[data-tour-root]')) {
  const start = root.querySelector<HTMLButtonElement>('[data-tour-start]');
  const popover = root.querySelector<HTMLElement>('[data-tour-popover]');
  const stepsJson = root.querySelector('[data-tour-steps]')?.textContent ?? '[]';
  if (!start || !popover) continue;
  const all = JSON.parse(stepsJson) as Step[];
  const part = <T extends HTMLElement>(name: string) => popover.querySelector<T>(`[data-tour-${name}]`);
  const [title, text, count, back, next, close] = [
    part('title'),
    part('text'),
    part('count'),
    part<HTMLButtonElement>('back'),
    part<HTMLButtonElement>('next'),
    part<HTMLButtonElement>('close'),
  ];
  let steps: { step: Step; element: HTMLElement }[] = [];
  let index = 0;
  let active: HTMLElement | undefined;

  const visible = (element: HTMLElement) => element.getClientRects().length > 0;

  const place = (element: HTMLElement) => {
    const box = element.getBoundingClientRect();
    const width = popover.offsetWidth;
    const left = Math.min(
      Math.max(12, box.left + window.scrollX),
      window.scrollX + document.documentElement.clientWidth - width - 12,
    );
    const below = box.bottom + window.scrollY + 12;
    const fitsBelow = box.bottom + popover.offsetHeight + 24 < window.innerHeight;
    popover.style.insetInlineStart = '';
    popover.style.left = `${left}px`;
    popover.style.top = `${fitsBelow ? below : Math.max(12, box.top + window.scrollY - popover.offsetHeight - 12)}px`;
  };

  const show = (at: number) => {
    const entry = steps[at];
    if (!entry || !title || !text || !count || !back || !next) return;
    index = at;
    active?.removeAttribute('data-tour-active');
    active = entry.element;
    active.setAttribute('data-tour-active', '');
    title.textContent = entry.step.title;
    text.textContent = entry.step.text;
    count.textContent = `${at + 1} / ${steps.length}`;
    back.hidden = at === 0;
    next.textContent = at === steps.length - 1 ? (next.dataset.done ?? '') : (next.dataset.next ?? '');
    popover.hidden = false;
    active.scrollIntoView({
      block: 'center',
      behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
    });
    requestAnimationFrame(() => place(entry.element));
    next.focus({ preventScroll: true });
  };

  const end = (finished: boolean) => {
    popover.hidden = true;
    active?.removeAttribute('data-tour-active');
    active = undefined;
    if (finished) localStorage.setItem(root.dataset.storageKey ?? 'tour', 'done');
    start.focus({ preventScroll: true });
  };

  const begin = throttle(() => {
    steps = all
      .map((step) => ({ step, element: document.querySelector<HTMLElement>(`[data-tour="${step.target}"]`) }))
      .filter(
        (entry): entry is { step: Step; element: HTMLElement } => entry.element !== null && visible(entry.element),
      );
    if (steps.length > 0) show(0);
  }, TOUR_START_THROTTLE_MS);
  start.addEventListener('click', () => begin());
  back?.addEventListener('click', () => show(index - 1));
  next?.addEventListener('click', () => (index >= steps.length - 1 ? end(true) : show(index + 1)));
  close?.addEventListener('click', () => end(false));
  document.addEventListener('keydown', (event) => {
    if (popover.hidden) return;
    if (event.key === 'Escape') end(false);
    else if (event.key === 'ArrowRight') index < steps.length - 1 && show(index + 1);
    else if (event.key === 'ArrowLeft') index > 0 && show(index - 1);
  });
  window.addEventListener('resize', () => active && place(active));
}
