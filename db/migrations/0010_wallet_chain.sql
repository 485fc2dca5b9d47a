CREATE TABLE `chain_state` (
	`network` text PRIMARY KEY NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`last_block_at` integer,
	`cursor` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `chain_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`direction` text NOT NULL,
	`currency` text NOT NULL,
	`network` text NOT NULL,
	`user_id` integer NOT NULL,
	`address` text NOT NULL,
	`amount` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`txid` text,
	`vout` integer,
	`block_height` integer,
	`confirmations` integer DEFAULT 0 NOT NULL,
	`required_confirmations` integer NOT NULL,
	`status` text NOT NULL,
	`ledger_transaction_id` integer,
	`return_transaction_id` integer,
	`idempotency_key` text,
	`simulated` integer DEFAULT false NOT NULL,
	`broadcast_started_at` integer,
	`failure_reason` text,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ledger_transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`return_transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chain_transactions_network_check" CHECK(("chain_transactions"."currency" = 'BTC' AND "chain_transactions"."network" = 'bitcoin') OR ("chain_transactions"."currency" = 'USDT' AND "chain_transactions"."network" IN ('TRC20', 'ERC20'))),
	CONSTRAINT "chain_transactions_status_check" CHECK(("chain_transactions"."direction" = 'in' AND "chain_transactions"."status" IN ('incoming', 'confirmed', 'failed') AND "chain_transactions"."network" <> 'ERC20')
        OR ("chain_transactions"."direction" = 'out' AND "chain_transactions"."status" IN ('pending', 'broadcast', 'confirmed', 'failed'))),
	CONSTRAINT "chain_transactions_amount_check" CHECK(typeof("chain_transactions"."amount") = 'integer' AND "chain_transactions"."amount" > 0 AND typeof("chain_transactions"."fee") = 'integer' AND "chain_transactions"."fee" >= 0),
	CONSTRAINT "chain_transactions_ledger_check" CHECK(CASE "chain_transactions"."direction"
        WHEN 'in' THEN ("chain_transactions"."status" = 'confirmed') = ("chain_transactions"."ledger_transaction_id" IS NOT NULL) AND "chain_transactions"."return_transaction_id" IS NULL
        ELSE "chain_transactions"."ledger_transaction_id" IS NOT NULL AND ("chain_transactions"."status" = 'failed') = ("chain_transactions"."return_transaction_id" IS NOT NULL) END),
	CONSTRAINT "chain_transactions_txid_check" CHECK(CASE "chain_transactions"."direction"
        WHEN 'in' THEN "chain_transactions"."txid" IS NOT NULL AND "chain_transactions"."vout" IS NOT NULL
        ELSE "chain_transactions"."status" IN ('pending', 'failed') OR "chain_transactions"."txid" IS NOT NULL END)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chain_transactions_public_id_unique` ON `chain_transactions` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `chain_transactions_idempotency_key_unique` ON `chain_transactions` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `chain_transactions_output_uq` ON `chain_transactions` (`network`,`txid`,`vout`) WHERE "chain_transactions"."direction" = 'in';--> statement-breakpoint
CREATE INDEX `chain_transactions_user_idx` ON `chain_transactions` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `chain_transactions_open_idx` ON `chain_transactions` (`status`) WHERE "chain_transactions"."status" IN ('incoming', 'pending', 'broadcast');--> statement-breakpoint
CREATE INDEX `chain_transactions_seq_idx` ON `chain_transactions` (`seq`);--> statement-breakpoint
CREATE INDEX `chain_transactions_ledger_idx` ON `chain_transactions` (`ledger_transaction_id`);--> statement-breakpoint
CREATE INDEX `chain_transactions_return_idx` ON `chain_transactions` (`return_transaction_id`);--> statement-breakpoint
CREATE TABLE `deposit_addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`currency` text NOT NULL,
	`network` text NOT NULL,
	`address` text NOT NULL,
	`derivation_index` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "deposit_addresses_network_check" CHECK(("deposit_addresses"."currency" = 'BTC' AND "deposit_addresses"."network" = 'bitcoin') OR ("deposit_addresses"."currency" = 'USDT' AND "deposit_addresses"."network" = 'TRC20')),
	CONSTRAINT "deposit_addresses_index_check" CHECK(typeof("deposit_addresses"."derivation_index") = 'integer' AND "deposit_addresses"."derivation_index" BETWEEN 0 AND 2147483647)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_address_unique` ON `deposit_addresses` (`address`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_user_currency_uq` ON `deposit_addresses` (`user_id`,`currency`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_network_index_uq` ON `deposit_addresses` (`network`,`derivation_index`);