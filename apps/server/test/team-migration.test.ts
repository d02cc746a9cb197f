import { describe, expect, it } from "vitest";
import { afterMigration } from "./migration-data.ts";

describe("0009 account settings, team and billing", () => {
  it("makes the first user of every existing account its admin, and nobody else", async () => {
    await afterMigration(
      (id) => id.startsWith("0009_"),
      `
        insert into accounts (id, name) values
          ('00000000-0000-0000-0000-00000000000a', 'A'), ('00000000-0000-0000-0000-00000000000b', 'B');
        insert into users (account_id, email, password_hash, created_at) values
          ('00000000-0000-0000-0000-00000000000a', 'first-a@example.com', 'x', '2024-01-01'),
          ('00000000-0000-0000-0000-00000000000a', 'second-a@example.com', 'x', '2024-02-01'),
          ('00000000-0000-0000-0000-00000000000b', 'only-b@example.com', 'x', '2024-03-01');
      `,
      async (db) => {
        const rows = await db.transaction((s) =>
          s.query<{ email: string; permission_level: number }>("select email, permission_level from users order by email"),
        );
        expect(rows).toEqual([
          { email: "first-a@example.com", permission_level: 1 },
          { email: "only-b@example.com", permission_level: 1 },
          { email: "second-a@example.com", permission_level: 0 },
        ]);
        const accounts = await db.transaction((s) =>
          s.query<{ subscription_status: string; trial_left: boolean }>(
            "select subscription_status, trial_ends_at > now() as trial_left from accounts",
          ),
        );
        // Accounts that predate billing start a full trial rather than being locked out on upgrade.
        expect(accounts).toEqual([
          { subscription_status: "TRIAL", trial_left: true },
          { subscription_status: "TRIAL", trial_left: true },
        ]);
      },
    );
  });
});
