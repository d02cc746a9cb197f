CREATE TABLE "board_pack_schedules" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"day_of_month" integer DEFAULT 1 NOT NULL,
	"compare" text DEFAULT 'prior_period' NOT NULL,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_month" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "board_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"compare" text NOT NULL,
	"data_version" bigint NOT NULL,
	"file_name" text NOT NULL,
	"pdf" text NOT NULL,
	"layout" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "board_pack_schedules" ADD CONSTRAINT "board_pack_schedules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_pack_schedules" ADD CONSTRAINT "board_pack_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_packs" ADD CONSTRAINT "board_packs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "board_packs_job_idx" ON "board_packs" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "board_packs_account_idx" ON "board_packs" USING btree ("account_id","period_from","period_to","compare","data_version");