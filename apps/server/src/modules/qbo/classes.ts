import { QboError } from "@groupledger/qbo";
import type { QboProvider } from "../../services/qbo-provider.ts";

/**
 * The class a subsidiary's entries carry in the parent's QBO, created when missing; another
 * writer creating it first (QBO's 6240 duplicate name) is fine.
 */
export async function classFor(client: ReturnType<QboProvider["client"]>, name: string) {
  const existing = (await client.classes()).find((k) => k.name === name);
  if (existing) return existing;
  try {
    return await client.createClass(name);
  } catch (e) {
    const created = e instanceof QboError && e.code === "6240" ? (await client.classes()).find((k) => k.name === name) : undefined;
    if (created) return created;
    throw e;
  }
}
