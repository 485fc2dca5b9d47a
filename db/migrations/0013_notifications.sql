CREATE TABLE `notification_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`channel` text NOT NULL,
	`kind` text NOT NULL,
	`notification_id` integer,
	`due_at` integer NOT NULL,
	`claimed_at` integer,
	`sent_at` integer,
	`outcome` text,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`due_at`) WHERE "notification_deliveries"."outcome" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notification_deliveries_digest_idx` ON `notification_deliveries` (`user_id`,`channel`) WHERE "notification_deliveries"."kind" = 'digest' AND "notification_deliveries"."outcome" IS NULL;--> statement-breakpoint
CREATE INDEX `notification_deliveries_user_idx` ON `notification_deliveries` (`user_id`,`channel`,`sent_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`tab` text NOT NULL,
	`link` text NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`message_tk` text NOT NULL,
	`message_placeholders` text NOT NULL,
	`subtext_tk` text,
	`subtext_placeholders` text NOT NULL,
	`group_key` text,
	`is_read` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_public_id_unique` ON `notifications` (`public_id`);--> statement-breakpoint
CREATE INDEX `notifications_user_tab_idx` ON `notifications` (`user_id`,`tab`,`updated_at`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`tab`) WHERE "notifications"."is_read" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_group_idx` ON `notifications` (`user_id`,`group_key`);