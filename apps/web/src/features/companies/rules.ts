import type { Company, CompanyStatus } from "@groupledger/contract";
import { syncActive } from "./api.ts";

/** The one obvious next thing to do on the Connected Companies screen. */
export type NextStep = "connectFirst" | "setParent" | "connectSubsidiary" | "continueToCoa" | "complete";

/**
 * Archived companies are out of the group, so they count for nothing here (as in navigation).
 * `onboardingStep` is null when the guide is off.
 */
export function companiesNextStep(companies: readonly Company[], onboardingStep: number | null): NextStep {
  const active = companies.filter((c) => c.archivedAt === null);
  if (active.length === 0) return "connectFirst";
  if (!active.some((c) => c.parent)) return "setParent";
  if (!active.some((c) => !c.parent)) return "connectSubsidiary";
  if (onboardingStep === 1.2) return "continueToCoa";
  return "complete";
}

export interface RowActions {
  setParent: boolean;
  reconnect: boolean;
  sync: boolean;
  disconnect: boolean;
  archive: boolean;
  unarchive: boolean;
  remove: boolean;
}

/** Which actions a company row offers, from what the company is and how its connection stands. */
export function rowActions(company: Company, status: CompanyStatus | undefined): RowActions {
  const archived = company.archivedAt !== null;
  const connection = status?.connection ?? "connected";
  return {
    setParent: !company.parent && !archived,
    reconnect: connection !== "connected",
    sync: connection === "connected" && !archived && !syncActive(status),
    disconnect: connection !== "disconnected",
    // The server refuses to archive the parent: another company must become the parent first.
    archive: !archived && !company.parent,
    unarchive: archived,
    remove: true,
  };
}
