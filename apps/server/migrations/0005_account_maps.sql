CREATE TABLE "account_maps" (
	"realm_id" text NOT NULL,
	"sub_account_id" text NOT NULL,
	"parent_account_id" text NOT NULL,
	"mapped_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_maps_realm_id_sub_account_id_pk" PRIMARY KEY("realm_id","sub_account_id")
);
--> statement-breakpoint
ALTER TABLE "account_maps" ADD CONSTRAINT "account_maps_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_maps" ADD CONSTRAINT "account_maps_mapped_by_users_id_fk" FOREIGN KEY ("mapped_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;