// Footer expanders and dropdowns (<details data-dropdown>, e.g. the language switcher).

// Footer columns collapse below 768 px; from 768 px they are all open and the toggles rest.
const wide = matchMedia('(min-width: 768px)');
const expanders = document.querySelectorAll<HTMLButtonElement>('[data-expander]');
const syncExpanders = () => {
  for (const button of expanders) {
    button.setAttribute('aria-expanded', String(wide.matches));
    button.disabled = wide.matches;
  }
};
for (const button of expanders) {
  button.addEventListener('click', () => {
    button.setAttribute('aria-expanded', String(button.getAttribute('aria-expanded') !== 'true'));
  });
}
wide.addEventListener('change', syncExpanders);
syncExpanders();

// An open dropdown closes on a click elsewhere or on Escape.
const openDropdowns = () => document.querySelectorAll<HTMLDetailsElement>('details[data-dropdown][open]');
document.addEventListener('click', (event) => {
  for (const details of openDropdowns()) {
    if (!details.contains(event.target as Node)) details.open = false;
  }
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const details of openDropdowns()) {
    details.open = false;
    details.querySelector('summary')?.focus();
  }
});

// A module, not a global script: its top-level names stay private to it.
export {};
