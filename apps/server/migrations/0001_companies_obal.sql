CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"company_name" text NOT NULL,
	"country" text NOT NULL,
	"home_currency" text NOT NULL,
	"is_parent" boolean DEFAULT false NOT NULL,
	"fiscal_year_start_month" integer DEFAULT 1 NOT NULL,
	"earliest_transaction_date" date,
	"ownership_percent" numeric(7, 4) DEFAULT '100' NOT NULL,
	"archived_at" date,
	"connection" text DEFAULT 'connected' NOT NULL,
	"sync_state" text DEFAULT 'never' NOT NULL,
	"sync_progress" numeric(5, 4),
	"sync_message" text,
	"last_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "obal_companies" (
	"account_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"reviewed_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"posted_at" timestamp with time zone,
	"journal_entry_id" text,
	"journal_entry_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "obal_companies_account_id_realm_id_pk" PRIMARY KEY("account_id","realm_id")
);
--> statement-breakpoint
CREATE TABLE "obal_periods" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"natural_year" integer NOT NULL,
	"natural_month" integer NOT NULL,
	"locked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "obal_companies" ADD CONSTRAINT "obal_companies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "obal_periods" ADD CONSTRAINT "obal_periods_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "obal_periods" ADD CONSTRAINT "obal_periods_locked_by_users_id_fk" FOREIGN KEY ("locked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_realm_key" ON "companies" USING btree ("realm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_one_parent_key" ON "companies" USING btree ("account_id") WHERE "companies"."is_parent";--> statement-breakpoint
CREATE INDEX "companies_account_idx" ON "companies" USING btree ("account_id");