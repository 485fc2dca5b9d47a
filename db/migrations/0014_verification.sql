CREATE TABLE `verification_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`storage_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`reason` text,
	`reviewed_by` integer,
	`created_at` integer NOT NULL,
	`submitted_at` integer,
	`reviewed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "verification_documents_kind_check" CHECK(kind IN ('id_front', 'id_back', 'selfie', 'proof_of_address')),
	CONSTRAINT "verification_documents_status_check" CHECK(status IN ('uploaded', 'pending', 'approved', 'rejected')),
	CONSTRAINT "verification_documents_type_check" CHECK(content_type IN ('image/jpeg', 'application/pdf')),
	CONSTRAINT "verification_documents_reason_check" CHECK(status <> 'rejected' OR length(reason) > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_documents_public_id_unique` ON `verification_documents` (`public_id`);--> statement-breakpoint
CREATE INDEX `verification_documents_user_idx` ON `verification_documents` (`user_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `verification_documents_pending_idx` ON `verification_documents` (`submitted_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `verification_documents_open_idx` ON `verification_documents` (`user_id`,`kind`) WHERE status IN ('uploaded', 'pending');--> statement-breakpoint
ALTER TABLE `users` ADD `address_verified_at` integer;