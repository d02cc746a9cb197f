CREATE TABLE "budget_lines" (
	"account_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"month" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"source" text NOT NULL,
	"source_name" text NOT NULL,
	"imported_by" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_lines_account_id_realm_id_qbo_account_id_month_pk" PRIMARY KEY("account_id","realm_id","qbo_account_id","month")
);
--> statement-breakpoint
CREATE TABLE "budget_rates" (
	"account_id" uuid NOT NULL,
	"fiscal_year" integer NOT NULL,
	"currency" text NOT NULL,
	"rate" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_rates_account_id_fiscal_year_currency_pk" PRIMARY KEY("account_id","fiscal_year","currency")
);
--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_rates" ADD CONSTRAINT "budget_rates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_rates" ADD CONSTRAINT "budget_rates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;