import { getChangesInEquity, type ChangesInEquityQuery } from "@groupledger/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "../../../lib/http.ts";

/** Under ["reports"] with the report's other queries: the server computes it from the same inputs. */
export const equityKeys = {
  statement: (q: ChangesInEquityQuery) => ["reports", "changes-in-equity", q.from, q.to] as const,
};

/** The statement of changes in equity for the chosen period; the previous one stays on screen while the next loads. */
export function useChangesInEquity(q: ChangesInEquityQuery | null) {
  return useQuery({
    queryKey: q ? equityKeys.statement(q) : ["reports", "changes-in-equity", "none"],
    queryFn: ({ signal }) => call(getChangesInEquity, { query: { from: q!.from, to: q!.to } }, { signal }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}
