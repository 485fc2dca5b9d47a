CREATE TABLE `operator_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`outcome` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`reason` text,
	`details` text,
	`request_id` text,
	`created_at` integer NOT NULL,
	CONSTRAINT "operator_audit_actor_check" CHECK(("operator_audit"."actor_type" = 'user') = ("operator_audit"."actor_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `operator_audit_actor_idx` ON `operator_audit` (`actor_id`,`id`);--> statement-breakpoint
CREATE INDEX `operator_audit_target_idx` ON `operator_audit` (`target_id`,`id`);--> statement-breakpoint
CREATE INDEX `operator_audit_action_idx` ON `operator_audit` (`action`,`id`);--> statement-breakpoint
-- The operators' audit log is append-only (written by hand: drizzle-kit does not model triggers).
CREATE TRIGGER `operator_audit_no_update` BEFORE UPDATE ON `operator_audit`
BEGIN SELECT RAISE(ABORT, 'operator_audit is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `operator_audit_no_delete` BEFORE DELETE ON `operator_audit`
BEGIN SELECT RAISE(ABORT, 'operator_audit is append-only'); END;
