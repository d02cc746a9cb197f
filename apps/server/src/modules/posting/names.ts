import { createHash } from "node:crypto";

/**
 * How GroupLedger's entries are named in the parent's QuickBooks (DocNumbers, at most 21
 * characters) and the requestid each attempt sends: the same entry and generation always give the
 * same requestid, so QuickBooks answers a retry, a double click or a second tab with the entry it
 * already made; a new generation (after a refusal or a deletion) gets a new one.
 */

/** Eliminations and group adjustments post under these "realms" in `consolidation_postings` (they belong to no one company; the web lists them by it: the contract holds them). */
export { ADJUSTMENTS_REALM, INTERCO_REALM } from "@groupledger/contract";

/** A subsidiary's opening balance at the locked month: `OB<yyyymm>-<realm>`. */
export const openingDocNumber = (month: string, realmId: string) => `OB${month.replace("-", "")}-${realmId.slice(-6)}`;
/** A subsidiary-period of a run: `CR<code>-<realm>`. */
export const consolidationDocNumber = (period: { code: string }, realmId: string) => `CR${period.code}-${realmId.slice(-6)}`;
/** The group's intercompany eliminations of a period: `EL<code>`. */
export const eliminationDocNumber = (code: string) => `EL${code}`;
/** The group adjustments of a period: `GA<code>`. */
export const adjustmentsDocNumber = (code: string) => `GA${code}`;

const requestId = (prefix: string, parts: readonly (string | number)[]) => `${prefix}-${createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 40)}`;

/** An opening entry: (account, subsidiary, locked month, generation). */
export const openingRequestId = (accountId: string, realmId: string, month: string, generation: number) => requestId("gl-ob", [accountId, realmId, month, generation]);

/** A posting of `consolidation_postings` (a subsidiary-period, eliminations, group adjustments): (account, realm, period, generation). */
export const consolidationRequestId = (accountId: string, realmId: string, period: { from: string; to: string }, generation: number) =>
  requestId("gl-cr", [accountId, realmId, period.from, period.to, generation]);

/** A batch request of postings (posting/postings.ts `postBatch`): its rows' requestids, in bId order; new rows, so a new one. */
export const batchRequestId = (rowRequestIds: readonly string[]) => requestId("gl-cb", rowRequestIds);
