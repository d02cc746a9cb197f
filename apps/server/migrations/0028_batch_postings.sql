ALTER TABLE "consolidation_postings" ADD COLUMN "batch_request_id" text;--> statement-breakpoint
ALTER TABLE "consolidation_postings" ADD COLUMN "batch_index" integer;--> statement-breakpoint
ALTER TABLE "consolidation_postings" ADD COLUMN "batch_entry" jsonb;--> statement-breakpoint
CREATE INDEX "consolidation_postings_batch_idx" ON "consolidation_postings" USING btree ("batch_request_id");