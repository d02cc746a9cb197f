ALTER TABLE "segment_balances" ADD COLUMN "kind" text DEFAULT 'activity' NOT NULL;--> statement-breakpoint
ALTER TABLE "segment_balances" DROP CONSTRAINT "segment_balances_realm_id_dimension_segment_id_qbo_account_id_month_pk";--> statement-breakpoint
ALTER TABLE "segment_balances" ADD CONSTRAINT "segment_balances_realm_id_dimension_segment_id_qbo_account_id_month_kind_pk" PRIMARY KEY("realm_id","dimension","segment_id","qbo_account_id","month","kind");--> statement-breakpoint
-- The segments' closing balances were never read: each company's next sync reads its whole history's segments again (sync/segments.ts).
DELETE FROM "segment_syncs";
