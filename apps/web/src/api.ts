import { healthSchema } from "@groupledger/contract";
import type { z } from "zod";

export type Health = z.infer<typeof healthSchema>;

/** Reads /api/health and checks it against the contract, so a drifting server is noticed here. */
export async function fetchHealth(fetchFn: typeof fetch = fetch): Promise<Health> {
  const res = await fetchFn("/api/health", { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
  const parsed = healthSchema.safeParse(await res.json());
  if (!parsed.success) throw new Error("The server's health answer has an unexpected shape.");
  return parsed.data;
}
