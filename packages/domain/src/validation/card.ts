import cardValidator from "card-validator";
import { z } from "zod";
import { isBlank, nonEmptyText } from "./common.ts";

export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
export const CVV_DEFAULT_LENGTH = 3;
/** American Express security codes have four digits. */
export const AMEX_CVV_LENGTH = 4;
/** An expiry year is valid from the current year up to this many years ahead. */
export const CARD_EXPIRY_YEAR_WINDOW = 19;

/**
 * Messages of the payment form (SPEC §5 leaves them to us). The web form and the payment
 * provider's tokenize endpoint both use these rules, so a person sees the same words either way.
 */
export const CARD_MESSAGES = {
  number: "Please enter a valid card number.",
  numberRequired: "Please enter the card number.",
  numberIncomplete: "The card number is incomplete.",
  numberChecksum: "This card number is not valid. Check the digits and try again.",
  numberBrand: "We accept Visa, Mastercard, American Express, Discover, Diners Club, JCB and UnionPay cards.",
  expiryMonth: "Please enter a valid expiry month (01-12).",
  expiryYear: "Please enter a valid expiry year.",
  expired: "This card has expired.",
  cvv: "Please enter a valid security code.",
  name: "Please enter the name on the card.",
} as const;

/** The years a card may expire in, for the message that names them. */
export function expiryYearMessage(now: Date): string {
  const current = now.getUTCFullYear();
  return `Please enter an expiry year from ${current} to ${current + CARD_EXPIRY_YEAR_WINDOW}.`;
}

/** "Please enter the 3-digit security code." (4 for American Express). */
export function cvvMessage(length: number): string {
  return `Please enter the ${length}-digit security code${length === AMEX_CVV_LENGTH ? " on the front of the card" : ""}.`;
}

/** Card brands we take (card-validator's type names); others fail with {@link CARD_MESSAGES.numberBrand}. */
export const ACCEPTED_CARD_BRANDS = ["visa", "mastercard", "american-express", "discover", "diners-club", "jcb", "unionpay"] as const;
export type CardBrand = (typeof ACCEPTED_CARD_BRANDS)[number];

/** Spaces (any Unicode whitespace, e.g. a pasted non-breaking space) and dashes people type between digit groups. */
const SEPARATORS = /[\s\p{White_Space}-]/gu;
const DIGITS_ONLY = /^[0-9]+$/;

/** The card number without separators; null when anything other than ASCII digits remains. */
export function cardNumberDigits(input: string): string | null {
  const digits = input.replace(SEPARATORS, "");
  return DIGITS_ONLY.test(digits) ? digits : null;
}

/** Luhn (mod 10) checksum over a string of ASCII digits; false for anything else or an empty string. */
export function passesLuhn(digits: string): boolean {
  if (!DIGITS_ONLY.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export type CardNumberProblem = "required" | "invalid" | "brand" | "incomplete" | "checksum";

export interface CardNumberCheck {
  /** The digits without separators ("" when anything but digits, spaces and dashes was typed). */
  digits: string;
  /** An accepted brand recognised from the leading digits, or null. */
  brand: CardBrand | null;
  /** The brand's display name ("Visa", "American Express"), or null. */
  brandName: string | null;
  /** Digits of the brand's security code (3 unless the brand says otherwise, e.g. 4 for Amex). */
  cvvLength: number;
  problem: CardNumberProblem | null;
}

const isAccepted = (type: string): type is CardBrand => (ACCEPTED_CARD_BRANDS as readonly string[]).includes(type);

/**
 * Brand-aware check of a card number: Braintree's card-validator recognises the brand from the
 * leading digits and knows its lengths; Luhn is checked for every brand (UnionPay included).
 * The problems are ordered the way a person fixes them: type something, use digits, use a card we
 * take, finish typing, then fix a typo.
 */
export function checkCardNumber(input: string): CardNumberCheck {
  const none = { brand: null, brandName: null, cvvLength: CVV_DEFAULT_LENGTH };
  if (isBlank(input)) return { digits: "", ...none, problem: "required" };
  const digits = cardNumberDigits(input);
  if (digits === null || digits.length > CARD_NUMBER_MAX_DIGITS) return { digits: digits ?? "", ...none, problem: "invalid" };
  const card = cardValidator.number(digits, { luhnValidateUnionPay: true }).card;
  if (!card || !isAccepted(card.type)) return { digits, ...none, problem: "brand" };
  const found = { digits, brand: card.type, brandName: card.niceType, cvvLength: card.code.size };
  if (!card.lengths.includes(digits.length)) {
    return { ...found, problem: digits.length < Math.max(...card.lengths) ? "incomplete" : "invalid" };
  }
  return { ...found, problem: passesLuhn(digits) ? null : "checksum" };
}

const NUMBER_MESSAGES: Record<CardNumberProblem, string> = {
  required: CARD_MESSAGES.numberRequired,
  invalid: CARD_MESSAGES.number,
  brand: CARD_MESSAGES.numberBrand,
  incomplete: CARD_MESSAGES.numberIncomplete,
  checksum: CARD_MESSAGES.numberChecksum,
};

/** The message for a card number, or null when it is valid. */
export function cardNumberMessage(input: string): string | null {
  const { problem } = checkCardNumber(input);
  return problem === null ? null : NUMBER_MESSAGES[problem];
}

/** A complete number of an accepted brand, with a length that brand issues and a valid Luhn check digit. */
export function isValidCardNumber(input: string): boolean {
  return checkCardNumber(input).problem === null;
}

/** American Express: 15 digits starting with 34 or 37. */
export function isAmexCardNumber(input: string): boolean {
  const { brand, digits } = checkCardNumber(input);
  return brand === "american-express" && digits.length === 15;
}

/** The CVV length to expect for a card number: the brand's (4 for American Express), else 3. */
export function cvvLengthFor(cardNumber: string): number {
  return checkCardNumber(cardNumber).cvvLength;
}

/**
 * Display form of a card number: every non-digit is dropped and the digits are grouped by four,
 * separated by single spaces ("4242 4242 4242 4242"). Brands printed differently keep their own
 * grouping while the number fits their shortest length: American Express 4-6-5
 * ("3782 822463 10005"), 14-digit Diners Club 4-6-4. Works on partial input, so the grouping is
 * already right while the number is being typed.
 */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/[^0-9]/g, "");
  const card = digits === "" ? null : cardValidator.number(digits).card;
  const lengths = card?.lengths ?? [];
  if (card && card.gaps[1] !== 8 && digits.length <= Math.min(...lengths)) {
    const groups: string[] = [];
    let from = 0;
    for (const gap of [...card.gaps, Math.min(...lengths)]) {
      if (from >= digits.length) break;
      groups.push(digits.slice(from, gap));
      from = gap;
    }
    return groups.filter((g) => g !== "").join(" ");
  }
  return (digits.match(/[0-9]{1,4}/g) ?? []).join(" ");
}

/** 1-12 (number, or a string of one or two digits such as "1", "01", " 12 ") to "01".."12"; else null. */
export function normalizeExpiryMonth(input: string | number): string | null {
  let month: number;
  if (typeof input === "number") {
    if (!Number.isInteger(input)) return null;
    month = input;
  } else {
    const text = input.trim();
    if (!/^[0-9]{1,2}$/.test(text)) return null;
    month = Number(text);
  }
  return month >= 1 && month <= 12 ? String(month).padStart(2, "0") : null;
}

/**
 * The four-digit expiry year, or null. Two-digit years get the prefix 20 ("27" and 27 mean 2027;
 * a number below 100 is read as a two-digit year); four-digit years are taken as they are; any
 * other form is invalid. The year must lie between the current year and
 * {@link CARD_EXPIRY_YEAR_WINDOW} years ahead, inclusive. The current year is taken in UTC so the
 * answer does not depend on the machine's time zone.
 */
export function normalizeExpiryYear(input: string | number, now: Date): number | null {
  const current = now.getUTCFullYear();
  if (!Number.isFinite(current)) return null;
  let year: number;
  if (typeof input === "number") {
    if (!Number.isInteger(input) || input < 0) return null;
    if (input < 100) year = 2000 + input;
    else if (input >= 1000 && input <= 9999) year = input;
    else return null;
  } else {
    const text = input.trim();
    if (/^[0-9]{2}$/.test(text)) year = 2000 + Number(text);
    else if (/^[0-9]{4}$/.test(text)) year = Number(text);
    else return null;
  }
  return year >= current && year <= current + CARD_EXPIRY_YEAR_WINDOW ? year : null;
}

/** Exactly `length` ASCII digits (surrounding whitespace ignored). A length that is not a positive integer never matches. */
export function isValidCvv(cvv: string, length: number = CVV_DEFAULT_LENGTH): boolean {
  if (!Number.isInteger(length) || length < 1) return false;
  const text = cvv.trim();
  return text.length === length && DIGITS_ONLY.test(text);
}

/** A valid card number; the output is the display form (digits grouped with spaces). */
export const cardNumberSchema = z.string({ error: CARD_MESSAGES.numberRequired }).transform((v, ctx) => {
  const message = cardNumberMessage(v);
  if (message !== null) {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  }
  return formatCardNumber(v);
});

/** An expiry month; the output is "01".."12". */
export const expiryMonthSchema = z.union([z.string(), z.number()], { error: CARD_MESSAGES.expiryMonth }).transform((v, ctx) => {
  const month = normalizeExpiryMonth(v);
  if (month === null) {
    ctx.addIssue({ code: "custom", message: CARD_MESSAGES.expiryMonth });
    return z.NEVER;
  }
  return month;
});

/** An expiry year relative to `now`; the output is the four-digit year. */
export function expiryYearSchema(now: Date) {
  const message = expiryYearMessage(now);
  return z.union([z.string(), z.number()], { error: message }).transform((v, ctx) => {
    const year = normalizeExpiryYear(v, now);
    if (year === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return year;
  });
}

/** A CVV of `length` digits; the output is trimmed. */
export function cvvSchema(length: number = CVV_DEFAULT_LENGTH) {
  return z
    .string({ error: cvvMessage(length) })
    .trim()
    .refine((s) => isValidCvv(s, length), { error: cvvMessage(length) });
}

/** True when a card expiring at the end of `month`/`year` is already past at `now` (UTC). */
export function isCardExpired(month: string, year: number, now: Date): boolean {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return year * 12 + (Number(month) - 1) < current;
}

export const CARDHOLDER_NAME_MAX_LENGTH = 200;

/**
 * The whole payment form: name on the card, number, expiry month and year, security code. Each
 * field reports its own message; the cross-field rules (the brand's CVV length, a month already
 * past in the current year) are added when the fields they compare are valid on their own.
 * Output: the number grouped with spaces, the month padded to two digits, the four-digit year.
 */
export function paymentCardSchema(now: Date) {
  return z
    .object({
      name: nonEmptyText(CARD_MESSAGES.name).pipe(z.string().max(CARDHOLDER_NAME_MAX_LENGTH, CARD_MESSAGES.name)),
      number: cardNumberSchema,
      expMonth: expiryMonthSchema,
      expYear: expiryYearSchema(now),
      cvv: z.string({ error: cvvMessage(CVV_DEFAULT_LENGTH) }).trim(),
    })
    .superRefine((card, ctx) => {
      const length = cvvLengthFor(card.number);
      if (!isValidCvv(card.cvv, length)) ctx.addIssue({ code: "custom", message: cvvMessage(length), path: ["cvv"] });
      if (isCardExpired(card.expMonth, card.expYear, now)) {
        ctx.addIssue({ code: "custom", message: CARD_MESSAGES.expired, path: ["expMonth"] });
      }
    });
}
export type PaymentCardInput = z.input<ReturnType<typeof paymentCardSchema>>;
export type PaymentCard = z.output<ReturnType<typeof paymentCardSchema>>;

/**
 * Field-by-field messages for the payment form, in form order, without stopping at the first
 * broken field (zod skips an object's cross-field refinements once a field fails). Empty when
 * the card is acceptable.
 */
export function paymentCardProblems(input: Partial<Record<keyof PaymentCardInput, unknown>>, now: Date): { path: keyof PaymentCardInput; message: string }[] {
  const problems: { path: keyof PaymentCardInput; message: string }[] = [];
  const name = nonEmptyText(CARD_MESSAGES.name).safeParse(input.name);
  if (!name.success || name.data.length > CARDHOLDER_NAME_MAX_LENGTH) problems.push({ path: "name", message: CARD_MESSAGES.name });
  const number = typeof input.number === "string" ? input.number : "";
  const numberMessage = cardNumberMessage(number);
  if (numberMessage) problems.push({ path: "number", message: numberMessage });
  const month = expiryMonthSchema.safeParse(input.expMonth);
  const year = expiryYearSchema(now).safeParse(input.expYear);
  if (!month.success) problems.push({ path: "expMonth", message: CARD_MESSAGES.expiryMonth });
  else if (year.success && isCardExpired(month.data, year.data, now)) problems.push({ path: "expMonth", message: CARD_MESSAGES.expired });
  if (!year.success) problems.push({ path: "expYear", message: expiryYearMessage(now) });
  const length = cvvLengthFor(number);
  if (typeof input.cvv !== "string" || !isValidCvv(input.cvv, length)) problems.push({ path: "cvv", message: cvvMessage(length) });
  return problems;
}
