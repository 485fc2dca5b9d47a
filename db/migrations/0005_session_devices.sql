-- SQLite cannot add a NOT NULL column without a constant default: the table is rebuilt, and the
-- sessions that exist keep working with a random public id and their sign-in time as last use.
CREATE TABLE `__new_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`csrf_token` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip` text NOT NULL,
	`user_agent` text NOT NULL,
	`public_id` text NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_sessions`(`id`, `user_id`, `csrf_token`, `created_at`, `expires_at`, `ip`, `user_agent`, `public_id`, `last_used_at`) SELECT `id`, `user_id`, `csrf_token`, `created_at`, `expires_at`, `ip`, `user_agent`, 'ses_' || hex(randomblob(8)), `created_at` FROM `sessions`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_public_id_idx` ON `sessions` (`public_id`);
