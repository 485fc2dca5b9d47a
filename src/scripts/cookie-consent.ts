import {
  COOKIE_SETTINGS_NAME,
  type CookieSettings,
  cookieCategories,
  cookieSettingsHeader,
  defaultCookieSettings,
  parseCookieSettings,
} from '../lib/shared/cookie-settings.ts';

// Cookie banner and settings dialog (spec section 3: eight categories, all on by default;
// section 9: kept one year at path /). The banner stays until the visitor chooses.

const banner = document.getElementById('cookie-banner');
const dialog = document.getElementById('cookie-dialog') as HTMLDialogElement | null;
const form = dialog?.querySelector('form');

const storedValue = () =>
  document.cookie
    .split('; ')
    .find((pair) => pair.startsWith(`${COOKIE_SETTINGS_NAME}=`))
    ?.slice(COOKIE_SETTINGS_NAME.length + 1);

const toggle = (category: string) => form?.elements.namedItem(category) as HTMLInputElement | null;

const save = (settings: CookieSettings) => {
  // biome-ignore lint/suspicious/noDocumentCookie: a static page has no server to set it; the Cookie Store API is not in every browser yet
  document.cookie = cookieSettingsHeader(settings, location.protocol === 'https:');
  if (banner) banner.hidden = true;
};

if (banner && storedValue() === undefined) banner.hidden = false;

const openSettings = () => {
  if (!dialog) return;
  const settings = parseCookieSettings(storedValue());
  for (const category of cookieCategories) {
    const input = toggle(category);
    if (input) input.checked = settings[category];
  }
  dialog.showModal();
};

document.addEventListener('click', (event) => {
  const action = (event.target as Element).closest<HTMLElement>('[data-cookie]')?.dataset.cookie;
  if (action === 'settings') openSettings();
  else if (action === 'accept') save(defaultCookieSettings());
  else if (action === 'close') dialog?.close();
});

// method="dialog": submitting closes the dialog; the toggles' state is what the visitor chose.
form?.addEventListener('submit', () => {
  const settings = defaultCookieSettings();
  for (const category of cookieCategories) settings[category] = toggle(category)?.checked ?? true;
  save(settings);
});
