import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

export interface AuditEvent {
  action: string;
  accountId?: string | null;
  userId?: string | null;
  details?: Record<string, unknown>;
  ip?: string;
  requestId?: string;
}

/** Who asked, for the audit log: the client's address and the request's id. */
export interface RequestMeta {
  ip: string;
  requestId: string;
}

/** A request's RequestMeta (Fastify's `ip` and `id`). */
export const requestMeta = (req: { ip: string; id: string }): RequestMeta => ({ ip: req.ip, requestId: req.id });

/** Who made a change, and from which request: what every audited change records besides its action and details. */
export interface Actor extends RequestMeta {
  accountId: string;
  userId: string;
}

/** An actor as the posting protocol takes it (modules/posting: the request's fields apart, as `meta`). */
export const posterOf = (a: Actor) => ({ accountId: a.accountId, userId: a.userId, meta: { ip: a.ip, requestId: a.requestId } });

export async function audit(db: Db, event: AuditEvent): Promise<void> {
  await db.insert(auditLog).values({
    action: event.action,
    accountId: event.accountId ?? null,
    userId: event.userId ?? null,
    details: event.details ?? {},
    ip: event.ip ?? null,
    requestId: event.requestId ?? null,
  });
}

/** `audit` of what the signed-in `user` did, from the request `meta`. */
export async function auditUser(db: Db, user: { accountId: string; id: string }, meta: RequestMeta, action: string, details?: Record<string, unknown>): Promise<void> {
  await audit(db, { action, accountId: user.accountId, userId: user.id, ...(details ? { details } : {}), ip: meta.ip, requestId: meta.requestId });
}
