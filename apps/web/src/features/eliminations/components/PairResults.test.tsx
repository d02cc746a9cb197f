import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createQueryClient, Providers } from "../../../app/providers.tsx";
import type { PairView } from "../model.ts";
import { Q1_VIEW } from "./eliminationsFixtures.ts";
import { PairResult } from "./PairResults.tsx";

const loan = Q1_VIEW.pairs[0]!;

/** The UK loan lent from the parent's GBP account (issue #20): the books agree in pounds; the dollars differ by the exchange on the unrevalued loan. */
const inPounds: PairView = {
  ...loan,
  left: { local: 1_262_150_00, currency: "USD", translated: 1_262_150_00, rate: "1" },
  right: { local: -1_000_000_00, currency: "GBP", translated: -1_229_730_00, rate: "1.22973" },
  difference: 32_420_00,
  translationPart: 32_420_00,
  bookPart: 0,
  inCurrency: { currency: "GBP", left: 1_000_000_00, right: -1_000_000_00 },
  match: "unmatched",
  matched: false,
};

function show(view: PairView) {
  render(
    <Providers client={createQueryClient()}>
      <PairResult view={view} parentCurrency="USD" tolerance={100} />
    </Providers>,
  );
  return screen.getByRole("article", { name: view.pair.name });
}

describe("a pair compared in its accounts' one currency", () => {
  it("shows both sides in pounds, calls the whole difference the exchange part and says the books agree in GBP", () => {
    const card = show(inPounds);
    expect(within(card).getByTestId("in-currency").textContent).toBe(
      "Compared in GBP, the currency both accounts hold: Northwind Holdings Inc.'s receivable £1,000,000.00 and Northwind UK Ltd's payable (£1,000,000.00), so they agree.",
    );
    expect(within(card).getByTestId("translation-part").textContent).toContain("Exchange part:$32,420.00");
    expect(within(card).getByTestId("book-part").textContent).toContain("Book part:$0.00the books differ in GBP, at the closing rate");
    expect(within(card).getByTestId("unmatched").textContent).toContain("The books agree in GBP: all of it is the exchange difference on the foreign-currency account");
  });

  it("says how far apart the pounds are when the books differ in GBP", () => {
    const card = show({ ...inPounds, bookPart: -1_229_73, translationPart: 32_420_00 + 1_229_73, difference: 32_420_00, inCurrency: { currency: "GBP", left: 999_000_00, right: -1_000_000_00 } });
    expect(within(card).getByTestId("in-currency").textContent).toContain("payable (£1,000,000.00), £1,000.00 apart.");
    expect(within(card).getByTestId("unmatched").textContent).toContain("of it is in the books");
  });

  it("keeps the translation wording for a pair in different currencies", () => {
    const card = show(loan);
    expect(within(card).queryByTestId("in-currency")).toBeNull();
    expect(within(card).getByTestId("translation-part").textContent).toContain("Translation part:");
  });
});
