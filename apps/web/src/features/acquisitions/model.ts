import {
  acquisitionInputSchema,
  calendarDateSchema,
  ownershipPercentSchema,
  type AcquisitionBody,
  type AcquisitionFigures,
  type AcquisitionInput,
  type fairValueKinds,
  type nciMeasurements,
} from "@groupledger/contract";
import { currencyExponent, formatAmount, lastDayOfMonth, minorToDecimal } from "@groupledger/domain";
import { formatDate, formatMonth } from "../companies/format.ts";
import { parseAmount } from "../cta/model.ts";
import { chartAccountLabel as accountLabel } from "@groupledger/domain";

export type NciMeasurement = (typeof nciMeasurements)[number];
export type FairValueKind = (typeof fairValueKinds)[number];

export const NCI_MEASUREMENTS: readonly { value: NciMeasurement; label: string; explanation: string }[] = [
  {
    value: "proportionateShare",
    label: "Proportionate share of net assets",
    explanation: "The NCI's percentage of the identifiable net assets at acquisition (IFRS 3.19); goodwill is the parent's only.",
  },
  {
    value: "fairValue",
    label: "Fair value",
    explanation: "The NCI at its fair value at acquisition, so goodwill includes the NCI's share (IFRS 3.19, the only method under ASC 805-20-30-1).",
  },
];

export const FAIR_VALUE_KINDS: readonly { value: FairValueKind; label: string }[] = [
  { value: "intangible", label: "Intangible" },
  { value: "inventory", label: "Inventory" },
  { value: "ppe", label: "PP&E" },
  { value: "other", label: "Other" },
];

/** One equity account's amount at acquisition, as typed: CREDIT POSITIVE (share capital of 100,000 reads 100000.00). */
export interface EquityLineForm {
  accountId: string;
  name: string;
  acctNum: string | null;
  localAmount: string;
}

export interface FairValueRowForm {
  /** Stable React key of a row the user may remove; never sent. */
  key: string;
  description: string;
  kind: FairValueKind;
  assetAccountId: string | null;
  /** As typed, in the subsidiary's currency; an uplift is positive. */
  amount: string;
  usefulLifeMonths: string;
  expenseAccountId: string | null;
}

export interface OwnershipChangeForm {
  /** Stable React key of a row the user may remove; never sent. */
  key: string;
  effectiveOn: string;
  /** The parent's share after the change, as typed. */
  ownershipPercent: string;
  /** As typed, in the parent's currency. */
  consideration: string;
  /** Where the parent booked it; null: the investment account. */
  accountId: string | null;
}

/**
 * The form's values. Their paths are the API's (`equityAtAcquisition.0.localAmount`,
 * `fairValueAdjustments.1.usefulLifeMonths`), so the contract's and the server's messages land
 * on the inputs that caused them.
 */
export interface AcquisitionForm {
  acquiredOn: string;
  ownershipPercent: string;
  consideration: string;
  investmentAccountId: string | null;
  nciMeasurement: NciMeasurement;
  nciFairValue: string;
  equityAtAcquisition: EquityLineForm[];
  fairValueAdjustments: FairValueRowForm[];
  ownershipChanges: OwnershipChangeForm[];
}

export type FieldErrors = Record<string, string>;

export interface AccountOption {
  accountId: string;
  name: string;
  acctNum: string | null;
}

/** Number · full name, or the full name alone without numbers (one rule for every screen: the domain's). */
export { accountLabel };

let nextKey = 0;
/** A new, empty fair-value adjustment row. */
export function newAdjustment(): FairValueRowForm {
  nextKey += 1;
  return { key: `fva-${nextKey}`, description: "", kind: "intangible", assetAccountId: null, amount: "", usefulLifeMonths: "", expenseAccountId: null };
}

/** A new, empty change in ownership. */
export function newOwnershipChange(): OwnershipChangeForm {
  nextKey += 1;
  return { key: `oc-${nextKey}`, effectiveOn: "", ownershipPercent: "", consideration: "", accountId: null };
}

/**
 * The form for an acquisition as saved or proposed (or an empty one): every equity account of the
 * subsidiary gets a row, in the chart's order, with its amount when the acquisition states one;
 * a stated line whose account is no longer in the chart is kept after them, so nothing is lost.
 */
export function formOf(body: AcquisitionBody | null, equityAccounts: readonly AccountOption[], currency: string, parentCurrency: string, ownershipPercent = ""): AcquisitionForm {
  const local = currencyExponent(currency);
  const parent = currencyExponent(parentCurrency);
  const stated = new Map((body?.equityAtAcquisition ?? []).map((l) => [l.accountId, l]));
  // Equity is a credit, negative in the API: shown to the user as a positive figure.
  const amountOf = (accountId: string) => {
    const line = stated.get(accountId);
    return line ? minorToDecimal(-line.localAmount, local) : "";
  };
  const listed = new Set(equityAccounts.map((a) => a.accountId));
  return {
    acquiredOn: body?.acquiredOn ?? "",
    ownershipPercent: body?.ownershipPercent ?? ownershipPercent,
    consideration: body ? minorToDecimal(body.consideration, parent) : "",
    investmentAccountId: body?.investmentAccountId ?? null,
    nciMeasurement: body?.nciMeasurement ?? "proportionateShare",
    nciFairValue: body?.nciFairValue != null ? minorToDecimal(body.nciFairValue, parent) : "",
    equityAtAcquisition: [
      ...equityAccounts.map((a) => ({ accountId: a.accountId, name: a.name, acctNum: a.acctNum, localAmount: amountOf(a.accountId) })),
      ...(body?.equityAtAcquisition ?? [])
        .filter((l) => !listed.has(l.accountId))
        .map((l) => ({ accountId: l.accountId, name: l.name, acctNum: l.acctNum, localAmount: minorToDecimal(-l.localAmount, local) })),
    ],
    fairValueAdjustments: (body?.fairValueAdjustments ?? []).map((f) => ({
      ...newAdjustment(),
      description: f.description,
      kind: f.kind,
      assetAccountId: f.assetAccountId,
      amount: minorToDecimal(f.amount, local),
      usefulLifeMonths: String(f.usefulLifeMonths),
      expenseAccountId: f.expenseAccountId,
    })),
    ownershipChanges: (body?.ownershipChanges ?? []).map((c) => ({
      ...newOwnershipChange(),
      effectiveOn: c.effectiveOn,
      ownershipPercent: c.ownershipPercent,
      consideration: minorToDecimal(c.consideration, parent),
      accountId: c.accountId,
    })),
  };
}

/** True for a valid percentage of exactly 100: there is no NCI, so no NCI measurement to choose. */
export function whollyOwned(ownershipPercent: string): boolean {
  const text = ownershipPercent.trim();
  return ownershipPercentSchema.safeParse(text).success && Number(text) === 100;
}

const amountExample = (exponent: number) => (exponent === 0 ? "1,234,567" : `1,234,567.${"89".padEnd(exponent, "0").slice(0, exponent)}`);
const amountMessage = (what: string, currency: string, exponent: number) =>
  exponent === 0
    ? `Enter ${what} in whole ${currency}, such as ${amountExample(0)}.`
    : `Enter ${what} in ${currency} with at most ${exponent} decimal places, such as ${amountExample(exponent)}.`;

export interface BuiltInput {
  /** The PUT body; null while any field is wrong. */
  input: AcquisitionInput | null;
  /** Keyed by the form's paths. */
  errors: FieldErrors;
  /**
   * Rows left blank are not sent, so the body's equity line N is the form's row equityIndex[N]:
   * what maps the contract's and the server's paths back onto the table.
   */
  equityIndex: number[];
}

/** An error path of the body ("equityAtAcquisition.1.localAmount") as the form's path. */
export function formPath(path: string, equityIndex: readonly number[]): string {
  const m = /^equityAtAcquisition\.(\d+)(\..*)?$/.exec(path);
  if (!m) return path;
  const row = equityIndex[Number(m[1])];
  return row === undefined ? path : `equityAtAcquisition.${row}${m[2] ?? ""}`;
}

/** The server's field errors on the form's paths; the first message per path wins. */
export function placeErrors(fields: FieldErrors, equityIndex: readonly number[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const at = formPath(path, equityIndex);
    if (!(at in out)) out[at] = message;
  }
  return out;
}

/**
 * The form as the PUT body, with every error the server would give found first: money typed as
 * decimals becomes exact minor units in its currency (no floating point), equity goes back to
 * debit positive, the NCI fields follow the measurement (none at 100%), and then the contract's own
 * schema judges the whole, so its messages are the ones the user reads.
 */
export function buildInput(form: AcquisitionForm, currency: string, parentCurrency: string): BuiltInput {
  const errors: FieldErrors = {};
  const local = currencyExponent(currency);
  const parent = currencyExponent(parentCurrency);
  const money = (path: string, text: string, exponent: number, what: string, unit: string): number | null => {
    if (text.trim() === "") {
      errors[path] = `Enter ${what} in ${unit}.`;
      return null;
    }
    const minor = parseAmount(text, exponent);
    if (minor === null) errors[path] = amountMessage(what, unit, exponent);
    return minor;
  };

  const consideration = money("consideration", form.consideration, parent, "the consideration the parent paid", parentCurrency);
  const wholly = whollyOwned(form.ownershipPercent);
  const nciMeasurement: NciMeasurement = wholly ? "proportionateShare" : form.nciMeasurement;
  const nciFairValue = nciMeasurement === "fairValue" ? money("nciFairValue", form.nciFairValue, parent, "the NCI's fair value at acquisition", parentCurrency) : null;

  const equityIndex: number[] = [];
  const equityAtAcquisition: { accountId: string; localAmount: number }[] = [];
  form.equityAtAcquisition.forEach((line, i) => {
    if (line.localAmount.trim() === "") return;
    const credit = parseAmount(line.localAmount, local);
    if (credit === null) {
      errors[`equityAtAcquisition.${i}.localAmount`] = amountMessage(`the amount of ${line.name}`, currency, local);
      return;
    }
    equityIndex.push(i);
    equityAtAcquisition.push({ accountId: line.accountId, localAmount: credit === 0 ? 0 : -credit });
  });

  const fairValueAdjustments = form.fairValueAdjustments.map((f, i) => {
    const amount = money(`fairValueAdjustments.${i}.amount`, f.amount, local, "the adjustment", currency);
    const life = f.usefulLifeMonths.trim();
    return {
      description: f.description.trim(),
      kind: f.kind,
      assetAccountId: f.assetAccountId ?? "",
      amount: amount ?? 0,
      // Left to the contract: its messages say what a useful life is (blank and "abc" are not numbers).
      usefulLifeMonths: life === "" ? Number.NaN : Number(life),
      expenseAccountId: f.expenseAccountId ?? "",
    };
  });

  const ownershipChanges = form.ownershipChanges.map((c, i) => ({
    effectiveOn: c.effectiveOn.trim(),
    ownershipPercent: c.ownershipPercent.trim(),
    consideration: money(`ownershipChanges.${i}.consideration`, c.consideration, parent, "what was paid or received for the shares", parentCurrency) ?? 0,
    accountId: c.accountId,
  }));

  const input: AcquisitionInput = {
    acquiredOn: form.acquiredOn.trim(),
    ownershipPercent: form.ownershipPercent.trim(),
    consideration: consideration ?? 0,
    investmentAccountId: form.investmentAccountId ?? "",
    nciMeasurement,
    nciFairValue,
    equityAtAcquisition,
    fairValueAdjustments,
    ownershipChanges,
  };
  const checked = acquisitionInputSchema.safeParse(input);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const at = formPath(issue.path.map(String).join("."), equityIndex);
      // A field whose text could not be read already says so; a placeholder 0 must not add a second message.
      if (!(at in errors)) errors[at] = issue.message;
    }
  }
  return { input: Object.keys(errors).length === 0 ? input : null, errors, equityIndex };
}

/** The message the equity table shows for row i, whichever of its paths the error came on. */
export const equityRowError = <T>(errors: Readonly<Record<string, T>>, i: number): T | null =>
  errors[`equityAtAcquisition.${i}.localAmount`] ?? errors[`equityAtAcquisition.${i}.accountId`] ?? errors[`equityAtAcquisition.${i}`] ?? null;

const KNOWN_FIELD =
  /^(acquiredOn|ownershipPercent|consideration|investmentAccountId|nciMeasurement|nciFairValue|equityAtAcquisition(\.\d+(\.(localAmount|accountId))?)?|fairValueAdjustments\.\d+\.(description|kind|assetAccountId|amount|usefulLifeMonths|expenseAccountId)|ownershipChanges(\.\d+\.(effectiveOn|ownershipPercent|consideration|accountId))?)$/;

/** Messages no input shows (a path the form does not know): they go in the alert. */
export const unplacedErrors = (errors: FieldErrors): string[] => Object.entries(errors).filter(([path]) => !KNOWN_FIELD.test(path)).map(([, m]) => m);

/**
 * The date input's parser: only a real calendar date written YYYY-MM-DD, taken as written. (The
 * default reads text through `new Date`, which takes "2023-02-14" as UTC midnight, the 13th west
 * of Greenwich, and may roll "2023-02-30" into March.)
 */
export function parseDateText(text: string): string | null {
  const t = text.trim();
  return calendarDateSchema.safeParse(t).success ? t : null;
}

/** The parent's share once every change up to now is counted: the last change's, else the share acquired. */
export const currentHolding = (body: Pick<AcquisitionBody, "ownershipPercent" | "ownershipChanges">): string => body.ownershipChanges.at(-1)?.ownershipPercent ?? body.ownershipPercent;

export interface FigureLine {
  label: string;
  value: string;
  note: string | null;
  /** Goodwill or the bargain purchase gain: the result the others lead to. */
  result?: boolean;
}

/**
 * The acquisition's figures as the screen lists them. Amounts are credit positive in the parent's
 * currency; a negative goodwill is a bargain purchase, shown as the gain it is (IFRS 3.34, ASC
 * 805-30-25-2), never as a negative goodwill.
 */
export function figureLines(f: AcquisitionFigures, currency: string, parentCurrency: string, locale?: string): FigureLine[] {
  const money = (n: number | null) => (n === null ? "—" : formatAmount(n, parentCurrency, { locale }));
  const translated = currency !== parentCurrency;
  const rateLine: FigureLine =
    f.closingRate === null
      ? { label: "Closing rate", value: "Missing", note: `Enter the ${currency} closing rate for ${formatMonth(f.acquisitionMonth, locale)} on FOREX Management; the figures need it.` }
      : translated
        ? { label: "Closing rate", value: `1 ${currency} = ${f.closingRate} ${parentCurrency}`, note: "Equity at acquisition is translated at the acquisition month's closing rate." }
        : { label: "Closing rate", value: "1", note: `${currency} books: no translation.` };
  const goodwill: FigureLine =
    f.goodwill !== null && f.goodwill < 0
      ? {
          label: "Bargain purchase gain",
          value: money(-f.goodwill),
          note: "The parent paid less than its share of the net assets: a gain in profit at acquisition, after re-checking the figures (IFRS 3.34–36).",
          result: true,
        }
      : { label: "Goodwill", value: money(f.goodwill), note: "Consideration + NCI − net assets acquired (with the fair-value adjustments).", result: true };
  return [
    { label: "Acquisition month", value: formatMonth(f.acquisitionMonth, locale), note: `Takes effect at the month-end, ${formatDate(lastDayOfMonth(f.acquisitionMonth), locale)}.` },
    rateLine,
    { label: "Net assets acquired", value: money(f.netAssets), note: "The subsidiary's equity at acquisition, translated." },
    { label: "Fair-value adjustments", value: money(f.fairValueAdjustments), note: null },
    { label: "NCI at acquisition", value: money(f.nciAtAcquisition), note: null },
    goodwill,
  ];
}
