ALTER TABLE "trades" ADD COLUMN "dispute_answer_due_at" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_answer_late_at" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_take_due_at" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_decision_due_at" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_moderator_id" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_taken_at" bigint;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "dispute_level" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_dispute_moderator_id_users_id_fk" FOREIGN KEY ("dispute_moderator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;