import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { GiftCardKind, GiftCardState } from '../../../db/schema/index.ts';

// Reads and writes of gift cards, their images and their audit trail, in SQL that SQLite and
// PostgreSQL both run (db/sql-client.ts caches each text); every method answers a promise. The
// service decides; state changes name the state they expect, so two requests racing for one card
// change it once.

export interface GiftCardRow {
  id: number;
  publicId: string;
  ownerId: number;
  paymentMethodId: number;
  paymentMethodName: string;
  paymentMethodSlug: string;
  paymentGroupSlug: string;
  fiatCurrencyId: number;
  fiatCode: string;
  fiatMinorUnits: number;
  valueMinor: number;
  kind: GiftCardKind;
  hasReceipt: number;
  codeSealed: string;
  state: GiftCardState;
  tradeId: number | null;
  tradeHash: string | null;
  revealedAt: number | null;
  revealedBy: number | null;
  createdAt: number;
}

export interface GiftCardImageRow {
  id: number;
  publicId: string;
  ownerId: number;
  cardId: number | null;
  storageName: string;
  contentType: string;
  createdAt: number;
}

export interface NewGiftCard {
  publicId: string;
  ownerId: number;
  paymentMethodId: number;
  fiatCurrencyId: number;
  valueMinor: number;
  kind: GiftCardKind;
  hasReceipt: boolean;
  codeSealed: string;
  codeFingerprint: string;
  at: number;
}

export interface NewGiftCardImage {
  publicId: string;
  ownerId: number;
  storageName: string;
  contentType: string;
  sizeBytes: number;
  at: number;
}

export interface GiftCardEvent {
  cardId: number;
  tradeId: number | null;
  action: string;
  actorId: number | null;
  actorRole: string;
  at: number;
}

/** What a payment method is, for a card's brand. */
export interface BrandRow {
  id: number;
  name: string;
  slug: string;
  groupSlug: string;
  currencies: string;
}

const CARD_COLUMNS = `c.id, c.public_id AS publicId, c.owner_id AS ownerId, c.payment_method_id AS paymentMethodId,
    pm.name AS paymentMethodName, pm.slug AS paymentMethodSlug, pg.slug AS paymentGroupSlug,
    c.fiat_currency_id AS fiatCurrencyId, fc.code AS fiatCode, fc.minor_units AS fiatMinorUnits,
    c.value_minor AS valueMinor, c.kind, c.has_receipt AS hasReceipt, c.code_sealed AS codeSealed, c.state,
    c.trade_id AS tradeId, t.hash AS tradeHash, c.revealed_at AS revealedAt, c.revealed_by AS revealedBy,
    c.created_at AS createdAt
  FROM gift_cards c
  JOIN payment_methods pm ON pm.id = c.payment_method_id
  JOIN payment_groups pg ON pg.id = pm.group_id
  JOIN fiat_currencies fc ON fc.id = c.fiat_currency_id
  LEFT JOIN trades t ON t.id = c.trade_id`;

const INSERT_CARD = `INSERT INTO gift_cards (public_id, owner_id, payment_method_id, fiat_currency_id, value_minor,
    kind, has_receipt, code_sealed, code_fingerprint, state, created_at, updated_at)
  VALUES (@publicId, @ownerId, @paymentMethodId, @fiatCurrencyId, @valueMinor, @kind, @hasReceipt, @codeSealed,
    @codeFingerprint, 'free', @at, @at)
  RETURNING id`;
const BY_PUBLIC_ID = `SELECT ${CARD_COLUMNS} WHERE c.public_id = ?`;
const BY_ID = `SELECT ${CARD_COLUMNS} WHERE c.id = ?`;
const OF_OWNER = `SELECT ${CARD_COLUMNS} WHERE c.owner_id = ? AND c.state <> 'deleted' ORDER BY c.id DESC LIMIT 200`;
const FREE_OF_BRAND = `SELECT ${CARD_COLUMNS}
  WHERE c.owner_id = ? AND c.state = 'free' AND c.payment_method_id = ? AND c.fiat_currency_id = ?
  ORDER BY c.value_minor DESC, c.id`;
const OF_TRADE = `SELECT ${CARD_COLUMNS} WHERE c.trade_id = ? ORDER BY c.id`;
const LIVE_COUNT = `SELECT COUNT(*) AS n FROM gift_cards WHERE owner_id = ? AND state IN ('free', 'in_use', 'revealed')`;
const FINGERPRINT_TAKEN = `SELECT 1 AS taken FROM gift_cards WHERE code_fingerprint = ? AND state <> 'deleted'`;
// Each move names the state it expects: a card another request moved meanwhile matches nothing.
const TAKE = `UPDATE gift_cards SET state = 'in_use', trade_id = @tradeId, updated_at = @at
  WHERE id = @id AND state = 'free'`;
const FREE = `UPDATE gift_cards SET state = 'free', trade_id = NULL, revealed_at = NULL, revealed_by = NULL,
    updated_at = @at
  WHERE id = @id AND state = @from`;
const REVEAL = `UPDATE gift_cards SET state = 'revealed', revealed_at = @at, revealed_by = @by, updated_at = @at
  WHERE id = @id AND state = 'in_use'`;
const USE = `UPDATE gift_cards SET state = 'used', updated_at = @at WHERE id = @id AND state IN ('in_use', 'revealed')`;
// A deleted card keeps its row for the trail, but nothing of its code.
const DELETE = `UPDATE gift_cards SET state = 'deleted', code_sealed = '', code_fingerprint = NULL, updated_at = @at
  WHERE id = @id AND state = 'free'`;
const INSERT_EVENT = `INSERT INTO gift_card_events (card_id, trade_id, action, actor_id, actor_role, at)
  VALUES (@cardId, @tradeId, @action, @actorId, @actorRole, @at)`;
const EVENTS_OF_TRADE = `SELECT e.card_id AS cardId, e.trade_id AS tradeId, e.action, e.actor_id AS actorId,
    e.actor_role AS actorRole, e.at
  FROM gift_card_events e WHERE e.trade_id = ? ORDER BY e.id`;

const INSERT_IMAGE = `INSERT INTO gift_card_images (public_id, owner_id, storage_name, content_type, size_bytes, created_at)
  VALUES (@publicId, @ownerId, @storageName, @contentType, @sizeBytes, @at)
  RETURNING id`;
const IMAGE_COLUMNS = `id, public_id AS publicId, owner_id AS ownerId, card_id AS cardId, storage_name AS storageName,
    content_type AS contentType, created_at AS createdAt FROM gift_card_images`;
const IMAGE_BY_PUBLIC_ID = `SELECT ${IMAGE_COLUMNS} WHERE public_id = ?`;
const IMAGES_OF_CARD = `SELECT ${IMAGE_COLUMNS} WHERE card_id = ? ORDER BY id`;
const PENDING_IMAGES_OF = `SELECT COUNT(*) AS n FROM gift_card_images WHERE owner_id = ? AND card_id IS NULL`;
const CLAIM_IMAGE =
  'UPDATE gift_card_images SET card_id = @cardId WHERE id = @id AND owner_id = @ownerId AND card_id IS NULL';
const STALE_IMAGES = `SELECT ${IMAGE_COLUMNS} WHERE card_id IS NULL AND created_at < ? ORDER BY id LIMIT 500`;
const DELETE_IMAGE = 'DELETE FROM gift_card_images WHERE id = ?';

const BRAND = `SELECT pm.id, pm.name, pm.slug, pg.slug AS groupSlug, pm.currencies
  FROM payment_methods pm JOIN payment_groups pg ON pg.id = pm.group_id WHERE pm.id = ?`;
const CURRENCY = 'SELECT id, code, minor_units AS minorUnits FROM fiat_currencies WHERE id = ?';

export function createGiftCardsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  const changed = async (text: string, args: Record<string, unknown>) => (await sql.run(text, [args])).changes === 1;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    insert: async (card: NewGiftCard): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_CARD, [card]))?.id),
    byPublicId: (publicId: string) => sql.get<GiftCardRow>(BY_PUBLIC_ID, [publicId]),
    byId: (id: number) => sql.get<GiftCardRow>(BY_ID, [id]),
    ofOwner: (ownerId: number) => sql.all<GiftCardRow>(OF_OWNER, [ownerId]),
    freeOfBrand: (ownerId: number, paymentMethodId: number, fiatCurrencyId: number) =>
      sql.all<GiftCardRow>(FREE_OF_BRAND, [ownerId, paymentMethodId, fiatCurrencyId]),
    ofTrade: (tradeId: number) => sql.all<GiftCardRow>(OF_TRADE, [tradeId]),
    liveCount: async (ownerId: number) => Number((await sql.get<{ n: number }>(LIVE_COUNT, [ownerId]))?.n ?? 0),
    fingerprintTaken: async (fingerprint: string) => (await sql.get(FINGERPRINT_TAKEN, [fingerprint])) !== undefined,
    /** free → in_use in `tradeId`; false when the card was no longer free. */
    take: (id: number, tradeId: number, at: number) => changed(TAKE, { id, tradeId, at }),
    free: (id: number, from: GiftCardState, at: number) => changed(FREE, { id, from, at }),
    reveal: (id: number, by: number, at: number) => changed(REVEAL, { id, by, at }),
    use: (id: number, at: number) => changed(USE, { id, at }),
    remove: (id: number, at: number) => changed(DELETE, { id, at }),
    record: (event: GiftCardEvent) => sql.run(INSERT_EVENT, [event]),
    eventsOfTrade: (tradeId: number) => sql.all<GiftCardEvent>(EVENTS_OF_TRADE, [tradeId]),

    insertImage: async (image: NewGiftCardImage): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_IMAGE, [image]))?.id),
    image: (publicId: string) => sql.get<GiftCardImageRow>(IMAGE_BY_PUBLIC_ID, [publicId]),
    imagesOf: (cardId: number) => sql.all<GiftCardImageRow>(IMAGES_OF_CARD, [cardId]),
    pendingImages: async (ownerId: number) =>
      Number((await sql.get<{ n: number }>(PENDING_IMAGES_OF, [ownerId]))?.n ?? 0),
    /** An uploaded image becomes the card's; false when it is not the owner's or already taken. */
    claimImage: (id: number, cardId: number, ownerId: number) => changed(CLAIM_IMAGE, { id, cardId, ownerId }),
    staleImages: (before: number) => sql.all<GiftCardImageRow>(STALE_IMAGES, [before]),
    deleteImage: (id: number) => sql.run(DELETE_IMAGE, [id]),

    brand: (paymentMethodId: number) => sql.get<BrandRow>(BRAND, [paymentMethodId]),
    currency: (id: number) => sql.get<{ id: number; code: string; minorUnits: number }>(CURRENCY, [id]),
  };
}

export type GiftCardsRepository = ReturnType<typeof createGiftCardsRepository>;
