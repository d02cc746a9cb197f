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

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getQboAuthorize = GET("/qbo/account/authorize", { 200: authorizeResponseSchema });
export const postQboCallback = POST("/qbo/account/callback", { 200: authorizationResultSchema }, { body: authorizationCallbackSchema });
