DROP INDEX "offers_owner_idx";--> statement-breakpoint
CREATE INDEX "offers_owner_idx" ON "offers" USING btree ("owner_id","status");