// Tab sets (`[data-tabs]`): payment method groups, peer levels. The markup shows every panel;
// this hides all but the selected one and adds the WAI-ARIA keyboard pattern.

for (const root of document.querySelectorAll<HTMLElement>('[data-tabs]')) {
  const tabs = [...root.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (index: number, focus = false) => {
    tabs.forEach((tab, i) => {
      const selected = i === index;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !selected;
      if (selected && focus) tab.focus();
    });
  };

  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(i));
    tab.addEventListener('keydown', (event) => {
      const forward = getComputedStyle(root).direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
      const back = forward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
      const last = tabs.length - 1;
      const next =
        event.key === forward || event.key === 'ArrowDown'
          ? (i + 1) % tabs.length
          : event.key === back || event.key === 'ArrowUp'
            ? (i + last) % tabs.length
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? last
                : -1;
      if (next < 0) return;
      event.preventDefault();
      select(next, true);
    });
  });

  select(
    Math.max(
      0,
      tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true'),
    ),
  );
}

// A module, not a global script: its top-level names stay private to it.
export {};
