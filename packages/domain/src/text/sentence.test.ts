import { describe, expect, it } from "vitest";
import { endSentence } from "./sentence.ts";

describe("endSentence", () => {
  it("adds the full stop a sentence lacks", () => {
    expect(endSentence("Every line carries the class of Northwind UK Ltd")).toBe("Every line carries the class of Northwind UK Ltd.");
  });

  it("never doubles the one a company name brings", () => {
    expect(endSentence("Every line carries the class of Northwind Canada Inc.")).toBe("Every line carries the class of Northwind Canada Inc.");
    expect(endSentence("Is it posted?")).toBe("Is it posted?");
  });

  it("ignores trailing spaces", () => {
    expect(endSentence("Posted by Acme Co.  ")).toBe("Posted by Acme Co.");
    expect(endSentence("Posted ")).toBe("Posted.");
  });
});
