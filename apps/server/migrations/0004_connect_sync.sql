CREATE TABLE "monthly_balances" (
	"realm_id" text NOT NULL,
	"qbo_account_id" text NOT NULL,
	"month" date NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monthly_balances_realm_id_qbo_account_id_month_pk" PRIMARY KEY("realm_id","qbo_account_id","month")
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qbo_accounts" (
	"realm_id" text NOT NULL,
	"qbo_id" text NOT NULL,
	"name" text NOT NULL,
	"fully_qualified_name" text NOT NULL,
	"acct_num" text,
	"account_type" text NOT NULL,
	"account_sub_type" text,
	"classification" text NOT NULL,
	"currency" text NOT NULL,
	"active" boolean NOT NULL,
	"parent_qbo_id" text,
	"ever_had_balance" boolean DEFAULT false NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qbo_accounts_realm_id_qbo_id_pk" PRIMARY KEY("realm_id","qbo_id")
);
--> statement-breakpoint
ALTER TABLE "monthly_balances" ADD CONSTRAINT "monthly_balances_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qbo_accounts" ADD CONSTRAINT "qbo_accounts_realm_id_companies_realm_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."companies"("realm_id") ON DELETE cascade ON UPDATE no action;