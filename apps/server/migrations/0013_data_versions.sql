CREATE TABLE "data_versions" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_versions" ADD CONSTRAINT "data_versions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Bumps the account's data version; the row appears on first use.
CREATE FUNCTION gl_bump_data_version(acc uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF acc IS NULL THEN RETURN; END IF;
  INSERT INTO data_versions (account_id, version) VALUES (acc, 1)
  ON CONFLICT (account_id) DO UPDATE SET version = data_versions.version + 1;
END $$;
--> statement-breakpoint
-- Tables that carry the account: the changed row names it.
CREATE FUNCTION gl_data_changed_by_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gl_bump_data_version(OLD.account_id);
  ELSE
    PERFORM gl_bump_data_version(NEW.account_id);
    IF TG_OP = 'UPDATE' AND NEW.account_id IS DISTINCT FROM OLD.account_id THEN PERFORM gl_bump_data_version(OLD.account_id); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Tables keyed by a company's realm: its account (none when the company itself is being deleted,
-- whose own trigger bumps the account).
CREATE FUNCTION gl_data_changed_by_realm() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE realm text;
BEGIN
  realm := CASE WHEN TG_OP = 'DELETE' THEN OLD.realm_id ELSE NEW.realm_id END;
  PERFORM gl_bump_data_version((SELECT account_id FROM companies WHERE realm_id = realm));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON companies FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON fx_rates FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON elimination_pairs FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON obal_periods FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_account();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON account_maps FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_realm();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON translation_settings FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_realm();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON historical_equity FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_realm();
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER INSERT OR UPDATE OR DELETE ON qbo_accounts FOR EACH ROW EXECUTE FUNCTION gl_data_changed_by_realm();
-- monthly_balances has none: only a sync writes it, and a sync updates its company as it goes and when it ends.
