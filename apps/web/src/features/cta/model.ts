import type { CompanyAccount, CtaSettings, CtaSubsidiary, CtaUpdate } from "@groupledger/contract";
import { CTA_ACCOUNT_DEFAULT_NAME, ownershipPercentSchema, type dividendRatePolicies, type translationMethods } from "@groupledger/contract";
import {
  ctaAccountProblem,
  currencyExponent,
  mulDivRound,
  normalizeRate,
  parseRate,
  RATE_MESSAGE,
  translationFactor,
} from "@groupledger/domain";
import { chartAccountLabel as accountLabel } from "@groupledger/domain";
import { chartAccount } from "../mapping/model.ts";

export type DividendRatePolicy = (typeof dividendRatePolicies)[number];

/** The two ways dividends can be translated, with the one line that tells them apart. */
export const DIVIDEND_POLICIES: readonly { value: DividendRatePolicy; label: string; explanation: string }[] = [
  {
    value: "declarationDate",
    label: "Rate on the declaration date",
    explanation: "Each dividend is translated at the exchange rate of the day it was declared, the usual IAS 21 / ASC 830 treatment.",
  },
  {
    value: "profitPeriod",
    label: "Rate of the period whose profit is distributed",
    explanation: "Each dividend is translated at the average rate of the period that earned the profit it pays out, so that profit leaves retained earnings at the rate it came in.",
  },
];

export type TranslationMethod = (typeof translationMethods)[number];

/** IAS 21 / ASC 830's two methods, with what each does to the balance sheet and where the difference goes. */
export const TRANSLATION_METHODS: readonly { value: TranslationMethod; label: string; explanation: string }[] = [
  {
    value: "currentRate",
    label: "Current rate",
    explanation: "Assets and liabilities at the closing rate, income and expenses at the average rate; the difference is the CTA, kept in equity.",
  },
  {
    value: "temporal",
    label: "Temporal (remeasurement)",
    explanation:
      "Monetary items at the closing rate, non-monetary items (inventory, fixed assets, prepayments) at their historical rates; the difference goes to profit. For a subsidiary whose functional currency is the parent's.",
  },
];

/** A contributed-equity account is translated at a historical rate or at a translated amount, never both. */
export type HistoricalMode = "rate" | "amount";

export interface EquityRowForm {
  accountId: string;
  name: string;
  acctNum: string | null;
  /** Debit-positive local minor units; null before the first sync. */
  localAmount: number | null;
  mode: HistoricalMode;
  /** As typed. */
  rate: string;
  /** As typed: a positive figure on the balance's own side (credit for share capital). */
  amount: string;
}

/** A subsidiary's own settings; the CTA account is the group's (chosen once, above the subsidiaries). */
export interface CtaForm {
  ownershipPercent: string;
  dividendRatePolicy: DividendRatePolicy;
  translationMethod: TranslationMethod;
  /** Contributed equity. */
  rows: EquityRowForm[];
  /** Non-monetary accounts with a balance, listed by the server under the temporal method only. */
  nonMonetaryRows: EquityRowForm[];
}

/** Equity normally carries a credit balance; an account not synced yet is taken to as well. */
export const creditSide = (localAmount: number | null): boolean => localAmount === null || localAmount <= 0;

/** Minor units as plain decimal text for an input ("126500.00"), no grouping or symbol. */
export function minorToInput(minor: number, exponent: number): string {
  const negative = minor < 0;
  const digits = Math.abs(minor).toString().padStart(exponent + 1, "0");
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  return `${negative ? "-" : ""}${whole}${exponent === 0 ? "" : `.${digits.slice(-exponent)}`}`;
}

export const amountMessage = (currency: string, exponent: number) =>
  exponent === 0
    ? `Enter the translated amount in whole ${currency}, such as 126500.`
    : `Enter the translated amount in ${currency} with at most ${exponent} decimal places, such as 126500.${"0".repeat(exponent)}.`;

/**
 * Typed money text to exact minor units, without floating point: "126,500.5" in USD is 12650050.
 * Thousands separators are allowed; more decimals than the currency has are refused, not rounded.
 */
export function parseAmount(text: string, exponent: number): number | null {
  const t = text.trim().replace(/,/g, "");
  const m = /^(-)?(\d{1,15})(?:\.(\d+))?$/.exec(t);
  if (!m) return null;
  const fraction = m[3] ?? "";
  if (fraction.length > exponent) return null;
  const minor = Number(`${m[2]}${fraction.padEnd(exponent, "0")}`);
  if (!Number.isSafeInteger(minor)) return null;
  return m[1] && minor !== 0 ? -minor : minor;
}

export function formOf(sub: CtaSubsidiary, parentCurrency: string): CtaForm {
  const exponent = currencyExponent(parentCurrency);
  return {
    ownershipPercent: sub.ownershipPercent,
    dividendRatePolicy: sub.dividendRatePolicy,
    translationMethod: sub.translationMethod,
    rows: sub.equity.map((e) => historicalRowOf(e, exponent)),
    nonMonetaryRows: sub.nonMonetary.map((e) => historicalRowOf(e, exponent)),
  };
}

function historicalRowOf(e: CtaSubsidiary["equity"][number], exponent: number): EquityRowForm {
  return {
    accountId: e.accountId,
    name: e.name,
    acctNum: e.acctNum,
    localAmount: e.localAmount,
    mode: e.historicalAmount !== null ? "amount" : "rate",
    rate: e.historicalRate,
    // Shown on the balance's side: a stored credit of -126,500.00 reads 126500.00.
    amount: e.historicalAmount === null ? "" : minorToInput(creditSide(e.localAmount) ? -e.historicalAmount : e.historicalAmount, exponent),
  };
}

/**
 * The rows sent in `historical`, in this order: contributed equity, then (temporal only) the
 * non-monetary accounts; the server's "historical.N" paths index this list. Under the current rate
 * the non-monetary rows are not sent: the server would refuse them as not contributed equity.
 */
export const historicalRows = (form: CtaForm): EquityRowForm[] => (form.translationMethod === "temporal" ? [...form.rows, ...form.nonMonetaryRows] : form.rows);

export type Translation =
  | { kind: "none" }
  | { kind: "error"; message: string }
  /** Translated, debit-positive parent minor units, with the local balance and rate it came from. */
  | { kind: "translated"; amount: number; rate: string | null };

/**
 * A row's translated amount as the engine computes it: local × rate in exact decimals, rounded
 * half away from zero to the parent currency's minor unit; or the translated amount as entered.
 */
export function translationOf(row: EquityRowForm, currency: string, parentCurrency: string): Translation {
  if (row.mode === "rate") {
    if (row.rate.trim() === "") return { kind: "none" };
    const rate = normalizeRate(row.rate);
    if (rate === null) return { kind: "error", message: RATE_MESSAGE };
    if (row.localAmount === null) return { kind: "none" };
    const factor = translationFactor(parseRate(rate), currencyExponent(currency), currencyExponent(parentCurrency));
    return { kind: "translated", amount: mulDivRound(row.localAmount, factor), rate };
  }
  if (row.amount.trim() === "") return { kind: "none" };
  const exponent = currencyExponent(parentCurrency);
  const entered = parseAmount(row.amount, exponent);
  if (entered === null) return { kind: "error", message: amountMessage(parentCurrency, exponent) };
  return { kind: "translated", amount: creditSide(row.localAmount) && entered !== 0 ? -entered : entered, rate: null };
}

/** Keys match the server's field paths, so its errors and ours land on the same inputs. */
export type FieldErrors = Record<string, string>;

export const rateField = (i: number) => `historical.${i}.historicalRate`;
export const amountField = (i: number) => `historical.${i}.historicalAmount`;

/** What the server would refuse, found before sending. */
export function validate(form: CtaForm, currency: string, parentCurrency: string): FieldErrors {
  const errors: FieldErrors = {};
  const ownership = ownershipPercentSchema.safeParse(form.ownershipPercent.trim());
  if (!ownership.success) errors["ownershipPercent"] = ownership.error.issues[0]?.message ?? "Check the ownership percentage.";
  historicalRows(form).forEach((row, i) => {
    const t = translationOf(row, currency, parentCurrency);
    if (t.kind === "error") errors[row.mode === "rate" ? rateField(i) : amountField(i)] = t.message;
  });
  return errors;
}

/** The row's error, whichever of its paths the server used ("historical.2" is the row itself). */
export function rowError(errors: FieldErrors, i: number, mode: HistoricalMode): string | null {
  return errors[mode === "rate" ? rateField(i) : amountField(i)] ?? errors[`historical.${i}`] ?? errors[`historical.${i}.accountId`] ?? null;
}

/** The errors without row i's ("historical.1" and "historical.1.x", never "historical.10"): what is typed now replaces them. */
export const withoutRowErrors = (errors: FieldErrors, i: number): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([path]) => path !== `historical.${i}` && !path.startsWith(`historical.${i}.`)));

const KNOWN_FIELD = /^(ownershipPercent|dividendRatePolicy|translationMethod|historical\.\d+(\.(historicalRate|historicalAmount|accountId))?)$/;

/** Server messages no input shows (a path this form does not know). */
export const unplacedErrors = (errors: FieldErrors): string[] => Object.entries(errors).filter(([path]) => !KNOWN_FIELD.test(path)).map(([, m]) => m);

/**
 * The PUT body: every field but the CTA account (the group's, PUT /api/cta/account), each row as the rate or the amount the user chose (the other one
 * cleared), in historicalRows order so the server's "historical.N" paths point back at row N.
 */
export function updateBody(form: CtaForm, parentCurrency: string): CtaUpdate {
  const exponent = currencyExponent(parentCurrency);
  return {
    ownershipPercent: form.ownershipPercent.trim(),
    dividendRatePolicy: form.dividendRatePolicy,
    translationMethod: form.translationMethod,
    historical: historicalRows(form).map((row) => {
      if (row.mode === "rate") return { accountId: row.accountId, historicalRate: normalizeRate(row.rate) ?? row.rate.trim(), historicalAmount: null };
      const entered = row.amount.trim() === "" ? null : parseAmount(row.amount, exponent);
      return {
        accountId: row.accountId,
        historicalRate: "",
        historicalAmount: entered === null ? null : creditSide(row.localAmount) && entered !== 0 ? -entered : entered,
      };
    }),
  };
}

/** Whether the form differs from what is saved, comparing what would be sent rather than keystrokes. */
export function isDirty(form: CtaForm, saved: CtaForm, parentCurrency: string): boolean {
  return JSON.stringify(updateBody(form, parentCurrency)) !== JSON.stringify(updateBody(saved, parentCurrency));
}

/** 100 − ownership, exactly (ownership has at most four decimals), or null when it is not a valid percentage. */
export function nciPercent(ownership: string): string | null {
  const text = ownership.trim();
  if (!ownershipPercentSchema.safeParse(text).success) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  const tenThousandths = 1_000_000 - (Number(whole) * 10_000 + Number(fraction.padEnd(4, "0")));
  const w = Math.floor(tenThousandths / 10_000);
  const f = String(tenThousandths % 10_000).padStart(4, "0").replace(/0+$/, "");
  return f ? `${w}.${f}` : String(w);
}

/** Number · full name, or the full name alone without numbers (one rule for every screen: the domain's). */
export { accountLabel };


export interface CtaAccountOption {
  value: string;
  label: string;
  /** Why it is suggested, or why it cannot hold the CTA (then it is disabled). */
  note: string | null;
  disabled: boolean;
  suggested: boolean;
}

/**
 * The parent's equity accounts for the CTA picker: suggestions first in the server's order with
 * their reason, then every other equity account, those the server would refuse (share capital,
 * retained earnings, inactive) disabled with the domain's reason.
 */
export function ctaAccountOptions(parentAccounts: readonly CompanyAccount[], suggestions: CtaSettings["ctaAccountSuggestions"]): CtaAccountOption[] {
  const equity = parentAccounts.filter((a) => a.classification === "Equity");
  const byId = new Map(equity.map((a) => [a.Id, a]));
  const suggested = suggestions.flatMap((s) => {
    const a = byId.get(s.accountId);
    return a ? [{ value: a.Id, label: accountLabel(a), note: s.reason, disabled: false, suggested: true }] : [];
  });
  const others = equity
    .filter((a) => !suggestions.some((s) => s.accountId === a.Id))
    .map((a) => {
      const problem = ctaAccountProblem(chartAccount(a));
      return { value: a.Id, label: accountLabel(a), note: problem, disabled: problem !== null, suggested: false };
    })
    .sort((x, y) => Number(x.disabled) - Number(y.disabled) || x.label.localeCompare(y.label, "en", { numeric: true }));
  return [...suggested, ...others];
}

/** The create action is offered only while the parent has no account of that name (QBO compares without case). */
export const canCreateDefaultAccount = (parentAccounts: readonly CompanyAccount[]) =>
  !parentAccounts.some((a) => a.name.toLowerCase() === CTA_ACCOUNT_DEFAULT_NAME.toLowerCase());
