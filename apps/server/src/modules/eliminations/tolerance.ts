import { eq } from "drizzle-orm";
import type { EliminationToleranceView } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accounts } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup } from "../group/service.ts";

/**
 * The group's elimination tolerance (accounts.elimination_tolerance, parent-currency minor units):
 * the consolidation bridge hands it to every intercompany pair and the domain's pair-match rule
 * decides from it whether a pair counts as matched. Validation (0 to the domain's maximum) is the
 * contract's schema, so the same message reaches the API and the form.
 */
export async function toleranceOf(db: Db, accountId: string): Promise<number> {
  const [row] = await db.select({ tolerance: accounts.eliminationTolerance }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!row) throw errors.notFound("Account not found.");
  return row.tolerance;
}

export async function toleranceView(db: Db, accountId: string): Promise<EliminationToleranceView> {
  const { parent } = await loadGroup(db, accountId);
  return { tolerance: await toleranceOf(db, accountId), currency: parent?.homeCurrency ?? null };
}

/** Sets the tolerance, audited with the one it replaced; answers the new view. */
export async function setTolerance(db: Db, user: UserRow, tolerance: number, meta: RequestMeta): Promise<EliminationToleranceView> {
  const before = await toleranceOf(db, user.accountId);
  await db.update(accounts).set({ eliminationTolerance: tolerance, updatedAt: new Date() }).where(eq(accounts.id, user.accountId));
  await audit(db, { action: "eliminations.tolerance_set", accountId: user.accountId, userId: user.id, details: { before, tolerance }, ...meta });
  return toleranceView(db, user.accountId);
}
