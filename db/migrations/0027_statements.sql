CREATE TABLE `signing_keys` (
	`purpose` text PRIMARY KEY NOT NULL,
	`private_key_pem` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `statement_months` (
	`period` text PRIMARY KEY NOT NULL,
	`ready_at` integer NOT NULL,
	`notified_through` integer DEFAULT 0 NOT NULL,
	`notified_at` integer,
	CONSTRAINT "statement_months_period_check" CHECK(length("statement_months"."period") = 7)
);
