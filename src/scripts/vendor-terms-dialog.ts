// Wakes src/components/VendorTermsDialog.astro. Signed in (the `signed-in` class, read at click
// time since account.ts drops a stale hint), a link into the vendor registration flow opens the
// terms instead; accept or decline is posted form-encoded (spec section 7), then the dialog closes
// and the status says how it went, the API's own message on failure (spec section 8). Visitors
// follow the link to registration.

// csrfToken() of src/lib/api-client.ts, repeated: importing it loads that module's shared chunk
// on this static page too (+0.65 KB gzip and a second request).
const csrfToken = () => /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';

const dialog = document.getElementById('vendor-terms-dialog') as HTMLDialogElement | null;
const toast = document.getElementById('vendor-terms-status');
const live = toast?.querySelector('[role="status"]');

if (dialog && toast && live) {
  const { api = '', accepted, declined, failed = '' } = dialog.dataset;
  const buttons = dialog.querySelectorAll<HTMLButtonElement>('[name="vendor_terms_action"]');

  for (const link of document.querySelectorAll('a[href*="vendor=1"]')) {
    link.addEventListener('click', (event) => {
      if (!document.documentElement.classList.contains('signed-in')) return;
      event.preventDefault();
      toast.hidden = true;
      dialog.showModal();
    });
  }

  dialog.addEventListener('submit', async (event) => {
    const action = (event.submitter as HTMLButtonElement | null)?.value;
    // The close button: let the form close the dialog.
    if (action !== 'accept' && action !== 'decline') return;
    event.preventDefault();
    for (const button of buttons) button.disabled = true;
    let text: string | undefined;
    let ok = false;
    try {
      const response = await fetch(api, {
        method: 'POST',
        headers: { Accept: 'application/json', 'X-CSRF-Token': csrfToken() },
        body: new URLSearchParams({ vendor_terms_action: action }),
      });
      ok = response.ok;
      text = ok
        ? action === 'accept'
          ? accepted
          : declined
        : ((await response.json()) as { errors?: { message?: string }[] }).errors?.[0]?.message;
    } catch {
      // Offline or not JSON: the generic message below.
    }
    for (const button of buttons) button.disabled = false;
    dialog.close();
    toast.dataset.state = ok ? 'success' : 'error';
    live.textContent = '';
    toast.hidden = false;
    // Filled once the live region shows, so screen readers announce it.
    setTimeout(() => {
      live.textContent = text || failed;
    }, 50);
  });

  toast.querySelector('button')?.addEventListener('click', () => {
    toast.hidden = true;
  });
}
