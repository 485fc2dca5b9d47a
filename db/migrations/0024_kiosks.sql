CREATE TABLE `kiosk_sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`kiosk_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`fee` integer NOT NULL,
	`fiat_currency` text NOT NULL,
	`fiat_cents` integer NOT NULL,
	`margin_basis_points` integer NOT NULL,
	`ledger_transaction_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`kiosk_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "kiosk_sales_amount_check" CHECK("kiosk_sales"."amount" > 0 AND "kiosk_sales"."fee" >= 0 AND "kiosk_sales"."fiat_cents" > 0),
	CONSTRAINT "kiosk_sales_margin_check" CHECK("kiosk_sales"."margin_basis_points" >= 0 AND "kiosk_sales"."margin_basis_points" <= 2000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kiosk_sales_public_id_unique` ON `kiosk_sales` (`public_id`);--> statement-breakpoint
CREATE INDEX `kiosk_sales_kiosk_idx` ON `kiosk_sales` (`kiosk_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `kiosk_sales_transaction_uq` ON `kiosk_sales` (`ledger_transaction_id`);--> statement-breakpoint
-- ledger_accounts is rebuilt (SQLite cannot change a CHECK): its shape check gains the merchants'
-- and kiosks' balances. db/migrate.ts runs migrations with foreign keys off and checks them after.
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
	CONSTRAINT "ledger_accounts_shape_check" CHECK(CASE
        WHEN "__new_ledger_accounts"."kind" IN ('user_wallet', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance') THEN "__new_ledger_accounts"."owner_id" IS NOT NULL AND "__new_ledger_accounts"."reference" IS NULL
        WHEN "__new_ledger_accounts"."kind" = 'trade_escrow' THEN "__new_ledger_accounts"."reference" IS NOT NULL
        ELSE "__new_ledger_accounts"."owner_id" IS NULL AND "__new_ledger_accounts"."reference" IS NULL END),
	CONSTRAINT "ledger_accounts_resolved_check" CHECK(("__new_ledger_accounts"."resolved_at" IS NULL AND "__new_ledger_accounts"."resolution" IS NULL) OR ("__new_ledger_accounts"."kind" = 'trade_escrow' AND "__new_ledger_accounts"."resolved_at" IS NOT NULL AND "__new_ledger_accounts"."resolution" IS NOT NULL AND "__new_ledger_accounts"."balance" = 0))
);
--> statement-breakpoint
INSERT INTO `__new_ledger_accounts`("id", "kind", "owner_id", "currency", "reference", "balance", "allow_negative", "resolved_at", "resolution", "created_at") SELECT "id", "kind", "owner_id", "currency", "reference", "balance", "allow_negative", "resolved_at", "resolution", "created_at" FROM `ledger_accounts`;--> statement-breakpoint
DROP TABLE `ledger_accounts`;--> statement-breakpoint
ALTER TABLE `__new_ledger_accounts` RENAME TO `ledger_accounts`;--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_wallet_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'user_wallet';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_affiliate_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'affiliate_earnings';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_merchant_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'merchant_balance';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_kiosk_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'kiosk_balance';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_escrow_uq` ON `ledger_accounts` (`reference`,`currency`) WHERE "ledger_accounts"."kind" = 'trade_escrow';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_system_uq` ON `ledger_accounts` (`kind`,`currency`) WHERE "ledger_accounts"."kind" NOT IN ('user_wallet', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance', 'trade_escrow');--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_id_currency_uq` ON `ledger_accounts` (`id`,`currency`);--> statement-breakpoint
CREATE INDEX `ledger_accounts_owner_idx` ON `ledger_accounts` (`owner_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `kiosk_margin_basis_points` integer DEFAULT 300 NOT NULL;--> statement-breakpoint
-- The rebuilt table's triggers, as 0009_ledger.sql made them.
CREATE TRIGGER `ledger_accounts_no_delete` BEFORE DELETE ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'ledger accounts are never deleted'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_identity_fixed` BEFORE UPDATE OF `kind`, `owner_id`, `currency`, `reference`, `allow_negative`, `created_at` ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'a ledger account keeps its identity'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_resolve_once` BEFORE UPDATE OF `resolved_at`, `resolution` ON `ledger_accounts`
WHEN OLD.`resolved_at` IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'ledger escrow resolved already'); END;
