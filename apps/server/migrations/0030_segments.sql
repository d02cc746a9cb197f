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
ALTER TABLE "segment_balances" ADD CONSTRAINT "segment_balances_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;