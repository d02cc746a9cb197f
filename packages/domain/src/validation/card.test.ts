import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  AMEX_CVV_LENGTH,
  CARD_EXPIRY_YEAR_WINDOW,
  CARD_MESSAGES,
  CARD_NUMBER_MAX_DIGITS,
  CARD_NUMBER_MIN_DIGITS,
  CVV_DEFAULT_LENGTH,
  cardNumberDigits,
  cardNumberSchema,
  cvvLengthFor,
  cvvSchema,
  expiryMonthSchema,
  expiryYearSchema,
  formatCardNumber,
  isAmexCardNumber,
  isValidCardNumber,
  isValidCvv,
  checkCardNumber,
  cardNumberMessage,
  cvvMessage,
  expiryYearMessage,
  isCardExpired,
  paymentCardProblems,
  paymentCardSchema,
  normalizeExpiryMonth,
  normalizeExpiryYear,
  passesLuhn,
} from "./card.ts";

const MID_2025 = new Date("2025-06-15T12:00:00Z");

describe("constants and messages", () => {
  it("are exact", () => {
    expect(CVV_DEFAULT_LENGTH).toBe(3);
    expect(AMEX_CVV_LENGTH).toBe(4);
    expect(CARD_EXPIRY_YEAR_WINDOW).toBe(19);
    expect(CARD_NUMBER_MIN_DIGITS).toBe(12);
    expect(CARD_NUMBER_MAX_DIGITS).toBe(19);
    expect(CARD_MESSAGES.number).toBe("Please enter a valid card number.");
    expect(CARD_MESSAGES.expiryMonth).toBe("Please enter a valid expiry month (01-12).");
    expect(expiryYearMessage(MID_2025)).toBe("Please enter an expiry year from 2025 to 2044.");
    expect(cvvMessage(3)).toBe("Please enter the 3-digit security code.");
    expect(cvvMessage(4)).toBe("Please enter the 4-digit security code on the front of the card.");
  });
});

describe("passesLuhn", () => {
  it("accepts known-good numbers", () => {
    for (const n of ["79927398713", "4111111111111111", "378282246310005", "6011111111111117", "5555555555554444", "4222222222222", "0"]) {
      expect(passesLuhn(n)).toBe(true);
    }
  });

  it("rejects a wrong check digit", () => {
    for (const n of ["79927398710", "79927398714", "4111111111111112", "4111111111111110", "378282246310006", "5555555555554443"]) {
      expect(passesLuhn(n)).toBe(false);
    }
  });

  it("detects swapping two adjacent different digits (other than 0/9)", () => {
    expect(passesLuhn("4111111111111111")).toBe(true);
    expect(passesLuhn("1411111111111111")).toBe(false);
  });

  it("rejects empty and non-digit strings", () => {
    for (const n of ["", " ", "4111 1111 1111 1111", "abc", "１"]) expect(passesLuhn(n)).toBe(false);
  });

  it("exactly one check digit completes any digit prefix (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,25}$/), (prefix) => {
        const valid = "0123456789".split("").filter((d) => passesLuhn(prefix + d));
        return valid.length === 1;
      }),
    );
  });
});

/** Appends the one Luhn check digit that makes the number valid. */
function withCheckDigit(prefix: string): string {
  for (const d of "0123456789") if (passesLuhn(prefix + d)) return prefix + d;
  throw new Error("unreachable");
}

describe("isValidCardNumber", () => {
  it("accepts valid numbers with or without separators", () => {
    for (const n of [
      "4111111111111111",
      "4111 1111 1111 1111",
      "4111-1111-1111-1111",
      " 4111 1111-1111 1111 ",
      "4111\u00a01111\t1111\n1111",
      "3782 822463 10005",
      "6011111111111117",
    ]) {
      expect(isValidCardNumber(n)).toBe(true);
    }
  });

  it("needs a brand we accept and a length that brand issues", () => {
    expect(isValidCardNumber("79927398713")).toBe(false); // Luhn-valid, no brand
    expect(isValidCardNumber("123456789015")).toBe(false); // Luhn-valid, no brand
    expect(isValidCardNumber("4000000000000000006")).toBe(true); // 19-digit Visa
    expect(isValidCardNumber("40000000000000000002")).toBe(false); // 20, Luhn-valid
    expect(isValidCardNumber("4242424242424")).toBe(false); // 13 digits: Visa issues 16, 18 or 19
    expect(isValidCardNumber("6759649826438453")).toBe(false); // Maestro: not taken
    expect(passesLuhn("40000000000000000002")).toBe(true);
  });

  it("rejects a wrong check digit", () => {
    expect(isValidCardNumber("123456789016")).toBe(false);
    expect(isValidCardNumber("4000000000000000007")).toBe(false);
    expect(isValidCardNumber("4111 1111 1111 1112")).toBe(false);
  });

  it("rejects anything but digits, spaces and dashes", () => {
    for (const n of ["", "   ", "----", "4111.1111.1111.1111", "4111_1111_1111_1111", "4111111111111111x", "４111111111111111", "+4111111111111111"]) {
      expect(isValidCardNumber(n)).toBe(false);
    }
  });

  it("agrees with Visa's lengths and Luhn for generated numbers (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^4[0-9]{4,22}$/), fc.constantFrom("", " ", "-", "\t"), (prefix, sep) => {
        const good = withCheckDigit(prefix);
        const spaced = good.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
        const expected = [16, 18, 19].includes(good.length);
        expect(isValidCardNumber(good)).toBe(expected);
        expect(isValidCardNumber(spaced)).toBe(expected);
        const lastDigit = Number(good.slice(-1));
        expect(isValidCardNumber(good.slice(0, -1) + String((lastDigit + 1) % 10))).toBe(false);
      }),
    );
  });
});

describe("checkCardNumber", () => {
  it.each([
    ["", "required", CARD_MESSAGES.numberRequired],
    ["   ", "required", CARD_MESSAGES.numberRequired],
    ["4242 4242 4242 424x", "invalid", CARD_MESSAGES.number],
    ["9999 9999 9999 9995", "brand", CARD_MESSAGES.numberBrand],
    ["4242 4242 4242", "incomplete", CARD_MESSAGES.numberIncomplete],
    ["4242 4242 4242 4241", "checksum", CARD_MESSAGES.numberChecksum],
    ["3782 822463 100051", "invalid", CARD_MESSAGES.number],
  ] as const)("%j: %s", (input, problem, message) => {
    expect(checkCardNumber(input).problem).toBe(problem);
    expect(cardNumberMessage(input)).toBe(message);
  });

  it("names the brand and its security-code length", () => {
    expect(checkCardNumber("4242 4242 4242 4242")).toEqual({
      digits: "4242424242424242",
      brand: "visa",
      brandName: "Visa",
      cvvLength: 3,
      problem: null,
    });
    expect(checkCardNumber("5555 5555 5555 4444")).toMatchObject({ brand: "mastercard", problem: null });
    expect(checkCardNumber("3782 822463 10005")).toMatchObject({ brand: "american-express", cvvLength: 4, problem: null });
    expect(checkCardNumber("6011 1111 1111 1117")).toMatchObject({ brand: "discover", problem: null });
    expect(checkCardNumber("3056 930902 5904")).toMatchObject({ brand: "diners-club", problem: null });
    expect(checkCardNumber("3566 0020 2036 0505")).toMatchObject({ brand: "jcb", problem: null });
  });
});

describe("cardNumberDigits", () => {
  it("strips spaces and dashes, null for other characters", () => {
    expect(cardNumberDigits("4111 1111-1111\t1111")).toBe("4111111111111111");
    expect(cardNumberDigits("")).toBeNull();
    expect(cardNumberDigits("41a1")).toBeNull();
  });
});

describe("isAmexCardNumber / cvvLengthFor", () => {
  it("recognizes 15-digit numbers starting 34 or 37", () => {
    expect(isAmexCardNumber("378282246310005")).toBe(true);
    expect(isAmexCardNumber("3714 496353 98431")).toBe(true);
    expect(isAmexCardNumber("341111111111111")).toBe(true);
    expect(isAmexCardNumber("351111111111111")).toBe(false);
    expect(isAmexCardNumber("3782822463100051")).toBe(false);
    expect(cvvLengthFor("378282246310005")).toBe(4);
    expect(cvvLengthFor("4111111111111111")).toBe(3);
    expect(cvvLengthFor("")).toBe(3);
  });
});

describe("formatCardNumber", () => {
  it.each([
    ["4111111111111111", "4111 1111 1111 1111"],
    ["4111-1111-1111-1111", "4111 1111 1111 1111"],
    ["  4111 11111111 1111 ", "4111 1111 1111 1111"],
    ["4000000000000000006", "4000 0000 0000 0000 006"],
    ["123456789015", "1234 5678 9015"],
    ["378282246310005", "3782 822463 10005"],
    ["341111111111111", "3411 111111 11111"],
    ["3782 8224 6310 005", "3782 822463 10005"],
    ["37828", "3782 8"],
    ["3782822463", "3782 822463"],
    ["37828224631", "3782 822463 1"],
    ["3782822463100051", "3782 8224 6310 0051"], // 16 digits: not Amex any more
    ["351111111111111", "3511 1111 1111 111"],
    ["4111", "4111"],
    ["41111", "4111 1"],
    ["", ""],
    ["abc", ""],
  ])("%j -> %j", (input, expected) => {
    expect(formatCardNumber(input)).toBe(expected);
  });

  it("keeps the digits, uses single spaces and is idempotent (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const formatted = formatCardNumber(s);
        expect(formatted.replace(/ /g, "")).toBe(s.replace(/[^0-9]/g, ""));
        expect(formatted).not.toMatch(/^ | $| {2}/);
        expect(formatCardNumber(formatted)).toBe(formatted);
      }),
    );
  });
});

describe("normalizeExpiryMonth", () => {
  it("pads 1-12 to two digits", () => {
    for (let m = 1; m <= 12; m += 1) {
      const expected = String(m).padStart(2, "0");
      expect(normalizeExpiryMonth(m)).toBe(expected);
      expect(normalizeExpiryMonth(String(m))).toBe(expected);
      expect(normalizeExpiryMonth(expected)).toBe(expected);
    }
    expect(normalizeExpiryMonth(" 9 ")).toBe("09");
    expect(normalizeExpiryMonth("\t12\n")).toBe("12");
  });

  it.each([0, 13, -1, 1.5, Number.NaN, Infinity, "0", "00", "13", "012", "001", "1.0", "-1", "+1", "", " ", "a", "1a", "１"])(
    "rejects %j",
    (value) => {
      expect(normalizeExpiryMonth(value)).toBeNull();
    },
  );
});

describe("normalizeExpiryYear", () => {
  it("prefixes two-digit years with 20 and keeps four-digit years", () => {
    expect(normalizeExpiryYear("25", MID_2025)).toBe(2025);
    expect(normalizeExpiryYear("30", MID_2025)).toBe(2030);
    expect(normalizeExpiryYear(30, MID_2025)).toBe(2030);
    expect(normalizeExpiryYear("2030", MID_2025)).toBe(2030);
    expect(normalizeExpiryYear(2030, MID_2025)).toBe(2030);
    expect(normalizeExpiryYear(" 27\t", MID_2025)).toBe(2027);
  });

  it("accepts the current year and up to 19 years ahead, not 20", () => {
    expect(normalizeExpiryYear("24", MID_2025)).toBeNull();
    expect(normalizeExpiryYear("2024", MID_2025)).toBeNull();
    expect(normalizeExpiryYear("25", MID_2025)).toBe(2025);
    expect(normalizeExpiryYear("44", MID_2025)).toBe(2044); // 19 ahead
    expect(normalizeExpiryYear("2044", MID_2025)).toBe(2044);
    expect(normalizeExpiryYear("45", MID_2025)).toBeNull(); // 20 ahead
    expect(normalizeExpiryYear(2045, MID_2025)).toBeNull();
    expect(normalizeExpiryYear("99", MID_2025)).toBeNull();
    expect(normalizeExpiryYear("00", MID_2025)).toBeNull();
  });

  it("uses the year of `now` in UTC, moving the window at New Year", () => {
    const lastMoment = new Date("2025-12-31T23:59:59.999Z");
    const firstMoment = new Date("2026-01-01T00:00:00.000Z");
    expect(normalizeExpiryYear("25", lastMoment)).toBe(2025);
    expect(normalizeExpiryYear("45", lastMoment)).toBeNull();
    expect(normalizeExpiryYear("25", firstMoment)).toBeNull();
    expect(normalizeExpiryYear("45", firstMoment)).toBe(2045);
  });

  it("never rolls two-digit years into the next century", () => {
    const late = new Date("2090-03-01T00:00:00Z");
    expect(normalizeExpiryYear("99", late)).toBe(2099);
    expect(normalizeExpiryYear("05", late)).toBeNull();
    expect(normalizeExpiryYear("2110", late)).toBeNull();
    expect(normalizeExpiryYear("2109", late)).toBe(2109);
  });

  it.each(["", " ", "5", "025", "20255", "2a", "twenty", "25.0", "-25", "２５", 1.5, -5, 100, 999, 10000, Number.NaN])(
    "rejects %j",
    (value) => {
      expect(normalizeExpiryYear(value, MID_2025)).toBeNull();
    },
  );

  it("reads a number below 10 as a two-digit year", () => {
    expect(normalizeExpiryYear(5, new Date("2003-01-01T00:00:00Z"))).toBe(2005);
  });

  it("returns null for an invalid date", () => {
    expect(normalizeExpiryYear("25", new Date(Number.NaN))).toBeNull();
  });

  it("result is always within the window (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2080 }), fc.integer({ min: 0, max: 9999 }), (currentYear, y) => {
        const now = new Date(Date.UTC(currentYear, 5, 1));
        const result = normalizeExpiryYear(String(y).padStart(y < 100 ? 2 : 4, "0"), now);
        const full = y < 100 ? 2000 + y : y;
        const inWindow = full >= currentYear && full <= currentYear + 19 && (y < 100 || y >= 1000);
        expect(result).toBe(inWindow ? full : null);
      }),
    );
  });
});

describe("isValidCvv", () => {
  it("accepts exactly three digits by default", () => {
    expect(isValidCvv("123")).toBe(true);
    expect(isValidCvv("000")).toBe(true);
    expect(isValidCvv(" 123 ")).toBe(true);
    expect(isValidCvv("12")).toBe(false);
    expect(isValidCvv("1234")).toBe(false);
  });

  it("honours another length", () => {
    expect(isValidCvv("1234", 4)).toBe(true);
    expect(isValidCvv("123", 4)).toBe(false);
    expect(isValidCvv("12345", 4)).toBe(false);
    expect(isValidCvv("1", 1)).toBe(true);
  });

  it("rejects non-digits and bad lengths", () => {
    for (const v of ["", "   ", "12a", "1 3", "1-3", "１２３", "12.", "-12"]) expect(isValidCvv(v)).toBe(false);
    expect(isValidCvv("", 0)).toBe(false);
    expect(isValidCvv("123", -3)).toBe(false);
    expect(isValidCvv("123", 2.5)).toBe(false);
    expect(isValidCvv("123", Number.NaN)).toBe(false);
  });
});

describe("zod schemas", () => {
  it("cardNumberSchema outputs the formatted number and reports one issue on failure", () => {
    expect(cardNumberSchema.parse("4111-1111-1111-1111")).toBe("4111 1111 1111 1111");
    expect(cardNumberSchema.parse("378282246310005")).toBe("3782 822463 10005");
    const messages = (v: unknown) => cardNumberSchema.safeParse(v).error?.issues.map((i) => i.message);
    expect(messages("4111111111111112")).toEqual([CARD_MESSAGES.numberChecksum]);
    for (const bad of ["", 4111111111111111, undefined]) expect(messages(bad)).toEqual([CARD_MESSAGES.numberRequired]);
  });

  it("expiryMonthSchema outputs the padded month", () => {
    expect(expiryMonthSchema.parse("3")).toBe("03");
    expect(expiryMonthSchema.parse(11)).toBe("11");
    for (const bad of ["13", 0, null, undefined]) {
      expect(expiryMonthSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([CARD_MESSAGES.expiryMonth]);
    }
  });

  it("expiryYearSchema outputs the four-digit year", () => {
    const schema = expiryYearSchema(MID_2025);
    expect(schema.parse("26")).toBe(2026);
    expect(schema.parse(2044)).toBe(2044);
    for (const bad of ["45", "24", "", null]) {
      expect(schema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([expiryYearMessage(MID_2025)]);
    }
  });

  it("cvvSchema checks the length and trims", () => {
    expect(cvvSchema().parse(" 123 ")).toBe("123");
    expect(cvvSchema(4).parse("1234")).toBe("1234");
    for (const bad of ["12", "1234", "abc", 123, undefined]) {
      expect(cvvSchema().safeParse(bad).error?.issues.map((i) => i.message)).toEqual([cvvMessage(3)]);
    }
  });
});

describe("payment form", () => {
  const good = { name: "Ada Lovelace", number: "4242424242424242", expMonth: "3", expYear: "27", cvv: "123" };

  it("normalizes a good card: number with spaces, month padded, year prefixed with 20", () => {
    expect(paymentCardSchema(MID_2025).parse(good)).toEqual({
      name: "Ada Lovelace",
      number: "4242 4242 4242 4242",
      expMonth: "03",
      expYear: 2027,
      cvv: "123",
    });
    expect(paymentCardProblems(good, MID_2025)).toEqual([]);
  });

  it("wants four digits of security code for American Express and three for others", () => {
    const amex = { ...good, number: "3782 822463 10005" };
    expect(paymentCardProblems(amex, MID_2025)).toEqual([{ path: "cvv", message: cvvMessage(4) }]);
    expect(paymentCardProblems({ ...amex, cvv: "1234" }, MID_2025)).toEqual([]);
    expect(paymentCardProblems({ ...good, cvv: "1234" }, MID_2025)).toEqual([{ path: "cvv", message: cvvMessage(3) }]);
    expect(paymentCardSchema(MID_2025).safeParse({ ...good, cvv: "1234" }).error?.issues).toMatchObject([
      { path: ["cvv"], message: cvvMessage(3) },
    ]);
  });

  it("refuses a card whose expiry month has passed this year, and takes this month", () => {
    expect(isCardExpired("05", 2025, MID_2025)).toBe(true);
    expect(isCardExpired("06", 2025, MID_2025)).toBe(false);
    expect(paymentCardProblems({ ...good, expMonth: "5", expYear: "25" }, MID_2025)).toEqual([
      { path: "expMonth", message: CARD_MESSAGES.expired },
    ]);
  });

  it("reports every broken field at once, in form order", () => {
    expect(paymentCardProblems({ name: " ", number: "4242", expMonth: "13", expYear: "1999", cvv: "" }, MID_2025)).toEqual([
      { path: "name", message: CARD_MESSAGES.name },
      { path: "number", message: CARD_MESSAGES.numberIncomplete },
      { path: "expMonth", message: CARD_MESSAGES.expiryMonth },
      { path: "expYear", message: expiryYearMessage(MID_2025) },
      { path: "cvv", message: cvvMessage(3) },
    ]);
    expect(paymentCardProblems({}, MID_2025).map((p) => p.path)).toEqual(["name", "number", "expMonth", "expYear", "cvv"]);
  });
});
