// Dark/light toggle. The inline head script has already applied the stored or system theme
// before paint; this keeps the button in sync and stores an explicit choice.

const root = document.documentElement;
const button = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
const systemDark = matchMedia('(prefers-color-scheme: dark)');

const apply = (theme: string) => {
  root.dataset.theme = theme;
  button?.setAttribute('aria-pressed', String(theme === 'dark'));
};

const stored = () => {
  try {
    return localStorage.getItem('theme');
  } catch {
    return null; // storage blocked: the toggle still works for this page view
  }
};

apply(root.dataset.theme ?? 'light');

button?.addEventListener('click', () => {
  const next = root.dataset.theme === 'dark' ? 'light' : 'dark';
  apply(next);
  try {
    localStorage.setItem('theme', next);
  } catch {}
});

// Without an explicit choice the page keeps following the system setting.
systemDark.addEventListener('change', () => {
  if (!stored()) apply(systemDark.matches ? 'dark' : 'light');
});

// A module, not a global script: its top-level names stay private to it.
export {};
