CREATE TABLE `devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`review_token_hash` text,
	`status` text NOT NULL,
	`browser` text,
	`version` text,
	`os` text,
	`ip` text NOT NULL,
	`city` text,
	`country` text,
	`created_at` integer NOT NULL,
	`reviewed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `devices_user_fingerprint_idx` ON `devices` (`user_id`,`fingerprint`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_review_token_idx` ON `devices` (`review_token_hash`);