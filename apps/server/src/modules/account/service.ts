import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Account, accountPatchSchema, auditListSchema } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accounts, auditLog, users } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";

type AccountRow = typeof accounts.$inferSelect;
const toAccount = (a: AccountRow): Account => ({
  id: a.id,
  name: a.name,
  onboarding: a.onboarding,
  onboardingStep: Number(a.onboardingStep),
  nabAccounts: a.nabAccounts,
  createdAt: a.createdAt.toISOString(),
});

/** The caller's account (tenant): always the account id of the verified token, never one from input. */
export class AccountService {
  constructor(private readonly db: Db) {}

  async account(user: UserRow): Promise<Account> {
    const [row] = await this.db.select().from(accounts).where(eq(accounts.id, user.accountId)).limit(1);
    if (!row) throw errors.notFound("Account not found.");
    return toAccount(row);
  }

  /** Onboarding bookkeeping and the group's name; audited with the fields sent. */
  async update(user: UserRow, patch: z.output<typeof accountPatchSchema>, meta: RequestMeta): Promise<Account> {
    const { onboardingStep, ...rest } = patch;
    const [row] = await this.db
      .update(accounts)
      .set({
        ...rest,
        ...(onboardingStep === undefined ? {} : { onboardingStep: String(onboardingStep) }),
        updatedAt: new Date(),
      })
      .where(eq(accounts.id, user.accountId))
      .returning();
    if (!row) throw errors.notFound("Account not found.");
    await audit(this.db, { action: "account.updated", accountId: user.accountId, userId: user.id, details: { fields: Object.keys(patch) }, ...meta });
    return toAccount(row);
  }

  /** The newest `limit` entries of the account's audit log, with the email of whoever acted. */
  async auditLog(user: UserRow, limit: number): Promise<z.infer<typeof auditListSchema>> {
    const rows = await this.db
      .select({ id: auditLog.id, action: auditLog.action, userEmail: users.email, details: auditLog.details, createdAt: auditLog.createdAt })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(eq(auditLog.accountId, user.accountId))
      .orderBy(desc(auditLog.id))
      .limit(limit);
    return { entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  }

  async acknowledgeReleaseNotes(user: UserRow, version: string): Promise<{ releaseNotesVersion: string }> {
    const [row] = await this.db
      .update(users)
      .set({ releaseNotesVersion: version, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning({ releaseNotesVersion: users.releaseNotesVersion });
    if (!row) throw errors.notFound("User not found.");
    return row;
  }
}
