ALTER TABLE "companies" ADD COLUMN "books_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A company's books version moves with every statement that changes its chart or its monthly
-- balances (one bump per statement and company, however many rows), so books read once can be
-- kept in memory until they change (consolidation/books-cache.ts). Statement triggers with
-- transition tables: a sync's 25,000-row insert runs this once, not per row.
CREATE FUNCTION gl_books_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE companies SET books_version = books_version + 1 WHERE realm_id IN (SELECT DISTINCT realm_id FROM changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER gl_books_inserted AFTER INSERT ON monthly_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
--> statement-breakpoint
CREATE TRIGGER gl_books_updated AFTER UPDATE ON monthly_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
--> statement-breakpoint
CREATE TRIGGER gl_books_deleted AFTER DELETE ON monthly_balances REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
--> statement-breakpoint
CREATE TRIGGER gl_books_inserted AFTER INSERT ON qbo_accounts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
--> statement-breakpoint
CREATE TRIGGER gl_books_updated AFTER UPDATE ON qbo_accounts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
--> statement-breakpoint
CREATE TRIGGER gl_books_deleted AFTER DELETE ON qbo_accounts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION gl_books_changed();
