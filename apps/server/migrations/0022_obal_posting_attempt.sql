ALTER TABLE "obal_companies" ADD COLUMN "posting_request_id" text;--> statement-breakpoint
ALTER TABLE "obal_companies" ADD COLUMN "posting_started_at" timestamp with time zone;