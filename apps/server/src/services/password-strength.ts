import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { passwordProblems } from "@groupledger/domain";
import { errors } from "../http/errors.ts";

/** Not in the spec (it has no message for this rule); its own rules' messages are kept as they are. */
export const GUESSABLE_PASSWORD_MESSAGE =
  "This password is too common or too easy to guess. Choose a less predictable one, for example three unrelated words with a number and a symbol.";

/**
 * zxcvbn's scores 0 and 1 mean fewer than 10^6 guesses: a password from the breached-password
 * lists (language-common's "passwords-common"), or one of them with the usual capital letter,
 * digit and symbol added ("Password1!"), or a keyboard walk ("Qwerty123!"). Those fall to an
 * online guessing attack spread over many addresses, whatever our rate limits.
 */
const MIN_SCORE = 2;

// Built on first use: loading the dictionaries takes a moment that only password changes need.
let factory: ZxcvbnFactory | undefined;
const zxcvbn = () => (factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }));

/** True when the password is common or follows a pattern guessers try first. */
export function isGuessablePassword(password: string, email: string): boolean {
  const name = email.split("@")[0] ?? "";
  // The person's own email and the product's name are the first words a guesser tries.
  return zxcvbn().check(password, [email, name, "groupledger", "group ledger"]).score < MIN_SCORE;
}

/**
 * Every rule a new password must pass: the spec's creation rules (their messages, in their order),
 * then, once those pass, not being a common or easily guessed password. The server checks this
 * wherever a password is chosen (sign-up, reset, change, accepting an invitation); the web shows the
 * spec's rules as the person types and this one from the server's answer.
 */
export function newPasswordProblems(password: string, email: string): string[] {
  const problems = passwordProblems(password, email);
  if (problems.length > 0) return problems;
  return isGuessablePassword(password, email) ? [GUESSABLE_PASSWORD_MESSAGE] : [];
}

/** A 400 naming the field (`path`) with every problem of the new password. */
export function assertNewPassword(password: string, email: string, path = "password"): void {
  const problems = newPasswordProblems(password, email);
  if (problems.length > 0) throw errors.validation(problems.map((message) => ({ path, message })));
}
