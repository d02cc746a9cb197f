import { z } from "zod";
import { companySchema } from "./companies.ts";
import { GET, POST } from "./endpoint.ts";

/** SPEC §7: GET /api/qbo/account/authorize. `key` is the app's client id; `authorizeUrl` the consent page to open in the pop-up. */
export const authorizeResponseSchema = z.object({
  key: z.string(),
  authorizeUrl: z.string(),
  /** Seconds until this attempt's state expires (10 minutes). */
  expiresInSeconds: z.number().int(),
});
export type AuthorizeResponse = z.infer<typeof authorizeResponseSchema>;

/** What /qbo/auth/complete received from QuickBooks, passed on as is. */
export const authorizationCallbackSchema = z.object({
  state: z.string().min(1, "The authorization response has no state.").max(200),
  code: z.string().min(1).max(2000).optional(),
  realmId: z.string().min(1).max(32).optional(),
  error: z.string().max(200).optional(),
  errorDescription: z.string().max(2000).optional(),
});
export type AuthorizationCallbackRequest = z.infer<typeof authorizationCallbackSchema>;
export const authorizationResultSchema = z.object({
  company: companySchema,
  /** True when this realm was already connected to this account and was re-authorized in place. */
  reconnected: z.boolean(),
});
export type AuthorizationResult = z.infer<typeof authorizationResultSchema>;

/** SPEC §4: messages the pop-up posts to its opener. */
export const AUTHORIZATION_COMPLETE = "AUTHORIZATION_COMPLETE";
export const AUTHORIZATION_FAILED = "AUTHORIZATION_FAILED";
export const popupMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal(AUTHORIZATION_COMPLETE), realmId: z.string(), companyName: z.string() }),
  z.object({ type: z.literal(AUTHORIZATION_FAILED), error: z.string() }),
]);
export type PopupMessage = z.infer<typeof popupMessageSchema>;

/**
 * QuickBooks' webhook notification (Intuit's "Webhooks" pages): which entities of which companies
 * changed. Intuit calls it, signed (header `intuit-signature`), not the web; fields Intuit adds are
 * kept. The server only queues the named companies' syncs; what changed is read through CDC.
 */
export const qboWebhookEntitySchema = z.looseObject({
  name: z.string().max(100),
  id: z.string().max(100),
  /** Create, Update, Delete, Merge, Void, Emailed. */
  operation: z.string().max(32),
  lastUpdated: z.string().max(64).optional(),
  /** Merge: the entity merged away. */
  deletedId: z.string().max(100).optional(),
});
export const qboWebhookPayloadSchema = z.looseObject({
  eventNotifications: z
    .array(
      z.looseObject({
        realmId: z.string().trim().min(1, "realmId is required.").max(32, "realmId is too long."),
        dataChangeEvent: z.looseObject({ entities: z.array(qboWebhookEntitySchema).max(10_000) }).optional(),
      }),
    )
    .max(1000),
});
export type QboWebhookPayload = z.infer<typeof qboWebhookPayloadSchema>;
/** The acknowledgement (Intuit only reads the 200): how many notifications the request held. */
export const qboWebhookReceiptSchema = z.object({ received: z.number().int() });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getQboAuthorize = GET("/qbo/account/authorize", { 200: authorizeResponseSchema });
export const postQboCallback = POST("/qbo/account/callback", { 200: authorizationResultSchema }, { body: authorizationCallbackSchema });
/** Called by Intuit, not the web: no session, the body signed with the app's verifier token. */
export const postQboWebhooks = POST("/qbo/webhooks", { 200: qboWebhookReceiptSchema }, { body: qboWebhookPayloadSchema });
