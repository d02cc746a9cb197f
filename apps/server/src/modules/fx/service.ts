import { parse } from "csv-parse/sync";
import { and, eq, gte, lte } from "drizzle-orm";
import {
  FX_CSV_HEADER,
  fxRateSchema,
  type FieldError,
  type FxRate,
  type FxRatesResponse,
} from "@groupledger/contract";
import { lastDayOfMonth, monthCount, monthList, monthlyFromDaily, monthOf, normalizeRate, RATE_MESSAGE, shiftMonth, toCsv } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { fxRates } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";
import { fetchDailyRates, RatesSourceError } from "../../services/fx-source.ts";
import { loadGroup } from "../group/service.ts";

/** Where rates are fetched from (services/fx-source.ts). */
export type RatesSource = Parameters<typeof fetchDailyRates>[0];

export interface RatesSaved {
  updated: number;
  unchanged: number;
}

const MAX_GRID_MONTHS = 120;
const MAX_CSV_ROWS = 5000;

/** The parent's currency and the other currencies its active subsidiaries keep books in. */
async function groupCurrencies(db: Db, accountId: string) {
  const { parent, unarchivedSubsidiaries } = await loadGroup(db, accountId);
  const foreign = [...new Set(unarchivedSubsidiaries.filter((c) => parent && c.homeCurrency !== parent.homeCurrency).map((c) => c.homeCurrency))].sort();
  return { parentCurrency: parent?.homeCurrency ?? null, foreign };
}

const parentRequired = () => errors.conflict("parent_required", "Choose a parent company first: rates are in the parent's currency.");
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The group's exchange rates (SPEC §3 FOREX): parent-currency units per unit of each foreign
 * currency, an average and a closing rate per month. Every write is all or nothing and audits
 * each changed cell with its old value, whether it came from the grid, a CSV file or the rates service.
 */
export class FxService {
  constructor(
    private readonly db: Db,
    /** Asked at each fetch, so the source follows the provider's configuration. */
    private readonly ratesSource: () => RatesSource,
  ) {}

  /** The grid: every foreign currency × month from `from` to `to` (default: the last 12 months), "" where missing. */
  async grid(user: UserRow, range: { from?: string | undefined; to?: string | undefined }): Promise<FxRatesResponse> {
    const { accountId } = user;
    const to = range.to ?? monthOf(new Date());
    const from = range.from ?? shiftMonth(to, -11);
    const span = monthCount(from, to);
    if (span < 1 || span > MAX_GRID_MONTHS) throw errors.badRequest("invalid_range", `Choose from ${from} to ${to} as 1 to ${MAX_GRID_MONTHS} months, from before to.`);
    const { parentCurrency, foreign } = await groupCurrencies(this.db, accountId);
    const months = monthList(from, to);
    const stored = await this.db
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
  }

  /** Rates from the grid; "" clears a rate. */
  async update(user: UserRow, rates: FxRate[], meta: RequestMeta): Promise<RatesSaved> {
    return this.save(user, rates, (i) => `rates.${i}`, meta);
  }

  /** A CSV file (FX_CSV_HEADER first): one answer names every bad row, and nothing is imported unless all are good. */
  async importCsv(user: UserRow, text: string, meta: RequestMeta): Promise<RatesSaved> {
    let records: string[][];
    try {
      records = parse(text, { skip_empty_lines: true, trim: true, bom: true, relax_column_count: true }) as string[][];
    } catch (e) {
      throw errors.badRequest("invalid_csv", `The file is not valid CSV: ${e instanceof Error ? e.message : String(e)}`);
    }
    const [header, ...rows] = records;
    const expected = FX_CSV_HEADER.join(",");
    if (!header || header.map((h) => h.toLowerCase()).join(",") !== expected) {
      throw errors.badRequest("invalid_csv", `The first line must be the header ${expected} (download the template).`);
    }
    if (rows.length === 0) throw errors.badRequest("invalid_csv", "The file has a header but no rates.");
    if (rows.length > MAX_CSV_ROWS) throw errors.badRequest("invalid_csv", "At most 5,000 rows at once.");
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
    const checked = await this.checkRates(user.accountId, rates, (i) => `row ${lines[i]}`);
    for (const f of checked.fields) {
      const row = f.path.split(".")[0]!;
      fields.push({ path: row, message: `${capitalize(row)}: ${f.message}` });
    }
    if (fields.length > 0) {
      fields.sort((a, b) => Number(a.path.slice(4)) - Number(b.path.slice(4)));
      throw new AppError(400, "invalid_csv", fields.length === 1 ? fields[0]!.message : `${fields.length} problems in the file; nothing was imported.`, { fields });
    }
    return this.save(user, rates, (i) => `row ${lines[i]}`, meta);
  }

  /**
   * Rates from the rates service: each month's mean of the daily rates and its last rate. Only
   * empty cells are filled unless `overwrite`.
   */
  async fetchRates(
    user: UserRow,
    { from, to, overwrite }: { from: string; to: string; overwrite: boolean },
    meta: RequestMeta,
  ): Promise<RatesSaved & { months: number; currencies: string[] }> {
    if (from > to) throw errors.badRequest("invalid_range", `Choose a range from an earlier month to a later one (${from} is after ${to}).`);
    if (monthCount(from, to) > MAX_GRID_MONTHS) throw errors.badRequest("invalid_range", `Fetch at most ${MAX_GRID_MONTHS} months at once.`);
    const { parentCurrency, foreign } = await groupCurrencies(this.db, user.accountId);
    if (!parentCurrency) throw parentRequired();
    const source = this.ratesSource();
    const existing = new Map((await this.db.select().from(fxRates).where(eq(fxRates.accountId, user.accountId))).map((r) => [`${r.currency}:${r.month}`, r]));
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
    const result = rates.length > 0 ? await this.save(user, rates, (i) => `rates.${i}`, meta) : { updated: 0, unchanged: 0 };
    return { ...result, months: new Set(rates.map((r) => r.month)).size, currencies: foreign };
  }

  /** The CSV template: the header and a blank row per foreign currency for the last 3 months. */
  async template(user: UserRow): Promise<string> {
    const { foreign } = await groupCurrencies(this.db, user.accountId);
    const now = monthOf(new Date());
    return toCsv([[...FX_CSV_HEADER], ...foreign.flatMap((c) => [-2, -1, 0].map((k) => [c, shiftMonth(now, k), "", ""]))]);
  }

  /** Every problem with the rates at once, each at its path; and the rates as stored. */
  private async checkRates(accountId: string, rates: FxRate[], pathOf: (i: number) => string) {
    const { parentCurrency, foreign } = await groupCurrencies(this.db, accountId);
    if (!parentCurrency) throw parentRequired();
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
  private async save(user: UserRow, rates: FxRate[], pathOf: (i: number) => string, meta: RequestMeta): Promise<RatesSaved> {
    const { accountId, id: userId } = user;
    const { clean, fields } = await this.checkRates(accountId, rates, pathOf);
    if (fields.length > 0) {
      throw new AppError(400, "invalid_rates", fields.length === 1 ? fields[0]!.message : `${fields.length} problems in the rates; nothing was saved.`, { fields });
    }
    const existing = await this.db.select().from(fxRates).where(eq(fxRates.accountId, accountId));
    const before = new Map(existing.map((r) => [`${r.currency}:${r.month}`, r]));
    const changes = clean.filter((r) => {
      const old = before.get(`${r.currency}:${r.month}`);
      return (old?.average ?? null) !== r.average || (old?.closing ?? null) !== r.closing;
    });
    if (changes.length > 0) {
      await this.db.transaction(async (tx) => {
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
}
