// Apart from the error body's schema: a client that only compares codes (the login form on its
// first load) must not pull in the schema library with them.

/** Error codes clients act on. */
export const ErrorCodes = {
  invalidToken: "invalid_token",
  /** SPEC §8: the body's error code a client treats as session expiry. */
  expiredToken: "EXPIRED_TOKEN",
  invalidCredentials: "invalid_credentials",
  emailNotVerified: "email_not_verified",
  invalidCode: "invalid_code",
  validationFailed: "validation_failed",
  rateLimited: "rate_limited",
  emailTaken: "email_taken",
  notFound: "not_found",
  /** 403: the route needs a higher permissionLevel (permissions.ts); details.required names it. */
  permissionDenied: "permission_denied",
  /** 402: the trial has ended; the account is read-only until it subscribes (billing.ts). */
  subscriptionRequired: "subscription_required",
  /** 409: the change would leave the account without an admin. */
  lastAdmin: "last_admin",
  invalidInvitation: "invalid_invitation",
  /** 409: QuickBooks refused a company's authorization (errorCode 003200): the error bar asks to reconnect (SPEC §8). */
  qboReauthorizationRequired: "qbo_reauthorization_required",
} as const;

/** SPEC §8: a 401 with this message makes the web app drop its token and reload. */
export const INVALID_TOKEN_MESSAGE = "Invalid token";
