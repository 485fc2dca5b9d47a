CREATE TABLE `proof_leaves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`publication_id` integer NOT NULL,
	`currency` text NOT NULL,
	`position` integer NOT NULL,
	`user_id` integer NOT NULL,
	`balance` integer NOT NULL,
	`nonce` text NOT NULL,
	FOREIGN KEY (`publication_id`) REFERENCES `proof_publications`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "proof_leaves_balance_check" CHECK("proof_leaves"."balance" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proof_leaves_position_uq` ON `proof_leaves` (`publication_id`,`currency`,`position`);--> statement-breakpoint
CREATE INDEX `proof_leaves_user_idx` ON `proof_leaves` (`user_id`,`publication_id`);--> statement-breakpoint
CREATE TABLE `proof_publications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`published_at` integer NOT NULL,
	`ledger_high_water` integer NOT NULL,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proof_publications_public_id_unique` ON `proof_publications` (`public_id`);--> statement-breakpoint
CREATE TABLE `proof_roots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`publication_id` integer NOT NULL,
	`currency` text NOT NULL,
	`root_hash` text NOT NULL,
	`total` integer NOT NULL,
	`leaf_count` integer NOT NULL,
	`tree_size` integer NOT NULL,
	FOREIGN KEY (`publication_id`) REFERENCES `proof_publications`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "proof_roots_total_check" CHECK("proof_roots"."total" >= 0 AND "proof_roots"."leaf_count" >= 0 AND "proof_roots"."tree_size" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proof_roots_publication_uq` ON `proof_roots` (`publication_id`,`currency`);