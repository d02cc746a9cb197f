ALTER TABLE "accounts" ADD COLUMN "nightly_replace_changed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consolidation_run_items" ADD COLUMN "replaces" uuid;--> statement-breakpoint
ALTER TABLE "consolidation_runs" ADD COLUMN "kind" text DEFAULT 'post' NOT NULL;--> statement-breakpoint
ALTER TABLE "consolidation_runs" ADD COLUMN "trigger" text DEFAULT 'user' NOT NULL;