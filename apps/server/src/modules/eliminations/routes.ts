import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { posterOf, requestMeta } from "../../services/audit.ts";
import { acceptProposals, companyNames, createPair, deletePair, pairProposals, eliminationsOf, listPairs, postEliminations as post, replaceEliminations } from "./service.ts";
import { setTolerance, toleranceView } from "./tolerance.ts";

const docs = docsOf({ tags: ["eliminations"], security: bearer, errors: [400, 401, 403, 404, 409, 502] });
/** Defining pairs and the tolerance prepares a consolidation: any member. Posting stays with admins. */
const member = { permission: "member" } as const;

export const eliminationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, queue }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getEliminationPairs, docs("Intercompany pairs of the account")),
    handler: async (req) => ({ pairs: await listPairs(db, authOf(req).user.accountId) }),
  });

  app.route({
    ...routeOf(
      contract.postEliminationPair,
      docs("Define an intercompany pair: a receivable (or revenue) account in one company against a payable (or expense) account in another"),
    ),
    config: member,
    handler: async (req) => createPair({ database, queue }, authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.getEliminationPairProposals,
      docs("Pairs proposed from the group's charts: each intercompany account against the account that mirrors it in the company it names, with the reason; ties as choices; the intercompany accounts left unpaired and why"),
    ),
    handler: async (req) => pairProposals(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.postEliminationPairsAccept,
      docs("Accept proposed pairs in one step: each is checked and defined as POST /eliminations/pairs defines one, all in one transaction; a pair already defined with the same sides is answered, not defined twice"),
    ),
    config: member,
    handler: async (req) => acceptProposals({ database, queue }, authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.getEliminationNames, docs("A company's customers and vendors, for limiting a pair side to the one that stands for a group member")),
    handler: async (req) => companyNames(db, authOf(req).user.accountId, req.query.realmId),
  });

  app.route({
    ...routeOf(contract.deleteEliminationPair, docs("Remove an intercompany pair (entries already posted stay in QuickBooks)")),
    config: member,
    handler: async (req) => {
      await deletePair(db, authOf(req).user, req.params.pairId, requestMeta(req));
      return { deleted: true as const };
    },
  });

  app.route({
    ...routeOf(
      contract.getEliminationTolerance,
      docs("The group's elimination tolerance: pairs whose sides differ by no more (parent-currency minor units) count as matched"),
    ),
    handler: async (req) => toleranceView(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putEliminationTolerance,
      docs(
        "Set the group's elimination tolerance in the parent currency's minor units (0 = exact matching, at most 100000). Differences within it are still shown and posted to the pair's difference account",
      ),
    ),
    config: member,
    handler: async (req) => setTolerance(db, authOf(req).user, req.body.tolerance, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.getEliminations,
      docs("A period's eliminations: both sides of each pair in the parent currency, the difference and its translation part, and the entry to post"),
    ),
    handler: async (req) => eliminationsOf(db, authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(contract.postEliminations, docs("Post a period's elimination entry into the parent's QuickBooks under the Interco class, once")),
    handler: async (req) => post({ database, provider }, posterOf(actorOf(req)), req.body.period),
  });

  app.route({
    ...routeOf(
      contract.postEliminationsRepost,
      docs("Replace a posted elimination entry whose books changed: delete it in QuickBooks, then post the period again (after the user approved the changes)"),
    ),
    handler: async (req) => replaceEliminations({ database, provider }, posterOf(actorOf(req)), req.params.postingId),
  });
};
