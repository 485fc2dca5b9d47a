CREATE TABLE `price_history` (
	`crypto` text NOT NULL,
	`resolution` integer NOT NULL,
	`at` integer NOT NULL,
	`usd` real NOT NULL,
	PRIMARY KEY(`crypto`, `resolution`, `at`),
	CONSTRAINT "price_history_usd_check" CHECK("price_history"."usd" > 0)
);
--> statement-breakpoint
CREATE TABLE `user_trust` (
	`user_id` integer NOT NULL,
	`other_id` integer NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `other_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`other_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_trust_other_idx` ON `user_trust` (`other_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` text NOT NULL,
	`owner_id` integer NOT NULL,
	`type` text NOT NULL,
	`crypto_currency_id` integer NOT NULL,
	`fiat_currency_id` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`price_type` text DEFAULT 'margin' NOT NULL,
	`margin_basis_points` integer DEFAULT 0 NOT NULL,
	`fixed_price_minor` integer,
	`fiat_min_minor` integer NOT NULL,
	`fiat_max_minor` integer NOT NULL,
	`predefined_amounts_minor` text DEFAULT '[]' NOT NULL,
	`payment_window_minutes` integer NOT NULL,
	`payment_method_label` text,
	`terms` text DEFAULT '' NOT NULL,
	`trade_instructions` text DEFAULT '' NOT NULL,
	`tags` text NOT NULL,
	`bond_required` integer DEFAULT false NOT NULL,
	`require_currency_match_country` integer DEFAULT false NOT NULL,
	`new_buyer_max_fiat_minor` integer,
	`is_gold` integer DEFAULT false NOT NULL,
	`is_skip_warnings` integer DEFAULT false NOT NULL,
	`is_publicly_visible` integer DEFAULT true NOT NULL,
	`allowed_countries` text DEFAULT '[]' NOT NULL,
	`blocked_countries` text DEFAULT '[]' NOT NULL,
	`location_id` integer,
	`require_verified_id` integer DEFAULT false NOT NULL,
	`require_min_past_trades` integer DEFAULT 0 NOT NULL,
	`show_only_trusted_user` integer DEFAULT false NOT NULL,
	`is_featured` integer DEFAULT false NOT NULL,
	`country_id` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`crypto_currency_id`) REFERENCES `crypto_currencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fiat_currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "offers_limits_check" CHECK("__new_offers"."fiat_min_minor" > 0 AND "__new_offers"."fiat_max_minor" >= "__new_offers"."fiat_min_minor"),
	CONSTRAINT "offers_window_check" CHECK("__new_offers"."payment_window_minutes" BETWEEN 15 AND 240),
	CONSTRAINT "offers_price_check" CHECK(("__new_offers"."price_type" = 'margin' AND "__new_offers"."fixed_price_minor" IS NULL) OR ("__new_offers"."price_type" = 'fixed' AND "__new_offers"."fixed_price_minor" > 0))
);
--> statement-breakpoint
INSERT INTO `__new_offers`("id", "hash", "owner_id", "type", "crypto_currency_id", "fiat_currency_id", "payment_method_id", "margin_basis_points", "fiat_min_minor", "fiat_max_minor", "payment_window_minutes", "terms", "tags", "require_verified_id", "require_min_past_trades", "show_only_trusted_user", "is_featured", "country_id", "status", "created_at", "updated_at") SELECT "id", "hash", "owner_id", "type", "crypto_currency_id", "fiat_currency_id", "payment_method_id", "margin_basis_points", "fiat_min_minor", "fiat_max_minor", "payment_window_minutes", "terms", "tags", "require_verified_id", "require_min_past_trades", "show_only_trusted_user", "is_featured", "country_id", "status", "created_at", "updated_at" FROM `offers`;--> statement-breakpoint
DROP TABLE `offers`;--> statement-breakpoint
ALTER TABLE `__new_offers` RENAME TO `offers`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `offers_hash_unique` ON `offers` (`hash`);--> statement-breakpoint
CREATE INDEX `offers_listing_idx` ON `offers` (`status`,`type`,`crypto_currency_id`,`fiat_currency_id`,`payment_method_id`);--> statement-breakpoint
CREATE INDEX `offers_owner_idx` ON `offers` (`owner_id`);--> statement-breakpoint
CREATE INDEX `offers_location_idx` ON `offers` (`location_id`);