CREATE TABLE `trade_attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`trade_id` integer NOT NULL,
	`uploader_id` integer NOT NULL,
	`storage_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`is_for_moderator` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reviewed_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`uploader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_attachments_public_id_unique` ON `trade_attachments` (`public_id`);--> statement-breakpoint
CREATE INDEX `trade_attachments_trade_idx` ON `trade_attachments` (`trade_id`);--> statement-breakpoint
CREATE TABLE `trade_feedback` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trade_id` integer NOT NULL,
	`from_id` integer NOT NULL,
	`to_id` integer NOT NULL,
	`type` text NOT NULL,
	`rating` text NOT NULL,
	`message` text NOT NULL,
	`reply` text,
	`replied_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_feedback_once_idx` ON `trade_feedback` (`trade_id`,`from_id`);--> statement-breakpoint
CREATE INDEX `trade_feedback_to_idx` ON `trade_feedback` (`to_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `trade_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trade_id` integer NOT NULL,
	`author_id` integer,
	`author_role` text NOT NULL,
	`body` text NOT NULL,
	`attachment_id` integer,
	`is_for_moderator` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`attachment_id`) REFERENCES `trade_attachments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trade_messages_trade_idx` ON `trade_messages` (`trade_id`,`id`);--> statement-breakpoint
CREATE TABLE `trade_requirements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trade_id` integer NOT NULL,
	`stage` text NOT NULL,
	`kind` text NOT NULL,
	`optional` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attachment_id` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`attachment_id`) REFERENCES `trade_attachments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trade_requirements_trade_idx` ON `trade_requirements` (`trade_id`);--> statement-breakpoint
CREATE TABLE `trade_transitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trade_id` integer NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`actor_id` integer,
	`actor_role` text NOT NULL,
	`ledger_transaction_id` text,
	`note` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trade_transitions_trade_idx` ON `trade_transitions` (`trade_id`,`id`);--> statement-breakpoint
CREATE TABLE `trades` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` text NOT NULL,
	`offer_id` integer NOT NULL,
	`offer_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`responder_id` integer NOT NULL,
	`buyer_id` integer NOT NULL,
	`seller_id` integer NOT NULL,
	`crypto_code` text NOT NULL,
	`crypto_amount` integer NOT NULL,
	`fee_amount` integer NOT NULL,
	`fee_basis_points` integer NOT NULL,
	`escrow_ref` text NOT NULL,
	`fiat_currency_id` integer NOT NULL,
	`fiat_amount_minor` integer NOT NULL,
	`price_minor` integer NOT NULL,
	`usd_amount_cents` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`payment_window_minutes` integer NOT NULL,
	`offer_terms` text NOT NULL,
	`payment_details` text NOT NULL,
	`tags` text NOT NULL,
	`payer_name` text,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`ended_at` integer,
	`disputed_at` integer,
	`dispute_reason_id` text,
	`dispute_text` text,
	`dispute_opened_by` integer,
	`resolved_by` integer,
	`responder_ip` text,
	`version` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`offer_id`) REFERENCES `offers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`responder_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fiat_currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dispute_opened_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "trades_status_check" CHECK(status IN ('active_funded', 'cancelled_buyer', 'cancelled_system', 'dispute_open', 'paid', 'released', 'not_funded', 'funds_processing', 'funds_processed', 'cancelled_seller', 'dispute_won_seller', 'dispute_won_buyer')),
	CONSTRAINT "trades_parties_check" CHECK("trades"."buyer_id" <> "trades"."seller_id"),
	CONSTRAINT "trades_amounts_check" CHECK("trades"."crypto_amount" > 0 AND "trades"."fee_amount" >= 0 AND "trades"."fiat_amount_minor" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trades_hash_unique` ON `trades` (`hash`);--> statement-breakpoint
CREATE INDEX `trades_buyer_idx` ON `trades` (`buyer_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `trades_seller_idx` ON `trades` (`seller_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `trades_offer_idx` ON `trades` (`offer_id`);--> statement-breakpoint
CREATE INDEX `trades_status_idx` ON `trades` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `trades_expiry_idx` ON `trades` (`expires_at`) WHERE status = 'active_funded';--> statement-breakpoint
ALTER TABLE `offers` ADD `trade_requirements` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): the trail of transitions is append-only,
-- and a trade that ended keeps its money terms.
CREATE TRIGGER `trade_transitions_no_update` BEFORE UPDATE ON `trade_transitions`
BEGIN SELECT RAISE(ABORT, 'trade_transitions is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `trade_transitions_no_delete` BEFORE DELETE ON `trade_transitions`
BEGIN SELECT RAISE(ABORT, 'trade_transitions is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `trades_terms_fixed` BEFORE UPDATE OF `buyer_id`, `seller_id`, `crypto_code`, `crypto_amount`, `fee_amount`, `fiat_amount_minor`, `fiat_currency_id`, `price_minor` ON `trades`
BEGIN SELECT RAISE(ABORT, 'a trade keeps its parties and amounts'); END;
