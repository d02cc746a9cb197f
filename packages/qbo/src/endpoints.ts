/** Where the client talks to: Intuit production, Intuit's sandbox, or our emulator. */
export interface QboEndpoints {
  /** The consent page the user is sent to. */
  readonly authorizeUrl: string;
  /** OAuth token endpoint (authorization_code and refresh_token grants). */
  readonly tokenUrl: string;
  readonly revokeUrl: string;
  /** Accounting API root; requests go to `${apiBaseUrl}/v3/company/{realmId}/...`. */
  readonly apiBaseUrl: string;
}

const INTUIT_OAUTH = {
  authorizeUrl: "https://appcenter.intuit.com/connect/oauth2",
  tokenUrl: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
  revokeUrl: "https://developer.api.intuit.com/v2/oauth2/tokens/revoke",
} as const;

export const INTUIT_PRODUCTION: QboEndpoints = Object.freeze({ ...INTUIT_OAUTH, apiBaseUrl: "https://quickbooks.api.intuit.com" });

/** Intuit's developer sandbox companies share the production OAuth server. */
export const INTUIT_SANDBOX: QboEndpoints = Object.freeze({ ...INTUIT_OAUTH, apiBaseUrl: "https://sandbox-quickbooks.api.intuit.com" });

/** Our emulator mirrors Intuit's paths under one root (e.g. `http://127.0.0.1:4010` or `https://app.example/qbo-sandbox`). */
export function sandboxEndpoints(root: string): QboEndpoints {
  const base = root.replace(/\/+$/, "");
  return Object.freeze({
    authorizeUrl: `${base}/connect/oauth2`,
    tokenUrl: `${base}/oauth2/v1/tokens/bearer`,
    revokeUrl: `${base}/v2/oauth2/tokens/revoke`,
    apiBaseUrl: base,
  });
}

/** `QBO_ENVIRONMENT=sandbox|production` as the server reads it. */
export function intuitEndpoints(environment: "sandbox" | "production"): QboEndpoints {
  return environment === "production" ? INTUIT_PRODUCTION : INTUIT_SANDBOX;
}
