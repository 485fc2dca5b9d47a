CREATE TABLE `password_reset_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ip` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `password_reset_requests_ip_created_idx` ON `password_reset_requests` (`ip`,`created_at`);--> statement-breakpoint
CREATE INDEX `password_reset_requests_created_idx` ON `password_reset_requests` (`created_at`);--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_resets_user_created_idx` ON `password_resets` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `password_resets_created_idx` ON `password_resets` (`created_at`);