import { apiPost, NETWORK_ERROR_CODE } from '../lib/api-client.ts';

// The device review page with JavaScript: the sign-in time in the reader's own time zone, and the
// two answers posted as JSON (spec section 7: { isConfirmed, deviceToken } → data.redirectTo).
// Without this script the buttons post the page's form and the server does the same.

const html = document.documentElement;

for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-local-time]')) {
  const date = new Date(time.dateTime);
  if (Number.isNaN(date.getTime())) continue;
  time.textContent = new Intl.DateTimeFormat(html.lang || undefined, {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(date);
  time.title = date.toISOString();
}

const form = document.querySelector<HTMLFormElement>('form[data-device-review]');
if (form) {
  const errorSlot = form.querySelector<HTMLElement>('[data-form-error]');
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('button[name="decision"]')];
  const token = (form.elements.namedItem('deviceToken') as HTMLInputElement | null)?.value ?? '';

  const post = (isConfirmed: boolean) =>
    apiPost<{ redirectTo: string }>(form.dataset.api ?? '', { isConfirmed, deviceToken: token });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submitter = event.submitter as HTMLButtonElement | null;
    if (!submitter || buttons.some((b) => b.disabled)) return;
    const isConfirmed = submitter.value === 'confirm';
    for (const button of buttons) button.disabled = true;
    submitter.setAttribute('aria-busy', 'true');
    if (errorSlot) errorSlot.textContent = '';

    let result = await post(isConfirmed);
    // A refused token came back with a fresh CSRF cookie: once more at once.
    if (result.errors.some((e) => e.code === 'CSRF_TOKEN_MISMATCH')) result = await post(isConfirmed);
    if (result.ok && result.data) {
      location.assign(`${form.dataset.localePrefix ?? ''}${result.data.redirectTo}`);
      return;
    }
    // Used or expired meanwhile: the page renders that state itself.
    if (result.status === 404) {
      location.reload();
      return;
    }
    const network = result.errors.some((e) => e.code === NETWORK_ERROR_CODE);
    if (errorSlot) {
      errorSlot.textContent =
        (network ? form.dataset.networkError : result.errors[0]?.message) || (form.dataset.failed ?? '');
    }
    for (const button of buttons) button.disabled = false;
    submitter.removeAttribute('aria-busy');
  });
}
