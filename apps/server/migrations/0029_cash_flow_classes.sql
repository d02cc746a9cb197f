CREATE TABLE "cash_flow_classes" (
	"account_id" uuid NOT NULL,
	"realm_id" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"cash_flow_class" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_flow_classes_account_id_realm_id_qbo_account_id_pk" PRIMARY KEY("account_id","realm_id","qbo_account_id")
);
--> statement-breakpoint
ALTER TABLE "cash_flow_classes" ADD CONSTRAINT "cash_flow_classes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_flow_classes" ADD CONSTRAINT "cash_flow_classes_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_flow_classes" ADD CONSTRAINT "cash_flow_classes_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;