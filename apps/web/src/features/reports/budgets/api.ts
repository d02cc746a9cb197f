import {
  getBudgetTemplate,
  getBudgets,
  getBudgetVsActual,
  postBudgetCsv,
  postQuickBooksBudgets,
  putBudgetRates,
  type BudgetImportResult,
  type BudgetOverview,
  type BudgetVsActualQuery,
  type PutBudgetRatesBody,
} from "@groupledger/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { saveBlob } from "../../../lib/download.ts";
import { call } from "../../../lib/http.ts";

/** Everything under ["budgets"]: a new budget or rate changes every statement. */
export const budgetKeys = {
  all: ["budgets"] as const,
  statement: (q: BudgetVsActualQuery) => ["budgets", "statement", q.from, q.to] as const,
  overview: (fiscalYear: number) => ["budgets", "overview", fiscalYear] as const,
};

export const budgetApi = {
  statement: (q: BudgetVsActualQuery, signal?: AbortSignal) => call(getBudgetVsActual, { query: { from: q.from, to: q.to } }, { signal }),
  overview: (fiscalYear: number, signal?: AbortSignal) => call(getBudgets, { query: { fiscalYear } }, { signal }),
  saveRates: (body: PutBudgetRatesBody) => call(putBudgetRates, { body }),
  readQuickBooks: (fiscalYear: number) => call(postQuickBooksBudgets, { body: { fiscalYear } }),
  template: async (realmId: string, fiscalYear: number): Promise<Blob> => (await call(getBudgetTemplate, { params: { realmId }, query: { fiscalYear } })).blob,
  importCsv: (a: { realmId: string; fiscalYear: number; name: string; csv: string }) => call(postBudgetCsv, { params: { realmId: a.realmId }, query: { fiscalYear: a.fiscalYear, name: a.name }, body: a.csv }),
};

/** The statement of the chosen period; the previous one stays on screen (dimmed) while the next loads. */
export function useBudgetVsActual(q: BudgetVsActualQuery | null) {
  return useQuery({
    queryKey: q ? budgetKeys.statement(q) : ["budgets", "none"],
    queryFn: ({ signal }) => budgetApi.statement(q!, signal),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useBudgetOverview(fiscalYear: number | null) {
  return useQuery({
    queryKey: fiscalYear === null ? ["budgets", "overview", "none"] : budgetKeys.overview(fiscalYear),
    queryFn: ({ signal }) => budgetApi.overview(fiscalYear!, signal),
    enabled: fiscalYear !== null,
  });
}

/** A change of budgets or rates: the overview answered is kept, every statement is asked again. */
function useBudgetMutation<A, R extends BudgetOverview | BudgetImportResult>(fn: (a: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result) => {
      const overview: BudgetOverview = "overview" in result ? result.overview : result;
      client.setQueryData(budgetKeys.overview(overview.fiscalYear), overview);
      // A statement still loading was asked before the change: invalidating alone would keep its
      // answer (a first fetch in flight is not refetched), so it is cancelled, then asked again.
      await client.cancelQueries({ queryKey: ["budgets", "statement"] });
      void client.invalidateQueries({ queryKey: ["budgets", "statement"] });
    },
  });
}

export const useSaveBudgetRates = () => useBudgetMutation(budgetApi.saveRates);
export const useReadQuickBooksBudgets = () => useBudgetMutation(budgetApi.readQuickBooks);
export const useImportBudgetCsv = () => useBudgetMutation(budgetApi.importCsv);

/** Saves a company's template through the browser: the file needs the session token, so a plain link would be refused. */
export async function downloadBudgetTemplate(realmId: string, fiscalYear: number): Promise<void> {
  saveBlob(await budgetApi.template(realmId, fiscalYear), `budget-template-FY${fiscalYear}.csv`);
}
