CREATE TABLE "consolidation_postings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"period_kind" text NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"period_label" text NOT NULL,
	"status" text NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"doc_number" text NOT NULL,
	"request_id" text NOT NULL,
	"journal_entry_id" text,
	"journal_entry_url" text,
	"lines" jsonb NOT NULL,
	"inputs" jsonb NOT NULL,
	"run_id" uuid,
	"posted_by" uuid,
	"posted_at" timestamp with time zone,
	"stale" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consolidation_run_items" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"realm_id" text NOT NULL,
	"month" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"posting_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consolidation_run_items_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "consolidation_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"created_by" uuid,
	"realm_ids" jsonb NOT NULL,
	"from_month" text NOT NULL,
	"to_month" text NOT NULL,
	"status" text NOT NULL,
	"job_id" uuid,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "consolidation_postings" ADD CONSTRAINT "consolidation_postings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consolidation_postings" ADD CONSTRAINT "consolidation_postings_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consolidation_run_items" ADD CONSTRAINT "consolidation_run_items_run_id_consolidation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."consolidation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consolidation_runs" ADD CONSTRAINT "consolidation_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consolidation_runs" ADD CONSTRAINT "consolidation_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consolidation_postings_live_key" ON "consolidation_postings" USING btree ("account_id","realm_id","period_from","period_to") WHERE status in ('posting', 'posted');--> statement-breakpoint
CREATE INDEX "consolidation_postings_realm_idx" ON "consolidation_postings" USING btree ("account_id","realm_id","period_from");--> statement-breakpoint
CREATE INDEX "consolidation_runs_account_idx" ON "consolidation_runs" USING btree ("account_id","created_at");