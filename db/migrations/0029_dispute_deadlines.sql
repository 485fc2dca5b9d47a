ALTER TABLE `trades` ADD `dispute_answer_due_at` integer;--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_answer_late_at` integer;--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_take_due_at` integer;--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_decision_due_at` integer;--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_moderator_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_taken_at` integer;--> statement-breakpoint
ALTER TABLE `trades` ADD `dispute_level` integer DEFAULT 0 NOT NULL;