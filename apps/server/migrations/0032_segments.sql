CREATE TABLE "segment_balances" (
	"realm_id" text NOT NULL,
	"dimension" text NOT NULL,
	"segment_id" text NOT NULL,
	"segment_name" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"month" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "segment_balances_realm_id_dimension_segment_id_qbo_account_id_month_pk" PRIMARY KEY("realm_id","dimension","segment_id","qbo_account_id","month")
);
--> statement-breakpoint
CREATE TABLE "segment_syncs" (
	"realm_id" text PRIMARY KEY NOT NULL,
	"from_month" date NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "segment_balances" ADD CONSTRAINT "segment_balances_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_syncs" ADD CONSTRAINT "segment_syncs_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;