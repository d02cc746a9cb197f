import { companiesResponseSchema, companyStatusMapSchema, type Company, type CompanyStatus } from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";

export const companyKeys = { list: ["companies"] as const, status: ["companies", "status"] as const };

export const companiesApi = {
  list: (signal?: AbortSignal) => api<Company[]>("/companies", { schema: companiesResponseSchema, ...(signal ? { signal } : {}) }),
  status: (signal?: AbortSignal) =>
    api<Record<string, CompanyStatus>>("/companies/status", { schema: companyStatusMapSchema, ...(signal ? { signal } : {}) }),
};

export function useCompanies() {
  return useQuery({ queryKey: companyKeys.list, queryFn: ({ signal }) => companiesApi.list(signal) });
}

export function useCompanyStatus() {
  return useQuery({ queryKey: companyKeys.status, queryFn: ({ signal }) => companiesApi.status(signal) });
}
