DROP INDEX `offers_search_idx`;--> statement-breakpoint
ALTER TABLE `offers` ADD `need_usd` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `offers` ADD `need_crypto` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `offers_search_idx` ON `offers` (`status`,`type`,`crypto_currency_id`,`fiat_currency_id`,`is_publicly_visible`,`is_featured`,`owner_id`,`payment_method_id`,`price_type`,`margin_basis_points`,`fixed_price_minor`,`fiat_min_minor`,`fiat_max_minor`,`location_id`,`allowed_countries`,`blocked_countries`,`need_usd`,`need_crypto`);--> statement-breakpoint
ALTER TABLE `users` ADD `wallet_btc` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `wallet_usdt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): the wallet copies on users follow the
-- ledger's balances in the statement that moves them, whoever writes (services, seed, operator
-- CLI); the listing reads them with the owner's row (docs/decisions/121-unfunded-sell-offers.md).
UPDATE `users` SET
  `wallet_btc` = coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.kind = 'user_wallet' AND a.owner_id = users.id AND a.currency = 'BTC'), 0),
  `wallet_usdt` = coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.kind = 'user_wallet' AND a.owner_id = users.id AND a.currency = 'USDT'), 0);--> statement-breakpoint
CREATE TRIGGER `ledger_wallet_copy_insert` AFTER INSERT ON `ledger_accounts` WHEN NEW.`kind` = 'user_wallet'
BEGIN
  UPDATE users SET
    wallet_btc = CASE WHEN NEW.currency = 'BTC' THEN NEW.balance ELSE wallet_btc END,
    wallet_usdt = CASE WHEN NEW.currency = 'USDT' THEN NEW.balance ELSE wallet_usdt END
  WHERE id = NEW.owner_id;
END;--> statement-breakpoint
CREATE TRIGGER `ledger_wallet_copy_update` AFTER UPDATE OF `balance` ON `ledger_accounts` WHEN NEW.`kind` = 'user_wallet'
BEGIN
  UPDATE users SET
    wallet_btc = CASE WHEN NEW.currency = 'BTC' THEN NEW.balance ELSE wallet_btc END,
    wallet_usdt = CASE WHEN NEW.currency = 'USDT' THEN NEW.balance ELSE wallet_usdt END
  WHERE id = NEW.owner_id;
END;--> statement-breakpoint
-- The funding needs of the sell offers there are (server/services/offers/funding-needs.ts, as it was).
UPDATE offers SET need_usd = CASE WHEN offers.type = 'sell' AND offers.price_type = 'margin'
  THEN offers.fiat_min_minor * 1.0 / (SELECT CASE fc.minor_units WHEN 0 THEN 1 WHEN 1 THEN 10 WHEN 2 THEN 100 WHEN 3 THEN 1000 ELSE 10000 END FROM fiat_currencies fc WHERE fc.id = offers.fiat_currency_id) / (SELECT fc.usd_rate FROM fiat_currencies fc WHERE fc.id = offers.fiat_currency_id)
    / (1 + offers.margin_basis_points / 10000.0) * (1 + (CASE WHEN offers.payment_method_id IN (SELECT pm.id FROM payment_methods pm
    JOIN payment_groups g ON g.id = pm.group_id WHERE g.slug = 'gift-cards') THEN 500 ELSE 100 END) / 10000.0) ELSE 0 END, need_crypto = CASE WHEN offers.type = 'sell' AND offers.price_type = 'fixed'
  THEN ((offers.fiat_min_minor * (SELECT CASE cc.code WHEN 'USDT' THEN 1000000 ELSE 100000000 END
  FROM crypto_currencies cc WHERE cc.id = offers.crypto_currency_id) * 2 + offers.fixed_price_minor) / (2 * offers.fixed_price_minor)) + (((offers.fiat_min_minor * (SELECT CASE cc.code WHEN 'USDT' THEN 1000000 ELSE 100000000 END
  FROM crypto_currencies cc WHERE cc.id = offers.crypto_currency_id) * 2 + offers.fixed_price_minor) / (2 * offers.fixed_price_minor)) * (CASE WHEN offers.payment_method_id IN (SELECT pm.id FROM payment_methods pm
    JOIN payment_groups g ON g.id = pm.group_id WHERE g.slug = 'gift-cards') THEN 500 ELSE 100 END) + 9999) / 10000 ELSE 0 END WHERE offers.type = 'sell';
