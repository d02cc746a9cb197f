import { and, eq } from "drizzle-orm";
import type { TokenSet, TokenStore } from "@groupledger/qbo";
import type { Database } from "../db/client.ts";
import { companies, qboTokens } from "../db/schema.ts";
import { SecretBox } from "./secrets.ts";

/**
 * QBO tokens in PostgreSQL, sealed at rest. The refresh lock is shared by every app process,
 * so a rotating refresh token is never spent twice (Intuit would then revoke the grant).
 */
export class PgTokenStore implements TokenStore {
  private readonly box: SecretBox;
  constructor(
    private readonly database: Database,
    appSecret: string,
  ) {
    this.box = new SecretBox(appSecret, "qbo-tokens");
  }

  async load(realmId: string): Promise<TokenSet | null> {
    const [row] = await this.database.db.select().from(qboTokens).where(eq(qboTokens.realmId, realmId)).limit(1);
    if (!row) return null;
    return {
      accessToken: this.box.open(row.accessTokenSealed),
      refreshToken: this.box.open(row.refreshTokenSealed),
      tokenType: row.tokenType,
      accessTokenExpiresAt: row.accessTokenExpiresAt.getTime(),
      refreshTokenExpiresAt: row.refreshTokenExpiresAt.getTime(),
    };
  }

  async save(realmId: string, tokens: TokenSet): Promise<void> {
    const values = {
      accessTokenSealed: this.box.seal(tokens.accessToken),
      refreshTokenSealed: this.box.seal(tokens.refreshToken),
      tokenType: tokens.tokenType,
      accessTokenExpiresAt: new Date(tokens.accessTokenExpiresAt),
      refreshTokenExpiresAt: new Date(tokens.refreshTokenExpiresAt),
      updatedAt: new Date(),
    };
    await this.database.db
      .insert(qboTokens)
      .values({ realmId, ...values })
      .onConflictDoUpdate({ target: qboTokens.realmId, set: values });
  }

  async delete(realmId: string): Promise<void> {
    await this.database.db.delete(qboTokens).where(eq(qboTokens.realmId, realmId));
  }

  /**
   * The one place a refused grant becomes the company's status, whichever feature's call met it:
   * "connected" turns into "needs_reauthorization" (a disconnected company stays disconnected).
   */
  async refused(realmId: string): Promise<void> {
    await this.database.db
      .update(companies)
      .set({ connection: "needs_reauthorization", updatedAt: new Date() })
      .where(and(eq(companies.realmId, realmId), eq(companies.connection, "connected")));
  }

  withRefreshLock<T>(realmId: string, fn: () => Promise<T>): Promise<T> {
    return this.database.withLock(`qbo-refresh:${realmId}`, `Another request is renewing the QuickBooks connection of company ${realmId}`, fn);
  }
}
