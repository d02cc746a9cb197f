import type { ContractFaults } from "./suite.ts";

/**
 * What the contract suite and the bench need of `@groupledger/qbo-sandbox` (its documented API),
 * loaded dynamically: the emulator is built alongside this client and may not export it yet.
 */
export interface StartedSandbox {
  readonly url: string;
  readonly sandbox: {
    companies(): readonly { realmId: string; companyName: string; country: string; homeCurrency: string }[];
    issueAuthorizationCode(realmId: string, redirectUri: string): string | Promise<string>;
    setFaults(faults: ContractFaults): void;
    reset(): void | Promise<void>;
  };
  close(): Promise<void>;
}

export type StartSandbox = (options: { port: number; faults?: ContractFaults }) => Promise<StartedSandbox>;

export const SANDBOX_CLIENT = { clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" } as const;

export async function loadStartSandbox(): Promise<StartSandbox | undefined> {
  const mod = (await import("@groupledger/qbo-sandbox")) as unknown as { startSandbox?: unknown };
  return typeof mod.startSandbox === "function" ? (mod.startSandbox as StartSandbox) : undefined;
}
