CREATE TABLE "name_balances" (
	"realm_id" text NOT NULL,
	"name_kind" text NOT NULL,
	"name_id" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"month" date NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "name_balances_realm_id_name_kind_name_id_qbo_account_id_month_pk" PRIMARY KEY("realm_id","name_kind","name_id","qbo_account_id","month")
);
--> statement-breakpoint
CREATE TABLE "qbo_names" (
	"realm_id" text NOT NULL,
	"kind" text NOT NULL,
	"qbo_id" text NOT NULL,
	"display_name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"balances_from" text,
	"balances_through" text,
	CONSTRAINT "qbo_names_realm_id_kind_qbo_id_pk" PRIMARY KEY("realm_id","kind","qbo_id")
);
--> statement-breakpoint
DROP INDEX "elimination_pairs_sides_key";--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD COLUMN "left_name_kind" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD COLUMN "left_name_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD COLUMN "right_name_kind" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "elimination_pairs" ADD COLUMN "right_name_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "name_balances" ADD CONSTRAINT "name_balances_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qbo_names" ADD CONSTRAINT "qbo_names_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "elimination_pairs_sides_key" ON "elimination_pairs" USING btree ("account_id","left_realm_id","left_account_id","left_name_kind","left_name_id","right_realm_id","right_account_id","right_name_kind","right_name_id");