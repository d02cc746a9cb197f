import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { acceptProposalsRequestSchema, AcceptProposalsResult, CompanyNames, EliminationPair, eliminationPairRequestSchema, EliminationView, PairProposalsView, PostOutcome, RunPeriod } from "@groupledger/contract";
import { checkPairSides, namesWithGroupMembers, overlappingPair, pairKindTakes, proposePairs, type PairSideRef } from "@groupledger/domain";
import type { Database, Db } from "../../db/client.ts";
import { dividendEliminations, eliminationPairs, qboAccounts, qboNames } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import type { IntercompanyPair } from "../consolidation/input.ts";
import { toChartAccount } from "../companies/chart.ts";
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

/** Defining pairs checks them against the pairs already defined: one definition at a time per group, so two at once cannot both pass the overlap check. */
const pairsLock = (accountId: string) => `elimination-pairs:${accountId}`;
const PAIRS_BUSY = "Another change to the intercompany pairs is in progress";

type Deps = { database: Database; queue: JobQueue };
type PairRow = typeof eliminationPairs.$inferSelect;

/**
 * Defines a pair after checking it against the group's charts, customers and vendors and the
 * pairs already defined; a name never paired before has no balances yet, so its company is synced.
 */
export async function createPair(deps: Deps, user: UserRow, body: PairRequest, meta: RequestMeta): Promise<EliminationPair> {
  const { db } = deps.database;
  const defined = await deps.database.withLock(pairsLock(user.accountId), PAIRS_BUSY, () => definePair(db, user, body, meta, "refuse"));
  await syncUnfetchedNames(deps, user.accountId, [defined]);
  return (await pairViews(db, user.accountId, [defined.row]))[0]!;
}

/**
 * Accepts proposed pairs (pairProposals): each goes through the same checks and audit as a pair
 * defined by hand, all in one transaction (one refused: none is defined, and the answer says which
 * and why). A pair defined before with exactly the same sides is answered as already defined, not
 * defined again, so accepting twice, or two accepts at once, define each pair once.
 */
export async function acceptProposals(deps: Deps, user: UserRow, body: z.output<typeof acceptProposalsRequestSchema>, meta: RequestMeta): Promise<AcceptProposalsResult> {
  const { db } = deps.database;
  const defined = await deps.database.withLock(pairsLock(user.accountId), PAIRS_BUSY, () =>
    db.transaction(async (tx) => {
      const out: Defined[] = [];
      for (const [i, proposal] of body.proposals.entries()) {
        try {
          out.push(await definePair(tx, user, proposal, meta, "answer"));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const which = body.proposals.length === 1 ? "" : `Proposed pair ${i + 1} of ${body.proposals.length}, `;
          throw new AppError(err.status, err.code, `${which}“${proposal.name}”: ${err.message} Nothing was accepted.`, { ...err.details, index: i });
        }
      }
      return out;
    }),
  );
  await syncUnfetchedNames(deps, user.accountId, defined.filter((d) => d.created));
  const views = await pairViews(db, user.accountId, defined.map((d) => d.row));
  return { created: views.filter((_, i) => defined[i]!.created), alreadyDefined: views.filter((_, i) => !defined[i]!.created) };
}

/** A pair as definePair leaves it: the row, whether this call made it, and the named sides whose balances were never fetched. */
interface Defined {
  row: PairRow;
  created: boolean;
  unfetched: string[];
}

/**
 * The one place a pair is checked and written (with its audit row), on `db` or a transaction; the
 * caller holds pairsLock. A pair whose sides an existing pair has exactly (a twin) is refused
 * (`twin: "refuse"`, defining by hand) or answered as that pair (`"answer"`, accepting proposals).
 */
async function definePair(db: Db, user: UserRow, body: PairRequest, meta: RequestMeta, twin: "refuse" | "answer"): Promise<Defined> {
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
  if (clash?.twin && twin === "answer" && clash.pair.kind === body.kind) return { row: clash.pair, created: false, unfetched: [] };
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
  return { row: created, created: true, unfetched: named.filter((s) => !knownName(s)?.balancesThrough).map((s) => s.realmId) };
}

/** A name never paired before has no per-name balances yet: its company's sync fetches them (after the pair is committed). */
async function syncUnfetchedNames(deps: Deps, accountId: string, defined: readonly Defined[]): Promise<void> {
  const realms = new Set(defined.flatMap((d) => d.unfetched));
  if (realms.size === 0) return;
  const group = await loadGroup(deps.database.db, accountId);
  for (const realmId of realms) {
    const company = group.find(realmId);
    if (company?.connection === "connected") await enqueueSync(deps.database, deps.queue, company);
  }
}

/**
 * The pairs the group's charts propose (the domain's proposePairs) for the parent and the
 * subsidiaries not archived, against the pairs already defined and the dividend settings.
 */
export async function pairProposals(db: Db, accountId: string): Promise<PairProposalsView> {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("pairs are proposed between the parent and its subsidiaries");
  const members = [parent, ...group.unarchivedSubsidiaries];
  const realms = members.map((m) => m.realmId);
  const [accounts, names, pairs, dividends] = await Promise.all([
    db.select().from(qboAccounts).where(inArray(qboAccounts.realmId, realms)),
    db.select().from(qboNames).where(inArray(qboNames.realmId, realms)),
    pairRows(db, accountId),
    db.select().from(dividendEliminations).where(eq(dividendEliminations.accountId, accountId)),
  ]);
  const out = proposePairs({
    members: members.map((m) => ({
      realmId: m.realmId,
      companyName: m.companyName,
      chart: accounts.filter((a) => a.realmId === m.realmId).map(toChartAccount),
      names: names.filter((n) => n.realmId === m.realmId && n.active).map((n) => ({ kind: n.kind, id: n.qboId, displayName: n.displayName })),
    })),
    pairs: pairs.map((p) => ({ name: p.name, sides: sidesOf(p) })),
    handled: new Set(dividends.map((d) => `${parent.realmId}|${d.incomeAccountId}`)),
  });
  return { proposals: [...out.proposals], choices: out.choices.map((c) => ({ ...c, candidates: [...c.candidates] })), unmatched: [...out.unmatched] };
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
