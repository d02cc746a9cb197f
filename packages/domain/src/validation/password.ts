import { z } from "zod";
import { WHITESPACE_PATTERN, codePointLength, isBlank, whenFieldsAreStrings } from "./common.ts";
import type { IssueSink } from "./common.ts";
import { emailSchema } from "./email.ts";

export const LOGIN_PASSWORD_MESSAGE = "Please provide a valid password.";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
/** Local parts shorter than this are not checked by the notEmailName rule (see below). */
export const EMAIL_NAME_MIN_LENGTH = 3;

/**
 * Login only checks that something plausible was typed: not blank, at most 1024 characters
 * (counted in code points, exactly as the creation rules count them, so any password that could
 * be created can be used to log in). The value is not trimmed: spaces could be part of an old
 * password. Any failure gives exactly one issue with {@link LOGIN_PASSWORD_MESSAGE}.
 */
export const loginPasswordSchema = z
  .string({ error: LOGIN_PASSWORD_MESSAGE })
  .refine((s) => !isBlank(s) && codePointLength(s) <= PASSWORD_MAX_LENGTH, { error: LOGIN_PASSWORD_MESSAGE });

export const PASSWORD_RULES = [
  "notBlank",
  "notEmailName",
  "minLength",
  "digit",
  "lowercase",
  "uppercase",
  "special",
  "noWhitespace",
  "maxLength",
] as const;

export type PasswordRule = (typeof PASSWORD_RULES)[number];

export interface PasswordRuleResult {
  rule: PasswordRule;
  ok: boolean;
  message: string;
}

export const PASSWORD_RULE_MESSAGES = {
  notBlank: "Please enter a password.",
  notEmailName: "Password must not contain the part of your email before the @.",
  minLength: "Password must be at least 8 characters long.",
  digit: "Password must contain at least one number.",
  lowercase: "Password must contain at least one lowercase letter.",
  uppercase: "Password must contain at least one uppercase letter.",
  special: "Password must contain at least one special character.",
  noWhitespace: "Password must not contain spaces.",
  maxLength: "Password must be at most 1024 characters long.",
} as const satisfies Record<PasswordRule, string>;

// Character classes. Letters are Unicode letters (so "é", "ß" or "Ж" are letters, not special
// characters); digits are Unicode decimal digits (\p{Nd}). Combining marks belong to the letter
// they modify, and invisible control/format characters (zero-width space, NUL, ...) do not count
// as a special character, so they cannot be used to satisfy that rule without anything visible.
const DIGIT = /\p{Nd}/u;
const LOWERCASE = /\p{Ll}/u;
const UPPERCASE = /\p{Lu}/u;
const SPECIAL = /[^\p{L}\p{M}\p{Nd}\p{C}\s\p{White_Space}]/u;

/**
 * The part of the email before the first '@' (the whole trimmed text while no '@' has been typed
 * yet), lower-cased; null when the rule does not apply.
 *
 * Local parts shorter than 3 characters are ignored: with a one- or two-letter local part such as
 * "j@example.com" the rule would forbid every password containing that letter (or pair), which
 * rejects most reasonable passwords while adding no security.
 */
function emailName(email: string | undefined): string | null {
  if (email === undefined) return null;
  const trimmed = email.trim();
  const at = trimmed.indexOf("@");
  const local = (at === -1 ? trimmed : trimmed.slice(0, at)).toLowerCase();
  return codePointLength(local) < EMAIL_NAME_MIN_LENGTH ? null : local;
}

/**
 * Every creation rule, always in the same order ({@link PASSWORD_RULES}), each with whether the
 * password satisfies it, so a form can list them all and tick them off while the user types.
 * Lengths are counted in code points.
 */
export function passwordRules(password: string, email?: string): PasswordRuleResult[] {
  const length = codePointLength(password);
  const name = emailName(email);
  const checks: Record<PasswordRule, boolean> = {
    notBlank: !isBlank(password),
    notEmailName: name === null || !password.toLowerCase().includes(name),
    minLength: length >= PASSWORD_MIN_LENGTH,
    digit: DIGIT.test(password),
    lowercase: LOWERCASE.test(password),
    uppercase: UPPERCASE.test(password),
    special: SPECIAL.test(password),
    noWhitespace: !WHITESPACE_PATTERN.test(password),
    maxLength: length <= PASSWORD_MAX_LENGTH,
  };
  return PASSWORD_RULES.map((rule) => ({ rule, ok: checks[rule], message: PASSWORD_RULE_MESSAGES[rule] }));
}

/** Messages of the rules the password fails, in rule order; empty when it is acceptable. */
export function passwordProblems(password: string, email?: string): string[] {
  return passwordRules(password, email)
    .filter((r) => !r.ok)
    .map((r) => r.message);
}

/** True when the password satisfies every creation rule. */
export function isAcceptableNewPassword(password: string, email?: string): boolean {
  return passwordProblems(password, email).length === 0;
}

/** Adds one custom issue at `path` for each creation rule the password fails. */
export function refineNewPassword(
  ctx: IssueSink,
  password: string,
  email: string | undefined,
  path: PropertyKey[] = ["password"],
): void {
  for (const message of passwordProblems(password, email)) ctx.addIssue({ code: "custom", message, path: [...path] });
}

/**
 * A superRefine callback for an object schema that holds an email and a new password: one issue
 * per failed creation rule at `[passwordPath]`. A non-string password is left to the password
 * field's own schema; a non-string email just disables the notEmailName rule.
 *
 * zod skips an object's refinements once any field has an aborting issue (missing, wrong type); pass
 * `whenFieldsAreStrings(passwordPath)` as the second argument of `superRefine` to still report
 * password problems then (as {@link credentialsWithNewPasswordSchema} does).
 */
export function newPasswordSchema<E extends string = "email", P extends string = "password">(
  emailPath: E = "email" as E,
  passwordPath: P = "password" as P,
) {
  return (value: Partial<Record<E | P, unknown>>, ctx: IssueSink): void => {
    const password = value[passwordPath];
    const email = value[emailPath];
    if (typeof password !== "string") return;
    refineNewPassword(ctx, password, typeof email === "string" ? email : undefined, [passwordPath]);
  };
}

/** Sign-up style credentials: a valid email and a password that passes every creation rule. */
export const credentialsWithNewPasswordSchema = z
  .object({ email: emailSchema, password: z.string({ error: PASSWORD_RULE_MESSAGES.notBlank }) })
  .superRefine(newPasswordSchema("email", "password"), whenFieldsAreStrings("password"));
