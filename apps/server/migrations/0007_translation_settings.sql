CREATE TABLE "historical_equity" (
	"realm_id" text NOT NULL,
	"account_id" text NOT NULL,
	"rate" text,
	"amount_minor" bigint,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "historical_equity_realm_id_account_id_pk" PRIMARY KEY("realm_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "translation_settings" (
	"realm_id" text PRIMARY KEY NOT NULL,
	"cta_account_id" text,
	"dividend_rate_policy" text DEFAULT 'declarationDate' NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "historical_equity" ADD CONSTRAINT "historical_equity_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "historical_equity" ADD CONSTRAINT "historical_equity_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translation_settings" ADD CONSTRAINT "translation_settings_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translation_settings" ADD CONSTRAINT "translation_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;