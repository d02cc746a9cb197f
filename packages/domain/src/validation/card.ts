import { z } from "zod";

export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
export const CVV_DEFAULT_LENGTH = 3;
/** American Express security codes have four digits. */
export const AMEX_CVV_LENGTH = 4;
/** An expiry year is valid from the current year up to this many years ahead. */
export const CARD_EXPIRY_YEAR_WINDOW = 19;

export const CARD_MESSAGES = {
  number: "Please enter a valid card number.",
  expiryMonth: "Please enter a valid expiry month (01-12).",
  expiryYear: "Please enter a valid expiry year.",
  cvv: "Please enter a valid security code.",
} as const;

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

/** 12 to 19 ASCII digits once spaces and dashes are removed, with a valid Luhn check digit. */
export function isValidCardNumber(input: string): boolean {
  const digits = cardNumberDigits(input);
  return (
    digits !== null &&
    digits.length >= CARD_NUMBER_MIN_DIGITS &&
    digits.length <= CARD_NUMBER_MAX_DIGITS &&
    passesLuhn(digits)
  );
}

/** American Express numbers start with 34 or 37 (and have 15 digits). */
export function isAmexCardNumber(input: string): boolean {
  const digits = cardNumberDigits(input);
  return digits !== null && digits.length === 15 && /^3[47]/.test(digits);
}

/** The CVV length to expect for a card number: 4 for American Express, 3 otherwise. */
export function cvvLengthFor(cardNumber: string): number {
  return isAmexCardNumber(cardNumber) ? AMEX_CVV_LENGTH : CVV_DEFAULT_LENGTH;
}

/**
 * Display form of a card number: every non-digit is dropped and the digits are grouped by four,
 * separated by single spaces ("4111 1111 1111 1111"). Numbers starting with 34 or 37 (American
 * Express) are grouped 4-6-5 ("3782 822463 10005") while they have at most 15 digits, so the
 * grouping is already right while the number is being typed. Works on partial input.
 */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/[^0-9]/g, "");
  if (/^3[47]/.test(digits) && digits.length <= 15) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter((g) => g !== "").join(" ");
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
export const cardNumberSchema = z
  .string({ error: CARD_MESSAGES.number })
  .refine(isValidCardNumber, { error: CARD_MESSAGES.number, abort: true })
  .overwrite(formatCardNumber);

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
  return z.union([z.string(), z.number()], { error: CARD_MESSAGES.expiryYear }).transform((v, ctx) => {
    const year = normalizeExpiryYear(v, now);
    if (year === null) {
      ctx.addIssue({ code: "custom", message: CARD_MESSAGES.expiryYear });
      return z.NEVER;
    }
    return year;
  });
}

/** A CVV of `length` digits; the output is trimmed. */
export function cvvSchema(length: number = CVV_DEFAULT_LENGTH) {
  return z
    .string({ error: CARD_MESSAGES.cvv })
    .trim()
    .refine((s) => isValidCvv(s, length), { error: CARD_MESSAGES.cvv });
}
