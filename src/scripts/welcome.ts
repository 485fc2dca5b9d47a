// Wakes src/components/WelcomeNotices.astro: the welcome dialog once after a sign-up (the
// register API's short-lived `welcome` cookie, cleared here so a reload does not show it again)
// and the notice of the e-mail confirmation link (`?email_verified=1|0`, then dropped from the URL).

if (/(?:^|; )welcome=1/.test(document.cookie)) {
  // From an https page this also clears the cookie the API set with `Secure`.
  // biome-ignore lint/suspicious/noDocumentCookie: clearing our own readable cookie; the Cookie Store API is not in every browser yet
  document.cookie = 'welcome=; Path=/; Max-Age=0; SameSite=Lax';
  (document.getElementById('welcome-dialog') as HTMLDialogElement | null)?.showModal();
}

const url = new URL(location.href);
const verified = url.searchParams.get('email_verified');
if (verified !== null) {
  const state = verified === '1' ? '1' : '0';
  const notice = document.getElementById('email-notice');
  const message = notice?.querySelector<HTMLTemplateElement>(`template[data-verified="${state}"]`);
  if (notice && message) {
    notice.dataset.state = state;
    notice.hidden = false;
    notice.querySelector('button')?.addEventListener('click', () => {
      notice.hidden = true;
    });
    // Filled once the live region is shown, so screen readers announce it.
    setTimeout(() => notice.querySelector('[role="status"]')?.replaceChildren(message.content.cloneNode(true)), 50);
  }
  url.searchParams.delete('email_verified');
  history.replaceState(history.state, '', url);
}
