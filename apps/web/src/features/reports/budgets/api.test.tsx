import { act, renderHook, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { BudgetImportResult, BudgetOverview } from "@groupledger/contract";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../app/providers.tsx";
import { signedIn } from "../../../test/session.ts";
import { useBudgetVsActual, useReadQuickBooksBudgets } from "./api.ts";

const OVERVIEW: BudgetOverview = { fiscalYear: 2026, months: { from: "2026-01", to: "2026-12" }, parentCurrency: "USD", rates: [], companies: [] };
const RESULT: BudgetImportResult = { imported: [], skipped: [], overview: OVERVIEW };
const statement = (warning: string) => ({ ok: false, problems: [], warnings: [warning], period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" }, parentCurrency: "USD", exponent: 2, fiscalYear: 2026, statement: null });

describe("budget changes and the statement on screen", () => {
  it("a statement first asked before budgets were read, and answered after, is asked again: the screen never keeps the budgets' old state", async () => {
    signedIn();
    const asked: ((r: Response) => void)[] = [];
    const base = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (url.includes("/consolidation/budget-vs-actual")) {
        // The first answer is held back until after the read; later ones come at once.
        if (asked.length === 0) return new Promise<Response>((resolve) => asked.push(resolve));
        asked.push(() => {});
        return Promise.resolve(new Response(JSON.stringify(statement("after the read")), { status: 200 }));
      }
      if (url.includes("/budgets/quickbooks") && init.method === "POST") return Promise.resolve(new Response(JSON.stringify(RESULT), { status: 200 }));
      return base(input, init);
    }) as typeof fetch;
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => ({ statement: useBudgetVsActual({ from: "2026-01", to: "2026-03" }), read: useReadQuickBooksBudgets() }), { wrapper });
    await waitFor(() => expect(asked.length).toBe(1));
    await act(async () => {
      await result.current.read.mutateAsync(2026);
    });
    // The request made before the read answers now, with the budgets as they were.
    asked[0]!(new Response(JSON.stringify(statement("before the read")), { status: 200 }));
    await waitFor(() => expect(result.current.statement.data?.warnings).toEqual(["after the read"]));
    expect(asked.length).toBe(2);
  });
});
