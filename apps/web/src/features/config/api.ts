import { getPublicConfig, type PublicConfig } from "@groupledger/contract";
import { IDLE_TIMEOUT_MS } from "@groupledger/domain";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

/** SPEC defaults, used when GET /api/config cannot be read. */
export const DEFAULT_CONFIG: PublicConfig = { idleTimeoutMs: IDLE_TIMEOUT_MS, devMailbox: false };

/**
 * GET /api/config (public): the server sets idleTimeoutMs from IDLE_TIMEOUT_MS, so tests shorten it
 * without a special build. A failure falls back to the SPEC defaults: the idle timeout must run
 * even when the config cannot be read, and that failure is not worth an error bar of its own.
 */
export async function fetchPublicConfig(): Promise<PublicConfig> {
  try {
    return await call(getPublicConfig, {}, { skipGlobalHandler: true });
  } catch {
    return DEFAULT_CONFIG;
  }
}

export function usePublicConfig() {
  return useQuery({ queryKey: ["config"], queryFn: fetchPublicConfig, staleTime: Infinity });
}
