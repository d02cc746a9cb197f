import { and, eq, isNull } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { verificationCodes, type CodePurpose } from "../db/schema.ts";
import { hashCode, newCode } from "./codes.ts";

/** Only the latest request counts: the user's unused codes for `purpose` (perhaps to a mistyped address) stop working. */
export async function burnCodes(tx: Pick<Db, "update">, userId: string, purpose: CodePurpose): Promise<void> {
  await tx
    .update(verificationCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)));
}

/**
 * A new code for `purpose`, replacing any earlier one: stored as its keyed hash, expiring after
 * the configured time, with the address it is mailed to when that is not the user's own. Returns
 * the code, for the mail.
 */
export async function writeCode(
  tx: Pick<Db, "update" | "insert">,
  config: Pick<Config, "appSecret" | "codeTtlMs">,
  userId: string,
  purpose: CodePurpose,
  targetEmail?: string,
): Promise<string> {
  await burnCodes(tx, userId, purpose);
  const code = newCode();
  await tx.insert(verificationCodes).values({
    userId,
    purpose,
    codeHash: hashCode(config.appSecret, code),
    ...(targetEmail === undefined ? {} : { targetEmail }),
    expiresAt: new Date(Date.now() + config.codeTtlMs),
  });
  return code;
}
