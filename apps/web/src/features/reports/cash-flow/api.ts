import { getCashFlow, getCashFlowClasses, putCashFlowClasses, type CashFlowQuery, type PutCashFlowClassesBody } from "@groupledger/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../../lib/http.ts";

/** Everything under ["cash-flow"]: changing a class changes every statement. */
export const cashFlowKeys = {
  all: ["cash-flow"] as const,
  statement: (q: CashFlowQuery) => ["cash-flow", "statement", q.from, q.to] as const,
  classes: ["cash-flow", "classes"] as const,
};

export const cashFlowApi = {
  statement: (q: CashFlowQuery, signal?: AbortSignal) => call(getCashFlow, { query: { from: q.from, to: q.to } }, { signal }),
  classes: (signal?: AbortSignal) => call(getCashFlowClasses, {}, { signal }),
  saveClasses: (body: PutCashFlowClassesBody) => call(putCashFlowClasses, { body }),
};

/** The statement of the chosen period; the previous one stays on screen (dimmed) while the next loads. */
export function useCashFlow(q: CashFlowQuery | null) {
  return useQuery({
    queryKey: q ? cashFlowKeys.statement(q) : ["cash-flow", "none"],
    queryFn: ({ signal }) => cashFlowApi.statement(q!, signal),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

export function useCashFlowClasses() {
  return useQuery({ queryKey: cashFlowKeys.classes, queryFn: ({ signal }) => cashFlowApi.classes(signal) });
}

export function useSaveCashFlowClasses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cashFlowApi.saveClasses,
    onSuccess: (classes) => {
      client.setQueryData(cashFlowKeys.classes, classes);
      void client.invalidateQueries({ queryKey: ["cash-flow", "statement"] });
    },
  });
}
