export {
  QboError,
  classifyQboError,
  parseQboError,
  parseRetryAfter,
  type HeadersLike,
  type QboErrorInit,
  type QboErrorItem,
  type QboErrorKind,
} from "./errors.ts";
export { networkFailure, unexpectedResponse } from "./failures.ts";
export { batchItemError } from "./errors.ts";
export {
  MAX_BATCH_ITEMS,
  type BatchItem,
  type BatchOperation,
  type BatchOutcome,
  type BatchQueryItem,
  type BatchResults,
  type BatchWriteItem,
} from "./batch.ts";
export { INTUIT_PRODUCTION, INTUIT_SANDBOX, intuitEndpoints, sandboxEndpoints, type QboEndpoints } from "./endpoints.ts";
export { systemClock, VirtualClock, type Clock } from "./clock.ts";
export { AmountError, amountFromJsonNumber, amountToJsonNumber, parseAmount } from "./money.ts";
export {
  KeyedMutex,
  MemoryTokenStore,
  deserializeTokenSet,
  parseTokenResponse,
  serializeTokenSet,
  type TokenSet,
  type TokenStore,
} from "./tokens.ts";
export { ACCOUNTING_SCOPE, QboOAuth, type AuthorizationCallback, type QboOAuthOptions } from "./oauth.ts";
export { AccessTokens, REFRESH_SKEW_MS } from "./auth.ts";
export { INTUIT_LIMITS, LimiterPool, RealmLimiter, type LimiterOptions, type RequestKind } from "./limiter.ts";
export { DEFAULT_RETRY, backoffDelay, type RetryOptions } from "./retry.ts";
export { BATCH_PATH, MINOR_VERSION, callKind, type ApiRequest, type CallKind, type CallObserver } from "./http.ts";
export {
  accountSchema,
  budgetSchema,
  DELETED_SUFFIX,
  companyInfoSchema,
  customerOrVendorSchema,
  customerSchema,
  exchangeRateSchema,
  journalEntrySchema,
  namedListItemSchema,
  preferencesSchema,
  vendorSchema,
  type Account,
  type Budget,
  type ClassTracking,
  type CompanyInfo,
  type CompanyPreferences,
  type Customer,
  type CustomerOrVendor,
  type ExchangeRate,
  type JournalEntry,
  type JournalEntryLine,
  type JournalLineEntity,
  type JournalLineEntityType,
  type NamedListItem,
  type PostingType,
  type Vendor,
} from "./entities.ts";
export {
  balancesByAccount,
  moneyColumns,
  parseReport,
  type Report,
  type ReportCell,
  type ReportColumn,
  type ReportName,
  type ReportRow,
  type ReportRowKind,
} from "./reports.ts";
export {
  MAX_ACCOUNT_DESCRIPTION_LENGTH,
  MAX_ACCOUNT_NAME_LENGTH,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_PAGE_SIZE,
  MAX_REQUEST_ID_LENGTH,
  QboClient,
  accountBody,
  classBody,
  connectCompany,
  journalEntryBody,
  nameBody,
  validateRequestId,
  type ChangeSet,
  type ChangedRecord,
  type NewAccount,
  type NewJournalEntry,
  type NewJournalLine,
  type NewJournalLineEntity,
  type QboClientOptions,
  type ReportParams,
} from "./client.ts";
