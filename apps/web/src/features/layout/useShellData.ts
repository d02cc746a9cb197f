import { useAccount } from "../account/api.ts";
import { useCompanies, useCompanyStatus } from "../companies/api.ts";
import { navFacts, type NavFacts } from "../navigation/enabling.ts";
import { useObal } from "../obal/api.ts";

/** SPEC §7: what the authenticated shell loads, and the navigation facts derived from it. */
export function useShellData() {
  const account = useAccount();
  const companies = useCompanies();
  // The shell watches the status too: a company needing re-authorization shows the error bar on every screen.
  const status = useCompanyStatus();
  const obal = useObal();
  const facts: NavFacts = navFacts({ account: account.data, companies: companies.data, obal: obal.data });
  return { account, companies, status, obal, facts };
}
