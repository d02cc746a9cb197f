import { parse } from "csv-parse/sync";
import { and, eq, gte, lte } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  errorBodySchema,
  FX_CSV_HEADER,
  fxRateSchema,
  fxRatesQuerySchema,
  fxRatesResponseSchema,
  fxRatesUpdatedSchema,
  fxRatesUpdateSchema,
  fxRatesFetchSchema,
  fxRatesFetchedSchema,
  type FieldError,
  type FxRate,
} from "@groupledger/contract";
import { lastDayOfMonth, monthCount, monthList, monthlyFromDaily, monthOf, normalizeRate, RATE_MESSAGE, shiftMonth, toCsv } from "@groupledger/domain";
import { fetchDailyRates, RatesSourceError } from "../../services/fx-source.ts";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { fxRates } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup } from "../group/service.ts";

const security = [{ bearer: [] }];
const tags = ["fx rates"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 415: errorBodySchema };
const MAX_GRID_MONTHS = 120;

/** The parent's currency and the other currencies its active subsidiaries keep books in. */
async function groupCurrencies(db: Db, accountId: string) {
  const { parent, unarchivedSubsidiaries } = await loadGroup(db, accountId);
  const foreign = [...new Set(unarchivedSubsidiaries.filter((c) => parent && c.homeCurrency !== parent.homeCurrency).map((c) => c.homeCurrency))].sort();
  return { parentCurrency: parent?.homeCurrency ?? null, foreign };
}

export const fxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, config }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  /** Every problem with the rates at once, each at its path; and the rates as stored. */
  async function checkRates(accountId: string, rates: FxRate[], pathOf: (i: number) => string) {
    const { parentCurrency, foreign } = await groupCurrencies(db, accountId);
    if (!parentCurrency) throw errors.conflict("parent_required", "Choose a parent company first: rates are in the parent's currency.");
    const fields: FieldError[] = [];
    const clean = rates.map((r, i) => {
      const check = (text: string, field: "avgfx" | "endfx") => {
        if (text.trim() === "") return null;
        const value = normalizeRate(text);
        if (value === null) fields.push({ path: `${pathOf(i)}.${field}`, message: RATE_MESSAGE });
        return value;
      };
      if (r.currency === parentCurrency) fields.push({ path: `${pathOf(i)}.currency`, message: `${r.currency} is the parent's currency; it needs no rate.` });
      else if (!foreign.includes(r.currency)) {
        fields.push({ path: `${pathOf(i)}.currency`, message: `${r.currency} is not the currency of any active subsidiary (${foreign.join(", ") || "none yet"}).` });
      }
      return { currency: r.currency, month: r.month, average: check(r.avgfx, "avgfx"), closing: check(r.endfx, "endfx") };
    });
    const seen = new Set<string>();
    clean.forEach((r, i) => {
      const key = `${r.currency}:${r.month}`;
      if (seen.has(key)) fields.push({ path: pathOf(i), message: `${r.currency} ${r.month} appears twice.` });
      seen.add(key);
    });
    return { clean, fields };
  }

  /** Validates every rate first (all or nothing), then writes and audits each change with its old value. */
  async function save(accountId: string, userId: string, rates: FxRate[], pathOf: (i: number) => string, meta: { ip: string; requestId: string }) {
    const { clean, fields } = await checkRates(accountId, rates, pathOf);
    if (fields.length > 0) {
      throw new AppError(400, "invalid_rates", fields.length === 1 ? fields[0]!.message : `${fields.length} problems in the rates; nothing was saved.`, { fields });
    }
    const existing = await db.select().from(fxRates).where(eq(fxRates.accountId, accountId));
    const before = new Map(existing.map((r) => [`${r.currency}:${r.month}`, r]));
    const changes = clean.filter((r) => {
      const old = before.get(`${r.currency}:${r.month}`);
      return (old?.average ?? null) !== r.average || (old?.closing ?? null) !== r.closing;
    });
    if (changes.length > 0) {
      await db.transaction(async (tx) => {
        for (const r of changes) {
          await tx
            .insert(fxRates)
            .values({ accountId, ...r, updatedBy: userId, updatedAt: new Date() })
            .onConflictDoUpdate({ target: [fxRates.accountId, fxRates.currency, fxRates.month], set: { average: r.average, closing: r.closing, updatedBy: userId, updatedAt: new Date() } });
        }
        await audit(tx, {
          action: "fx.rates_changed",
          accountId,
          userId,
          details: {
            changes: changes.slice(0, 500).map((r) => {
              const old = before.get(`${r.currency}:${r.month}`);
              return { currency: r.currency, month: r.month, avgfx: { old: old?.average ?? "", new: r.average ?? "" }, endfx: { old: old?.closing ?? "", new: r.closing ?? "" } };
            }),
          },
          ...meta,
        });
      });
    }
    return { updated: changes.length, unchanged: clean.length - changes.length };
  }

  app.get(
    "/fxrates",
    {
      schema: {
        tags,
        security,
        summary: "The rates grid: every foreign currency × month (default: the last 12 months), empty where missing",
        querystring: fxRatesQuerySchema,
        response: { 200: fxRatesResponseSchema, ...err },
      },
    },
    async (req) => {
      const { accountId } = authOf(req).user;
      const to = req.query.to ?? monthOf(new Date());
      const from = req.query.from ?? shiftMonth(to, -11);
      const span = monthCount(from, to);
      if (span < 1 || span > MAX_GRID_MONTHS) throw errors.badRequest("invalid_range", `Choose from ${from} to ${to} as 1 to ${MAX_GRID_MONTHS} months, from before to.`);
      const { parentCurrency, foreign } = await groupCurrencies(db, accountId);
      const months = monthList(from, to);
      const stored = await db
        .select()
        .from(fxRates)
        .where(and(eq(fxRates.accountId, accountId), gte(fxRates.month, from), lte(fxRates.month, to)));
      const byKey = new Map(stored.map((r) => [`${r.currency}:${r.month}`, r]));
      const rates = foreign.flatMap((currency) =>
        months.map((month) => {
          const r = byKey.get(`${currency}:${month}`);
          return { currency, month, avgfx: r?.average ?? "", endfx: r?.closing ?? "" };
        }),
      );
      return { parentCurrency, currencies: foreign, months, rates };
    },
  );

  app.put(
    "/fxrates",
    {
      schema: { tags, security, summary: "Set rates (all or nothing); an empty string clears a rate", body: fxRatesUpdateSchema, response: { 200: fxRatesUpdatedSchema, ...err } },
    },
    async (req) => {
      const { user } = authOf(req);
      return save(user.accountId, user.id, req.body.rates, (i) => `rates.${i}`, { ip: req.ip, requestId: req.id });
    },
  );

  app.post(
    "/fxrates/import",
    {
      schema: {
        tags,
        security,
        summary: "Import rates from CSV (text/csv; header currency,month,avgfx,endfx); row-level errors, all or nothing",
        body: z.string({ error: "Send the file as text/csv." }),
        response: { 200: fxRatesUpdatedSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      let records: string[][];
      try {
        records = parse(req.body, { skip_empty_lines: true, trim: true, bom: true, relax_column_count: true }) as string[][];
      } catch (e) {
        throw errors.badRequest("invalid_csv", `The file is not valid CSV: ${e instanceof Error ? e.message : String(e)}`);
      }
      const [header, ...rows] = records;
      const expected = FX_CSV_HEADER.join(",");
      if (!header || header.map((h) => h.toLowerCase()).join(",") !== expected) {
        throw errors.badRequest("invalid_csv", `The first line must be the header ${expected} (download the template).`);
      }
      if (rows.length === 0) throw errors.badRequest("invalid_csv", "The file has a header but no rates.");
      if (rows.length > 5000) throw errors.badRequest("invalid_csv", "At most 5,000 rows at once.");
      const fields: FieldError[] = [];
      const rates: FxRate[] = [];
      const lines: number[] = [];
      rows.forEach((row, i) => {
        const line = i + 2;
        if (row.length !== 4) {
          fields.push({ path: `row ${line}`, message: `Row ${line} has ${row.length} values; expected 4 (currency, month, avgfx, endfx).` });
          return;
        }
        const parsed = fxRateSchema.safeParse({ currency: row[0]!.toUpperCase(), month: row[1], avgfx: row[2], endfx: row[3] });
        if (!parsed.success) for (const issue of parsed.error.issues) fields.push({ path: `row ${line}`, message: `Row ${line}: ${issue.message}` });
        else {
          rates.push(parsed.data);
          lines.push(line);
        }
      });
      // The rows that read well are checked as rates too, so one answer names every bad row.
      const checked = await checkRates(user.accountId, rates, (i) => `row ${lines[i]}`);
      for (const f of checked.fields) {
        const row = f.path.split(".")[0]!;
        fields.push({ path: row, message: `${capitalize(row)}: ${f.message}` });
      }
      if (fields.length > 0) {
        fields.sort((a, b) => Number(a.path.slice(4)) - Number(b.path.slice(4)));
        throw new AppError(400, "invalid_csv", fields.length === 1 ? fields[0]!.message : `${fields.length} problems in the file; nothing was imported.`, { fields });
      }
      return save(user.accountId, user.id, rates, (i) => `row ${lines[i]}`, { ip: req.ip, requestId: req.id });
    },
  );

  app.post(
    "/fxrates/fetch",
    {
      schema: {
        tags,
        security,
        summary: "Fetch rates from the ECB-based rates service: monthly mean of daily rates and the last rate of the month",
        description: "Fills only empty cells unless overwrite is true. Every change is audited like a manual edit.",
        body: fxRatesFetchSchema,
        response: { 200: fxRatesFetchedSchema, ...err, 502: errorBodySchema },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { from, to, overwrite } = req.body;
      if (from > to) throw errors.badRequest("invalid_range", `Choose a range from an earlier month to a later one (${from} is after ${to}).`);
      if (monthCount(from, to) > MAX_GRID_MONTHS) throw errors.badRequest("invalid_range", `Fetch at most ${MAX_GRID_MONTHS} months at once.`);
      const { parentCurrency, foreign } = await groupCurrencies(db, user.accountId);
      if (!parentCurrency) throw errors.conflict("parent_required", "Choose a parent company first: rates are in the parent's currency.");
      const source = provider.fxRatesSource(config.fxRatesUrl);
      const existing = new Map(
        (await db.select().from(fxRates).where(eq(fxRates.accountId, user.accountId))).map((r) => [`${r.currency}:${r.month}`, r]),
      );
      const rates: FxRate[] = [];
      try {
        for (const currency of foreign) {
          const daily = await fetchDailyRates(source, currency, parentCurrency, `${from}-01`, lastDayOfMonth(to));
          for (const m of monthlyFromDaily(daily)) {
            if (m.month < from || m.month > to) continue;
            const old = existing.get(`${currency}:${m.month}`);
            rates.push({
              currency,
              month: m.month,
              avgfx: overwrite || !old?.average ? m.average : old.average,
              endfx: overwrite || !old?.closing ? m.closing : old.closing,
            });
          }
        }
      } catch (e) {
        if (e instanceof RatesSourceError) {
          throw new AppError(502, "rates_source_unavailable", `Rates could not be fetched: ${e.message}. Try again later, or enter or import them.`);
        }
        throw e;
      }
      const result = rates.length > 0 ? await save(user.accountId, user.id, rates, (i) => `rates.${i}`, { ip: req.ip, requestId: req.id }) : { updated: 0, unchanged: 0 };
      return { ...result, months: new Set(rates.map((r) => r.month)).size, currencies: foreign };
    },
  );

  app.get(
    "/fxrates/template.csv",
    { schema: { tags, security, summary: "A CSV template: the header and a blank row per foreign currency for the last 3 months" } },
    async (req, reply) => {
      const { foreign } = await groupCurrencies(db, authOf(req).user.accountId);
      const now = monthOf(new Date());
      const rows = [[...FX_CSV_HEADER], ...foreign.flatMap((c) => [-2, -1, 0].map((k) => [c, shiftMonth(now, k), "", ""]))];
      return reply.header("content-type", "text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="fx-rates-template.csv"').send(toCsv(rows));
    },
  );
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
