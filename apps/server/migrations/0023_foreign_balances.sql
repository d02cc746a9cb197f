CREATE TABLE "foreign_balances" (
	"realm_id" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"month" date NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "foreign_balances_realm_id_qbo_account_id_month_pk" PRIMARY KEY("realm_id","qbo_account_id","month")
);
--> statement-breakpoint
ALTER TABLE "foreign_balances" ADD CONSTRAINT "foreign_balances_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;