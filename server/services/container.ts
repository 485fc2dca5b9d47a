import type { DatabaseLike } from '../../db/database.ts';
import { DEFAULT_TELEGRAM_BOT_NAME } from '../config.ts';
import { createInProcessBus, type EventBus } from '../realtime/bus.ts';
import { createPushKeys } from '../realtime/push-keys.ts';
import type { SharedStore } from '../shared-store.ts';
import { createSiteOrigin } from '../site-origin.ts';
import { createAffiliatesService } from './affiliates/affiliates.ts';
import { createAffiliatesRepository } from './affiliates/repository.ts';
import { createBankServices, tradeBankAccountReader } from './bank-accounts/wiring.ts';
import type { ChainAdapter } from './chain/adapter.ts';
import { createChainService } from './chain/chain.ts';
import { createChainAdapter } from './chain/create.ts';
import { createChainRepository } from './chain/repository.ts';
import { systemContext } from './context.ts';
import { createExportsService, type ExportsOptions } from './exports/exports.ts';
import { createFeedbackService } from './feedback/feedback.ts';
import { createFeedbackRepository } from './feedback/repository.ts';
import { createGiftCardSettlement, createGiftCardsService } from './gift-cards/gift-cards.ts';
import { createGiftCardsRepository } from './gift-cards/repository.ts';
import { createCodeVault } from './gift-cards/vault.ts';
import { createHedgingService } from './hedging/hedging.ts';
import { createKiosksService } from './kiosks/kiosks.ts';
import { createKiosksRepository } from './kiosks/repository.ts';
import { createLedgerService, type LedgerService } from './ledger/ledger.ts';
import { createLedgerRepository } from './ledger/repository.ts';
import { createMarketService } from './market/market.ts';
import { createMarketRepository } from './market/repository.ts';
import { createMerchantsService } from './merchants/merchants.ts';
import { createMailer, createSmsSender } from './messaging/create.ts';
import type { Mailer, SmsSender } from './messaging/messaging.ts';
import { createDeliveryJob } from './notifications/deliveries.ts';
import { createNotificationsService } from './notifications/notifications.ts';
import { createNotificationsRepository } from './notifications/repository.ts';
import { subscribeNotifications } from './notifications/subscriber.ts';
import { loadOffersCatalogue } from './offers/catalogue.ts';
import { createOffersService, type OffersService } from './offers/offers.ts';
import { createOffersRepository } from './offers/repository.ts';
import { createOperators } from './operators/wiring.ts';
import { createPhoneService } from './phone/phone.ts';
import { createPhoneRepository } from './phone/repository.ts';
import { placesOf } from './places/places.ts';
import type { PriceFeed } from './price-feed/price-feed.ts';
import { createProfilesService } from './profiles/profiles.ts';
import { createProfilesRepository } from './profiles/repository.ts';
import { createProofService } from './proof/proof.ts';
import { createQuoteService } from './quotes/quotes.ts';
import { createReferenceService } from './reference/reference.ts';
import { createReferenceRepository } from './reference/repository.ts';
import { createStatementsService } from './statements/statements.ts';
import { createOfflineTelegramBot } from './telegram/bot.ts';
import { createTelegramRepository } from './telegram/repository.ts';
import { createTelegramService } from './telegram/telegram.ts';
import { createTradesRepository } from './trades/repository.ts';
import { createTradesService } from './trades/trades.ts';
import { createFileStore } from './trades/upload-files.ts';
import { createTradeUploadsService } from './trades/uploads.ts';
import { createTradeUploadsRepository } from './trades/uploads-repository.ts';
import { createTransparencyService } from './transparency/transparency.ts';
import type { TwoFactorService } from './two-factor/two-factor.ts';
import { createVerificationRepository } from './verification/repository.ts';
import { createDocumentStorage } from './verification/storage.ts';
import { createVerificationService, type VerificationService } from './verification/verification.ts';
import { tradesVolumeSource } from './verification/volume.ts';
import { createAddressBook } from './wallet/address-book.ts';
import { createDepositAddresses } from './wallet/addresses.ts';
import { createWalletRepository } from './wallet/repository.ts';
import { createWalletService } from './wallet/wallet.ts';
import { createWebhookRecorder } from './webhooks/recorder.ts';
import type { WebhookPost } from './webhooks/transport.ts';
import { createWebhookServices, createWebhooksOutbox } from './webhooks/wiring.ts';

export type { ServicesConfig, ServicesLog } from './wiring.ts';

import { createAccountServices } from './accounts/wiring.ts';
import type { ServicesConfig, ServicesLog, Wiring } from './wiring.ts';

export interface ServicesOptions {
  db: DatabaseLike;
  priceFeed: PriceFeed;
  config: ServicesConfig;
  log: ServicesLog;
  now?: () => number;
  /** Tests pass their own to read what was sent. */
  mailer?: Mailer;
  /** Tests pass their own to read the codes that were sent. */
  smsSender?: SmsSender;
  /** Where services publish live events (server/backend.ts passes the hub's); a private one otherwise. */
  bus?: EventBus;
  /** The blockchain the wallet talks to; by default the one `CHAIN` names (tests pass their own). */
  chainAdapter?: ChainAdapter;
  /** How a delayed answer waits (a wrong password past the account limit); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** Values every process must find (conversion quotes): server/backend.ts passes Redis's with REDIS_URL. */
  store?: SharedStore;
  /** How a webhook request is sent (tests shorten the real transport's timeout). */
  webhookPost?: WebhookPost;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A person's full export (issue 24): CSV or JSON of everything theirs, built in the background. */
const exportsOf = ({ db, config, now, log }: Wiring, notify: ExportsOptions['notify']) =>
  createExportsService({ db, uploadsDir: config.UPLOADS_DIR, now, notify, log });

/** Reference data, market prices, offers, and the verification levels that bound what one may trade. */
function marketAndOffers({ db, priceFeed, config, log, now, bus, siteOrigin, mailer }: Wiring) {
  const reference = createReferenceService({ repo: createReferenceRepository(db), priceFeed, now });
  // Identity and address documents, verification levels and the 30-day trading limit (issue 8).
  const verification = createVerificationService({
    repo: createVerificationRepository(db),
    storage: createDocumentStorage(config.UPLOADS_DIR),
    usedVolumeUsdCents: tradesVolumeSource(db),
    fiatPerUsd: async (code) =>
      (await reference.listCurrencies(systemContext('verification'), { locale: 'en' })).find((c) => c.code === code)
        ?.rate.usd,
    mailer,
    bus,
    siteOrigin,
    now,
    log: log.error,
  });
  const offers = createOffersService({
    repo: createOffersRepository(db),
    catalogue: loadOffersCatalogue(db),
    reference,
    allowance: (userId) => verification.tradeAllowance(systemContext('offers'), { userId }),
    now,
    bus,
    onError: (error) => log.error('the offers service could not check a vendor’s funds', error),
  });
  const market = createMarketService({ repo: createMarketRepository(db), priceFeed, reference, now });
  return { reference, market, offers, verification };
}

/** The ledger, the chain, the wallet, conversion quotes and hedging. */
function money(
  { db, priceFeed, config, log, now, bus, store, chainAdapter, webhookRecorder }: Wiring,
  twoFactor: TwoFactorService,
) {
  // The one writer of postings (issue 5); the wallet, trade and chain services call it.
  const ledger = createLedgerService({ repo: createLedgerRepository(db), bus, now });
  // Deposit addresses from the configured account public keys (development keys when unset).
  const depositAddresses = createDepositAddresses({
    ...(config.WALLET_BTC_XPUB ? { btcXpub: config.WALLET_BTC_XPUB } : {}),
    ...(config.WALLET_TRON_XPUB ? { tronXpub: config.WALLET_TRON_XPUB } : {}),
  });
  const addressBook = createAddressBook({ db, derive: depositAddresses, now });
  const chainRepo = createChainRepository(db);
  // Deposits and sendouts on the chain `CHAIN` names; server/backend.ts runs its job on a timer.
  const chain = createChainService({
    repo: chainRepo,
    adapter: chainAdapter ?? createChainAdapter(config, chainRepo, now),
    ledger,
    addressBook,
    bus,
    now,
    log,
    webhooks: webhookRecorder,
  });
  // BTC↔USDT conversion quotes, in the shared store (else memory); a price counts as fresh for
  // three ticks, at least a minute.
  const quotes = createQuoteService({
    priceFeed,
    now,
    ...(store ? { store } : {}),
    ...(config.QUOTE_TTL_SECONDS ? { ttlSeconds: config.QUOTE_TTL_SECONDS } : {}),
    maxPriceAgeSeconds: Math.max(60, 3 * (config.PRICE_TICK_SECONDS ?? 10)),
    onListenerError: (error) => log.error('a quote listener failed', error),
  });
  const btcNetwork = depositAddresses.btcNetwork;
  const walletRepo = createWalletRepository(db);
  return {
    ledger,
    chain,
    wallet: createWalletService({ ledger, chain, addressBook, btcNetwork, twoFactor, repo: walletRepo, bus }),
    quotes,
    // Spec section 6: converting bitcoin needs a verified identity (user:verify-id for now).
    hedging: createHedgingService({ ledger, quotes, isIdVerified: (auth) => auth.user.idVerifiedAt !== null }),
    depositAddresses,
  };
}

interface TradeParts {
  offers: OffersService;
  ledger: LedgerService;
  twoFactor: TwoFactorService;
  verification: VerificationService;
}

/** Trades with their uploads, and after the trade: feedback and public profiles. */
function tradesAndAfter(
  { db, config, now, bus, siteOrigin, webhookRecorder }: Wiring,
  { offers, ledger, twoFactor, verification }: TradeParts,
) {
  // Referral tables and earnings (issue 20); a release shares the fee through it.
  const affiliates = createAffiliatesService({ repo: createAffiliatesRepository(db), ledger, siteOrigin, bus, now });
  // Escrow lifecycle of trades (issue 6); the realtime hub asks it who may follow a trade.
  const tradesRepo = createTradesRepository(db);
  const giftCardsRepo = createGiftCardsRepository(db);
  const trades = createTradesService({
    repo: tradesRepo,
    offers,
    ledger,
    twoFactor,
    bus,
    now,
    disputeWaitMs: (config.DISPUTE_WAIT_MINUTES ?? 30) * 60_000,
    // A dispute's deadlines (decision 154); a missed moderator deadline escalates it (decision 155).
    disputeDeadlines: {
      answerMs: (config.DISPUTE_ANSWER_MINUTES ?? 720) * 60_000,
      takeMs: (config.DISPUTE_TAKE_MINUTES ?? 240) * 60_000,
      decisionMs: (config.DISPUTE_DECISION_MINUTES ?? 1440) * 60_000,
    },
    checkTradingLimit: async (userId, usdCents) => {
      await verification.assertWithinLimit(systemContext('trades'), { userId, usdAmountCents: usdCents });
    },
    // What a gift-card trade's transitions do to its cards, in the same transaction (issue 18).
    giftCardSettlement: createGiftCardSettlement(giftCardsRepo),
    bankAccountOf: tradeBankAccountReader(db),
    affiliates: affiliates.shares,
    webhooks: webhookRecorder,
  });
  return {
    affiliates,
    trades,
    ...createBankServices(db, { trades: tradesRepo, bus, now }),
    // "My gift cards", gift-card trade starts and the gift code check (issue 18).
    giftCards: createGiftCardsService({
      repo: giftCardsRepo,
      vault: createCodeVault(config.GIFT_CODE_KEY),
      files: createFileStore(config.UPLOADS_DIR, 'gift-cards'),
      trades,
      tradesRepo,
      offers,
      bus,
      now,
    }),
    // Chat attachments and requirement proofs of trades, under UPLOADS_DIR/trades.
    tradeUploads: createTradeUploadsService({
      repo: createTradeUploadsRepository(db),
      tradesRepo,
      trades,
      bus,
      root: config.UPLOADS_DIR,
      now,
    }),
    // After the trade (issue 6): ratings and replies, public profiles, trust and past trades.
    feedback: createFeedbackService({ repo: createFeedbackRepository(db), bus, now, webhooks: webhookRecorder }),
    profiles: createProfilesService({
      repo: createProfilesRepository(db),
      now,
      onTrustChanged: () => offers.invalidateSearches(systemContext('profiles')),
    }),
  };
}

/** Notifications and the channels that carry them: e-mail, SMS, Telegram, the realtime keys. */
function notificationsAndChannels(wiring: Wiring) {
  const { db, config, log, now, bus, siteOrigin, mailer, sms, webhookOutbox, webhookPost } = wiring;
  const telegram = createTelegramService({
    repo: createTelegramRepository(db),
    bus,
    botName: config.TELEGRAM_BOT_NAME ?? DEFAULT_TELEGRAM_BOT_NAME,
    now,
  });
  const telegramBot = createOfflineTelegramBot({ telegram, log: log.info });
  // Notifications (issue 7): stored and pushed by notify(), made from the bus's domain events by
  // the subscriber, carried to e-mail, SMS and Telegram by the delivery job (server/backend.ts).
  const repo = createNotificationsRepository(db);
  const notifications = createNotificationsService({ repo, bus, now });
  const subscription = subscribeNotifications({ bus, notifications, repo, log: log.error });
  return {
    notifications,
    /** Once the notifications of every event published so far are stored. */
    notificationsSettled: subscription.settled,
    notificationDeliveries: createDeliveryJob({
      repo,
      mailer,
      sms,
      telegram: telegramBot,
      now,
      log: log.error,
      siteOrigin,
    }),
    // Signs the realtime `auth_key`s (spec section 7, push-authorize); the hub verifies with it.
    pushKeys: createPushKeys({ now }),
    // Merchants' webhooks (issue 21): settings, the delivery log, and the job that empties the outbox.
    ...createWebhookServices({
      db,
      outbox: webhookOutbox,
      allowLocal: config.WEBHOOKS_ALLOW_LOCAL === 'on',
      now,
      notify: notifications.notify,
      log: log.error,
      ...(webhookPost ? { post: webhookPost } : {}),
    }),
    telegram,
    telegramBot,
    phone: createPhoneService({ repo: createPhoneRepository(db), sms, now }),
  };
}

/** Every service wired to one database and one price feed; built once at start (and per test). */
export function createServices({
  db,
  priceFeed,
  config,
  log,
  now = Date.now,
  mailer,
  smsSender,
  bus = createInProcessBus(),
  chainAdapter,
  sleep = wait,
  store,
  webhookPost,
}: ServicesOptions) {
  const siteOrigin = createSiteOrigin(config);
  const webhookOutbox = createWebhooksOutbox(db, now);
  const wiring: Wiring = {
    db,
    priceFeed,
    config,
    log,
    now,
    bus,
    // The one origin of every absolute URL the server writes (mail, messages, QR codes): from the
    // configuration, never from a request's Host header (issue 16).
    siteOrigin,
    sms: smsSender ?? createSmsSender(config, db, log, now),
    mailer: mailer ?? createMailer(config, db, log, now),
    chainAdapter,
    sleep,
    store,
    places: placesOf(db, config, log.error),
    webhookOutbox,
    webhookRecorder: createWebhookRecorder(webhookOutbox, siteOrigin),
    webhookPost,
  };
  const accounts = createAccountServices(wiring);
  const market = marketAndOffers(wiring);
  const moneyServices = money(wiring, accounts.twoFactor);
  const trades = tradesAndAfter(wiring, { ...market, ...moneyServices, twoFactor: accounts.twoFactor });
  const channels = notificationsAndChannels(wiring);
  const { ledger } = moneyServices;
  return {
    // Proof of liabilities (issue 24): Merkle-sum roots of what the platform owes, a person's proofs.
    proof: createProofService({ db, now, log: log.error, chain: moneyServices.chain.adapter }),
    // The two account types of issue 21 (docs/kiosks-and-merchants.md): over-the-counter sales and merchant balances.
    kiosks: createKiosksService({
      repo: createKiosksRepository(db),
      ledger,
      priceFeed,
      reference: market.reference,
      notify: channels.notifications.notify,
      now,
    }),
    merchants: createMerchantsService({ db, ledger }),
    operators: createOperators({ db, now, ...accounts, ...market, ...moneyServices, ...channels }),
    // Signed account statements (issue 24): balances now and per month, signed with the platform's key.
    statements: createStatementsService({
      db,
      settings: config,
      issuer: () => wiring.siteOrigin.origin,
      now,
      notify: channels.notifications.notify,
      log,
    }),
    // Public dispute statistics (issue 24): the /transparency page's figures.
    transparency: createTransparencyService({ db, now }),
    exports: exportsOf(wiring, channels.notifications.notify),
    siteOrigin: wiring.siteOrigin,
    places: wiring.places,
    ...channels,
    ...market,
    ...moneyServices,
    ...trades,
    ...accounts,
  };
}

export type Services = ReturnType<typeof createServices>;
