ALTER TABLE "accounts" ADD COLUMN "elimination_tolerance" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
-- The tolerance feeds the consolidated reports (each intercompany pair's match): a change bumps the
-- account's data version (0013). accounts names itself by id, not account_id.
CREATE FUNCTION gl_data_changed_by_elimination_tolerance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM gl_bump_data_version(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER gl_data_version AFTER UPDATE OF elimination_tolerance ON accounts FOR EACH ROW WHEN (OLD.elimination_tolerance IS DISTINCT FROM NEW.elimination_tolerance) EXECUTE FUNCTION gl_data_changed_by_elimination_tolerance();
