import { PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors.ts";
import { assertNewPassword, GUESSABLE_PASSWORD_MESSAGE, isGuessablePassword, newPasswordProblems } from "./password-strength.ts";

describe("newPasswordProblems", () => {
  it("passes a password that keeps the spec's rules and is not easily guessed", () => {
    expect(newPasswordProblems("Tangerine-Piano-42!", "ann@example.com")).toEqual([]);
    expect(newPasswordProblems("Mkv8#qpLz2", "ann@example.com")).toEqual([]);
  });

  it("refuses common passwords and keyboard walks with the usual capital, digit and symbol added", () => {
    for (const password of ["Password1!", "Qwerty123!"]) expect(newPasswordProblems(password, "ann@example.com"), password).toEqual([GUESSABLE_PASSWORD_MESSAGE]);
  });

  it("gives the spec's own messages first, in their order, and only then judges guessability", () => {
    expect(newPasswordProblems("short", "ann@example.com")).toEqual([
      PASSWORD_RULE_MESSAGES.minLength,
      PASSWORD_RULE_MESSAGES.digit,
      PASSWORD_RULE_MESSAGES.uppercase,
      PASSWORD_RULE_MESSAGES.special,
    ]);
    // A spaced variant of a guessable password is refused for the space alone.
    expect(newPasswordProblems("Group Ledger1!", "ann@example.com")).toEqual([PASSWORD_RULE_MESSAGES.noWhitespace]);
  });
});

describe("isGuessablePassword", () => {
  it("counts the product's name among the first words a guesser tries", () => {
    expect(isGuessablePassword("Groupledger1!", "ann@example.com")).toBe(true);
    // The same shape without it is fine.
    expect(isGuessablePassword("Grapeladder1!", "ann@example.com")).toBe(false);
  });

  it("counts the person's own email: the same password is guessable for its owner only", () => {
    expect(isGuessablePassword("Jo@kestrelmoor.example1", "jo@kestrelmoor.example")).toBe(true);
    expect(isGuessablePassword("Jo@kestrelmoor.example1", "jo@elsewhere.example")).toBe(false);
  });
});

describe("assertNewPassword", () => {
  it("answers 400 validation_failed naming the field, with every problem", () => {
    const refused = (() => {
      try {
        assertNewPassword("Password1!", "ann@example.com", "newPassword");
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, code: "validation_failed", message: GUESSABLE_PASSWORD_MESSAGE, details: { fields: [{ path: "newPassword", message: GUESSABLE_PASSWORD_MESSAGE }] } });
    expect(() => assertNewPassword("abc", "ann@example.com")).toThrow(expect.objectContaining({ details: { fields: expect.arrayContaining([{ path: "password", message: PASSWORD_RULE_MESSAGES.minLength }]) } }));
  });

  it("returns quietly for a good password", () => {
    expect(assertNewPassword("Tangerine-Piano-42!", "ann@example.com")).toBeUndefined();
  });
});
