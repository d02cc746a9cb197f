import { createHmac, randomInt } from "node:crypto";

// Crockford base32 without I, L, O, U: nothing a person can misread when typing it from an email.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 8;

/** 8 characters of a 32-letter alphabet: 40 bits, so a code alone is unguessable under rate limits. */
export function newCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export const formatCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** Keyed hash: a leaked table of code hashes cannot be brute-forced offline without the app secret. */
export function hashCode(secret: string, code: string): string {
  return createHmac("sha256", secret).update(`code:${code}`).digest("hex");
}
