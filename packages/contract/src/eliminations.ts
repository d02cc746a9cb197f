import { z } from "zod";
import { ELIMINATION_TOLERANCE_MAX, INTERCOMPANY_PAIR_KINDS, PAIR_MATCHES } from "@groupledger/domain";
import { DELETE, GET, POST, PUT } from "./endpoint.ts";
import { problemSchema } from "./obal.ts";
import { postingParamsSchema, postingSummarySchema, postOutcomeSchema, repostRequestSchema, resolvedPeriodSchema, runPeriodSchema } from "./runs.ts";

/** Eliminations are filed under this "realm" among the consolidation postings (they belong to no one company): GET /consolidation/postings?realmId=interco lists them. */
export const INTERCO_REALM = "interco";

export const nameKindSchema = z.enum(["Customer", "Vendor"], { error: "A name is a Customer or a Vendor." });
export type NameKind = z.infer<typeof nameKindSchema>;

const side = z.strictObject({
  realmId: z.string().trim().min(1, "Choose the company of this side.").max(32),
  accountId: z.string().trim().min(1, "Choose the account of this side.").max(64),
  /** Only what the account holds against this customer or vendor (one that stands for a group member). */
  name: z
    .strictObject({ kind: nameKindSchema, id: z.string().trim().min(1, "Choose the customer or vendor of this side.").max(64) })
    .nullable()
    .optional(),
});

export const eliminationPairRequestSchema = z.strictObject({
  name: z.string().trim().min(1, "Name the pair, e.g. “UK loan from parent”.").max(100, "A name is at most 100 characters."),
  kind: z.enum(INTERCOMPANY_PAIR_KINDS, { error: "kind is receivablePayable or revenueExpense." }),
  /** Receivable (or revenue) side. */
  left: side,
  /** Payable (or expense) side. */
  right: side,
  differenceTo: z.enum(["fx", "cta"], { error: "differenceTo is fx or cta." }).default("fx"),
});
export type EliminationPairRequest = z.input<typeof eliminationPairRequestSchema>;

const sideView = z.object({
  realmId: z.string(),
  companyName: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  currency: z.string(),
  /** The customer or vendor the side is limited to; null: the whole account. */
  name: z.object({ kind: nameKindSchema, id: z.string(), displayName: z.string() }).nullable(),
});
export const eliminationPairSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(INTERCOMPANY_PAIR_KINDS),
  left: sideView,
  right: sideView,
  differenceTo: z.enum(["fx", "cta"]),
  createdAt: z.string(),
});
export type EliminationPair = z.infer<typeof eliminationPairSchema>;
export const eliminationPairsSchema = z.object({ pairs: z.array(eliminationPairSchema) });
export const pairParamsSchema = z.object({ pairId: z.uuid({ error: "Not a pair id." }) });

export const eliminationsQuerySchema = z.object({
  kind: z.enum(["month", "quarter", "year"], { error: "kind is month, quarter or year." }).default("month"),
  year: z.coerce.number({ error: "year is a number such as 2026." }).int().min(2000).max(2100),
  month: z.coerce.number({ error: "month is a number from 1 to 12." }).int().min(1).max(12),
});

const amountSide = z.object({ local: z.number().int(), currency: z.string(), translated: z.number().int(), rate: z.string().nullable() });
export const eliminationViewSchema = z.object({
  period: resolvedPeriodSchema,
  parentCurrency: z.string(),
  ok: z.boolean(),
  problems: z.array(problemSchema),
  pairs: z.array(
    z.object({
      pair: eliminationPairSchema,
      left: amountSide,
      right: amountSide,
      /** Parent currency, debit positive: what is left when both sides are reversed. */
      difference: z.number().int(),
      /** Of the difference, what the translation rates make (P&L at each month's average vs one closing rate). */
      translationPart: z.number().int(),
      /** Of the difference, what remains with both sides at the same closing rate (or in their one currency): the books disagree. */
      bookPart: z.number().int(),
      /**
       * A balance pair whose accounts hold one currency, at least one of them a foreign-currency
       * account (the parent's GBP loan against the UK's books): both sides in that currency, minor
       * units, debit positive. The book part is their sum at the closing rate; the rest of the
       * difference is the exchange difference of the foreign-currency side. Null otherwise.
       */
      inCurrency: z.object({ currency: z.string(), left: z.number().int(), right: z.number().int() }).nullable(),
      /** The domain's classification (pair-match.ts): exactly, within the group's tolerance, or not. */
      match: z.enum(PAIR_MATCHES),
      /** Counts as matched: exactly or within the tolerance (match !== "unmatched"). */
      matched: z.boolean(),
      /** The parent account the difference is posted to (the pair's differenceTo: FX or CTA), as "number name". */
      differenceAccount: z.object({ id: z.string(), name: z.string() }).nullable(),
    }),
  ),
  /** The group's elimination tolerance, parent-currency minor units (GET/PUT /api/eliminations/tolerance). */
  tolerance: z.number().int(),
  /** The period's elimination entry for the parent's books (movements, like a run's entry). */
  entry: z.object({ lines: z.array(z.object({ account: z.string(), name: z.string(), debit: z.number().int(), credit: z.number().int() })), docNumber: z.string(), txnDate: z.string() }).nullable(),
  posted: postingSummarySchema.nullable(),
});
export type EliminationView = z.infer<typeof eliminationViewSchema>;
/**
 * The group's elimination tolerance: pairs whose sides differ by no more than this (parent-currency
 * minor units) count as matched; the difference is still shown and posted. 0: exact matching.
 */
const toleranceMessage = "Give the tolerance as a whole number of minor units (cents) of the parent's currency, e.g. 100 for $1.00; 0 for exact matching.";
export const eliminationToleranceSchema = z
  .number({ error: toleranceMessage })
  .int(toleranceMessage)
  .min(0, "The tolerance cannot be negative: give 0 for exact matching, or a small amount such as 100 ($1.00).")
  .max(
    ELIMINATION_TOLERANCE_MAX,
    `The tolerance is at most ${ELIMINATION_TOLERANCE_MAX} minor units ($1,000.00 for a dollar parent): a larger difference is a mismatch to investigate, not rounding.`,
  );
export const eliminationToleranceRequestSchema = z.strictObject({ tolerance: eliminationToleranceSchema });
export const eliminationToleranceViewSchema = z.object({
  tolerance: z.number().int(),
  /** The parent's currency the tolerance is in; null before a parent is chosen. */
  currency: z.string().nullable(),
});
export type EliminationToleranceView = z.infer<typeof eliminationToleranceViewSchema>;

export const eliminationPostRequestSchema = z.strictObject({ period: runPeriodSchema });

/** A company's customers and vendors, for a pair side; `represents` names the group company it matches by name. */
export const companyNamesQuerySchema = z.object({ realmId: z.string().trim().min(1, "realmId names the company whose customers and vendors to list.").max(32) });
export const companyNamesSchema = z.object({
  realmId: z.string(),
  /** When the list was last read from QuickBooks; null: not yet (a sync reads it). */
  syncedAt: z.string().nullable(),
  names: z.array(
    z.object({
      kind: nameKindSchema,
      id: z.string(),
      displayName: z.string(),
      active: z.boolean(),
      represents: z.object({ realmId: z.string(), companyName: z.string() }).nullable(),
    }),
  ),
});
export type CompanyNames = z.infer<typeof companyNamesSchema>;

export const eliminationPairDeletedSchema = z.object({ deleted: z.literal(true) });

/**
 * Pairs proposed from the group's charts (the domain's eliminations/pair-proposals.ts): each with
 * its reason; accounts with two equally good counterparts as a choice between whole proposals; the
 * intercompany accounts left without either, with why.
 */
const proposedSideSchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  accountId: z.string(),
  /** Number and full name: 1600 "Intercompany Loan - Northwind UK". */
  account: z.string(),
  name: z.object({ kind: nameKindSchema, id: z.string(), displayName: z.string() }).nullable(),
});
export const pairProposalSchema = z.object({
  key: z.string(),
  name: z.string(),
  kind: z.enum(INTERCOMPANY_PAIR_KINDS),
  left: proposedSideSchema,
  right: proposedSideSchema,
  reason: z.string(),
});
export type PairProposalView = z.infer<typeof pairProposalSchema>;
export const pairProposalsSchema = z.object({
  proposals: z.array(pairProposalSchema),
  choices: z.array(z.object({ side: proposedSideSchema, reason: z.string(), candidates: z.array(pairProposalSchema) })),
  unmatched: z.array(z.object({ side: proposedSideSchema, reason: z.string() })),
});
export type PairProposalsView = z.infer<typeof pairProposalsSchema>;

/** The most pairs one accept defines: a group's intercompany accounts, with room to spare. */
export const MAX_ACCEPTED_PROPOSALS = 200;
/** Accepting proposals: each is a pair request (as POST /eliminations/pairs takes it), all defined in one transaction or none. */
export const acceptProposalsRequestSchema = z.strictObject({
  proposals: z
    .array(eliminationPairRequestSchema, { error: "proposals is the list of proposed pairs to accept." })
    .min(1, "Choose at least one proposed pair to accept.")
    .max(MAX_ACCEPTED_PROPOSALS, `Accept at most ${MAX_ACCEPTED_PROPOSALS} pairs at once.`),
});
export type AcceptProposalsRequest = z.input<typeof acceptProposalsRequestSchema>;
/** `created`: the pairs this request defined; `alreadyDefined`: those it asked for that were defined before, exactly (accepting twice makes none twice). */
export const acceptProposalsResultSchema = z.object({ created: z.array(eliminationPairSchema), alreadyDefined: z.array(eliminationPairSchema) });
export type AcceptProposalsResult = z.infer<typeof acceptProposalsResultSchema>;

/** The pair request a proposal stands for (its name, kind and both sides, names included). */
export const proposalPairRequest = (p: Pick<PairProposalView, "name" | "kind" | "left" | "right">): EliminationPairRequest => {
  const side = (s: PairProposalView["left"]) => ({ realmId: s.realmId, accountId: s.accountId, name: s.name ? { kind: s.name.kind, id: s.name.id } : null });
  return { name: p.name, kind: p.kind, left: side(p.left), right: side(p.right) };
};

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getEliminationPairs = GET("/eliminations/pairs", { 200: eliminationPairsSchema });
export const postEliminationPair = POST("/eliminations/pairs", { 200: eliminationPairSchema }, { body: eliminationPairRequestSchema });
export const getEliminationPairProposals = GET("/eliminations/pairs/proposals", { 200: pairProposalsSchema });
export const postEliminationPairsAccept = POST("/eliminations/pairs/accept", { 200: acceptProposalsResultSchema }, { body: acceptProposalsRequestSchema });
export const deleteEliminationPair = DELETE("/eliminations/pairs/:pairId", { 200: eliminationPairDeletedSchema }, { params: pairParamsSchema });
export const getEliminationNames = GET("/eliminations/names", { 200: companyNamesSchema }, { query: companyNamesQuerySchema });
export const getEliminationTolerance = GET("/eliminations/tolerance", { 200: eliminationToleranceViewSchema });
export const putEliminationTolerance = PUT("/eliminations/tolerance", { 200: eliminationToleranceViewSchema }, { body: eliminationToleranceRequestSchema });
export const getEliminations = GET("/eliminations", { 200: eliminationViewSchema }, { query: eliminationsQuerySchema });
export const postEliminations = POST("/eliminations/post", { 200: postOutcomeSchema }, { body: eliminationPostRequestSchema });
export const postEliminationsRepost = POST("/eliminations/:postingId/repost", { 200: postOutcomeSchema }, { params: postingParamsSchema, body: repostRequestSchema });
