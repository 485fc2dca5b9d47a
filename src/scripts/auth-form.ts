import { apiGet, apiPost, NETWORK_ERROR_CODE, splitErrors } from '../lib/api-client.ts';
import { REFERRAL_COOKIE } from '../lib/shared/affiliates.ts';
import { checkPassword, passwordChecks } from '../lib/shared/password-policy.ts';
import { solveChallenge } from '../lib/shared/proof-of-work.ts';

// The sign-in, registration, forgot-password and reset-password forms with JavaScript: the live
// password helper, show/hide password, the proof-of-work security check, and a JSON post that
// shows errors in place. The pages work without this script (they post the same fields as a form).

interface Challenge {
  challenge: string;
  difficulty: number;
  expiresAt: number;
}

function wireReveal(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-reveal]')) {
    const input = document.getElementById(button.dataset.reveal ?? '') as HTMLInputElement | null;
    if (!input) continue;
    button.addEventListener('click', () => {
      const show = input.type === 'password';
      input.type = show ? 'text' : 'password';
      button.setAttribute('aria-pressed', String(show));
      button.setAttribute('aria-label', (show ? button.dataset.hideLabel : button.dataset.showLabel) ?? '');
    });
  }
}

function wirePasswordChecks(root: ParentNode): void {
  for (const list of root.querySelectorAll<HTMLElement>('[data-password-checks]')) {
    const input = document.getElementById(list.dataset.passwordChecks ?? '') as HTMLInputElement | null;
    if (!input) continue;
    const update = () => {
      const result = checkPassword(input.value);
      for (const check of passwordChecks) {
        list.querySelector(`[data-check="${check}"]`)?.classList.toggle('met', result[check]);
      }
    };
    input.addEventListener('input', update);
    update();
  }
}

const formKinds = ['login', 'register', 'forgot', 'reset'] as const;
type FormKind = (typeof formKinds)[number];

class AuthForm {
  private readonly form: HTMLFormElement;
  private readonly kind: FormKind;
  private readonly submitButton: HTMLButtonElement | null;
  private readonly challengeBox: HTMLElement | null;
  /** Login asks for the check only once the server says so (spec: optional on login). */
  private challengeWanted: boolean;
  private challenge: Challenge | undefined;

  constructor(form: HTMLFormElement) {
    this.form = form;
    const kind = form.dataset.authForm as FormKind;
    this.kind = formKinds.includes(kind) ? kind : 'login';
    this.submitButton = form.querySelector('button[type="submit"]');
    this.challengeBox = form.querySelector('[data-challenge]');
    this.challengeWanted = this.kind === 'register' || this.kind === 'forgot';
    const box = this.challengeBox;
    const id = this.field('geetest_challenge')?.value;
    if (box && id) {
      this.challenge = {
        challenge: id,
        difficulty: Number(box.dataset.difficulty),
        expiresAt: Number(box.dataset.expiresAt),
      };
    }
    // The no-JS marker must never reach the server from a page that can solve the puzzle.
    this.setChallengeFields('', '', '');
    if (this.challenge) this.setChallengeFields(this.challenge.challenge, '', '');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  private field(name: string): HTMLInputElement | null {
    return this.form.elements.namedItem(name) as HTMLInputElement | null;
  }

  private value(name: string): string {
    const input = this.field(name);
    if (!input) return '';
    if (input.type === 'checkbox') return input.checked ? '1' : '';
    return input.value;
  }

  private setChallengeFields(challenge: string, nonce: string, seccode: string): void {
    const set = (name: string, value: string) => {
      const input = this.field(name);
      if (input) input.value = value;
    };
    set('geetest_challenge', challenge);
    set('geetest_validate', nonce);
    set('geetest_seccode', seccode);
  }

  /** Solves the current challenge, fetching a fresh one when it is used up or about to expire. */
  private async solve(): Promise<boolean> {
    if (!this.challenge || this.challenge.expiresAt - Date.now() < 30_000) {
      const fresh = await apiGet<Challenge>('/rest/v1/auth/challenge');
      if (!fresh.data) return false;
      this.challenge = fresh.data;
    }
    const { challenge, difficulty } = this.challenge;
    const { nonce, seccode } = await solveChallenge(challenge, difficulty);
    this.setChallengeFields(challenge, nonce, seccode);
    // Single use: whatever the answer, the next attempt needs a new one.
    this.challenge = undefined;
    return true;
  }

  private showErrors(summary: string | undefined, fields: Record<string, string>): void {
    const top = this.form.querySelector<HTMLElement>('[data-form-error]');
    if (top) top.textContent = summary ?? '';
    for (const slot of this.form.querySelectorAll<HTMLElement>('[data-error-for]')) {
      const name = slot.dataset.errorFor ?? '';
      slot.textContent = fields[name] ?? '';
      const input = this.field(name);
      if (input instanceof HTMLInputElement) {
        if (fields[name]) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    }
    const firstInvalid = Object.keys(fields)
      .map((name) => this.field(name))
      .find((input) => input instanceof HTMLInputElement);
    firstInvalid?.focus();
  }

  private busy(on: boolean): void {
    const button = this.submitButton;
    if (!button) return;
    button.disabled = on;
    button.setAttribute('aria-busy', String(on));
    if (on) {
      button.dataset.idleLabel = button.textContent ?? '';
      button.textContent = button.dataset.busyLabel ?? button.textContent;
    } else if (button.dataset.idleLabel !== undefined) {
      button.textContent = button.dataset.idleLabel;
    }
  }

  private body(): Record<string, unknown> {
    const body: Record<string, unknown> =
      this.kind === 'forgot'
        ? { email: this.value('email').trim() }
        : this.kind === 'reset'
          ? { token: this.value('token'), password: this.value('password') }
          : { email: this.value('email'), password: this.value('password'), back: this.value('back') || undefined };
    if (this.kind === 'login' || this.kind === 'reset') {
      if (this.value('code')) body.code = this.value('code').trim();
    } else if (this.kind === 'register') {
      if (this.value('entry_point')) body.entry_point = this.value('entry_point');
      if (this.value('referral_code')) body.referral_code = this.value('referral_code');
      if (this.field('vendor_flow')) body.vendors_terms_accepted = this.value('vendors_terms_accepted') === '1';
    }
    if (this.value('geetest_validate')) {
      body.geetest_challenge = this.value('geetest_challenge');
      body.geetest_validate = this.value('geetest_validate');
      body.geetest_seccode = this.value('geetest_seccode');
    }
    return body;
  }

  /**
   * A referral code the server refused (unknown, or the referrer's own device): it is forgotten,
   * field and remembered link alike, so the next try signs up without it as the message says.
   */
  private dropReferral(): void {
    const field = this.field('referral_code') as HTMLInputElement | null;
    if (field) field.value = '';
    // biome-ignore lint/suspicious/noDocumentCookie: the cookie src/scripts/referral-link.ts wrote
    document.cookie = `${REFERRAL_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  }

  /** Forgot password: the same neutral confirmation the page renders after a form post. */
  private showSent(): void {
    const panel = document.querySelector<HTMLElement>('[data-forgot-sent]');
    if (!panel) return;
    const email = panel.querySelector('[data-sent-email]');
    if (email) email.textContent = this.value('email').trim();
    this.form.hidden = true;
    panel.hidden = false;
    panel.focus();
  }

  private async submit(): Promise<void> {
    this.busy(true);
    try {
      await this.attempt(false);
    } finally {
      this.busy(false);
    }
  }

  private async attempt(retried: boolean): Promise<void> {
    this.setChallengeFields('', '', '');
    if (this.challengeWanted && !(await this.solve())) {
      this.showErrors(this.form.dataset.networkError, {});
      return;
    }
    const result = await apiPost<{ redirectTo: string }>(this.form.dataset.api ?? '', this.body());
    if (result.ok && this.kind === 'forgot') {
      this.showSent();
      return;
    }
    if (result.ok && result.data) {
      const target = result.meta?.compromised ? this.form.dataset.compromisedTarget : result.data.redirectTo;
      // The reset answers a locale-free path (`/login?reset=1`); the page gives its prefix.
      location.assign(`${this.form.dataset.localePrefix ?? ''}${target ?? result.data.redirectTo}`);
      return;
    }
    const codes = new Set(result.errors.map((e) => e.code));
    // The server wants the check after repeated failures, or has just renewed a stale CSRF
    // cookie: try once more at once.
    if (!retried && (codes.has('CHALLENGE_REQUIRED') || codes.has('CHALLENGE_INVALID'))) {
      this.challengeWanted = true;
      await this.attempt(true);
      return;
    }
    if (!retried && codes.has('CSRF_TOKEN_MISMATCH')) {
      await this.attempt(true);
      return;
    }
    if (codes.has('TWO_FACTOR_REQUIRED') || codes.has('TWO_FACTOR_INVALID')) {
      const codeField = this.form.querySelector<HTMLElement>('[data-code-field]');
      if (codeField) codeField.hidden = false;
    }
    if (codes.has(NETWORK_ERROR_CODE)) {
      this.showErrors(this.form.dataset.networkError, {});
      return;
    }
    const names = [...this.form.querySelectorAll<HTMLElement>('[data-error-for]')].map(
      (el) => el.dataset.errorFor ?? '',
    );
    const { summary, fields } = splitErrors(result.errors, names);
    this.showErrors(summary, fields);
    if (result.errors.some((e) => e.field === 'referral_code')) this.dropReferral();
    if (codes.has('TWO_FACTOR_REQUIRED')) this.field('code')?.focus();
  }
}

wireReveal(document);
wirePasswordChecks(document);
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-auth-form]')) new AuthForm(form);
