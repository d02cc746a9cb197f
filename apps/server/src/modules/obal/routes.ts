import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { dontShowDuplicates, journalEntries, setDontShowDuplicates } from "./duplicates.ts";
import { ObalService } from "./service.ts";
import { trialBalance } from "./trial-balance.ts";

const tags = ["opening balance"];
const periodErrors = [400, 401, 409] as const;
const docs = docsOf({ tags, security: bearer, errors: [400, 401, 404, 409, 502] });

export const obalRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const { db } = database;
  const obal = new ObalService(database, provider);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getObal, docs("Opening-balance state", { errors: periodErrors })),
    handler: async (req) => obal.state(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.postObal,
      docs("Lock the opening period", {
        description:
          "year/month: the fiscal year and fiscal month (1 = first month of the parent's fiscal year) whose month-end " +
          "balances open the consolidation. A fiscal year is named by the calendar year it ends in. " +
          "naturalYear/naturalMonth: the same month-end on the calendar; it must agree with the parent's fiscal year start.",
        errors: periodErrors,
      }),
    ),
    handler: async (req) => obal.lock(actorOf(req), req.body),
  });

  app.route({
    ...routeOf(
      contract.postObalReset,
      docs("Clear the opening period and every subsidiary's review, confirmation and posting marks", {
        description: "Entries already posted into QuickBooks stay there; the audit log records what was cleared.",
        errors: periodErrors,
      }),
    ),
    handler: async (req) => obal.reset(actorOf(req)),
  });

  app.route({
    ...routeOf(contract.getObalTrialBalance, docs("A subsidiary's trial balance at the locked month-end: local, translated, mapped, with CTA")),
    handler: async (req) => trialBalance(db, authOf(req).user.accountId, req.params.realmId),
  });

  for (const action of Object.keys(contract.obalTransitionEndpoints) as contract.ObalTransition[]) {
    app.route({
      ...routeOf(
        contract.obalTransitionEndpoints[action],
        docs(
          `${action[0]!.toUpperCase()}${action.slice(1)} a subsidiary's opening balance (unreviewed → reviewed → confirmed → posted)`,
          action === "review" || action === "confirm" ? { description: "Not in the product spec; defined here." } : {},
        ),
      ),
      handler: async (req) => obal.transition(actorOf(req), req.body.realmId, action),
    });
  }

  app.route({
    ...routeOf(contract.postOpeningBalance, docs("Post a confirmed subsidiary's translated opening trial balance into the parent's QuickBooks, once")),
    handler: async (req) => obal.post(actorOf(req), req.params.realmId),
  });

  app.route({
    ...routeOf(
      contract.getJournalEntries,
      docs("Entries already in the parent's QuickBooks for this subsidiary and month (duplicate check)", {
        description:
          "month/year: the period's month-end; flag obal|consolidation|eliminations|adjustments (eliminations and group adjustments: ask with the parent's realmId); period month|quarter|year; division: the subsidiary's class name (defaults to its company name).",
      }),
    ),
    handler: async (req) => journalEntries(db, provider, authOf(req).user.accountId, req.params.realmId, req.query),
  });

  app.route({
    ...routeOf(
      contract.postIsDeletedFlag,
      docs("Record that a posted opening entry was deleted in QuickBooks, so it can be posted again", {
        description: "The spec does not show the payload; it is {realmId}. QuickBooks is asked first: an entry still there is not marked deleted.",
      }),
    ),
    handler: async (req) => obal.markDeleted(actorOf(req), req.body.realmId),
  });

  app.route({
    ...routeOf(contract.getDontShowDuplicateJEModalFlag, docs("Whether the user asked not to see the duplicate-entry warning again")),
    handler: async (req) => ({ isDontShowDuplicateJEModalChecked: await dontShowDuplicates(db, authOf(req).user.id, req.query.JE) }),
  });

  app.route({
    ...routeOf(
      contract.postDontShowDuplicateJEModalFlag,
      docs("Remember the duplicate-entry warning preference", { description: "Not in the product spec; defined here." }),
    ),
    handler: async (req) => {
      await setDontShowDuplicates(db, authOf(req).user.id, req.body.JE, req.body.checked);
      return { isDontShowDuplicateJEModalChecked: req.body.checked };
    },
  });
};
