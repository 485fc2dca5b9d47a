CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`claimed_at` integer,
	`last_attempt_at` integer,
	`response_status` integer,
	`latency_ms` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_deliveries_status_check" CHECK(status IN ('pending', 'sending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_message_id_unique` ON `webhook_deliveries` (`message_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_user_idx` ON `webhook_deliveries` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	PRIMARY KEY(`user_id`, `event`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_event_idx` ON `webhook_subscriptions` (`event`,`user_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`url` text,
	`enabled` integer DEFAULT false NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` integer,
	`verified_url` text,
	`verified_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhooks_enabled_check" CHECK("webhooks"."enabled" = 0 OR "webhooks"."url" IS NOT NULL)
);
