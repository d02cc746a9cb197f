import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  date,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { NIGHTLY_SYNC_DEFAULTS, type SyncChanges } from "@groupledger/contract";
import type { NewJournalEntry } from "@groupledger/qbo";
import { ELIMINATION_TOLERANCE_DEFAULT, type FairValueAdjustmentRecord, type OwnershipChangeRecord } from "@groupledger/domain";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** A tenant: one group of companies and everyone who works on it. */
export const accounts = pgTable("accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  onboarding: boolean("onboarding").notNull().default(true),
  // numeric keeps 1.1 exact; steps are a fixed set validated by the domain.
  onboardingStep: numeric("onboarding_step", { precision: 3, scale: 1 }).notNull().default("0"),
  /**
   * SPEC §3 Subscription status (TRIAL, TRIALOPTIN, SUBSCRIBED, PAID), stored upper-case. Sign-up
   * sets trial_ends_at from the domain's trial length; the default only covers accounts that
   * existed before billing.
   */
  subscriptionStatus: text("subscription_status").$type<"TRIAL" | "TRIALOPTIN" | "SUBSCRIBED" | "PAID">().notNull().default("TRIAL"),
  trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }).notNull().default(sql`now() + interval '30 days'`),
  nabAccounts: jsonb("nab_accounts")
    .$type<{ realmId: string; neverABalanceAccountsForCompany: string[] }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /**
   * The group's elimination tolerance, parent-currency minor units (packages/domain
   * consolidation/pair-match.ts): intercompany pairs whose sides differ by no more count as
   * matched; the difference is still shown and posted. 0 = exact matching.
   */
  eliminationTolerance: integer("elimination_tolerance").notNull().default(ELIMINATION_TOLERANCE_DEFAULT),
  /**
   * The nightly sync (modules/sync/nightly.ts): every connected company of the group is synced once
   * per local day at or after `nightly_sync_time` (HH:MM) in `nightly_sync_time_zone` (IANA).
   * `nightly_sync_last_date` is the local date it last ran: claiming a day is one conditional
   * update, so any number of processes schedule it once.
   */
  nightlySyncEnabled: boolean("nightly_sync_enabled").notNull().default(NIGHTLY_SYNC_DEFAULTS.enabled),
  nightlySyncTime: text("nightly_sync_time").notNull().default(NIGHTLY_SYNC_DEFAULTS.time),
  nightlySyncTimeZone: text("nightly_sync_time_zone").notNull().default(NIGHTLY_SYNC_DEFAULTS.timeZone),
  nightlySyncLastDate: date("nightly_sync_last_date", { mode: "string" }),
  /**
   * After the nightly sync, replace every posted entry it found changed (modules/reconsolidation),
   * approved in advance by this setting, and mail the admins what was replaced. Off by default.
   */
  nightlyReplaceChanged: boolean("nightly_replace_changed").notNull().default(false),
  /**
   * Whether the group reads its companies' classes and locations (Segments): off until someone asks
   * for the segment statements, since each class and location in use costs QuickBooks calls on
   * every sync (sync/segments.ts).
   */
  segmentsEnabled: boolean("segments_enabled").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** Display name (Account Settings → Profile); empty until the user sets it. */
    name: text("name").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** 0 = member, 1 = admin (packages/contract permissions); an account's first user is an admin. */
    permissionLevel: integer("permission_level").notNull().default(0),
    /** Where exported workbooks are mailed (PATCH /api/excel/update); null = the sign-in email. */
    reportEmail: text("report_email"),
    /** When the code mailed to report_email was entered; null = not verified, nothing is sent there. */
    reportEmailVerifiedAt: timestamp("report_email_verified_at", { withTimezone: true }),
    releaseNotesVersion: text("release_notes_version").notNull().default("0"),
    // Bumped on password change/reset: every token issued before is rejected.
    tokenVersion: integer("token_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), index("users_account_idx").on(t.accountId)],
);

export const codePurposes = ["verify_email", "reset_password", "change_email", "report_email"] as const;
export type CodePurpose = (typeof codePurposes)[number];

/** Single-use codes; only a keyed hash is stored, never the code. */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<CodePurpose>().notNull(),
    codeHash: text("code_hash").notNull(),
    /** change_email and report_email: the address the code was mailed to (the new sign-in email, or the report address it verifies). */
    targetEmail: text("target_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("verification_codes_hash_key").on(t.purpose, t.codeHash),
    index("verification_codes_user_idx").on(t.userId, t.purpose),
  ],
);

/** Tokens ended by logout before their expiry. Rows past expires_at can be purged. */
export const revokedTokens = pgTable("revoked_tokens", {
  jti: text("jti").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

export const mailStatuses = ["pending", "sent", "failed", "logged"] as const;
export type MailStatus = (typeof mailStatuses)[number];

/** Every mail the product sends, so none is lost when SMTP is down or absent. */
export const outboxMail = pgTable(
  "outbox_mail",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    /** What was attached (name, type, size): the bytes go to the transport only. */
    attachments: jsonb("attachments").$type<{ filename: string; contentType: string; size: number }[]>().notNull().default(sql`'[]'::jsonb`),
    status: text("status").$type<MailStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("outbox_mail_to_idx").on(t.toAddress, t.createdAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    ip: text("ip"),
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_account_idx").on(t.accountId, t.createdAt)],
);

/** Fixed-window counters shared by every app process (login and code attempts). */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

/**
 * A QBO company connected to an account. A realm belongs to at most one account of ours
 * (connecting it elsewhere is refused), and an account has at most one parent.
 */
export const companies = pgTable(
  "companies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id").notNull(),
    companyName: text("company_name").notNull(),
    country: text("country").notNull(),
    homeCurrency: text("home_currency").notNull(),
    isParent: boolean("is_parent").notNull().default(false),
    fiscalYearStartMonth: integer("fiscal_year_start_month").notNull().default(1),
    earliestTransactionDate: date("earliest_transaction_date", { mode: "string" }),
    /** QuickBooks' "Close the books" date, read at connect and every sync: nothing dated on or before it can be posted. */
    bookCloseDate: date("book_close_date", { mode: "string" }),
    ownershipPercent: numeric("ownership_percent", { precision: 7, scale: 4 }).notNull().default("100"),
    /**
     * The parent only: its equity account (QBO id) that receives the cumulative translation
     * adjustment of every foreign subsidiary. The group keeps one CTA account, chosen once on
     * CTA & Historical; kept on the parent because it is one of the parent's accounts.
     */
    ctaAccountId: text("cta_account_id"),
    archivedAt: date("archived_at", { mode: "string" }),
    connection: text("connection").$type<"connected" | "needs_reauthorization" | "disconnected">().notNull().default("connected"),
    syncState: text("sync_state").$type<"never" | "queued" | "running" | "succeeded" | "failed">().notNull().default("never"),
    syncProgress: numeric("sync_progress", { precision: 5, scale: 4 }),
    syncMessage: text("sync_message"),
    /** The start of the last successful sync: the company is fresh as of then (the next sync's CDC starts there). */
    lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
    /** What the last successful sync found changed and read again (contract `SyncChanges`); null before. */
    lastSyncChanges: jsonb("last_sync_changes").$type<SyncChanges>(),
    /**
     * Bumped by statement triggers whenever the company's chart (qbo_accounts) or monthly balances
     * change (migration 0030): with `id`, the key of the books kept in memory (consolidation/books-cache.ts).
     */
    booksVersion: bigint("books_version", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("companies_realm_key").on(t.realmId),
    uniqueIndex("companies_one_parent_key").on(t.accountId).where(sql`${t.isParent}`),
    index("companies_account_idx").on(t.accountId),
  ],
);

/** The opening-balance period of an account (SPEC §3 OBAL state); one row per account once locked. */
export const obalPeriods = pgTable("obal_periods", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  year: integer("year").notNull(),
  month: integer("month").notNull(),
  naturalYear: integer("natural_year").notNull(),
  naturalMonth: integer("natural_month").notNull(),
  lockedBy: uuid("locked_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/** Per-subsidiary progress through review → confirm → post of its opening trial balance. */
export const obalCompanies = pgTable(
  "obal_companies",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    postedAt: timestamp("posted_at", { withTimezone: true }),
    journalEntryId: text("journal_entry_id"),
    journalEntryUrl: text("journal_entry_url"),
    /** Bumped when a posted entry was deleted in QBO, so the next post gets a new requestid. */
    postGeneration: integer("post_generation").notNull().default(0),
    /**
     * The requestid of an attempt to post that has no known outcome yet (modules/posting): written
     * before QuickBooks is called, cleared when it is posted or refused. The next attempt resumes it.
     */
    postingRequestId: text("posting_request_id"),
    postingStartedAt: timestamp("posting_started_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.realmId] })],
);

/** Small per-user preferences (e.g. "don't show the duplicate journal entry warning again"). */
export const userPreferences = pgTable(
  "user_preferences",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: jsonb("value").$type<unknown>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** OAuth tokens of a connected QBO company, sealed with AES-256-GCM (never stored in clear). */
export const qboTokens = pgTable("qbo_tokens", {
  realmId: text("realm_id")
    .primaryKey()
    .references(() => companies.realmId, { onDelete: "cascade" }),
  accessTokenSealed: text("access_token_sealed").notNull(),
  refreshTokenSealed: text("refresh_token_sealed").notNull(),
  tokenType: text("token_type").notNull(),
  accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }).notNull(),
  refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const jobStates = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type JobState = (typeof jobStates)[number];

/**
 * Durable background work (syncs, multi-period runs). A running job holds a lease that its
 * worker renews; when a process dies the lease runs out and another worker resumes the job from
 * its last checkpoint.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** At most one queued or running job per dedupe key (e.g. one sync per company). */
    dedupeKey: text("dedupe_key"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    checkpoint: jsonb("checkpoint").$type<Record<string, unknown>>(),
    state: text("state").$type<JobState>().notNull().default("queued"),
    progress: numeric("progress", { precision: 5, scale: 4 }).notNull().default("0"),
    message: text("message"),
    result: jsonb("result").$type<Record<string, unknown>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("jobs_active_dedupe_key").on(t.dedupeKey).where(sql`${t.state} in ('queued', 'running')`),
    index("jobs_claim_idx").on(t.state, t.runAfter),
    index("jobs_account_idx").on(t.accountId, t.createdAt),
  ],
);

/** A pending "Connect company": the OAuth state, bound to the user who started it; single use, 10 minutes. */
export const oauthStates = pgTable("oauth_states", {
  stateHash: text("state_hash").primaryKey(),
  accountId: uuid("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** A company's chart of accounts as last synced from QBO. */
export const qboAccounts = pgTable(
  "qbo_accounts",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    qboId: text("qbo_id").notNull(),
    name: text("name").notNull(),
    fullyQualifiedName: text("fully_qualified_name").notNull(),
    acctNum: text("acct_num"),
    accountType: text("account_type").notNull(),
    accountSubType: text("account_sub_type"),
    classification: text("classification").notNull(),
    currency: text("currency").notNull(),
    active: boolean("active").notNull(),
    parentQboId: text("parent_qbo_id"),
    /** False until a synced month shows a non-zero balance or activity. */
    everHadBalance: boolean("ever_had_balance").notNull().default(false),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.qboId] })],
);

/**
 * Monthly balances in the company's own currency, integer minor units: the month-end closing
 * balance for balance-sheet accounts, the month's activity for P&L accounts (debit positive).
 */
export const monthlyBalances = pgTable(
  "monthly_balances",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    qboAccountId: text("qbo_account_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    kind: text("kind").$type<"closing" | "activity">().notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.qboAccountId, t.month] })],
);

/**
 * Month-end balances of foreign-currency accounts (QBO multicurrency) in the account's own
 * currency, integer minor units of `currency`, debit positive: from the GeneralLedger's Foreign
 * Amount column, replaced for the company on every sync. monthly_balances keeps their home-currency
 * figure (QuickBooks' own, at the rates of the day); this is what they hold in GBP, CAD, ..., which
 * intercompany pairs compare in (eliminations/view.ts). No row: not known (the ledger starts
 * before what was read), and the pair is compared in the parent's currency instead.
 */
export const foreignBalances = pgTable(
  "foreign_balances",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    qboAccountId: text("qbo_account_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    currency: text("currency").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.qboAccountId, t.month] })],
);

/**
 * Segments (issue 23): each month's profit-and-loss activity (kind "activity") and balance-sheet
 * closing balance (kind "closing") of a QuickBooks class or location (QuickBooks' Department) per
 * account, debit positive, read by sync from the ProfitAndLoss and BalanceSheet filtered by that
 * class or location (sync/segments.ts). Lines with no class (no location) are
 * not stored: they are the account's monthly activity (monthly_balances) less its segments'.
 * `segment_name` is QuickBooks' name when synced: segments match across companies by it.
 */
export const segmentBalances = pgTable(
  "segment_balances",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    dimension: text("dimension").$type<"class" | "location">().notNull(),
    segmentId: text("segment_id").notNull(),
    segmentName: text("segment_name").notNull(),
    qboAccountId: text("qbo_account_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    /** "activity": the month's P&L movement; "closing": the balance-sheet balance at the month's end. */
    kind: text("kind").$type<"activity" | "closing">().notNull().default("activity"),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.dimension, t.segmentId, t.qboAccountId, t.month, t.kind] })],
);

/**
 * Which months of a company's segments have been read (sync/segments.ts): a company first synced
 * before segments existed gets its whole history's segments on its next sync, not only the months
 * that sync reads again.
 */
export const segmentSyncs = pgTable("segment_syncs", {
  realmId: text("realm_id")
    .primaryKey()
    .references(() => companies.realmId, { onDelete: "cascade" }),
  /** The first month read ("YYYY-MM-01"). */
  fromMonth: date("from_month", { mode: "string" }).notNull(),
  syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
});

/** COA mapping: a subsidiary account (in its realm) → the parent account it consolidates into. */
export const accountMaps = pgTable(
  "account_maps",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    subAccountId: text("sub_account_id").notNull(),
    parentAccountId: text("parent_account_id").notNull(),
    mappedBy: uuid("mapped_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.subAccountId] })],
);

/** Monthly FX rates of an account (its group), parent-currency units per one unit of `currency`, exact text. */
export const fxRates = pgTable(
  "fx_rates",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    month: text("month").notNull(),
    average: text("average"),
    closing: text("closing"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.currency, t.month] })],
);

/** Translation settings of a foreign subsidiary (CTA & Historical screen); the CTA account is the group's (companies.cta_account_id of the parent). */
export const translationSettings = pgTable("translation_settings", {
  realmId: text("realm_id")
    .primaryKey()
    .references(() => companies.realmId, { onDelete: "cascade" }),
  dividendRatePolicy: text("dividend_rate_policy").$type<"declarationDate" | "profitPeriod">().notNull().default("declarationDate"),
  /**
   * currentRate (IAS 21.39, ASC 830-30-45) or temporal (remeasurement: a subsidiary whose
   * functional currency is the parent's, or a highly inflationary economy, ASC 830-10-45-17);
   * temporal takes historical rates for its non-monetary accounts from historical_equity.
   */
  method: text("method").$type<"currentRate" | "temporal">().notNull().default("currentRate"),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Historical translation of a subsidiary's contributed-equity account: a rate or the translated amount. */
export const historicalEquity = pgTable(
  "historical_equity",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    rate: text("rate"),
    amountMinor: bigint("amount_minor", { mode: "number" }),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.accountId] })],
);

/**
 * An invitation to join an account. Only a keyed hash of the mailed token is stored; at most one
 * live (not accepted, not revoked) invitation per email and account.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    permissionLevel: integer("permission_level").notNull().default(0),
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    sendCount: integer("send_count").notNull().default(1),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedUserId: uuid("accepted_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_key").on(t.tokenHash),
    uniqueIndex("invitations_live_email_key").on(t.accountId, t.email).where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("invitations_account_idx").on(t.accountId, t.createdAt),
  ],
);

/**
 * The paid subscription of an account, as the payment provider reported it. Card details are the
 * provider's display fields only (brand, last four digits, expiry): never the number or the CVV.
 */
export const billingSubscriptions = pgTable("billing_subscriptions", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  plan: text("plan").notNull(),
  provider: text("provider").notNull(),
  providerCustomerId: text("provider_customer_id").notNull(),
  providerSubscriptionId: text("provider_subscription_id").notNull(),
  cardBrand: text("card_brand").notNull(),
  cardLast4: text("card_last4").notNull(),
  cardExpMonth: integer("card_exp_month").notNull(),
  cardExpYear: integer("card_exp_year").notNull(),
  currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
  canceledAt: timestamp("canceled_at", { withTimezone: true }),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Charges the provider confirmed, newest first on the settings screen (the account's receipts). */
export const billingPayments = pgTable(
  "billing_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").notNull(),
    plan: text("plan").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("billing_payments_provider_key").on(t.provider, t.providerPaymentId),
    index("billing_payments_account_idx").on(t.accountId, t.createdAt),
  ],
);

/**
 * One subsidiary-period entry posted into the parent's QBO by a consolidation run (issue 9).
 * At most one live ('posted') entry per subsidiary and period; a replaced or deleted one stays
 * as history. `inputs` is the audit trail: the balances, rates, maps and settings it was built
 * from; `stale` is set when a sync finds the books changed since.
 */
export const consolidationPostings = pgTable(
  "consolidation_postings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id").notNull(),
    periodKind: text("period_kind").$type<"month" | "quarter" | "year">().notNull(),
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    periodLabel: text("period_label").notNull(),
    /**
     * refused: QuickBooks answered and refused the entry (nothing was created). The row is kept,
     * with its generation, so the next attempt is a new generation with a new requestid: QuickBooks
     * replays the first answer to a requestid, refusals included.
     */
    status: text("status").$type<"posting" | "posted" | "deleted" | "replaced" | "refused">().notNull(),
    /** Bumped for each new entry of the same subsidiary and period, so its requestid is new. */
    generation: integer("generation").notNull().default(0),
    docNumber: text("doc_number").notNull(),
    requestId: text("request_id").notNull(),
    journalEntryId: text("journal_entry_id"),
    journalEntryUrl: text("journal_entry_url"),
    lines: jsonb("lines").$type<{ account: string; name: string; debit: number; credit: number }[]>().notNull(),
    inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull(),
    runId: uuid("run_id"),
    postedBy: uuid("posted_by").references(() => users.id, { onDelete: "set null" }),
    postedAt: timestamp("posted_at", { withTimezone: true }),
    stale: jsonb("stale").$type<{ detectedAt: string; changes: { account: string; name: string; posted: number; now: number }[] }>(),
    /**
     * Set just before GroupLedger asks QuickBooks to delete the entry (a replacement), cleared if
     * QuickBooks refuses: the parent's webhook handler then knows the Delete it is told of is
     * GroupLedger's own, even when it arrives before the row is marked replaced.
     */
    retiringAt: timestamp("retiring_at", { withTimezone: true }),
    /**
     * A run's attempt sent in one of QuickBooks' batch requests (posting/batch.ts): the batch's
     * requestid, the item's place in it (its bId) and the entry exactly as sent, so that resuming
     * any pending row of the batch sends the same request again and QuickBooks replays its answer.
     */
    batchRequestId: text("batch_request_id"),
    batchIndex: integer("batch_index"),
    batchEntry: jsonb("batch_entry").$type<NewJournalEntry>(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("consolidation_postings_batch_idx").on(t.batchRequestId),
    uniqueIndex("consolidation_postings_live_key")
      .on(t.accountId, t.realmId, t.periodFrom, t.periodTo)
      .where(sql`status in ('posting', 'posted')`),
    index("consolidation_postings_realm_idx").on(t.accountId, t.realmId, t.periodFrom),
  ],
);

/**
 * A multi-period run: subsidiaries × months posted in order by the `consolidation.run` job. A
 * `replace` run (modules/reconsolidation) replaces approved changed entries in order instead: each
 * item names the posting it replaces.
 */
export const consolidationRuns = pgTable(
  "consolidation_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"post" | "replace">().notNull().default("post"),
    /** Who approved it: a user (createdBy), or the group's nightly setting (`nightly`). */
    trigger: text("trigger").$type<"user" | "nightly">().notNull().default("user"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    realmIds: jsonb("realm_ids").$type<string[]>().notNull(),
    fromMonth: text("from_month").notNull(),
    toMonth: text("to_month").notNull(),
    status: text("status").$type<"queued" | "running" | "pausing" | "paused" | "succeeded" | "finished_with_failures" | "failed">().notNull(),
    jobId: uuid("job_id"),
    message: text("message"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("consolidation_runs_account_idx").on(t.accountId, t.createdAt)],
);

export const consolidationRunItems = pgTable(
  "consolidation_run_items",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => consolidationRuns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    realmId: text("realm_id").notNull(),
    month: text("month").notNull(),
    status: text("status").$type<"pending" | "posted" | "skipped" | "failed">().notNull().default("pending"),
    message: text("message"),
    postingId: uuid("posting_id"),
    /** A replace run's item: the changed posting it replaces (its realm and period are the item's). */
    replaces: uuid("replaces"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * An intercompany pair (issue 9): an account in one group company against an account in
 * another, eliminated on consolidation after translation; the difference goes to the parent's
 * FX or CTA account and is shown.
 */
export const eliminationPairs = pgTable(
  "elimination_pairs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind").$type<"receivablePayable" | "revenueExpense">().notNull(),
    leftRealmId: text("left_realm_id").notNull(),
    leftAccountId: text("left_account_id").notNull(),
    /** A side limited to one customer or vendor ('' and '' for the whole account). */
    leftNameKind: text("left_name_kind").$type<NameKind | "">().notNull().default(""),
    leftNameId: text("left_name_id").notNull().default(""),
    rightRealmId: text("right_realm_id").notNull(),
    rightAccountId: text("right_account_id").notNull(),
    rightNameKind: text("right_name_kind").$type<NameKind | "">().notNull().default(""),
    rightNameId: text("right_name_id").notNull().default(""),
    differenceTo: text("difference_to").$type<"fx" | "cta">().notNull().default("fx"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("elimination_pairs_account_idx").on(t.accountId),
    uniqueIndex("elimination_pairs_sides_key").on(t.accountId, t.leftRealmId, t.leftAccountId, t.leftNameKind, t.leftNameId, t.rightRealmId, t.rightAccountId, t.rightNameKind, t.rightNameId),
  ],
);

export type NameKind = "Customer" | "Vendor";

/**
 * A company's customers and vendors (QBO "names"), synced with its chart: an intercompany pair can
 * take the part of an account booked against the one that stands for a group member.
 * balancesFrom/Through: the months whose per-name balances (name_balances) a sync has fetched;
 * null until a pair first names it.
 */
export const qboNames = pgTable(
  "qbo_names",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    kind: text("kind").$type<NameKind>().notNull(),
    qboId: text("qbo_id").notNull(),
    displayName: text("display_name").notNull(),
    active: boolean("active").notNull().default(true),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
    balancesFrom: text("balances_from"),
    balancesThrough: text("balances_through"),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.kind, t.qboId] })],
);

/**
 * Monthly amounts of each account booked against one customer or vendor, from QBO's BalanceSheet
 * and ProfitAndLoss filtered by that name; same conventions as monthly_balances (debit positive,
 * closing balances and monthly activity). Written only by a sync, which updates its company as it
 * goes, so the report cache's data version moves with it (migration 0013).
 */
export const nameBalances = pgTable(
  "name_balances",
  {
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    nameKind: text("name_kind").$type<NameKind>().notNull(),
    nameId: text("name_id").notNull(),
    qboAccountId: text("qbo_account_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    kind: text("kind").$type<"closing" | "activity">().notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.nameKind, t.nameId, t.qboAccountId, t.month] })],
);

/**
 * A counter per account bumped by database triggers (migration 0013) whenever anything a
 * consolidated report reads changes: companies, charts, maps, rates, CTA and historical settings,
 * elimination pairs, the locked period. The report cache is keyed by it, so a warm report costs
 * one primary-key lookup and is never stale, whichever process made the change.
 */
export const dataVersions = pgTable("data_versions", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/**
 * How the parent acquired a subsidiary (issue 16): what it paid, for what share, the equity it
 * bought (in the subsidiary's currency, as its books showed it at the end of the acquisition
 * month) and the fair-value adjustments. The consolidation eliminates the investment against that
 * equity, with goodwill (or a bargain purchase gain) and the NCI at acquisition. The share owned
 * today is companies.ownership_percent.
 */
export const acquisitions = pgTable(
  "acquisitions",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id")
      .primaryKey()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    acquiredOn: date("acquired_on", { mode: "string" }).notNull(),
    /** The consideration, in the parent's currency, minor units. */
    consideration: bigint("consideration", { mode: "number" }).notNull(),
    investmentAccountId: text("investment_account_id").notNull(),
    nciMeasurement: text("nci_measurement").$type<"proportionateShare" | "fairValue">().notNull().default("proportionateShare"),
    nciFairValue: bigint("nci_fair_value", { mode: "number" }),
    /** Equity accounts of the subsidiary at acquisition: local minor units, debit positive. */
    equityAtAcquisition: jsonb("equity_at_acquisition").$type<{ accountId: string; localAmount: number }[]>().notNull(),
    fairValueAdjustments: jsonb("fair_value_adjustments").$type<FairValueAdjustmentRecord[]>().notNull().default([]),
    /** Later purchases and sales of shares that keep control, in date order (companies.ownership_percent is the share at acquisition). */
    ownershipChanges: jsonb("ownership_changes").$type<OwnershipChangeRecord[]>().notNull().default([]),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("acquisitions_account_idx").on(t.accountId)],
);

/**
 * Inventory one group company bought from another and still held at a month-end (issue 16):
 * at the transfer price in the buyer's currency, with the seller's margin. A period's
 * consolidation eliminates the unrealised profit in what is held at its end and realises what was
 * held at its start (the month before). One row per seller, buyer and month.
 */
export const intragroupInventory = pgTable(
  "intragroup_inventory",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    sellerRealmId: text("seller_realm_id").notNull(),
    buyerRealmId: text("buyer_realm_id").notNull(),
    /** YYYY-MM: held at this month's end. */
    month: text("month").notNull(),
    /** Buyer's currency, minor units, at the transfer price. */
    inventory: bigint("inventory", { mode: "number" }).notNull(),
    /** The seller's profit as a fraction of the transfer price, exact decimal text ("0.25"). */
    margin: text("margin").notNull(),
    inventoryAccountId: text("inventory_account_id").notNull(),
    cogsAccountId: text("cogs_account_id").notNull(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("intragroup_inventory_key").on(t.accountId, t.sellerRealmId, t.buyerRealmId, t.month)],
);

/**
 * Where the parent books a subsidiary's dividends (issue 16): its income account and, when one
 * account holds several subsidiaries' dividends, the customer standing for the subsidiary (its
 * per-name balances tell what the parent booked for each).
 */
export const dividendEliminations = pgTable("dividend_eliminations", {
  realmId: text("realm_id")
    .primaryKey()
    .references(() => companies.realmId, { onDelete: "cascade" }),
  accountId: uuid("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  incomeAccountId: text("income_account_id").notNull(),
  /** The parent's customer standing for the subsidiary ('' for the whole account). */
  nameId: text("name_id").notNull().default(""),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Requests made to QuickBooks, per company (realm) per UTC day, reads and writes apart (what Intuit
 * meters and what it does not: packages/qbo `callKind`), for the Companies screen's counts and the
 * warning before a group passes Intuit's monthly read allowance (modules/qbo/usage.ts). Each
 * process adds what it counted every few seconds (an upsert that adds), so several processes share
 * a row. No reference to `companies`: a company is read before it is saved (connect), and its calls
 * were made whether or not it stays.
 */
export const qboCallCounts = pgTable(
  "qbo_call_counts",
  {
    realmId: text("realm_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    reads: integer("reads").notNull().default(0),
    writes: integer("writes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.day] })],
);

/**
 * The cash-flow class a group chose for one of its parent's balance-sheet accounts (issue 23,
 * statements/cash-flow-classes.ts): cash, operating, nonCash, investing or financing. An account
 * without a row has the default of its QuickBooks type.
 */
export const cashFlowClasses = pgTable(
  "cash_flow_classes",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    qboAccountId: text("qbo_account_id").notNull(),
    cashFlowClass: text("cash_flow_class").notNull(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.realmId, t.qboAccountId] })],
);

/**
 * Board packs (issue 23, modules/board-pack): each PDF generated by a `board-pack.generate` job,
 * kept so a second download does not compute it again. `pdf` is the file as base64 text (the same
 * on both drivers), `layout` the pages as the web's printable page shows them. A pack is reused
 * while the account's data version is the one it was made at.
 */
export const boardPacks = pgTable(
  "board_packs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    jobId: uuid("job_id").notNull(),
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    compare: text("compare").notNull(),
    dataVersion: bigint("data_version", { mode: "number" }).notNull(),
    fileName: text("file_name").notNull(),
    pdf: text("pdf").notNull(),
    layout: jsonb("layout").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("board_packs_job_idx").on(t.jobId), index("board_packs_account_idx").on(t.accountId, t.periodFrom, t.periodTo, t.compare, t.dataVersion)],
);

/**
 * The group's monthly board pack mail (admins, Account settings): on the set day of each month
 * (UTC) the pack of the month just ended goes to each recipient, every one a verified address
 * of the team. `last_month` is the last month claimed (a conditional update, as the nightly sync's
 * day), so any number of processes send a month's pack once.
 */
export const boardPackSchedules = pgTable("board_pack_schedules", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  dayOfMonth: integer("day_of_month").notNull().default(1),
  compare: text("compare").notNull().default("prior_period"),
  recipients: jsonb("recipients").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  lastMonth: text("last_month"),
  /** Where the web app was reached when the schedule was saved: the base of the unsubscribe link in each pack mail when PUBLIC_URL is not set. */
  linkOrigin: text("link_origin"),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type BoardPackRecipientState = "pending" | "confirmed" | "declined";

/**
 * Board pack recipients outside the team (double opt-in): an address an admin chose that is not one
 * of the team's verified addresses is `pending` until the person opens the mailed link and
 * confirms (`confirmed`), or declines or unsubscribes (`declined`: kept, so it cannot be added back
 * by an admin). Only the keyed hash of the link's token is stored, with its expiry; a resend
 * replaces both. Nothing is mailed to a pending or declined address.
 */
export const boardPackRecipients = pgTable(
  "board_pack_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    state: text("state").$type<BoardPackRecipientState>().notNull().default("pending"),
    tokenHash: text("token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    requestedBy: uuid("requested_by").references(() => users.id, { onDelete: "set null" }),
    /** When the latest confirmation mail was sent. */
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    sendCount: integer("send_count").notNull().default(1),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("board_pack_recipients_account_email_key").on(t.accountId, t.email), uniqueIndex("board_pack_recipients_token_key").on(t.tokenHash)],
);

/**
 * Budgets (issue 23): one company's budget for a profit and loss account and month, in the
 * company's currency, integer minor units in the account's natural sign (income and expenses
 * positive), as read from its QuickBooks budget or imported from CSV. An import replaces the
 * company's lines for the months it covers, all or nothing.
 */
export const budgetLines = pgTable(
  "budget_lines",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    realmId: text("realm_id")
      .notNull()
      .references(() => companies.realmId, { onDelete: "cascade" }),
    qboAccountId: text("qbo_account_id").notNull(),
    /** The first month the amount is for. */
    month: date("month", { mode: "string" }).notNull(),
    /** How many months from `month` the amount covers: 1 (monthly), 3 (a quarter), 12 (a year); never spread over them. */
    months: integer("months").notNull().default(1),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    /** "quickbooks" (a Budget entity) or "csv". */
    source: text("source").$type<"quickbooks" | "csv">().notNull(),
    /** The QuickBooks budget's name, or the CSV file's. */
    sourceName: text("source_name").notNull(),
    importedBy: uuid("imported_by").references(() => users.id, { onDelete: "set null" }),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.realmId, t.qboAccountId, t.month] })],
);

/** The budget rate of a currency for one of the parent's fiscal years: parent units per one unit, exact decimal text. */
export const budgetRates = pgTable(
  "budget_rates",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    fiscalYear: integer("fiscal_year").notNull(),
    currency: text("currency").notNull(),
    rate: text("rate").notNull(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.fiscalYear, t.currency] })],
);
