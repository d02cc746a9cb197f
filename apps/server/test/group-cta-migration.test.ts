import { describe, expect, it } from "vitest";
import { afterMigration } from "./migration-data.ts";

describe("migration: the group's one CTA account", () => {
  it("gives each parent the CTA account its foreign subsidiaries chose (the one most chose when they disagreed), and drops the per-subsidiary column", async () => {
    await afterMigration(
      (id) => id.endsWith("_group_cta_account"),
      `
        insert into accounts (id, name) values
          ('00000000-0000-0000-0000-00000000000a', 'Agreed'),
          ('00000000-0000-0000-0000-00000000000b', 'Disagreed'),
          ('00000000-0000-0000-0000-00000000000c', 'None chosen');
        insert into companies (account_id, realm_id, company_name, country, home_currency, is_parent) values
          ('00000000-0000-0000-0000-00000000000a', 'a-parent', 'A Holdings', 'US', 'USD', true),
          ('00000000-0000-0000-0000-00000000000a', 'a-uk', 'A UK', 'GB', 'GBP', false),
          ('00000000-0000-0000-0000-00000000000a', 'a-ca', 'A Canada', 'CA', 'CAD', false),
          ('00000000-0000-0000-0000-00000000000b', 'b-parent', 'B Holdings', 'US', 'USD', true),
          ('00000000-0000-0000-0000-00000000000b', 'b-uk', 'B UK', 'GB', 'GBP', false),
          ('00000000-0000-0000-0000-00000000000b', 'b-ca', 'B Canada', 'CA', 'CAD', false),
          ('00000000-0000-0000-0000-00000000000b', 'b-de', 'B Germany', 'DE', 'EUR', false),
          ('00000000-0000-0000-0000-00000000000c', 'c-parent', 'C Holdings', 'US', 'USD', true),
          ('00000000-0000-0000-0000-00000000000c', 'c-uk', 'C UK', 'GB', 'GBP', false);
        insert into translation_settings (realm_id, cta_account_id) values
          ('a-uk', '36'), ('a-ca', '36'),
          ('b-uk', '40'), ('b-ca', '36'), ('b-de', '40'),
          ('c-uk', null);
      `,
      async (db) => {
        const parents = await db.transaction((s) =>
          s.query<{ realm_id: string; is_parent: boolean; cta_account_id: string | null }>("select realm_id, is_parent, cta_account_id from companies order by realm_id"),
        );
        expect(parents.filter((p) => p.cta_account_id !== null || p.is_parent)).toEqual([
          { realm_id: "a-parent", is_parent: true, cta_account_id: "36" },
          { realm_id: "b-parent", is_parent: true, cta_account_id: "40" },
          { realm_id: "c-parent", is_parent: true, cta_account_id: null },
        ]);
        const columns = await db.transaction((s) =>
          s.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'translation_settings' order by column_name"),
        );
        expect(columns.map((c) => c.column_name)).not.toContain("cta_account_id");
      },
    );
  });
});
