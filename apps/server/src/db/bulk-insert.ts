import { sql, type SQL } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

/** A database or a transaction of it: anything that runs a statement. */
type Executor = Pick<Db, "execute">;

/**
 * Inserts `rows` in one statement whatever their number, one array parameter per column
 * (`insert … select * from unnest($1::text[], $2::bigint[], …)`): drizzle's `.values(rows)` builds
 * one placeholder per value, and building that statement is what a sync spent most of its CPU on
 * (drizzle's `is` and `sql` over 25,000 parameters a batch: 3.5 s of a 50-company first sync's
 * 10.9 s of CPU, docs/scaling.md). The columns are `columns`, in that order; any other column of
 * the table takes its default. Values go through the column's driver mapping (a Date to its text,
 * say) and null stays null; both drivers send a JavaScript array as a PostgreSQL array.
 */
export async function insertColumns<T extends PgTable, K extends keyof T["$inferInsert"] & string>(
  db: Executor,
  table: T,
  columns: readonly K[],
  rows: readonly Pick<T["$inferInsert"], K>[],
): Promise<void> {
  if (rows.length === 0) return;
  const byKey = table as unknown as Record<string, PgColumn>;
  const targets = columns.map((key) => {
    const column = byKey[key];
    if (!column) throw new Error(`${getTableConfig(table).name} has no column ${key}`);
    return { key, column };
  });
  const arrays: SQL[] = targets.map(({ key, column }) => {
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null || value === undefined ? null : column.mapToDriverValue(value);
    });
    return sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`;
  });
  const names = targets.map(({ column }) => sql.identifier(column.name));
  await db.execute(sql`insert into ${table} (${sql.join(names, sql`, `)}) select * from unnest(${sql.join(arrays, sql`, `)})`);
}
