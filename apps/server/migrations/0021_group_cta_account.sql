ALTER TABLE "companies" ADD COLUMN "cta_account_id" text;--> statement-breakpoint
-- The group keeps one CTA account: each parent takes the account its foreign subsidiaries chose
-- (the consolidation refused groups whose subsidiaries disagreed; there, the one most of them
-- chose, as the consolidation did, ties to the lowest id).
UPDATE "companies" AS p SET "cta_account_id" = (
  SELECT ts."cta_account_id"
  FROM "translation_settings" AS ts
  JOIN "companies" AS s ON s."realm_id" = ts."realm_id"
  WHERE s."account_id" = p."account_id" AND NOT s."is_parent" AND ts."cta_account_id" IS NOT NULL
  GROUP BY ts."cta_account_id"
  ORDER BY count(*) DESC, ts."cta_account_id"
  LIMIT 1
)
WHERE p."is_parent";--> statement-breakpoint
ALTER TABLE "translation_settings" DROP COLUMN "cta_account_id";
