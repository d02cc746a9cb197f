import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { webhookVerifierToken } from "../../config.ts";
import { docsOf, routeOf } from "../../http/endpoint.ts";
import { AppError } from "../../http/errors.ts";
import { guardedJsonParser } from "../../http/input-guard.ts";
import { queueWebhookSyncs } from "./service.ts";
import { intuitSignatureValid } from "./signature.ts";

/** Far above a notification Intuit sends (a realm's changes over a few minutes), far below the API's 1 MB. */
export const WEBHOOK_BODY_LIMIT = 512 * 1024;

const docs = docsOf({ tags: ["companies"], errors: [400, 401, 413, 429] });
const badSignature = () =>
  new AppError(401, "invalid_signature", "The intuit-signature header is missing or is not the signature of this body with the app's verifier token.");

/**
 * POST /api/qbo/webhooks: QuickBooks' change notifications. Intuit calls it, so no session: the
 * `intuit-signature` header (base64 HMAC-SHA256 of the body with the verifier token) proves who
 * sent it, checked over the exact bytes received before anything is parsed. Missing or wrong → 401
 * and nothing queued; then the body is parsed (bad JSON → 400) and validated by the contract.
 * Its own body limit and in-process rate limit (per IP, apart from the API's).
 */
export const webhookRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database, queue }) => {
  const verifierToken = webhookVerifierToken(config);
  if (!verifierToken) app.log.warn("QBO_WEBHOOK_VERIFIER_TOKEN is not set: QuickBooks' webhook notifications are refused (nightly and on-demand syncs still run)");
  /** Requests whose body was received and verified; a request without a body is checked as empty. */
  const verified = new WeakSet<object>();
  const parseJson = guardedJsonParser(app);

  // In this plugin only: every body is kept as the bytes Intuit signed, whatever its content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (req, body, done) => {
    if (!intuitSignatureValid(body as Buffer, req.headers["intuit-signature"], verifierToken)) return done(badSignature(), undefined);
    verified.add(req);
    parseJson(req, (body as Buffer).toString("utf8"), done);
  });

  app.route({
    ...routeOf(
      contract.postQboWebhooks,
      docs("QuickBooks' webhook notifications: queues the sync of each connected company named", {
        description:
          "Called by Intuit with the header intuit-signature, the base64 HMAC-SHA256 of the raw body with the app's verifier token (QBO_WEBHOOK_VERIFIER_TOKEN). " +
          "A missing or wrong signature is 401 and queues nothing. Each connected company named gets one sync (one already queued counts); unknown companies are ignored. Answers once the work is queued.",
      }),
    ),
    bodyLimit: WEBHOOK_BODY_LIMIT,
    config: { permission: "public", rateLimit: { max: config.rateLimits.webhooksPerMinute, timeWindow: 60_000 } },
    // After the rate limit (onRequest), before the body is read.
    preParsing: async (req, _reply, payload) => {
      if (typeof req.headers["intuit-signature"] !== "string") throw badSignature();
      return payload;
    },
    preValidation: async (req) => {
      if (!verified.has(req) && !intuitSignatureValid(new Uint8Array(), req.headers["intuit-signature"], verifierToken)) throw badSignature();
    },
    handler: async (req) => queueWebhookSyncs(database, queue, req.body, req.log),
  });
};
