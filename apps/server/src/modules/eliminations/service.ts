import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { CompanyNames, EliminationPair, eliminationPairRequestSchema, EliminationView, PostOutcome, RunPeriod } from "@groupledger/contract";
import { checkPairSides, namesWithGroupMembers, overlappingPair, pairKindTakes, type PairSideRef } from "@groupledger/domain";
import type { Database, Db } from "../../db/client.ts";
import { eliminationPairs, qboAccounts, qboNames } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import type { IntercompanyPair } from "../consolidation/input.ts";
import { loadGroup } from "../group/service.ts";
import { INTERCO_REALM } from "../posting/names.ts";
import { detectChangedEliminations } from "./stale.ts";
import { outcomeOf, postedFor, postGroupEntry, postingBusy, postingLock, replaceGroupEntry, type Poster } from "../posting/postings.ts";
import { enqueueSync } from "../sync/enqueue.ts";
import { asEnginePair, computeEliminations, INTERCO_CLASS, pairRows, pairViews } from "./view.ts";

/**
 * Intercompany eliminations (Interco Eliminations): the pairs a group defines, a company's
 * customers and vendors for limiting a side, a period's eliminations and posting them. The pure
 * rules are the domain's (pair-kinds.ts, pair-overlap.ts, member-names.ts); here they meet the
 * database, the audit log and the posting protocol.
 */

type PairRequest = z.output<typeof eliminationPairRequestSchema>;

export async function listPairs(db: Db, accountId: string): Promise<EliminationPair[]> {
  return pairViews(db, accountId, await pairRows(db, accountId));
}

/** A pair's sides as the overlap rule reads them (view.ts's engine pair: an absent name is the whole account). */
const sideRef = (s: IntercompanyPair["left"]): PairSideRef => ({ realmId: s.entity, accountId: s.account, name: s.name });
const sidesOf = (row: typeof eliminationPairs.$inferSelect) => {
  const pair = asEnginePair(row);
  return [sideRef(pair.left), sideRef(pair.right)] as const;
};

/**
 * Defines a pair after checking it against the group's charts, customers and vendors and the
 * pairs already defined; a name never paired before has no balances yet, so its company is synced.
 */
export async function createPair(deps: { database: Database; queue: JobQueue }, user: UserRow, body: PairRequest, meta: RequestMeta): Promise<EliminationPair> {
  const { db } = deps.database;
  const group = await loadGroup(db, user.accountId);
  const withCompany = (s: PairRequest["left"]) => ({ ...s, company: group.company(s.realmId) });
  const sides = [withCompany(body.left), withCompany(body.right)] as const;
  if (sides[0].realmId === sides[1].realmId) throw errors.badRequest("same_company", "Both sides are in the same company; an intercompany pair is between two group companies.");
  const accounts = await db.select().from(qboAccounts).where(inArray(qboAccounts.realmId, sides.map((s) => s.realmId)));
  const accountOf = (s: (typeof sides)[number]) => accounts.find((x) => x.realmId === s.realmId && x.qboId === s.accountId);
  for (const s of sides) {
    const a = accountOf(s);
    if (!a) throw errors.notFound(`Account ${s.accountId} is not in ${s.company.companyName}'s chart of accounts.`);
    if (!pairKindTakes(body.kind, a.classification)) {
      throw errors.badRequest(
        "incompatible_account",
        `${s.company.companyName}'s ${a.name} is ${a.classification.toLowerCase()}: a ${body.kind === "receivablePayable" ? "receivable/payable pair takes asset and liability accounts" : "revenue/expense pair takes revenue and expense accounts"}.`,
      );
    }
  }
  const [left, right] = [accountOf(sides[0])!, accountOf(sides[1])!];
  if (checkPairSides(body.kind, { left: left.classification, right: right.classification }).same) {
    throw errors.badRequest("incompatible_account", `Both sides are ${left.classification.toLowerCase()} accounts; one side must be ${body.kind === "receivablePayable" ? "an asset and the other a liability" : "revenue and the other an expense"}.`);
  }
  const named = sides.filter((s) => s.name);
  const knownNames = named.length === 0 ? [] : await db.select().from(qboNames).where(inArray(qboNames.realmId, named.map((s) => s.realmId)));
  const knownName = (s: (typeof sides)[number]) => knownNames.find((k) => k.realmId === s.realmId && k.kind === s.name!.kind && k.qboId === s.name!.id);
  for (const s of named) {
    if (!knownName(s)) throw errors.notFound(`${s.name!.kind} ${s.name!.id} is not among ${s.company.companyName}'s customers and vendors; sync the company if it was added in QuickBooks since.`);
  }
  // Each side is eliminated in full: the same amounts in two pairs would be eliminated twice.
  const clash = overlappingPair(await pairRows(db, user.accountId), sidesOf, sides);
  if (clash?.twin) throw errors.conflict("pair_exists", `These two accounts are already paired ("${clash.pair.name}").`);
  if (clash) {
    const s = sides[clash.side];
    const account = clash.side === 0 ? left : right;
    throw errors.conflict(
      "pair_exists",
      `${s.company.companyName}'s ${account.name}${s.name ? " (for that name)" : ""} is already in the pair "${clash.pair.name}"; an amount can be eliminated only once. Limit each pair to a different customer or vendor, or remove "${clash.pair.name}" first.`,
    );
  }
  const [created] = await db
    .insert(eliminationPairs)
    .values({
      accountId: user.accountId,
      name: body.name,
      kind: body.kind,
      leftRealmId: body.left.realmId,
      leftAccountId: body.left.accountId,
      leftNameKind: body.left.name?.kind ?? "",
      leftNameId: body.left.name?.id ?? "",
      rightRealmId: body.right.realmId,
      rightAccountId: body.right.accountId,
      rightNameKind: body.right.name?.kind ?? "",
      rightNameId: body.right.name?.id ?? "",
      differenceTo: body.differenceTo,
      createdBy: user.id,
    })
    .onConflictDoNothing()
    .returning();
  if (!created) throw errors.conflict("pair_exists", "These two accounts are already paired.");
  await audit(db, { action: "eliminations.pair_created", accountId: user.accountId, userId: user.id, details: { pairId: created.id, name: created.name }, ...meta });
  for (const realmId of new Set(named.map((s) => s.realmId))) {
    const unfetched = named.some((s) => s.realmId === realmId && !knownName(s)?.balancesThrough);
    const company = group.company(realmId);
    if (unfetched && company.connection === "connected") await enqueueSync(deps.database, deps.queue, company);
  }
  return (await pairViews(db, user.accountId, [created]))[0]!;
}

/** Removes a pair; the entries already posted stay in QuickBooks. */
export async function deletePair(db: Db, user: UserRow, pairId: string, meta: RequestMeta): Promise<void> {
  const [deleted] = await db.delete(eliminationPairs).where(and(eq(eliminationPairs.id, pairId), eq(eliminationPairs.accountId, user.accountId))).returning();
  if (!deleted) throw errors.notFound("No such pair in your account.");
  await audit(db, { action: "eliminations.pair_deleted", accountId: user.accountId, userId: user.id, details: { pairId: deleted.id, name: deleted.name }, ...meta });
}

/** A company's customers and vendors as its last sync read them, each with the group company it stands for. */
export async function companyNames(db: Db, accountId: string, realmId: string): Promise<CompanyNames> {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId);
  const rows = await db.select().from(qboNames).where(eq(qboNames.realmId, company.realmId));
  const others = group.companies.filter((c) => c.realmId !== company.realmId).map((c) => ({ realmId: c.realmId, companyName: c.companyName }));
  const names = namesWithGroupMembers(
    rows.map((n) => ({ kind: n.kind, id: n.qboId, displayName: n.displayName, active: n.active })),
    others,
  );
  const syncedAt = rows.reduce<Date | null>((m, n) => (m === null || n.syncedAt > m ? n.syncedAt : m), null);
  return { realmId: company.realmId, syncedAt: syncedAt?.toISOString() ?? company.lastSyncedAt?.toISOString() ?? null, names };
}

/** A period's eliminations (view.ts) and the entry already posted for it, if any. */
export async function eliminationsOf(db: Db, accountId: string, period: RunPeriod): Promise<EliminationView> {
  const { view } = await computeEliminations(db, accountId, period);
  return { ...view, posted: await postedFor(db, accountId, INTERCO_REALM, view.period) };
}

const lockOf = (accountId: string) => postingLock(accountId, INTERCO_REALM);
const busy = postingBusy("the intercompany eliminations");

/** Posts a period's elimination entry once (the posting protocol, modules/posting) under the Interco class, one posting at a time per group. */
export async function postEliminations(deps: { database: Database; provider: QboProvider }, poster: Poster, period: RunPeriod): Promise<PostOutcome> {
  const { database } = deps;
  const result = await database.withLock(lockOf(poster.accountId), busy, () => postLocked(deps, poster, period));
  return outcomeOf(database.db, result);
}

/**
 * Replacing a posted elimination entry whose books changed (eliminations/stale.ts), after the user
 * approved the differences: the old entry is deleted in QuickBooks and the period posted again.
 */
export async function replaceEliminations(deps: { database: Database; provider: QboProvider }, poster: Poster, postingId: string): Promise<PostOutcome> {
  const result = await replaceGroupEntry(deps, poster, {
    realmId: INTERCO_REALM,
    postingId,
    what: "Eliminations",
    lock: lockOf(poster.accountId),
    busy,
    postAgain: (period) => postLocked(deps, poster, period),
  });
  // The later periods' entries move with this one (balance pairs post what moved since): look again now.
  await detectChangedEliminations(deps.database.db, poster.accountId);
  return outcomeOf(deps.database.db, result);
}

/** The period's elimination entry through the posting protocol; the caller holds the lock. */
async function postLocked(deps: { database: Database; provider: QboProvider }, poster: Poster, period: RunPeriod) {
  const { view, pairLines } = await computeEliminations(deps.database.db, poster.accountId, period);
  const p = view.period;
  return postGroupEntry(deps, {
    accountId: poster.accountId,
    userId: poster.userId,
    runId: poster.runId ?? null,
    realmId: INTERCO_REALM,
    what: "eliminations",
    view,
    nothingDefined: view.pairs.length === 0 ? "Define an intercompany pair first: there is nothing to eliminate." : null,
    post: {
      inputs: { pairs: pairLines },
      className: INTERCO_CLASS,
      counterparty: "Intercompany eliminations",
      privateNote: `GroupLedger: intercompany eliminations for ${p.label} (${view.pairs.length} pair${view.pairs.length === 1 ? "" : "s"}).`,
      description: `Intercompany elimination ${p.label}`,
      auditAction: "eliminations.posted",
      ...(poster.meta ? { meta: poster.meta } : {}),
    },
  });
}
