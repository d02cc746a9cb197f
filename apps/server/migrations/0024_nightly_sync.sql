ALTER TABLE "accounts" ADD COLUMN "nightly_sync_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "nightly_sync_time" text DEFAULT '06:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "nightly_sync_time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "nightly_sync_last_date" date;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "last_sync_changes" jsonb;