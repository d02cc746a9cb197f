import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import {
  EMAIL_NAME_MIN_LENGTH,
  LOGIN_PASSWORD_MESSAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  PASSWORD_RULE_MESSAGES,
  credentialsWithNewPasswordSchema,
  isAcceptableNewPassword,
  loginPasswordSchema,
  newPasswordSchema,
  passwordProblems,
  passwordRules,
  refineNewPassword,
} from "./password.ts";
import type { PasswordRule } from "./password.ts";
import { whenFieldsAreStrings } from "./common.ts";

const GOOD = "Abcdef1!"; // exactly 8 characters, passes every rule

/** The rules a password fails, by name. */
function failed(password: string, email?: string): PasswordRule[] {
  return passwordRules(password, email)
    .filter((r) => !r.ok)
    .map((r) => r.rule);
}

describe("password constants and messages", () => {
  it("has the exact messages", () => {
    expect(LOGIN_PASSWORD_MESSAGE).toBe("Please provide a valid password.");
    expect(PASSWORD_RULE_MESSAGES).toEqual({
      notBlank: "Please enter a password.",
      notEmailName: "Password must not contain the part of your email before the @.",
      minLength: "Password must be at least 8 characters long.",
      digit: "Password must contain at least one number.",
      lowercase: "Password must contain at least one lowercase letter.",
      uppercase: "Password must contain at least one uppercase letter.",
      special: "Password must contain at least one special character.",
      noWhitespace: "Password must not contain spaces.",
      maxLength: "Password must be at most 1024 characters long.",
    });
  });

  it("has the exact limits and rule order", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(1024);
    expect(EMAIL_NAME_MIN_LENGTH).toBe(3);
    expect(PASSWORD_RULES).toEqual([
      "notBlank",
      "notEmailName",
      "minLength",
      "digit",
      "lowercase",
      "uppercase",
      "special",
      "noWhitespace",
      "maxLength",
    ]);
  });
});

describe("passwordRules", () => {
  it("always returns every rule in the fixed order with its message", () => {
    for (const pw of ["", GOOD, "   ", "x".repeat(2000)]) {
      const rules = passwordRules(pw, "someone@example.com");
      expect(rules.map((r) => r.rule)).toEqual([...PASSWORD_RULES]);
      for (const r of rules) expect(r.message).toBe(PASSWORD_RULE_MESSAGES[r.rule]);
    }
  });

  it("passes a password meeting every rule", () => {
    expect(passwordRules(GOOD).every((r) => r.ok)).toBe(true);
    expect(passwordRules(GOOD, "someone@example.com").every((r) => r.ok)).toBe(true);
    expect(isAcceptableNewPassword(GOOD)).toBe(true);
    expect(passwordProblems(GOOD)).toEqual([]);
  });

  it("reports an empty password", () => {
    expect(passwordRules("")).toEqual([
      { rule: "notBlank", ok: false, message: "Please enter a password." },
      { rule: "notEmailName", ok: true, message: "Password must not contain the part of your email before the @." },
      { rule: "minLength", ok: false, message: "Password must be at least 8 characters long." },
      { rule: "digit", ok: false, message: "Password must contain at least one number." },
      { rule: "lowercase", ok: false, message: "Password must contain at least one lowercase letter." },
      { rule: "uppercase", ok: false, message: "Password must contain at least one uppercase letter." },
      { rule: "special", ok: false, message: "Password must contain at least one special character." },
      { rule: "noWhitespace", ok: true, message: "Password must not contain spaces." },
      { rule: "maxLength", ok: true, message: "Password must be at most 1024 characters long." },
    ]);
  });

  it("reports blank passwords of any whitespace as blank and containing spaces", () => {
    for (const pw of [" ", "        ", "\t", "\n\n\n\n\n\n\n\n", "\u00a0", "\u3000 \t\r\n\u2028\u00a0\ufeff\u0085"]) {
      expect(failed(pw)).toEqual(["notBlank", ...(pw.length < 8 ? ["minLength"] : []), "digit", "lowercase", "uppercase", "special", "noWhitespace"]);
    }
  });

  describe("minLength", () => {
    it("7 characters fail, 8 pass", () => {
      expect(failed("Abcde1!")).toEqual(["minLength"]);
      expect(failed("Abcdef1!")).toEqual([]);
      expect(failed("Abcdefg1!")).toEqual([]);
    });

    it("counts code points, so an emoji is one character", () => {
      // 7 code points but 8 UTF-16 units: too short
      expect("Abcde1😀".length).toBe(8);
      expect(failed("Abcde1😀")).toEqual(["minLength"]);
      // 8 code points
      expect(failed("Abcdef1😀")).toEqual([]);
    });
  });

  describe("maxLength", () => {
    it("1024 characters pass, 1025 fail", () => {
      const at1024 = "Aa1!" + "x".repeat(1020);
      expect(at1024).toHaveLength(1024);
      expect(failed(at1024)).toEqual([]);
      expect(failed(at1024 + "x")).toEqual(["maxLength"]);
    });

    it("counts code points", () => {
      const astral = "Aa1" + "😀".repeat(1021); // 1024 code points, 2045 UTF-16 units
      expect(failed(astral)).toEqual([]);
      expect(failed(astral + "😀")).toEqual(["maxLength"]);
    });
  });

  describe("character classes", () => {
    it.each<[string, PasswordRule[]]>([
      ["Abcdefg!", ["digit"]],
      ["ABCDEF1!", ["lowercase"]],
      ["abcdef1!", ["uppercase"]],
      ["Abcdef12", ["special"]],
      ["12345678", ["lowercase", "uppercase", "special"]],
      ["!!!!!!!!", ["digit", "lowercase", "uppercase"]],
    ])("%j fails %j", (pw, rules) => {
      expect(failed(pw)).toEqual(rules);
    });

    it("accepts each ASCII punctuation character as special", () => {
      for (const c of "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") expect(failed(`Abcdef1${c}`)).toEqual([]);
    });

    it("treats Unicode letters as letters, with their case", () => {
      expect(failed("Äbcdef1!")).toEqual([]);
      expect(failed("Пароль12!")).toEqual([]);
      expect(failed("ÄÖÜßéè1!")).toEqual([]); // ß, é, è are lowercase
      expect(failed("Abcdéf12")).toEqual(["special"]); // é is a letter, not a special character
      expect(failed("ПАРОЛЬ1!")).toEqual(["lowercase"]);
      expect(failed("密码密码密码1!")).toEqual(["lowercase", "uppercase"]); // letters without case
    });

    it("does not count combining marks or invisible characters as special", () => {
      expect(failed("Abcdefg1\u0301")).toEqual(["special"]); // combining acute accent
      expect(failed("Abcdefg1\u200b")).toEqual(["special"]); // zero-width space
      expect(failed("Abcdefg1\u0000")).toEqual(["special"]); // NUL
      expect(failed("Abcdefg1\ud800")).toEqual(["special"]); // lone surrogate
    });

    it("counts symbols, emoji and non-decimal numbers as special", () => {
      expect(failed("Abcdefg1€")).toEqual([]);
      expect(failed("Abcdefg1😀")).toEqual([]);
      expect(failed("Abcdefg1²")).toEqual([]);
      expect(failed("Abcdefg!²")).toEqual(["digit"]); // superscript two is not a decimal digit
    });

    it("counts decimal digits of any script as digits", () => {
      expect(failed("Abcdefg!٣")).toEqual([]); // ARABIC-INDIC DIGIT THREE
      expect(failed("Abcdefg!３")).toEqual([]); // FULLWIDTH DIGIT THREE
    });
  });

  describe("noWhitespace", () => {
    it.each([
      ["space", " "],
      ["tab", "\t"],
      ["line feed", "\n"],
      ["carriage return", "\r"],
      ["vertical tab", "\v"],
      ["form feed", "\f"],
      ["non-breaking space", "\u00a0"],
      ["narrow no-break space", "\u202f"],
      ["em space", "\u2003"],
      ["ideographic space", "\u3000"],
      ["line separator", "\u2028"],
      ["next line", "\u0085"],
      ["byte order mark", "\ufeff"],
    ])("rejects a %s anywhere in the password", (_name, ws) => {
      expect(failed(`Abc${ws}def1!`)).toEqual(["noWhitespace"]);
      expect(failed(`${ws}Abcdef1!`)).toEqual(["noWhitespace"]);
      expect(failed(`Abcdef1!${ws}`)).toEqual(["noWhitespace"]);
    });
  });

  describe("notEmailName", () => {
    it("rejects the local part, case-insensitively, anywhere in the password", () => {
      expect(failed("xxJohn.Smith1!", "john.smith@example.com")).toEqual(["notEmailName"]);
      expect(failed("JOHN.SMITH1!a", "John.Smith@example.com")).toEqual(["notEmailName"]);
      expect(failed("Ab1!mArY", "MaRy@example.com")).toEqual(["notEmailName"]);
      expect(failed("Ab1!MARYzz", "mary@example.com")).toEqual(["notEmailName"]);
      expect(failed("mary!Ab1", "mary@example.com")).toEqual(["notEmailName"]);
    });

    it("accepts passwords containing only part of the local part", () => {
      expect(failed("John.Smit1!", "john.smith@example.com")).toEqual([]);
      expect(failed("Smith.John1!", "john.smith@example.com")).toEqual([]);
      expect(failed("Mar-y123!", "mary@example.com")).toEqual([]);
    });

    it("does not look at the domain", () => {
      expect(failed("Example1!", "mary@example.com")).toEqual([]);
    });

    it("applies from 3 characters: a 2-letter local part is ignored, a 3-letter one is not", () => {
      expect(failed("Xbob1234!", "bob@example.com")).toEqual(["notEmailName"]);
      expect(failed("XBOBx1234!", "Bob@example.com")).toEqual(["notEmailName"]);
      expect(failed("Xjo12345!", "jo@example.com")).toEqual([]);
      expect(failed("Xj123456!", "j@example.com")).toEqual([]);
      expect(failed("Abcdef1!", "@example.com")).toEqual([]);
    });

    it("trims the email and uses the text before the first @", () => {
      expect(failed("Xbob1234!", "  Bob@example.com \t")).toEqual(["notEmailName"]);
      expect(failed("Xbob1234!", "bob@x@example.com")).toEqual(["notEmailName"]);
    });

    it("uses the whole text while no @ has been typed yet", () => {
      expect(failed("Xbobby123!", "bobby")).toEqual(["notEmailName"]);
      expect(failed("Xbob123!", "bobby")).toEqual([]);
    });

    it("is skipped without an email", () => {
      expect(failed("Xbob1234!")).toEqual([]);
      expect(failed("Xbob1234!", "")).toEqual([]);
      expect(failed("Xbob1234!", "   ")).toEqual([]);
    });
  });
});

describe("passwordProblems", () => {
  it("lists the failed rules' messages in rule order", () => {
    expect(passwordProblems("")).toEqual([
      "Please enter a password.",
      "Password must be at least 8 characters long.",
      "Password must contain at least one number.",
      "Password must contain at least one lowercase letter.",
      "Password must contain at least one uppercase letter.",
      "Password must contain at least one special character.",
    ]);
    expect(passwordProblems("mary word", "Mary@example.com")).toEqual([
      "Password must not contain the part of your email before the @.",
      "Password must contain at least one number.",
      "Password must contain at least one uppercase letter.",
      "Password must contain at least one special character.",
      "Password must not contain spaces.",
    ]);
    expect(passwordProblems("Aa1!" + "x".repeat(1021))).toEqual(["Password must be at most 1024 characters long."]);
  });
});

describe("loginPasswordSchema", () => {
  it("accepts any non-blank string and does not trim it", () => {
    expect(loginPasswordSchema.parse("x")).toBe("x");
    expect(loginPasswordSchema.parse(" pass word \t")).toBe(" pass word \t");
    expect(loginPasswordSchema.parse("short")).toBe("short");
  });

  it("accepts 1024 characters (counted in code points) and rejects 1025", () => {
    expect(loginPasswordSchema.safeParse("x".repeat(1024)).success).toBe(true);
    expect(loginPasswordSchema.safeParse("😀".repeat(1024)).success).toBe(true);
    expect(loginPasswordSchema.safeParse("x".repeat(1025)).error?.issues.map((i) => i.message)).toEqual([LOGIN_PASSWORD_MESSAGE]);
    expect(loginPasswordSchema.safeParse("😀".repeat(1025)).error?.issues.map((i) => i.message)).toEqual([LOGIN_PASSWORD_MESSAGE]);
  });

  it.each(["", " ", "\t", "\n", "\u00a0", " \t\r\n\u3000", " ".repeat(2000)])("rejects blank %j with exactly one issue", (value) => {
    expect(loginPasswordSchema.safeParse(value).error?.issues.map((i) => i.message)).toEqual([LOGIN_PASSWORD_MESSAGE]);
  });

  it.each([undefined, null, 12345678, true, {}, ["pw"]])("rejects non-string %j with the message", (value) => {
    expect(loginPasswordSchema.safeParse(value).error?.issues.map((i) => i.message)).toEqual([LOGIN_PASSWORD_MESSAGE]);
  });

  it("reports a missing field with the message", () => {
    const result = z.object({ password: loginPasswordSchema }).safeParse({});
    expect(result.error?.issues).toMatchObject([{ path: ["password"], message: LOGIN_PASSWORD_MESSAGE }]);
  });
});

describe("credentialsWithNewPasswordSchema", () => {
  it("accepts valid credentials, normalizing the email and keeping the password as typed", () => {
    expect(credentialsWithNewPasswordSchema.parse({ email: "  Mary@Example.com ", password: GOOD })).toEqual({
      email: "mary@example.com",
      password: GOOD,
    });
  });

  it("attaches one issue per failed rule at ['password']", () => {
    const result = credentialsWithNewPasswordSchema.safeParse({ email: "mary@example.com", password: "Mary1234" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      { code: "custom", path: ["password"], message: "Password must not contain the part of your email before the @." },
      { code: "custom", path: ["password"], message: "Password must contain at least one special character." },
    ]);
  });

  it("compares with the email case-insensitively, whatever case the email was typed in", () => {
    const result = credentialsWithNewPasswordSchema.safeParse({ email: "MARY@example.com", password: "xmaryX1!" });
    expect(result.error?.issues.map((i) => i.message)).toEqual(["Password must not contain the part of your email before the @."]);
  });

  it("still reports password problems when the email is invalid or missing", () => {
    const invalid = credentialsWithNewPasswordSchema.safeParse({ email: "bobby", password: "bobby" });
    expect(invalid.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["email"], "Please enter a valid email."],
      [["password"], "Password must not contain the part of your email before the @."],
      [["password"], "Password must be at least 8 characters long."],
      [["password"], "Password must contain at least one number."],
      [["password"], "Password must contain at least one uppercase letter."],
      [["password"], "Password must contain at least one special character."],
    ]);
    const missing = credentialsWithNewPasswordSchema.safeParse({ password: "Abcdefg1" });
    expect(missing.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["email"], "Please enter a valid email."],
      [["password"], "Password must contain at least one special character."],
    ]);
  });

  it("reports a missing or non-string password once, with the blank message", () => {
    for (const input of [{ email: "mary@example.com" }, { email: "mary@example.com", password: 5 }]) {
      expect(credentialsWithNewPasswordSchema.safeParse(input).error?.issues).toMatchObject([
        { path: ["password"], message: "Please enter a password." },
      ]);
    }
  });
});

describe("newPasswordSchema / refineNewPassword", () => {
  it("works with custom field names", () => {
    const schema = z
      .object({ login: z.string(), secret: z.string() })
      .superRefine(newPasswordSchema("login", "secret"));
    expect(schema.safeParse({ login: "zed@x.io", secret: "Zebd1234!" }).success).toBe(true);
    expect(schema.safeParse({ login: "zed@x.io", secret: "Zed1234!" }).error?.issues).toEqual([
      { code: "custom", path: ["secret"], message: PASSWORD_RULE_MESSAGES.notEmailName },
    ]);
  });

  it("defaults to email and password fields", () => {
    const schema = z.object({ email: z.string(), password: z.string() }).superRefine(newPasswordSchema());
    expect(schema.safeParse({ email: "zed@x.io", password: "short" }).error?.issues.map((i) => i.path)).toEqual([
      ["password"],
      ["password"],
      ["password"],
      ["password"],
    ]);
  });

  it("ignores a non-string email and a non-string password", () => {
    const schema = z.object({ email: z.unknown(), password: z.unknown() }).superRefine(newPasswordSchema());
    expect(schema.safeParse({ email: 5, password: "Zed1234!" }).success).toBe(true);
    expect(schema.safeParse({ email: "zed@x.io", password: 5 }).success).toBe(true);
  });

  it("refineNewPassword adds one issue per failed rule at the given path", () => {
    const issues: { code: string; message: string; path: PropertyKey[] }[] = [];
    refineNewPassword({ addIssue: (i) => issues.push(i) }, "abc", undefined, ["users", 0, "password"]);
    expect(issues).toEqual([
      { code: "custom", path: ["users", 0, "password"], message: PASSWORD_RULE_MESSAGES.minLength },
      { code: "custom", path: ["users", 0, "password"], message: PASSWORD_RULE_MESSAGES.digit },
      { code: "custom", path: ["users", 0, "password"], message: PASSWORD_RULE_MESSAGES.uppercase },
      { code: "custom", path: ["users", 0, "password"], message: PASSWORD_RULE_MESSAGES.special },
    ]);
    const none: unknown[] = [];
    refineNewPassword({ addIssue: (i) => none.push(i) }, GOOD, "someone@example.com");
    expect(none).toEqual([]);
  });

  it("can be used with whenFieldsAreStrings on a nested schema", () => {
    const schema = z
      .object({ email: z.email(), password: z.string() })
      .superRefine(newPasswordSchema(), whenFieldsAreStrings("password"));
    expect(schema.safeParse({ password: "x" }).error?.issues.length).toBeGreaterThan(1);
  });
});

describe("properties", () => {
  const chars = fc.constantFrom(
    ..."aAzZ09!@#-_.éÉßЖж٣²€😀密\u0301\u200b \t\n\u00a0\u3000".split(/(?:)/u),
  );
  const password = fc.array(chars, { maxLength: 24 }).map((a) => a.join(""));
  const email = fc.constantFrom(undefined, "", "ab@x.io", "tester@example.com", "ZZ9@example.com", "  MixedCase@x.io ");

  it("problems are exactly the messages of the failing rules, and rules are always complete", () => {
    fc.assert(
      fc.property(fc.oneof(password, fc.string({ unit: "binary" })), email, (pw, em) => {
        const rules = passwordRules(pw, em);
        expect(rules.map((r) => r.rule)).toEqual([...PASSWORD_RULES]);
        expect(passwordProblems(pw, em)).toEqual(rules.filter((r) => !r.ok).map((r) => r.message));
      }),
    );
  });

  it("a password with every rule ok passes the schemas, and one failing any rule does not", () => {
    fc.assert(
      fc.property(password, fc.constantFrom("tester@example.com", "ZZ9@example.com", "ab@x.io"), (pw, em) => {
        const allOk = passwordRules(pw, em).every((r) => r.ok);
        const result = credentialsWithNewPasswordSchema.safeParse({ email: em, password: pw });
        expect(result.success).toBe(allOk);
        if (allOk) expect(loginPasswordSchema.safeParse(pw).success).toBe(true);
        else expect(result.error?.issues.length).toBe(passwordProblems(pw, em).length);
      }),
      { numRuns: 500 },
    );
  });

  it("built passwords that meet every rule are accepted for creation and login", () => {
    const part = (s: string) => fc.constantFrom(...s.split(/(?:)/u));
    const built = fc
      .tuple(
        part("ABCXYZÄЖ"),
        part("abcxyzßж"),
        part("0123456789٣"),
        part("!@#$%^&*()-_=+€😀"),
        fc.array(part("aA1!qwertyQWERTY"), { minLength: 4, maxLength: 40 }),
      )
      .map(([u, l, d, s, rest]) => [u, ...rest, l, d, s].join(""));
    fc.assert(
      fc.property(built, (pw) => {
        expect(passwordProblems(pw)).toEqual([]);
        expect(credentialsWithNewPasswordSchema.safeParse({ email: "qa@example.com", password: pw }).success).toBe(true);
        expect(loginPasswordSchema.safeParse(pw).success).toBe(true);
      }),
    );
  });
});
