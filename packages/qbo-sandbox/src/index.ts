export {
  INTUIT_TIME_ZONE,
  authFailureResponse,
  faultBody,
  faultResponse,
  intuitTime,
  newIntuitTid,
  oauthErrorResponse,
  throttledResponse,
  type AuthFailureInput,
  type FaultBody,
  type FaultError,
  type FaultResponseInput,
  type OAuthErrorInput,
  type ThrottledInput,
  type WireResponse,
} from "./faults.ts";
export { Sandbox, type SandboxCompany, type SandboxOptions, type SandboxRules } from "./sandbox.ts";
export type { CompanyData } from "./ledger.ts";
export { generatedGroup, type GeneratedGroupOptions } from "./generated/group.ts";
export type { FaultSettings } from "./throttle.ts";
export {
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOK_WINDOW_MS,
  intuitSignature,
  WebhookSender,
  type WebhookDelivery,
  type WebhookEntity,
  type WebhookFailure,
  type WebhookOperation,
  type WebhookPayload,
  type WebhookSettings,
  type WebhookTiming,
} from "./webhooks.ts";
export { sandboxPlugin, type SandboxPluginOptions } from "./http/plugin.ts";
export { startSandbox, type RunningSandbox } from "./server.ts";
export { demoGroup, type DemoGroupCompany } from "./demo/companies.ts";
export { demoFxRates, type DemoFxRate } from "./demo/fx.ts";
export { demoCustomersAndVendors, type DemoCompanyNames } from "./demo/names.ts";
export { demoAcquisitions, demoIntragroupStock } from "./demo/index.ts";
export { INTRAGROUP_HELD_SHARE, INTRAGROUP_MARGIN, type DemoAcquisition, type DemoIntragroupStock } from "./demo/structure.ts";
