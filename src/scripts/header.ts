// Header behaviours of spec section 2: scroll classes and the mobile menu toggle.

const header = document.getElementById('site-header');

if (header) {
  // `scrolled` past 0 px, `short` past 32 px; one class update per frame at most.
  let queued = false;
  const update = () => {
    queued = false;
    header.classList.toggle('scrolled', scrollY > 0);
    header.classList.toggle('short', scrollY > 32);
  };
  addEventListener(
    'scroll',
    () => {
      if (!queued) {
        queued = true;
        requestAnimationFrame(update);
      }
    },
    { passive: true },
  );
  update();

  const toggle = header.querySelector<HTMLButtonElement>('[aria-controls="site-menu"]');
  const menu = document.getElementById('site-menu');
  if (toggle && menu) {
    const setOpen = (open: boolean) => {
      toggle.setAttribute('aria-expanded', String(open));
      menu.classList.toggle('open', open);
    };
    toggle.addEventListener('click', () => setOpen(!menu.classList.contains('open')));
    addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && menu.classList.contains('open')) {
        setOpen(false);
        toggle.focus();
      }
    });
  }
}

// A module, not a global script: its top-level names stay private to it.
export {};
