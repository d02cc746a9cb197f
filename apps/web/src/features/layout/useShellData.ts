import { useAccount } from "../account/api.ts";
import { useCompanies } from "../companies/api.ts";
import { navFacts, type NavFacts } from "../navigation/enabling.ts";
import { useObal } from "../obal/api.ts";

/** SPEC §7: what the authenticated shell loads, and the navigation facts derived from it. */
export function useShellData() {
  const account = useAccount();
  const companies = useCompanies();
  const obal = useObal();
  const facts: NavFacts = navFacts({ account: account.data, companies: companies.data, obal: obal.data });
  return { account, companies, obal, facts };
}
