CREATE TABLE "board_pack_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"requested_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"send_count" integer DEFAULT 1 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "board_pack_schedules" ADD COLUMN "link_origin" text;--> statement-breakpoint
ALTER TABLE "board_pack_recipients" ADD CONSTRAINT "board_pack_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_pack_recipients" ADD CONSTRAINT "board_pack_recipients_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "board_pack_recipients_account_email_key" ON "board_pack_recipients" USING btree ("account_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "board_pack_recipients_token_key" ON "board_pack_recipients" USING btree ("token_hash");