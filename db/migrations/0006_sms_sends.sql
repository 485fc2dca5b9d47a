CREATE TABLE `sms_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` text NOT NULL,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sms_sends_number_idx` ON `sms_sends` (`number`,`sent_at`);