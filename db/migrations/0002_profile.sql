CREATE TABLE `phones` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`verified_at` integer,
	`code_hash` text,
	`code_expires_at` integer,
	`code_attempts` integer DEFAULT 0 NOT NULL,
	`codes_sent_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phones_number_idx` ON `phones` (`number`);--> statement-breakpoint
CREATE TABLE `two_factor` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`confirmed_at` integer,
	`for_login` integer DEFAULT true NOT NULL,
	`for_sendout` integer DEFAULT true NOT NULL,
	`for_release` integer DEFAULT true NOT NULL,
	`last_used_step` integer,
	`recovery_code_hashes` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`notify_trade_messages_interval` integer DEFAULT 10 NOT NULL,
	`sound_notifications` integer DEFAULT true NOT NULL,
	`notify_sms_bitcoins_confirmed` integer DEFAULT false NOT NULL,
	`notify_sms_incoming_trade` integer DEFAULT false NOT NULL,
	`email_subscribed` integer DEFAULT false NOT NULL,
	`cookie_settings` text,
	`avatar_url` text,
	`telegram_chat_id` text,
	`telegram_link_token` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
