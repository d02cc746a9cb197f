import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { RunService } from "./service.ts";

const docs = docsOf({ tags: ["consolidation"], security: bearer, errors: [400, 401, 403, 404, 409, 502] });

export const runRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { database, requireAuth, provider, queue } = ctx;
  const runs = new RunService({ database, provider, queue });
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.postConsolidationPreview,
      docs("Preview one subsidiary-period as the journal entry that would post it: translated, mapped, with the CTA line and its explanation"),
    ),
    // Computes without changing anything: members may, and so may a lapsed trial.
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => {
      const { user, dataVersion } = authOf(req);
      return runs.preview(user.accountId, req.body, dataVersion);
    },
  });

  app.route({
    ...routeOf(
      contract.postConsolidationPost,
      docs("Post one subsidiary-period into the parent's QuickBooks, tagged with the subsidiary's class; a repeat returns the entry already posted"),
    ),
    handler: async (req) => runs.post(actorOf(req), req.body),
  });

  app.route({
    ...routeOf(contract.getConsolidationPostings, docs("Entries posted by consolidation runs, newest period first, with any change detected in the books since")),
    handler: async (req) => ({ postings: await runs.postings(authOf(req).user.accountId, req.query.realmId) }),
  });

  app.route({
    ...routeOf(
      contract.postConsolidationRepost,
      docs("Replace a posted entry whose books changed: delete it in QuickBooks, then post the period again (after the user approved the changes)"),
    ),
    handler: async (req) => runs.repost(actorOf(req), req.params.postingId),
  });

  app.route({
    ...routeOf(
      contract.postReplaceChanged,
      docs("Replace all changed: the reviewed changed entries are replaced in period order by a background run (each deleted in QuickBooks and posted again, once)", {
        description:
          "Each entry is named with the detectedAt of the differences the user reviewed; an entry no longer posted, no longer changed or changed again since is 409 and nothing starts. One run at a time per account.",
      }),
    ),
    handler: async (req) => runs.startReplace(actorOf(req), req.body),
  });

  // --- Multi Period / Company ---------------------------------------------------------------

  app.route({
    ...routeOf(contract.postMultiRun, docs("Start a background run posting each chosen subsidiary for each month of a range, in order")),
    handler: async (req) => runs.start(actorOf(req), req.body),
  });

  app.route({
    ...routeOf(contract.getMultiRuns, docs("Multi-period runs of the account, newest first")),
    handler: async (req) => ({ runs: await runs.list(authOf(req).user.accountId) }),
  });

  app.route({
    ...routeOf(contract.getMultiRun, docs("A run with its items and progress")),
    handler: async (req) => runs.detail(authOf(req).user.accountId, req.params.runId),
  });

  app.route({
    ...routeOf(contract.postMultiRunPause, docs("Pause a run after the item it is posting")),
    handler: async (req) => runs.pause(authOf(req).user.accountId, req.params.runId),
  });

  app.route({
    ...routeOf(contract.postMultiRunResume, docs("Resume a paused (or stopped) run where it left off")),
    handler: async (req) => runs.resume(authOf(req).user.accountId, req.params.runId),
  });
};
