CREATE TABLE "dividend_eliminations" (
	"realm_id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"income_account_id" text NOT NULL,
	"name_id" text DEFAULT '' NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intragroup_inventory" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"seller_realm_id" text NOT NULL,
	"buyer_realm_id" text NOT NULL,
	"month" text NOT NULL,
	"inventory" bigint NOT NULL,
	"margin" text NOT NULL,
	"inventory_account_id" text NOT NULL,
	"cogs_account_id" text NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dividend_eliminations" ADD CONSTRAINT "dividend_eliminations_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_eliminations" ADD CONSTRAINT "dividend_eliminations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_eliminations" ADD CONSTRAINT "dividend_eliminations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intragroup_inventory" ADD CONSTRAINT "intragroup_inventory_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intragroup_inventory" ADD CONSTRAINT "intragroup_inventory_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intragroup_inventory_key" ON "intragroup_inventory" USING btree ("account_id","seller_realm_id","buyer_realm_id","month");--> statement-breakpoint
-- Both feed the consolidated reports: a change bumps the account's data version (0013).
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON intragroup_inventory FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON dividend_eliminations FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
