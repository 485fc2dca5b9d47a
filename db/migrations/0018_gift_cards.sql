CREATE TABLE `gift_card_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`card_id` integer NOT NULL,
	`trade_id` integer,
	`action` text NOT NULL,
	`actor_id` integer,
	`actor_role` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gift_card_events_card_idx` ON `gift_card_events` (`card_id`,`id`);--> statement-breakpoint
CREATE INDEX `gift_card_events_trade_idx` ON `gift_card_events` (`trade_id`,`id`);--> statement-breakpoint
CREATE TABLE `gift_card_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`owner_id` integer NOT NULL,
	`card_id` integer,
	`storage_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gift_card_images_public_id_unique` ON `gift_card_images` (`public_id`);--> statement-breakpoint
CREATE INDEX `gift_card_images_card_idx` ON `gift_card_images` (`card_id`);--> statement-breakpoint
CREATE INDEX `gift_card_images_owner_idx` ON `gift_card_images` (`owner_id`,`card_id`);--> statement-breakpoint
CREATE TABLE `gift_cards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`owner_id` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`fiat_currency_id` integer NOT NULL,
	`value_minor` integer NOT NULL,
	`kind` text NOT NULL,
	`has_receipt` integer DEFAULT false NOT NULL,
	`code_sealed` text NOT NULL,
	`code_fingerprint` text,
	`state` text NOT NULL,
	`trade_id` integer,
	`revealed_at` integer,
	`revealed_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fiat_currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`revealed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "gift_cards_state_check" CHECK(state IN ('free', 'in_use', 'revealed', 'used', 'deleted')),
	CONSTRAINT "gift_cards_kind_check" CHECK(kind IN ('physical', 'ecard')),
	CONSTRAINT "gift_cards_value_check" CHECK("gift_cards"."value_minor" > 0),
	CONSTRAINT "gift_cards_trade_check" CHECK((state IN ('free', 'deleted') AND trade_id IS NULL) OR (state IN ('in_use', 'revealed', 'used') AND trade_id IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gift_cards_public_id_unique` ON `gift_cards` (`public_id`);--> statement-breakpoint
CREATE INDEX `gift_cards_owner_idx` ON `gift_cards` (`owner_id`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `gift_cards_trade_idx` ON `gift_cards` (`trade_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `gift_cards_code_idx` ON `gift_cards` (`code_fingerprint`) WHERE state <> 'deleted';