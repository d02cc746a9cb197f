import type { BoardPackRequest } from "@groupledger/contract";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { PermanentJobError, type JobHandler } from "../../jobs/worker.ts";
import { generateBoardPack } from "./service.ts";

/**
 * The generation job: the pack's pages and PDF, with progress at each statement and section, kept
 * in `board_packs` (the job's result names it). A period that does not consolidate (409 from the
 * statements) fails at once with that message: another attempt cannot fix it.
 */
export function boardPackHandler(deps: { database: Database }): JobHandler {
  return async (ctx) => {
    const accountId = ctx.job.accountId;
    if (!accountId) throw new PermanentJobError("a board pack names no account");
    const p = ctx.job.payload;
    const query = { from: String(p["from"]), to: String(p["to"]), compare: p["compare"] as BoardPackRequest["compare"] };
    try {
      const { packId, fileName } = await generateBoardPack(deps.database.db, accountId, ctx.job.id, query, (fraction, message) => ctx.progress(fraction, message));
      return { packId, fileName };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) throw new PermanentJobError(err.message);
      throw err;
    }
  };
}
