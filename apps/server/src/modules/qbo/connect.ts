import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { MemoryTokenStore, QboError } from "@groupledger/qbo";
import type { AuthorizationCallbackRequest } from "@groupledger/contract";
import type { Database } from "../../db/client.ts";
import { companies, oauthStates } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { UserRow } from "../../http/auth.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { audit } from "../../services/audit.ts";
import type { PgTokenStore } from "../../services/qbo-token-store.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { enqueueSync } from "../sync/enqueue.ts";

export const STATE_TTL_MS = 10 * 60 * 1000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const hashState = (state: string) => createHash("sha256").update(state).digest("hex");

export const connectMessages = {
  badState: "This connection attempt is not valid any more (it expired, was already used, or was started by someone else). Please click Connect again.",
  denied: "QuickBooks did not authorize the connection. Nothing was connected.",
  missing: "QuickBooks sent back an incomplete answer (no code or company id). Please try connecting again.",
  taken: "This QuickBooks company is already connected to another GroupLedger account. Ask that account's owner to disconnect it first.",
  exchange: (detail: string) => `QuickBooks refused the connection: ${detail}. Please try connecting again.`,
};

export class ConnectService {
  constructor(
    private readonly database: Database,
    private readonly provider: QboProvider,
    private readonly tokens: PgTokenStore,
    private readonly queue: JobQueue,
  ) {}

  /** Starts a connection: a state only this user can complete, within 10 minutes, once. */
  async authorize(user: UserRow, requestOrigin: string): Promise<{ key: string; authorizeUrl: string; expiresInSeconds: number }> {
    const state = randomBytes(32).toString("base64url");
    const redirectUri = this.provider.redirectUri(requestOrigin);
    await this.database.db.insert(oauthStates).values({
      stateHash: hashState(state),
      accountId: user.accountId,
      userId: user.id,
      redirectUri,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
    });
    const url = this.provider.oauth(redirectUri).authorizationUrl(state);
    return { key: this.provider.clientId, authorizeUrl: this.provider.browserUrl(url), expiresInSeconds: STATE_TTL_MS / 1000 };
  }

  async complete(user: UserRow, input: AuthorizationCallbackRequest, meta: { ip: string; requestId: string }) {
    const { db } = this.database;
    // Consume the state first, whatever happens next: a state never works twice.
    const [state] = await db
      .update(oauthStates)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(oauthStates.stateHash, hashState(input.state)),
          eq(oauthStates.userId, user.id),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!state) throw errors.badRequest("invalid_state", connectMessages.badState);
    if (input.error) {
      await audit(db, { action: "company.connect_denied", accountId: user.accountId, userId: user.id, details: { error: input.error }, ...meta });
      throw errors.badRequest("authorization_denied", connectMessages.denied);
    }
    if (!input.code || !input.realmId) throw errors.badRequest("invalid_callback", connectMessages.missing);
    const realmId = input.realmId;

    const [existing] = await db.select().from(companies).where(eq(companies.realmId, realmId)).limit(1);
    if (existing && existing.accountId !== user.accountId) {
      await audit(db, { action: "company.connect_refused", accountId: user.accountId, userId: user.id, details: { realmId, reason: "connected elsewhere" }, ...meta });
      throw errors.conflict("company_taken", connectMessages.taken);
    }

    // Read the company with the fresh tokens before storing anything, so a failure leaves no trace.
    const scratch = new MemoryTokenStore();
    const oauth = this.provider.oauth(state.redirectUri);
    let info, prefs;
    try {
      await scratch.save(realmId, await oauth.exchangeCode(input.code));
      const client = this.provider.client(realmId, { tokens: scratch });
      [info, prefs] = await Promise.all([client.companyInfo(), client.preferences()]);
    } catch (err) {
      if (err instanceof QboError) throw new AppError(400, "authorization_failed", connectMessages.exchange(err.message), { qboCode: err.code });
      throw err;
    }
    const tokens = await scratch.load(realmId);
    if (!tokens) throw new Error("tokens vanished from the scratch store");

    const fiscalYearStartMonth = Math.max(1, MONTHS.indexOf(prefs.firstMonthOfFiscalYear ?? info.fiscalYearStartMonth ?? "January") + 1);
    const details = {
      companyName: info.companyName,
      country: info.country ?? "US",
      homeCurrency: prefs.homeCurrency,
      fiscalYearStartMonth,
      bookCloseDate: prefs.bookCloseDate ?? null,
      connection: "connected" as const,
      updatedAt: new Date(),
    };
    // Another account may have connected the same company since the check above (two people
    // consenting at once): the insert yields to the row already there, and whose it is decides.
    const [inserted] = existing
      ? []
      : await db
          .insert(companies)
          .values({ accountId: user.accountId, realmId, ...details })
          .onConflictDoNothing({ target: companies.realmId })
          .returning();
    let company = inserted;
    if (!company) {
      const [row] = await db
        .update(companies)
        .set(details)
        .where(and(eq(companies.realmId, realmId), eq(companies.accountId, user.accountId)))
        .returning();
      if (!row) {
        await audit(db, { action: "company.connect_refused", accountId: user.accountId, userId: user.id, details: { realmId, reason: "connected elsewhere" }, ...meta });
        throw errors.conflict("company_taken", connectMessages.taken);
      }
      company = row;
    }
    await this.tokens.save(realmId, tokens);
    await audit(db, {
      action: inserted ? "company.connected" : "company.reconnected",
      accountId: user.accountId,
      userId: user.id,
      details: { realmId, companyName: info.companyName },
      ...meta,
    });
    await enqueueSync(this.database, this.queue, company);
    return { company, reconnected: !inserted };
  }
}
