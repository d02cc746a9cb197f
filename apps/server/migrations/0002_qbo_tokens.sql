CREATE TABLE "qbo_tokens" (
	"realm_id" text PRIMARY KEY NOT NULL,
	"access_token_sealed" text NOT NULL,
	"refresh_token_sealed" text NOT NULL,
	"token_type" text NOT NULL,
	"access_token_expires_at" timestamp with time zone NOT NULL,
	"refresh_token_expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "qbo_tokens" ADD CONSTRAINT "qbo_tokens_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;