/**
 * Multicurrency entities written through the API, as Intuit's API reference documents them:
 * CompanyCurrency (create from `Code`; a full update with Id and SyncToken, where `Active: false`
 * is the documented way to delete) and ExchangeRate (an update naming SourceCurrencyCode, Rate and
 * AsOfDate; TargetCurrencyCode defaults to the home currency, the only target kept here; a rate
 * for the home currency is refused). Both only in a company with
 * multicurrency on (Preferences.CurrencyPrefs.MultiCurrencyEnabled). Where QuickBooks' wording of
 * a refusal is not recorded the Detail is ours, in the recorded 6000 envelope.
 */
import { idText } from "./accounts.ts";
import { isIsoDate } from "./calendar.ts";
import type { Json } from "./entities.ts";
import { isCurrencyCode } from "./entities.ts";
import type { CompanyCurrencyRow, CompanyLedger, ExchangeRateRow } from "./ledger.ts";
import { formatRate, parseRate } from "./money.ts";
import { businessValidation, objectNotFound, staleObject, unsupportedProperty, validationFault } from "./qboFault.ts";

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function requireMulticurrency(ledger: CompanyLedger): void {
  if (!ledger.profile.multiCurrency) {
    throw businessValidation("Multicurrency is not enabled for this company. Turn it on in Account and Settings > Advanced > Currency before adding currencies or exchange rates.");
  }
}

function codeOf(body: Json, key: string): string {
  const raw = body[key];
  const code = typeof raw === "string" ? raw.trim().toUpperCase() : "";
  if (!isCurrencyCode(code)) throw unsupportedProperty(key, `value ${JSON.stringify(raw ?? null)} must be an ISO 4217 currency code such as EUR`);
  return code;
}

/** `POST companycurrency` without an Id: turns a foreign currency on. */
export function createCompanyCurrency(ledger: CompanyLedger, body: unknown, now: Date): CompanyCurrencyRow {
  if (!isObject(body)) throw unsupportedProperty("CompanyCurrency", "the body must be a CompanyCurrency object");
  requireMulticurrency(ledger);
  const code = codeOf(body, "Code");
  if (code === ledger.profile.currency) throw businessValidation(`${code} is the home currency of this company; only foreign currencies are added.`);
  if (ledger.currencyByCode(code) !== undefined) throw businessValidation(`The currency ${code} is already in this company's list of currencies.`);
  const ms = now.getTime();
  const row: CompanyCurrencyRow = { id: ledger.nextId(ledger.currencies), code, active: true, createTime: ms, updateTime: ms, syncToken: 0 };
  ledger.addCurrency(row);
  return row;
}

/**
 * `POST companycurrency` with Id and SyncToken: a full update ("writable fields omitted from the
 * request body are set to NULL", so `Active` left out is true again). The code cannot change.
 * A currency an active account holds cannot be turned off (QuickBooks' help: a currency can be
 * deleted only when nothing uses it). An update changing nothing keeps the SyncToken.
 */
export function updateCompanyCurrency(ledger: CompanyLedger, body: unknown, now: Date): CompanyCurrencyRow {
  if (!isObject(body)) throw unsupportedProperty("CompanyCurrency", "the body must be a CompanyCurrency object");
  const id = idText(body["Id"]);
  const syncToken = idText(body["SyncToken"]);
  if (id === undefined || syncToken === undefined) {
    throw validationFault("2020", "Required param missing, need to supply the required value for the API", "Required parameter Id and SyncToken are missing in the request");
  }
  const current = ledger.currencies.find((c) => c.id === id);
  if (current === undefined) throw objectNotFound("CompanyCurrency", id);
  if (syncToken !== String(current.syncToken)) throw staleObject();
  if (codeOf(body, "Code") !== current.code) throw unsupportedProperty("Code", `a company currency's code cannot be changed (this one is ${current.code})`);
  const activeRaw = body["Active"] ?? true;
  if (typeof activeRaw !== "boolean") throw unsupportedProperty("Active", `value ${JSON.stringify(activeRaw)} must be true or false`);
  if (activeRaw === current.active) return current;
  if (!activeRaw && ledger.accounts.some((a) => a.active && a.currency === current.code)) {
    throw businessValidation(`The currency ${current.code} is used by an active account and cannot be made inactive.`);
  }
  const updated: CompanyCurrencyRow = { ...current, active: activeRaw, updateTime: now.getTime(), syncToken: current.syncToken + 1 };
  ledger.replaceCurrency(updated);
  return updated;
}

/**
 * `POST exchangerate`: sets the rate of SourceCurrencyCode into TargetCurrencyCode (default: the
 * home currency) on AsOfDate. A new date starts at SyncToken 0 (Intuit's update example sends
 * and gets back "0" for a date that had no rate); replacing a stored rate needs its SyncToken
 * (else the recorded 5010) and bumps it. The source must be one of the company's active currencies.
 */
export function updateExchangeRate(ledger: CompanyLedger, body: unknown, now: Date): ExchangeRateRow {
  if (!isObject(body)) throw unsupportedProperty("ExchangeRate", "the body must be an ExchangeRate object");
  requireMulticurrency(ledger);
  const home = ledger.profile.currency;
  const source = codeOf(body, "SourceCurrencyCode");
  const target = body["TargetCurrencyCode"] === undefined || body["TargetCurrencyCode"] === null ? home : codeOf(body, "TargetCurrencyCode");
  const asOfDate = body["AsOfDate"];
  if (typeof asOfDate !== "string" || !isIsoDate(asOfDate)) throw unsupportedProperty("AsOfDate", `value ${JSON.stringify(asOfDate ?? null)} is required, a date (YYYY-MM-DD)`);
  const rawRate = body["Rate"];
  const given = typeof rawRate === "number" || typeof rawRate === "string" ? parseRate(String(rawRate)) : undefined;
  if (given === undefined || given <= 0n) throw unsupportedProperty("Rate", `value ${JSON.stringify(rawRate ?? null)} is required, a positive number with at most six decimals`);
  if (source === home) throw businessValidation(`An exchange rate cannot be set for the home currency (${home}).`);
  // Intuit stores a rate with source = target as 1; the emulator keeps rates into the home
  // currency only (what transactions convert with), so any other target is refused.
  if (target !== home) throw unsupportedProperty("TargetCurrencyCode", `value ${target} must be the home currency (${home})`);
  const currency = ledger.currencyByCode(source);
  if (currency === undefined || !currency.active) throw businessValidation(`${source} is not an active currency of this company; add it (CompanyCurrency) first.`);

  const stored = ledger.exchangeRateOn(source, asOfDate);
  const syncToken = idText(body["SyncToken"]);
  if (stored !== undefined && syncToken !== undefined && syncToken !== String(stored.syncToken ?? 0)) throw staleObject();
  const row: ExchangeRateRow = {
    source,
    target,
    asOfDate,
    rate: formatRate(given),
    updateTime: now.getTime(),
    syncToken: stored === undefined ? 0 : (stored.syncToken ?? 0) + 1,
  };
  ledger.putExchangeRate(row);
  return row;
}
