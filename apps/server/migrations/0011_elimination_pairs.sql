CREATE TABLE "elimination_pairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"left_realm_id" text NOT NULL,
	"left_account_id" text NOT NULL,
	"right_realm_id" text NOT NULL,
	"right_account_id" text NOT NULL,
	"difference_to" text DEFAULT 'fx' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD CONSTRAINT "elimination_pairs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD CONSTRAINT "elimination_pairs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "elimination_pairs_account_idx" ON "elimination_pairs" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "elimination_pairs_sides_key" ON "elimination_pairs" USING btree ("account_id","left_realm_id","left_account_id","right_realm_id","right_account_id");