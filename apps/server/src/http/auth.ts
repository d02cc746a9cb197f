import { eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ErrorCodes, INVALID_TOKEN_MESSAGE } from "@groupledger/contract";
import type { Db } from "../db/client.ts";
import { dataVersions, revokedTokens, users } from "../db/schema.ts";
import type { Actor } from "../services/audit.ts";
import type { TokenClaims, TokenService } from "../services/tokens.ts";
import { AppError } from "./errors.ts";

export type UserRow = typeof users.$inferSelect;

export interface AuthContext {
  user: UserRow;
  claims: TokenClaims;
  /**
   * The account's data version as the request began (data_versions, bumped by triggers on anything
   * a report reads): read in the same lookup, so a warm report needs no query of its own.
   */
  dataVersion: number;
}

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const invalid = () => new AppError(401, ErrorCodes.invalidToken, INVALID_TOKEN_MESSAGE);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * preHandler for every signed-in route. Expired tokens answer EXPIRED_TOKEN (SPEC §8) so the
 * web app can tell expiry from tampering; everything else is "Invalid token".
 */
export function requireAuth(db: Db, tokens: TokenService) {
  // One round trip on every signed-in request: the user, whether this token was logged out, and
  // the account's data version. Prepared once: building the statement anew was a tenth of a
  // signed-in request's time (issue 22).
  const callerQuery = db
    .select({ user: users, revokedJti: revokedTokens.jti, dataVersion: dataVersions.version })
    .from(users)
    .leftJoin(revokedTokens, eq(revokedTokens.jti, sql.placeholder("jti")))
    .leftJoin(dataVersions, eq(dataVersions.accountId, users.accountId))
    .where(eq(users.id, sql.placeholder("userId")))
    .limit(1)
    .prepare("auth_caller");
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw invalid();
    const checked = await tokens.check(token);
    if (!checked.ok) {
      if (checked.reason === "expired") {
        throw new AppError(401, ErrorCodes.expiredToken, "Your session has expired. Please sign in again.");
      }
      throw invalid();
    }
    const { claims } = checked;
    const [row] = await callerQuery.execute({ jti: claims.jti, userId: claims.sub });
    const user = row?.user;
    if (!user || row.revokedJti !== null || user.accountId !== claims.acc || user.tokenVersion !== claims.ver || !user.emailVerifiedAt) {
      throw invalid();
    }
    request.auth = { user, claims, dataVersion: row.dataVersion ?? 0 };
  };
}

/** For handlers behind requireAuth: the context is always there. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw invalid();
  return request.auth;
}

/** The signed-in caller as an audited change records it (a service's `Actor`). */
export function actorOf(request: FastifyRequest): Actor {
  const { user } = authOf(request);
  return { accountId: user.accountId, userId: user.id, ip: request.ip, requestId: request.id };
}
