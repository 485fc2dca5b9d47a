CREATE TABLE `bank_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`owner_id` integer NOT NULL,
	`kind` text NOT NULL,
	`country_id` integer NOT NULL,
	`fiat_currency_id` integer NOT NULL,
	`holder_name` text NOT NULL,
	`is_personal` integer NOT NULL,
	`iban` text,
	`account_number` text,
	`routing_number` text,
	`bank_id` text,
	`swift_code` text,
	`swift_residency` text,
	`swift_state` text,
	`swift_city` text,
	`swift_zip` text,
	`swift_address` text,
	`identity` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fiat_currency_id`) REFERENCES `fiat_currencies`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bank_accounts_kind_check" CHECK(kind IN ('iban', 'aba', 'swift')),
	CONSTRAINT "bank_accounts_kind_fields_check" CHECK((kind = 'iban' AND iban IS NOT NULL) OR (kind = 'aba' AND account_number IS NOT NULL AND routing_number IS NOT NULL) OR (kind = 'swift' AND account_number IS NOT NULL AND swift_code IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_accounts_public_id_unique` ON `bank_accounts` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bank_accounts_identity_idx` ON `bank_accounts` (`owner_id`,`identity`);--> statement-breakpoint
CREATE TABLE `trade_bank_accounts` (
	`trade_id` integer PRIMARY KEY NOT NULL,
	`bank_account_id` integer NOT NULL,
	`shared_by` integer NOT NULL,
	`kind` text NOT NULL,
	`holder_name` text NOT NULL,
	`is_personal` integer NOT NULL,
	`bank_name` text,
	`iban` text,
	`account_number` text,
	`routing_number` text,
	`swift_code` text,
	`country_iso` text NOT NULL,
	`country_name` text NOT NULL,
	`currency_code` text NOT NULL,
	`swift_address` text,
	`shared_at` integer NOT NULL,
	FOREIGN KEY (`trade_id`) REFERENCES `trades`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shared_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trade_bank_accounts_source_idx` ON `trade_bank_accounts` (`bank_account_id`);