CREATE TABLE `session_revocations` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_public_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`ended_at` integer NOT NULL
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): every delete from `sessions`, by any
-- statement or process (the admin CLI included) and by a user's cascading deletion, leaves a row
-- that every server process's poll turns into cut sockets (server/realtime/session-ends.ts).
CREATE TRIGGER `sessions_record_end` AFTER DELETE ON `sessions`
BEGIN
  INSERT INTO `session_revocations` (`session_public_id`, `user_id`, `ended_at`)
  VALUES (OLD.`public_id`, OLD.`user_id`, CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
