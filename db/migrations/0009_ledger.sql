CREATE TABLE `ledger_accounts` (
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
	CONSTRAINT "ledger_accounts_balance_check" CHECK("ledger_accounts"."balance" >= 0 OR "ledger_accounts"."allow_negative" = 1),
	CONSTRAINT "ledger_accounts_integer_check" CHECK(typeof("ledger_accounts"."balance") = 'integer' AND abs("ledger_accounts"."balance") <= 9007199254740991),
	CONSTRAINT "ledger_accounts_negative_kind_check" CHECK("ledger_accounts"."allow_negative" = 0 OR "ledger_accounts"."kind" IN ('conversion_desk', 'chain_in', 'chain_out')),
	CONSTRAINT "ledger_accounts_shape_check" CHECK(CASE "ledger_accounts"."kind"
        WHEN 'user_wallet' THEN "ledger_accounts"."owner_id" IS NOT NULL AND "ledger_accounts"."reference" IS NULL
        WHEN 'trade_escrow' THEN "ledger_accounts"."reference" IS NOT NULL
        ELSE "ledger_accounts"."owner_id" IS NULL AND "ledger_accounts"."reference" IS NULL END),
	CONSTRAINT "ledger_accounts_resolved_check" CHECK(("ledger_accounts"."resolved_at" IS NULL AND "ledger_accounts"."resolution" IS NULL) OR ("ledger_accounts"."kind" = 'trade_escrow' AND "ledger_accounts"."resolved_at" IS NOT NULL AND "ledger_accounts"."resolution" IS NOT NULL AND "ledger_accounts"."balance" = 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_wallet_uq` ON `ledger_accounts` (`owner_id`,`currency`) WHERE "ledger_accounts"."kind" = 'user_wallet';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_escrow_uq` ON `ledger_accounts` (`reference`,`currency`) WHERE "ledger_accounts"."kind" = 'trade_escrow';--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_system_uq` ON `ledger_accounts` (`kind`,`currency`) WHERE "ledger_accounts"."kind" NOT IN ('user_wallet', 'trade_escrow');--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_id_currency_uq` ON `ledger_accounts` (`id`,`currency`);--> statement-breakpoint
CREATE INDEX `ledger_accounts_owner_idx` ON `ledger_accounts` (`owner_id`);--> statement-breakpoint
CREATE TABLE `ledger_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` integer NOT NULL,
	`operation` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_user_id` integer,
	`actor_name` text,
	`request_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ledger_audit_transaction_idx` ON `ledger_audit` (`transaction_id`);--> statement-breakpoint
CREATE TABLE `ledger_postings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`,`currency`) REFERENCES `ledger_accounts`(`id`,`currency`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_postings_amount_check" CHECK(typeof("ledger_postings"."amount") = 'integer' AND "ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE INDEX `ledger_postings_transaction_idx` ON `ledger_postings` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `ledger_postings_account_idx` ON `ledger_postings` (`account_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `ledger_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`memo` text,
	`metadata` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_transactions_public_id_unique` ON `ledger_transactions` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_transactions_idempotency_key_unique` ON `ledger_transactions` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `ledger_transactions_kind_idx` ON `ledger_transactions` (`kind`);--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): the ledger is append-only. Corrections
-- are new transactions; only an account's cached balance and an escrow's resolution change.
CREATE TRIGGER `ledger_transactions_no_update` BEFORE UPDATE ON `ledger_transactions`
BEGIN SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_transactions_no_delete` BEFORE DELETE ON `ledger_transactions`
BEGIN SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_postings_no_update` BEFORE UPDATE ON `ledger_postings`
BEGIN SELECT RAISE(ABORT, 'ledger_postings is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_postings_no_delete` BEFORE DELETE ON `ledger_postings`
BEGIN SELECT RAISE(ABORT, 'ledger_postings is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_audit_no_update` BEFORE UPDATE ON `ledger_audit`
BEGIN SELECT RAISE(ABORT, 'ledger_audit is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_audit_no_delete` BEFORE DELETE ON `ledger_audit`
BEGIN SELECT RAISE(ABORT, 'ledger_audit is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_no_delete` BEFORE DELETE ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'ledger accounts are never deleted'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_accounts_identity_fixed` BEFORE UPDATE OF `kind`, `owner_id`, `currency`, `reference`, `allow_negative`, `created_at` ON `ledger_accounts`
BEGIN SELECT RAISE(ABORT, 'a ledger account keeps its identity'); END;--> statement-breakpoint
-- An escrow resolves at most once: once resolved_at is set, neither it nor the resolution changes.
CREATE TRIGGER `ledger_accounts_resolve_once` BEFORE UPDATE OF `resolved_at`, `resolution` ON `ledger_accounts`
WHEN OLD.`resolved_at` IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'ledger escrow resolved already'); END;
