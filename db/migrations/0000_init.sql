CREATE TABLE `offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` text NOT NULL,
	`owner_id` integer NOT NULL,
	`type` text NOT NULL,
	`crypto_currency_id` integer NOT NULL,
	`fiat_currency_id` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`margin_basis_points` integer DEFAULT 0 NOT NULL,
	`fiat_min_minor` integer NOT NULL,
	`fiat_max_minor` integer NOT NULL,
	`payment_window_minutes` integer NOT NULL,
	`terms` text DEFAULT '' NOT NULL,
	`tags` text NOT NULL,
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
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "offers_limits_check" CHECK("offers"."fiat_min_minor" > 0 AND "offers"."fiat_max_minor" >= "offers"."fiat_min_minor"),
	CONSTRAINT "offers_window_check" CHECK("offers"."payment_window_minutes" BETWEEN 15 AND 240)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offers_hash_unique` ON `offers` (`hash`);--> statement-breakpoint
CREATE INDEX `offers_listing_idx` ON `offers` (`status`,`type`,`crypto_currency_id`,`fiat_currency_id`,`payment_method_id`);--> statement-breakpoint
CREATE INDEX `offers_owner_idx` ON `offers` (`owner_id`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`iso` text NOT NULL,
	`iso3` text NOT NULL,
	`name` text NOT NULL,
	`currency_id` integer NOT NULL,
	`phone_code` text NOT NULL,
	FOREIGN KEY (`currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_iso_unique` ON `countries` (`iso`);--> statement-breakpoint
CREATE UNIQUE INDEX `countries_iso3_unique` ON `countries` (`iso3`);--> statement-breakpoint
CREATE TABLE `country_payment_methods` (
	`country_id` integer NOT NULL,
	`payment_method_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`country_id`, `payment_method_id`),
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `crypto_currencies` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`url_name` text NOT NULL,
	`decimals` integer NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crypto_currencies_code_unique` ON `crypto_currencies` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `crypto_currencies_url_name_unique` ON `crypto_currencies` (`url_name`);--> statement-breakpoint
CREATE TABLE `fiat_currencies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`minor_units` integer NOT NULL,
	`usd_rate` real NOT NULL,
	`sort_order` integer NOT NULL,
	`default_amount` real NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fiat_currencies_code_unique` ON `fiat_currencies` (`code`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country_id` integer NOT NULL,
	`city_name` text NOT NULL,
	`subdivision_name` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`search_key` text NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `locations_search_key_idx` ON `locations` (`search_key`);--> statement-breakpoint
CREATE TABLE `payment_groups` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`sell_description` text NOT NULL,
	`is_selectable` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_groups_slug_unique` ON `payment_groups` (`slug`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`group_id` integer NOT NULL,
	`description_short` text NOT NULL,
	`is_copyrighted` integer DEFAULT false NOT NULL,
	`warning_text` text,
	`currencies` text NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `payment_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_methods_slug_unique` ON `payment_methods` (`slug`);--> statement-breakpoint
CREATE INDEX `payment_methods_group_idx` ON `payment_methods` (`group_id`);--> statement-breakpoint
CREATE TABLE `timezones` (
	`name` text PRIMARY KEY NOT NULL,
	`region` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`is_vendor` integer DEFAULT false NOT NULL,
	`is_affiliate` integer DEFAULT false NOT NULL,
	`is_merchant` integer DEFAULT false NOT NULL,
	`is_kiosk` integer DEFAULT false NOT NULL,
	`is_email_verified` integer DEFAULT false NOT NULL,
	`country_id` integer,
	`currency_id` integer,
	`locale` text DEFAULT 'en' NOT NULL,
	`feedback_positive` integer DEFAULT 0 NOT NULL,
	`feedback_negative` integer DEFAULT 0 NOT NULL,
	`completed_trades` integer DEFAULT 0 NOT NULL,
	`last_seen_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_public_id_unique` ON `users` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);