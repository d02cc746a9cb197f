/**
 * Creating and updating Customers and Vendors through the API, validated the way QBO validates
 * them. Customers, vendors (and, at Intuit, employees) are one list of "names": they share one id
 * sequence and one namespace of DisplayNames, so a name taken by a customer cannot be given to a
 * vendor (any case; inactive names included). A duplicate is the recorded 6240.
 * An update names the record by Id with its current SyncToken (else the recorded 5010) and is
 * either full (`sparse` false or absent: CompanyName left out is removed, Active left out is true)
 * or sparse (only the fields sent change).
 */
import { withoutDeletedSuffix } from "./deleted.ts";
import type { Json } from "./entities.ts";
import type { CompanyLedger, Party, PartyKind } from "./ledger.ts";
import { duplicateName, objectNotFound, staleObject, unsupportedProperty, validationFault } from "./qboFault.ts";

/** QBO's limit on DisplayName. */
export const MAX_DISPLAY_NAME = 500;
/** QBO's limit on CompanyName. */
export const MAX_COMPANY_NAME = 100;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function text(body: Json, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw unsupportedProperty(key, "must be a string");
  const t = v.trim();
  return t === "" ? undefined : t;
}

/** QBO builds a DisplayName from the person's name fields when none is sent. */
function displayNameOf(body: Json): string | undefined {
  const given = text(body, "DisplayName");
  if (given !== undefined) return given;
  const parts = ["Title", "GivenName", "MiddleName", "FamilyName", "Suffix"].map((k) => text(body, k)).filter((p): p is string => p !== undefined);
  return parts.length === 0 ? undefined : parts.join(" ");
}

function checkDisplayName(name: string | undefined): string {
  if (name === undefined) {
    throw validationFault(
      "2020",
      "Required param missing, need to supply the required value for the API",
      "Required parameter Either DisplayName or at least one of Title, GivenName, MiddleName, FamilyName, Suffix is missing in the request",
    );
  }
  if (name.length > MAX_DISPLAY_NAME) throw unsupportedProperty("DisplayName", `must be at most ${MAX_DISPLAY_NAME} characters`);
  // A colon separates a sub-customer's path in FullyQualifiedName; QBO refuses it in names.
  if (name.includes(":")) throw unsupportedProperty("DisplayName", "must not contain a colon (:)");
  return name;
}

function checkCompanyName(name: string | undefined): string | undefined {
  if (name !== undefined && name.length > MAX_COMPANY_NAME) throw unsupportedProperty("CompanyName", `must be at most ${MAX_COMPANY_NAME} characters`);
  return name;
}

function checkActive(v: unknown): boolean {
  if (typeof v !== "boolean") throw unsupportedProperty("Active", `value ${JSON.stringify(v)} must be true or false`);
  return v;
}

function checkCurrency(ledger: CompanyLedger, body: Json): void {
  const ref = body["CurrencyRef"];
  const code = isObject(ref) ? ref["value"] : undefined;
  if (ref !== undefined && code !== ledger.profile.currency) {
    throw unsupportedProperty("CurrencyRef", `the sandbox keeps every customer and vendor in the home currency (${ledger.profile.currency})`);
  }
}

/** DisplayNames are unique over customers and vendors together, in any case; `self` may keep its own. */
function checkUnique(ledger: CompanyLedger, displayName: string, self?: string): void {
  const wanted = displayName.toLowerCase();
  if (ledger.parties.some((p) => p.id !== self && p.displayName.toLowerCase() === wanted)) throw duplicateName();
}

/** Validates a create body and adds the customer or vendor; the caller persists and renders it. */
export function createParty(ledger: CompanyLedger, kind: PartyKind, body: unknown, now: Date): Party {
  if (!isObject(body)) throw unsupportedProperty(kind, `the body must be a ${kind} object`);
  if (body["Id"] !== undefined) throw unsupportedProperty("Id", `must not be sent when creating a ${kind}; to update one, send its Id with its SyncToken`);
  const displayName = checkDisplayName(displayNameOf(body));
  const companyName = checkCompanyName(text(body, "CompanyName"));
  const active = body["Active"] === undefined || body["Active"] === null ? true : checkActive(body["Active"]);
  checkCurrency(ledger, body);
  checkUnique(ledger, displayName);
  const ms = now.getTime();
  const party: Party = {
    id: ledger.nextPartyId(),
    kind,
    displayName,
    ...(companyName === undefined ? {} : { companyName }),
    active,
    createTime: ms,
    updateTime: ms,
    syncToken: 0,
  };
  ledger.addParty(party);
  return party;
}

function idText(v: unknown): string | undefined {
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return String(v);
  return undefined;
}

/**
 * Validates a full or sparse update and replaces the record. Like QBO, an update that changes
 * nothing keeps the SyncToken and LastUpdatedTime; any change bumps both.
 */
export function updateParty(ledger: CompanyLedger, kind: PartyKind, body: unknown, now: Date): Party {
  if (!isObject(body)) throw unsupportedProperty(kind, `the body must be a ${kind} object`);
  const id = idText(body["Id"]);
  const syncToken = idText(body["SyncToken"]);
  if (id === undefined || syncToken === undefined) {
    throw validationFault("2020", "Required param missing, need to supply the required value for the API", "Required parameter Id and SyncToken are missing in the request");
  }
  if (!/^\d+$/.test(id)) throw validationFault("2030", "Invalid ID", `Id should be a valid number. Supplied value:${id}`, "Id");
  const current = ledger.party(id);
  if (current === undefined || current.kind !== kind) throw objectNotFound(kind, id);
  if (syncToken !== String(current.syncToken)) throw staleObject();
  const sparse = body["sparse"] ?? false;
  if (typeof sparse !== "boolean") throw unsupportedProperty("sparse", `value ${JSON.stringify(sparse)} must be true or false`);
  checkCurrency(ledger, body);
  const given = (key: string): boolean => body[key] !== undefined;
  const nameGiven = ["DisplayName", "Title", "GivenName", "MiddleName", "FamilyName", "Suffix"].some(given);

  // An inactive name's DisplayName comes back with " (deleted)"; sent back, it is the plain name.
  const displayName = sparse && !nameGiven ? current.displayName : withoutDeletedSuffix(checkDisplayName(displayNameOf(body)));
  const companyName = sparse && !given("CompanyName") ? current.companyName : checkCompanyName(text(body, "CompanyName"));
  const active = given("Active") && body["Active"] !== null ? checkActive(body["Active"]) : sparse ? current.active : true;
  checkUnique(ledger, displayName, id);

  if (displayName === current.displayName && companyName === current.companyName && active === current.active) return current;
  const updated: Party = {
    id,
    kind,
    displayName,
    ...(companyName === undefined ? {} : { companyName }),
    active,
    createTime: current.createTime,
    updateTime: now.getTime(),
    syncToken: current.syncToken + 1,
  };
  ledger.replaceParty(updated);
  return updated;
}
