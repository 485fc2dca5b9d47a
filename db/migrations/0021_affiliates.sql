CREATE TABLE `affiliate_earnings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`affiliate_id` integer NOT NULL,
	`tier` integer NOT NULL,
	`referral_id` integer NOT NULL,
	`trader_id` integer NOT NULL,
	`trade_id` integer NOT NULL,
	`escrow_ref` text NOT NULL,
	`side` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`usd_cents` integer NOT NULL,
	`ledger_transaction_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`affiliate_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`referral_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`trader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "affiliate_earnings_tier_check" CHECK("affiliate_earnings"."tier" IN (1, 2)),
	CONSTRAINT "affiliate_earnings_side_check" CHECK(side IN ('buy', 'sell')),
	CONSTRAINT "affiliate_earnings_amount_check" CHECK("affiliate_earnings"."amount" > 0 AND "affiliate_earnings"."usd_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `affiliate_earnings_share_uq` ON `affiliate_earnings` (`escrow_ref`,`affiliate_id`,`tier`,`side`);--> statement-breakpoint
CREATE INDEX `affiliate_earnings_affiliate_idx` ON `affiliate_earnings` (`affiliate_id`,`referral_id`);--> statement-breakpoint
CREATE INDEX `affiliate_earnings_month_idx` ON `affiliate_earnings` (`affiliate_id`,`created_at`);--> statement-breakpoint
-- ledger_accounts is rebuilt (SQLite cannot change a CHECK): its shape check gains the affiliates'
-- earnings accounts. db/migrate.ts runs migrations with foreign keys off and checks them after.
CREATE TABLE `__new_ledger_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`owner_id` integer,
	`currency` text NOT NULL,
	`reference` text,
	`balance` integer DEFAULT 0 NOT NULL,
	`allow_negative` integer DEFAULT false NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_accounts_balance_check" CHECK("__new_ledger_accounts"."balance" >= 0 OR "__new_ledger_accounts"."allow_negative" = 1),
	CONSTRAINT "ledger_accounts_integer_check" CHECK(typeof("__new_ledger_accounts"."balance") = 'integer' AND abs("__new_ledger_accounts"."balance") <= 9007199254740991),
	CONSTRAINT "ledger_accounts_negative_kind_check" CHECK("__new_ledger_accounts"."allow_negative" = 0 OR "__new_ledger_accounts"."kind" IN ('conversion_desk', 'chain_in', 'chain_out')),
	CONSTRAINT "ledger_accounts_shape_check" CHECK(CASE "__new_ledger_accounts"."kind"
        WHEN 'user_wallet' THEN "__new_ledger_accounts"."owner_id" IS NOT NULL AND "__new_ledger_accounts"."reference" IS NULL
        WHEN 'affiliate_earnings' THEN "__new_ledger_accounts"."owner_id" IS NOT NULL AND "__new_ledger_accounts"."reference" IS NULL
        WHEN 'trade_escrow' THEN "__new_ledger_accounts"."reference" IS NOT NULL
        ELSE "__new_ledger_accounts"."owner_id" IS NULL AND "__new_ledger_accounts"."reference" IS NULL END),
	CONSTRAINT "ledger_accounts_resolved_check" CHECK(("__new_ledger_accounts"."resolved_at" IS NULL AND "__new_ledger_accounts"."resolution" IS NULL) OR ("__new_ledger_accounts"."kind" = 'trade_escrow' AND "__new_ledger_accounts"."resolved_at" IS NOT NULL AND "__new_ledger_accounts"."resolution" IS NOT NULL AND "__new_ledger_accounts"."balance" = 0))
);
--> statement-breakpoint
INSERT INTO `__new_ledger_accounts`("id", "kind", "owner_id", "currency", "reference", "balance", "allow_negative", "resolved_at", "resolution", "created_at") SELECT "id", "kind", "owner_id", "currency", "reference", "balance", "allow_negative", "resolved_at", "resolution", "created_at" FROM `ledger_accounts`;--> statement-breakpoint
DROP TABLE `ledger_accounts`;--> statement-breakpoint
ALTER TABLE `__new_ledger_accounts` RENAME TO `ledger_accounts`;--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_wallet_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'user_wallet';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_affiliate_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'affiliate_earnings';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_escrow_uq` ON `ledger_accounts` (`reference`,`currency`) WHERE "ledger_accounts"."kind" = 'trade_escrow';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_system_uq` ON `ledger_accounts` (`kind`,`currency`) WHERE "ledger_accounts"."kind" NOT IN ('user_wallet', 'trade_escrow', 'affiliate_earnings');--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_id_currency_uq` ON `ledger_accounts` (`id`,`currency`);--> statement-breakpoint
CREATE INDEX `ledger_accounts_owner_idx` ON `ledger_accounts` (`owner_id`);--> statement-breakpoint
ALTER TABLE `trades` ADD `affiliate_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `users` ADD `is_affiliate_pay_for_sell_side` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `traded_usd_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `users_referred_by_idx` ON `users` (`referred_by_id`,`created_at`);--> statement-breakpoint
-- The rebuilt table's triggers, as 0009_ledger.sql made them.
CREATE TRIGGER `ledger_accounts_no_delete` BEFORE DELETE ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'ledger accounts are never deleted'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_identity_fixed` BEFORE UPDATE OF `kind`, `owner_id`, `currency`, `reference`, `allow_negative`, `created_at` ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'a ledger account keeps its identity'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_resolve_once` BEFORE UPDATE OF `resolved_at`, `resolution` ON `ledger_accounts`
WHEN OLD.`resolved_at` IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'ledger escrow resolved already'); END;
--> statement-breakpoint
-- The traded volume of the trades completed before the column: released, or won by the buyer in a dispute.
UPDATE users SET traded_usd_cents = (SELECT coalesce(sum(t.usd_amount_cents), 0) FROM trades t
  WHERE (t.buyer_id = users.id OR t.seller_id = users.id) AND t.status IN ('released', 'dispute_won_buyer'));
