/**
 * A business failure that the HTTP layer renders as Intuit's standard Fault envelope. Domain code
 * throws these; it never builds responses itself.
 */
import type { FaultError } from "./faults.ts";

export class QboFault extends Error {
  override readonly name = "QboFault";

  constructor(
    readonly status: number,
    readonly type: string,
    readonly errors: readonly FaultError[],
  ) {
    super(errors[0]?.message ?? type);
  }
}

export function validationFault(code: string, message: string, detail: string, element?: string): QboFault {
  return new QboFault(400, "ValidationFault", [{ code, message, detail, element }]);
}

/**
 * Intuit's wording for an unknown reference (e.g. an AccountRef). Customers and vendors are
 * "Names" (the wording integrations report for a CustomerRef/VendorRef that does not exist).
 */
export function invalidReference(kind: "Accounts" | "Klasses" | "Depts" | "Names", id: string): QboFault {
  return validationFault("2500", "Invalid Reference Id", `Invalid Reference Id : ${kind} element id ${id} not found`);
}

/**
 * Code 6000 with "A business validation error has occurred while processing your request" is
 * Intuit's documented envelope for business-rule failures (unbalanced journal entries among them);
 * the Detail sentence after "Business Validation Error: " is ours, not a verified Intuit string.
 */
export function businessValidation(detail: string): QboFault {
  return validationFault(
    "6000",
    "A business validation error has occurred while processing your request",
    `Business Validation Error: ${detail}`,
  );
}

export function objectNotFound(entity: string, id: string): QboFault {
  return validationFault(
    "610",
    "Object Not Found",
    `Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees. (${entity} ${id})`,
  );
}

/** The wording of the recorded batch item fault 5010. */
export function staleObject(): QboFault {
  return validationFault(
    "5010",
    "Stale Object Error",
    "Stale Object Error : You and GroupLedger were working on this at the same time. GroupLedger finished before you did, so your work was not saved.",
  );
}

/** The recorded 6240 (errors/400_ValidationFault_6240...). */
export function duplicateName(): QboFault {
  return validationFault("6240", "Duplicate Name Exists Error", "The name supplied already exists. : null");
}

/** Intuit's answer for an operation it does not serve (errors/400_ValidationFault_500_unsupported_operation). */
export function unsupportedOperationFault(path: string): QboFault {
  return new QboFault(400, "ValidationFault", [{ message: "Unsupported Operation", detail: `Operation Could not find resource for relative : ${path} is not supported.`, code: "500" }]);
}

export function invalidQuery(detail: string): QboFault {
  return validationFault("4001", "Invalid query", detail);
}

/** Intuit's 2010 wording for a property it does not accept. */
export function unsupportedProperty(name: string, why: string): QboFault {
  return validationFault("2010", "Request has invalid or unsupported property", `Property Name:${name} ${why}`);
}

/** Intuit's 6200 "Account Period Closed": a transaction dated on or before the books' closing date. */
export function accountPeriodClosed(): QboFault {
  return validationFault(
    "6200",
    "Account Period Closed, Cannot Update Through Services API",
    "The account period has closed and the account books cannot be updated through the QBO Services API. Please use the QBO website to make these changes.",
  );
}

/**
 * A body property the entity's schema does not have: QuickBooks' JSON binder refuses it with 2010
 * and this Detail (errors/400_ValidationFault_2010_unknown_property__minimul-qbo_api.json, an
 * Invoice with "BadJson"; the recording's list of known properties is cut short by Intuit with
 * " [truncated]]", so the list here is the emulator's, in its own order).
 */
export function unrecognizedField(field: string, entity: string, known: readonly string[]): QboFault {
  const list = known.map((k) => `"${k}"`).join(", ");
  return validationFault(
    "2010",
    "Request has invalid or unsupported property",
    `Property Name:Unrecognized field "${field}" (class com.intuit.schema.finance.v3.${entity}), not marked as ignorable (${known.length} known properties: ${list}])\n specified is unsupported or invalid`,
  );
}

/** A query page larger than QuickBooks serves (Intuit: "The maximum number of entities that can be returned in a response is 1000"). */
export function maxResultsTooLarge(n: number): QboFault {
  return invalidQuery(`QueryValidationError: value ${n} is too large. Max allowed value is 1000`);
}

/**
 * CDC looks back at most 30 days (Intuit's "Change data capture operation" page: "CDC operations can
 * track changes within the last 30 days"). The Detail is the sentence QuickBooks answers with, as
 * reported by an integration (Wish-Org/QuickBooksSharp issue #19); the code and Message are the
 * 2010 ones QuickBooks uses for a refused request parameter (not verified for this case).
 */
export function cdcWindowExceeded(changedSince: string): QboFault {
  return validationFault(
    "2010",
    "Request has invalid or unsupported property",
    `Operation cdc with changedSince date ${changedSince} which is older than fixed days is not supported.`,
  );
}
