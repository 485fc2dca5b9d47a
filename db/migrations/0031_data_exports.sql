CREATE TABLE `data_export_parts` (
	`export_id` integer NOT NULL,
	`section` integer NOT NULL,
	`first_id` integer NOT NULL,
	`rows` integer NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`export_id`, `section`, `first_id`),
	FOREIGN KEY (`export_id`) REFERENCES `data_exports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `data_exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`format` text NOT NULL,
	`status` text NOT NULL,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`from_at` integer NOT NULL,
	`to_at` integer NOT NULL,
	`locale` text NOT NULL,
	`section` integer DEFAULT 0 NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`size_bytes` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`ready_at` integer,
	`expires_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "data_exports_status_check" CHECK(status IN ('queued', 'building', 'ready', 'failed', 'expired')),
	CONSTRAINT "data_exports_format_check" CHECK(format IN ('csv', 'json')),
	CONSTRAINT "data_exports_range_check" CHECK("data_exports"."from_at" < "data_exports"."to_at"),
	CONSTRAINT "data_exports_progress_check" CHECK("data_exports"."done" >= 0 AND "data_exports"."total" >= 0 AND "data_exports"."attempts" >= 0),
	CONSTRAINT "data_exports_ready_check" CHECK("data_exports"."status" <> 'ready' OR ("data_exports"."size_bytes" IS NOT NULL AND "data_exports"."expires_at" IS NOT NULL AND "data_exports"."ready_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `data_exports_public_id_unique` ON `data_exports` (`public_id`);--> statement-breakpoint
CREATE INDEX `data_exports_user_idx` ON `data_exports` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `data_exports_open_idx` ON `data_exports` (`id`) WHERE "data_exports"."status" IN ('queued', 'building');--> statement-breakpoint
CREATE INDEX `data_exports_expiry_idx` ON `data_exports` (`expires_at`) WHERE "data_exports"."status" = 'ready';