CREATE TABLE "acquisitions" (
	"account_id" uuid NOT NULL,
	"realm_id" text PRIMARY KEY NOT NULL,
	"acquired_on" date NOT NULL,
	"consideration" bigint NOT NULL,
	"investment_account_id" text NOT NULL,
	"nci_measurement" text DEFAULT 'proportionateShare' NOT NULL,
	"nci_fair_value" bigint,
	"equity_at_acquisition" jsonb NOT NULL,
	"fair_value_adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "translation_settings" ADD COLUMN "method" text DEFAULT 'currentRate' NOT NULL;--> statement-breakpoint
ALTER TABLE "acquisitions" ADD CONSTRAINT "acquisitions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acquisitions" ADD CONSTRAINT "acquisitions_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acquisitions" ADD CONSTRAINT "acquisitions_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "acquisitions_account_idx" ON "acquisitions" USING btree ("account_id");--> statement-breakpoint
-- Acquisitions feed the consolidated reports: a change bumps the account's data version (0013).
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON acquisitions FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
