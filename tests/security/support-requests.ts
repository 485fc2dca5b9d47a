import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { personalChannel } from '../../server/realtime/channels.ts';
import { visitorContext } from '../../server/services/context.ts';
import { STRONG_PASSWORD } from '../support/browser-session.ts';
import { fixedPriceOfferBody } from '../support/trade-fixtures.ts';
import type { Fixtures, PersonName } from './support-fixtures.ts';
import { giftStartBody } from './support-gift-cards.ts';

// A valid request for each route that changes state or names an object, over the fixtures of
// support-fixtures.ts: who gets the normal answer, the path's values, a body that passes the
// route's validation. The matrix sends the same request as other people, so a refusal proves the
// person was refused, not the body; the CSRF suite sends it without the token; the fuzzer takes
// its field names. route-table.ts fails for a route that needs a sample and has none.

export interface SampleRequest {
  /** Who gets the normal answer: the object's owner or party, a moderator, or a visitor. */
  as: PersonName | 'visitor';
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: unknown;
  /** A multipart body (made fresh per send: a FormData is read once). */
  multipart?: () => FormData;
  /** An application/x-www-form-urlencoded body. */
  urlencoded?: Record<string, string>;
  /** The status the normal answer has (200 unless said). */
  status?: number;
}

/** A sample is built when sent: some values (the current quote) are read from the app then. */
type Sample = (fx: Fixtures) => SampleRequest | Promise<SampleRequest>;

const offerBody = (fx: Fixtures) => fixedPriceOfferBody({ trade_instructions: `Pay to ${fx.secrets.instructions}.` });

const imageForm =
  (field: string, bytes: Buffer, extra: Record<string, string> = {}) =>
  () => {
    const body = new FormData();
    for (const [name, value] of Object.entries(extra)) body.append(name, value);
    body.append(field, new File([new Uint8Array(bytes)], 'image.jpg', { type: 'image/jpeg' }));
    return body;
  };

const trade = (hash: string) => ({ id: hash });
const PHONE = '+49 151 23456789';

export const REQUESTS: Readonly<Record<string, Sample>> = {
  // Offers.
  'POST /rest/v1/offers': (fx) => ({ as: 'A', json: offerBody(fx), status: 201 }),
  'GET /rest/v1/offers/:hash': (fx) => ({ as: 'A', params: { hash: fx.offers.main.hash } }),
  'PUT /rest/v1/offers/:hash': (fx) => ({ as: 'A', params: { hash: fx.offers.main.hash }, json: offerBody(fx) }),
  'POST /rest/v1/offers/:hash/toggle': (fx) => ({ as: 'A', params: { hash: fx.offers.main.hash }, json: {} }),
  'DELETE /rest/v1/offers/:hash': (fx) => ({ as: 'A', params: { hash: fx.offers.disposable.hash } }),
  'GET /rest/v1/users/:username/offers': (fx) => ({ as: 'visitor', params: { username: fx.people.A.username } }),
  'GET /rest/v1/offers': () => ({
    as: 'visitor',
    query: { type: 'buy', currency: 'USD', 'fiat-min': '50', page: '1' },
  }),

  // Reference and market data.
  'GET /rest/v1/currencies/:code': () => ({ as: 'visitor', params: { code: 'USD' } }),
  'GET /rest/v1/currencies': () => ({ as: 'visitor', query: { 'with-popular': '1' } }),
  'GET /rest/v1/countries': () => ({ as: 'visitor', query: { limit: '10', offset: '0' } }),
  'GET /rest/v1/calculator': () => ({ as: 'visitor', query: { range: 'month', currency: 'USD' } }),
  'GET /rest/v1/calculator/chart': () => ({ as: 'visitor', query: { range: 'week', currency: 'EUR', crypto: 'BTC' } }),
  'GET /rest/v1/crypto-fiat-rates': () => ({ as: 'visitor', query: { camelCase: '1' } }),
  'GET /rest/v1/vendorlanding/graph': () => ({ as: 'visitor', query: { currency: 'USD' } }),
  'GET /location/search': () => ({ as: 'visitor', query: { q: 'berlin' } }),
  'POST /rest/v1/cookie-policy': () => ({ as: 'visitor', json: { settings: { newsletter: true } } }),

  // Account and auth.
  'POST /rest/v1/auth/register': () => ({
    as: 'visitor',
    json: { email: `new-${crypto.randomUUID().slice(0, 8)}@example.org`, password: STRONG_PASSWORD },
    status: 201,
  }),
  'POST /rest/v1/auth/login': (fx) => ({ as: 'visitor', json: { email: fx.people.C.email, password: DEMO_PASSWORD } }),
  'POST /rest/v1/auth/logout': () => ({ as: 'C', json: {} }),
  'POST /rest/v1/auth/resend-verification': () => ({ as: 'C', json: {} }),
  'GET /auth/verify-email': () => ({ as: 'visitor', query: { token: 'x'.repeat(43) }, status: 303 }),
  'GET /rest/v1/castle/review-device/:token': (fx) => ({ as: 'visitor', params: { token: fx.deviceReviewToken } }),
  'POST /rest/v1/castle/review-device': (fx) => ({
    as: 'visitor',
    json: { isConfirmed: true, deviceToken: fx.deviceReviewTokenToUse },
  }),
  'POST /rest/v1/users/set-username': () => ({ as: 'C', json: { username: 'RenamedPerson' } }),
  'POST /rest/v1/users/settings': () => ({ as: 'C', json: { bio: 'Hello there.', soundNotifications: true } }),
  'POST /account/send-phone-code': () => ({ as: 'C', json: { phone: PHONE, call: false } }),
  'POST /auth/send-phone-code': () => ({ as: 'C', json: { phone: PHONE } }),
  'POST /auth/call-phone-code': () => ({ as: 'C', json: { phone: PHONE } }),
  'POST /rest/v1/users/confirm-phone': () => ({ as: 'C', json: { phoneCode: '123456' } }),
  'POST /rest/v1/users/avatar-upload': (fx) => ({ as: 'C', multipart: imageForm('file', fx.images.jpeg) }),
  'POST /rest/v1/users/process-avatar': (fx) => ({ as: 'A', json: { fileUrl: fx.pendingAvatar } }),
  'GET /uploads/avatars/:name': (fx) => ({ as: 'visitor', params: { name: fx.avatarName } }),
  'POST /rest/v1/users/change-password': () => ({
    as: 'C',
    json: { currentPassword: DEMO_PASSWORD, newPassword: STRONG_PASSWORD },
  }),
  'POST /rest/v1/auth/forgot-password': (fx) => ({ as: 'visitor', json: { email: fx.people.C.email } }),
  'GET /rest/v1/auth/reset-password/:token': (fx) => ({ as: 'visitor', params: { token: fx.passwordResetToken } }),
  'POST /rest/v1/auth/reset-password': (fx) => ({
    as: 'visitor',
    json: { token: fx.passwordResetTokenToUse, password: STRONG_PASSWORD },
  }),
  'POST /rest/v1/telegram/subscribe': () => ({ as: 'C', json: {} }),
  'POST /rest/v1/telegram/unsubscribe': () => ({ as: 'C', json: {} }),
  'POST /vendor/handle-vendor-terms': () => ({ as: 'C', urlencoded: { vendor_terms_action: 'decline' } }),
  'POST /rest/v1/users/2fa/setup': () => ({ as: 'C', json: {} }),
  'POST /rest/v1/users/2fa/confirm': () => ({ as: 'C', json: { code: '123456' } }),
  'POST /rest/v1/users/2fa/disable': () => ({ as: 'C', json: { code: '123456' } }),
  'POST /rest/v1/users/2fa/purposes': () => ({
    as: 'C',
    json: { login: true, sendout: true, release: true, code: '123456' },
  }),
  'POST /rest/v1/users/sessions/revoke': () => ({ as: 'C', json: { id: 'ses_AAAAAAAAAAAAAAAA' } }),
  'POST /rest/v1/users/sessions/revoke-others': () => ({ as: 'C', json: {} }),
  'GET /rest/v1/users/reset-phone': () => ({ as: 'C' }),

  // Wallet.
  'GET /rest/v1/wallet/transactions': () => ({ as: 'A', query: { page: '1' } }),
  'GET /rest/v1/wallet/deposit-address': () => ({ as: 'A', query: { currency: 'BTC' } }),
  'POST /rest/v1/wallet/send': () => ({
    as: 'A',
    json: {
      currency: 'BTC',
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      amount: '0.0001',
      request_id: `security-${crypto.randomUUID()}`,
    },
    status: 201,
  }),
  'POST /rest/v1/hedging/convert': async (fx) => ({
    as: 'A',
    json: {
      from_crypto_currency_code: 'BTC',
      to_crypto_currency_code: 'USDT',
      amount: '0.001',
      quote_id: (await fx.t.services.quotes.current(visitorContext()))?.id ?? 'no-quote',
      order_id: `order-${crypto.randomUUID().slice(0, 12)}`,
    },
  }),

  // Verification.
  'POST /rest/v1/verification/documents': (fx) => ({
    as: 'C',
    multipart: imageForm('file', fx.images.document, { kind: 'id_front' }),
    status: 201,
  }),
  'POST /rest/v1/verification/submit': () => ({ as: 'C', json: { check: 'identity', full_name: 'Ada Lovelace' } }),
  'GET /rest/v1/verification/documents/:id/file': (fx) => ({ as: 'A', params: { id: fx.document } }),
  'POST /rest/v1/verification/documents/:id/review': (fx) => ({
    as: 'moderator',
    params: { id: fx.document },
    json: { decision: 'approve' },
  }),

  // Notifications and push.
  'GET /rest/v1/notifications': () => ({ as: 'A', query: { limit: '10', offset: '0', name: 'inbox' } }),
  'POST /rest/v1/notifications': (fx) => ({ as: 'A', json: { ids: fx.notificationIds.slice(0, 1) } }),
  'POST /rest/v1/notifications/reset-counters': (fx) => ({ as: 'A', json: { ids: fx.notificationIds.slice(0, 1) } }),
  'POST /rest/v1/notifications/all': () => ({ as: 'C', json: { name: 'inbox' } }),
  'POST /trade/push-authorize/:id': (fx) => ({ as: 'B', params: trade(fx.trades.main), json: {} }),
  'POST /account/re-auth-push-subscription': (fx) => ({
    as: 'C',
    json: { channels: [personalChannel('notifications', fx.people.C.publicId)] },
  }),

  // Trades, their files and their ratings.
  'POST /rest/v1/trade': (fx) => ({
    as: 'B',
    json: {
      offer_hash: fx.offers.main.hash,
      amount_fiat: '100',
      amount_btc: (100 / fx.offers.main.fiatPricePerCrypto).toFixed(8),
      gold_terms: 0,
      original_data: fx.offers.main.originalData,
    },
    status: 201,
  }),
  'GET /rest/v1/trade/:id': (fx) => ({ as: 'B', params: trade(fx.trades.main) }),
  'POST /rest/v1/trade/:id/paid': (fx) => ({ as: 'B', params: trade(fx.trades.forPaid), json: {} }),
  'POST /rest/v1/trade/:id/release': (fx) => ({ as: 'A', params: trade(fx.trades.forRelease), json: {} }),
  'POST /rest/v1/trade/:id/cancel': (fx) => ({ as: 'B', params: trade(fx.trades.forCancel), json: {} }),
  'POST /rest/v1/trade/:id/dispute': (fx) => ({
    as: 'B',
    params: trade(fx.trades.forDispute),
    json: { dispute_reason_id: 'paid_not_released', dispute_reason_text: 'I paid two hours ago.' },
  }),
  'POST /rest/v1/trade/:id/fallback': (fx) => ({ as: 'B', params: trade(fx.trades.main), json: {} }),
  // A sells in the main trade, which waits for payment: A writes where B pays.
  'POST /rest/v1/trade/:id/payment-details': (fx) => ({
    as: 'A',
    params: trade(fx.trades.main),
    json: { payment_details: 'IBAN DE89 3704 0044 0532 0130 00' },
  }),
  'GET /rest/v1/trade/:id/messages': (fx) => ({ as: 'A', params: trade(fx.trades.main), query: { after: '0' } }),
  'POST /rest/v1/trade/:id/messages': (fx) => ({
    as: 'B',
    params: trade(fx.trades.main),
    json: { text: 'Sent the money.' },
    status: 201,
  }),
  'POST /rest/v1/trade/:id/attachments': (fx) => ({
    as: 'B',
    params: trade(fx.trades.main),
    multipart: imageForm('files', fx.images.jpeg),
    status: 201,
  }),
  'POST /rest/v1/trade/:id/upload': (fx) => ({
    as: 'B',
    params: trade(fx.trades.main),
    json: { url: fx.attachment.url, requirement: fx.requirement.main },
  }),
  'GET /rest/v1/trade/:id/uploads': (fx) => ({ as: 'A', params: trade(fx.trades.main) }),
  'POST /rest/v1/trade/:id/requirement': (fx) => ({
    as: 'A',
    params: trade(fx.trades.reviewable),
    json: { action: 'approve', id: fx.requirement.reviewable },
  }),
  'GET /uploads/trades/:publicId': (fx) => ({ as: 'A', params: { publicId: fx.attachment.publicId } }),
  'GET /rest/v1/moderation/disputes': () => ({ as: 'moderator', query: { page: '1' } }),
  'GET /rest/v1/verification/queue': () => ({ as: 'moderator' }),
  'POST /rest/v1/moderation/trades/:id/resolve': (fx) => ({
    as: 'moderator',
    params: trade(fx.trades.disputed),
    json: { winner: 'buyer' },
  }),
  'POST /rest/v1/moderation/trades/:id/reopen': (fx) => ({ as: 'moderator', params: trade(fx.trades.cancelled) }),

  // The operator console (server/routes/operators.ts): moderators read people and trades; the rest is
  // the administrator's. The admin fixture has no second factor: each change's normal answer is that
  // refusal (409 TWO_FACTOR_NOT_ENABLED), which changes nothing; a sendout that does not exist is 404.
  'GET /rest/v1/operators/people': (fx) => ({ as: 'moderator', query: { q: fx.people.A.publicId } }),
  'GET /rest/v1/operators/people/:id': (fx) => ({ as: 'moderator', params: { id: fx.people.A.publicId } }),
  ...Object.fromEntries(
    ['ban', 'suspend', 'reinstate', 'reset-two-factor', 'end-sessions', 'verify-identity', 'verify-address'].map(
      (action) => [
        `POST /rest/v1/operators/people/:id/${action}`,
        (fx: Fixtures) => ({
          as: 'admin' as const,
          params: { id: fx.people.C.publicId },
          json: { reason: 'Security suite', code: '123456' },
          status: 409,
        }),
      ],
    ),
  ),
  'GET /rest/v1/operators/trades/:id': (fx) => ({ as: 'moderator', params: trade(fx.trades.main) }),
  'GET /rest/v1/operators/sendouts': () => ({ as: 'admin', query: { list: 'failed', page: '1' } }),
  'POST /rest/v1/operators/sendouts/:id/retry': () => ({
    as: 'admin',
    params: { id: 'chn_AAAAAAAAAAAAAAAA' },
    json: { reason: 'Security suite', code: '123456' },
    status: 404,
  }),
  'POST /rest/v1/operators/sendouts/:id/cancel': () => ({
    as: 'admin',
    params: { id: 'chn_AAAAAAAAAAAAAAAA' },
    json: { reason: 'Security suite', code: '123456' },
    status: 404,
  }),
  'POST /rest/v1/operators/ledger/verify': () => ({ as: 'admin', json: {} }),
  'GET /rest/v1/operators/ledger/verification': () => ({ as: 'admin' }),
  'GET /rest/v1/operators/fees': () => ({ as: 'admin', query: { from: '2026-11-01', to: '2026-11-22' } }),
  'GET /rest/v1/operators/audit': (fx) => ({ as: 'admin', query: { target: fx.people.C.publicId, page: '1' } }),
  'POST /rest/v1/moderation/trades/:id/take': (fx) => ({ as: 'moderator', params: trade(fx.trades.toTake) }),
  'POST /rest/v1/feedback/feature-request': () => ({
    as: 'C',
    json: { text: 'Please add a dark theme to the trade page.' },
    status: 201,
  }),
  'GET /rest/v1/feedback/:id': (fx) => ({ as: 'B', params: trade(fx.trades.completed) }),
  'POST /rest/v1/feedback/:id/give': (fx) => ({
    as: 'B',
    params: trade(fx.trades.completed),
    json: { rating: 'positive', message: 'Released quickly, thank you.' },
  }),
  'POST /rest/v1/feedback/:id/reply': (fx) => ({
    as: 'B',
    params: trade(fx.trades.completed),
    json: { reply: 'Thank you, likewise.' },
  }),

  // Gift cards: B saves and pays with them, A (the seller) opens and gives them back.
  'POST /rest/v1/gift-cards': (fx) => ({
    as: 'B',
    json: {
      code: `SAMPLE-${crypto.randomUUID().slice(0, 12)}`,
      value: 10,
      fiat_currency_id: fx.giftCards.currencyId,
      payment_method_id: fx.giftCards.brandId,
      receipt: true,
      images: [],
      type: 'physical',
    },
    status: 201,
  }),
  'DELETE /rest/v1/gift-cards/:id': (fx) => ({ as: 'B', params: { id: fx.giftCards.disposable } }),
  'POST /rest/v1/gift-cards/images': (fx) => ({ as: 'B', multipart: imageForm('file', fx.images.jpeg), status: 201 }),
  'GET /uploads/gift-cards/:publicId': (fx) => ({ as: 'B', params: { publicId: fx.giftCards.image } }),
  'GET /rest/v1/gift-cards/unused/:offerHash': (fx) => ({
    as: 'B',
    params: { offerHash: fx.giftCards.offer.hash },
    query: { fiatAmount: '100' },
  }),
  'POST /rest/v1/gift-cards/trade/start': (fx) => ({
    as: 'B',
    json: giftStartBody(fx.giftCards, [fx.giftCards.forStart]),
    status: 201,
  }),
  'GET /rest/v1/trade/:id/gift-cards': (fx) => ({ as: 'B', params: trade(fx.giftCards.trades.main) }),
  'POST /rest/v1/trade/:id/gift-cards': (fx) => ({
    as: 'B',
    params: trade(fx.giftCards.trades.main),
    json: { gift_card_ids: [fx.giftCards.trades.spare] },
  }),
  'DELETE /rest/v1/trade/:id/gift-cards/:cardId': (fx) => ({
    as: 'B',
    params: { id: fx.giftCards.trades.forRemove, cardId: fx.giftCards.trades.removable },
  }),
  'POST /rest/v1/trade/:id/gift-cards/:cardId/reveal': (fx) => ({
    as: 'A',
    params: { id: fx.giftCards.trades.forReveal, cardId: fx.giftCards.trades.revealable },
    json: {},
  }),
  'POST /rest/v1/trade/:id/gift-cards/return': (fx) => ({
    as: 'A',
    params: trade(fx.giftCards.trades.forReturn),
    json: {},
  }),

  // Saved bank accounts (A's) and the one A shares into a trade A sells in.
  'POST /rest/v1/bankaccounts': (fx) => ({
    as: 'A',
    // A new account number per send: the same account twice is refused (non_unique).
    json: fx.bankAccounts.body(`${Date.now()}${Math.floor(Math.random() * 1000)}`),
    status: 201,
  }),
  'GET /rest/v1/bankaccounts/:id': (fx) => ({ as: 'A', params: { id: fx.bankAccounts.main } }),
  'PUT /rest/v1/bankaccounts/:id': (fx) => ({
    as: 'A',
    params: { id: fx.bankAccounts.main },
    json: fx.bankAccounts.body('100200300'),
  }),
  'DELETE /rest/v1/bankaccounts/:id': (fx) => ({ as: 'A', params: { id: fx.bankAccounts.disposable } }),
  'POST /rest/v1/trade/:id/bank-account': (fx) => ({
    as: 'A',
    params: trade(fx.trades.main),
    json: { bank_account_id: fx.bankAccounts.main },
  }),

  // The affiliate programme: A's referral table and the tier-2 list of A's referral.
  'GET /rest/v1/users/:username/referrals': (fx) => ({
    as: 'A',
    params: { username: fx.people.A.username },
    query: { sortBy: 'earnings', sortDir: 'down', 'filters[traded]': '0' },
  }),
  'GET /rest/v1/users/:id/referrals/tier2': (fx) => ({ as: 'A', params: { id: fx.referral } }),
  'GET /rest/v1/affiliates/summary': () => ({ as: 'A' }),
  // C joins the programme (A and B stay as they are).
  'POST /rest/v1/affiliates/join': () => ({ as: 'C', json: {} }),
  // Nothing earned yet: the refusal is the normal answer, and it moves nothing.
  'POST /rest/v1/affiliates/payout': () => ({ as: 'A', json: { idempotency_key: 'security-suite-1' }, status: 409 }),

  // Merchants' webhooks: A's (C's is the one removed). Verifying and saving a reserved address is
  // refused before any request leaves; the delivery job does not run here.
  'POST /rest/v1/merchants/join': () => ({ as: 'A', json: {} }),
  'POST /rest/v1/webhooks/verify': (fx) => ({ as: 'A', json: { url: fx.webhooks.refusedUrl }, status: 400 }),
  'POST /rest/v1/webhooks': (fx) => ({ as: 'A', json: { url: fx.webhooks.refusedUrl }, status: 400 }),
  'DELETE /rest/v1/webhooks': () => ({ as: 'C' }),
  'POST /rest/v1/webhooks/events': () => ({ as: 'A', json: { events: [{ name: 'trade.paid', checked: true }] } }),
  'POST /rest/v1/webhooks/secret': () => ({ as: 'A', json: {} }),
  'POST /rest/v1/webhooks/test': () => ({ as: 'A', json: {} }),
  'POST /rest/v1/webhooks/deliveries/:id/resend': (fx) => ({
    as: 'A',
    params: { id: fx.webhooks.delivery },
    json: {},
  }),

  // A is a kiosk and a merchant. The sale's amount is far from any quote and the merchant balance
  // is empty: those refusals are the normal answers, and they move nothing.
  'GET /rest/v1/kiosk': () => ({ as: 'A' }),
  'PUT /rest/v1/kiosk/margin': () => ({ as: 'A', json: { marginPercent: '3' } }),
  'POST /rest/v1/kiosk/transfer': () => ({
    as: 'A',
    json: { direction: 'in', currency: 'BTC', amount: '0.0001', idempotency_key: 'security-kiosk-1' },
  }),
  'POST /rest/v1/kiosk/quote': (fx) => ({
    as: 'A',
    json: { customer: fx.people.B.username, currency: 'BTC', fiatCurrency: 'USD', fiatAmount: '10' },
  }),
  'POST /rest/v1/kiosk/sales': (fx) => ({
    as: 'A',
    json: {
      customer: fx.people.B.username,
      currency: 'BTC',
      fiatCurrency: 'USD',
      fiatAmount: '10',
      amount: '0.00000001',
      idempotency_key: 'security-sale-1',
    },
    status: 409,
  }),
  'GET /rest/v1/merchants/balance': () => ({ as: 'A' }),
  'POST /rest/v1/merchants/settle': () => ({ as: 'A', json: { idempotency_key: 'security-settle-1' }, status: 409 }),

  // A's API keys: a new one, and revoking the spare.
  'POST /rest/v1/api-keys': () => ({ as: 'A', json: { name: 'Another bot', scope: 'read' }, status: 201 }),
  'DELETE /rest/v1/api-keys/:id': (fx) => ({ as: 'A', params: { id: fx.apiKeys.disposable } }),

  // A person's data exports (server/routes/exports.ts): only the owner reads and downloads one.
  'POST /rest/v1/exports': () => ({
    as: 'A',
    json: { format: 'json', from: '2026-11-01', to: '2026-11-02' },
    status: 202,
  }),
  'GET /rest/v1/exports/:id': (fx) => ({ as: 'A', params: { id: fx.dataExport } }),
  'GET /rest/v1/exports/:id/file': (fx) => ({ as: 'A', params: { id: fx.dataExport } }),

  // Profiles.
  'GET /rest/v1/users/:username/feedbacks': (fx) => ({
    as: 'visitor',
    params: { username: fx.people.A.username },
    query: { f_page: '1', offer_type: 'all', feedback: 'all' },
  }),
  'GET /rest/v1/users/:username/profile': (fx) => ({ as: 'visitor', params: { username: fx.people.A.username } }),
  'POST /rest/v1/users/:username/trust': (fx) => ({
    as: 'C',
    params: { username: fx.people.A.username },
    json: { kind: 'trusted' },
  }),
  'GET /rest/v1/users/:username/past-trades': (fx) => ({
    as: 'A',
    params: { username: fx.people.A.username },
    query: { page: '1', status: 'all', type: 'all' },
  }),
};

export const SAMPLED_ROUTES: ReadonlySet<string> = new Set(Object.keys(REQUESTS));

/** The route's sample, or for a route without one a bare request as C. */
export async function sampleFor(key: string, fx: Fixtures): Promise<SampleRequest> {
  return (await REQUESTS[key]?.(fx)) ?? { as: 'C' };
}

export interface SendOptions {
  /** Cookie and CSRF headers of a session; none for a visitor. */
  headers?: Record<string, string>;
  /** Replaces the sample's path values. */
  params?: Record<string, string>;
  /** Sends exactly `headers`: no CSRF cookie, header or Origin added. */
  raw?: boolean;
}

/** Sends `sample` to `route` through the app as our own page would. */
export function sendSample(
  fx: Fixtures,
  route: { method: string; path: string },
  sample: SampleRequest,
  options: SendOptions = {},
): Promise<Response> {
  const path = fillPath(route.path, { ...sample.params, ...options.params });
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  const init: RequestInit & { json?: unknown } = { method: route.method, headers: { ...options.headers } };
  if (sample.multipart) init.body = sample.multipart();
  else if (sample.urlencoded) init.body = new URLSearchParams(sample.urlencoded);
  else if (sample.json !== undefined) init.json = sample.json;
  return (options.raw ? fx.sendRaw : fx.send)(`${path}${query}`, init);
}

/** The path with each `:param` replaced by its value, encoded. */
export function fillPath(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
