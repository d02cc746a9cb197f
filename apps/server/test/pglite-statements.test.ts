// Named prepared statements (db/pglite-statements.ts): on PGlite a query prepared by name is parsed
// once and then bound and executed in one call; node-postgres already does so. The same assertions
// on both drivers: the answer is the unprepared query's, errors reach the caller and leave the
// database usable, and a prepared query never runs inside another caller's transaction.
import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { accounts, dataVersions, users } from "../src/db/schema.ts";
import { createTestDatabase, drivers, type TestDatabase } from "./databases.ts";

describe.each(drivers)("prepared statements on %s", (driver) => {
  let t: TestDatabase;
  let accountId = "";
  const ids: string[] = [];
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    const { db } = t.database;
    const [account] = await db.insert(accounts).values({ name: "Statements" }).returning({ id: accounts.id });
    accountId = account!.id;
    const rows = await db
      .insert(users)
      .values([
        { accountId, email: "one@statements.example", passwordHash: "x", emailVerifiedAt: new Date("2026-01-02T03:04:05.678Z"), reportEmail: "r@statements.example" },
        { accountId, email: "two@statements.example", passwordHash: "y", name: "Two", permissionLevel: 1 },
      ])
      .returning({ id: users.id });
    ids.push(...rows.map((r) => r.id));
  });
  afterAll(() => t.drop());

  const query = () => {
    const { db } = t.database;
    return db
      .select({ user: users, dataVersion: dataVersions.version })
      .from(users)
      .leftJoin(dataVersions, eq(dataVersions.accountId, users.accountId))
      .where(eq(users.id, sql.placeholder("id")))
      .limit(1);
  };

  it("answers as the same query unprepared: every column's type, nulls, a joined row or none", async () => {
    const prepared = query().prepare("statements_user");
    for (const id of [...ids, "00000000-0000-4000-8000-000000000000"]) {
      const unprepared = await t.database.db
        .select({ user: users, dataVersion: dataVersions.version })
        .from(users)
        .leftJoin(dataVersions, eq(dataVersions.accountId, users.accountId))
        .where(eq(users.id, id))
        .limit(1);
      const answer = await prepared.execute({ id });
      expect(answer).toEqual(unprepared);
      // Twice: the second execution reuses the statement.
      expect(await prepared.execute({ id })).toEqual(unprepared);
    }
    const [first] = await prepared.execute({ id: ids[0]! });
    expect(first!.user.emailVerifiedAt).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    expect(first!.user).toMatchObject({ email: "one@statements.example", reportEmail: "r@statements.example", reportEmailVerifiedAt: null, permissionLevel: 0 });
  });

  it("first executions at once share one statement", async () => {
    const prepared = query().prepare("statements_at_once");
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => prepared.execute({ id: ids[i % 2]! })));
    expect(answers.map((a) => a[0]!.user.email)).toEqual(Array.from({ length: 8 }, (_, i) => (i % 2 ? "two" : "one") + "@statements.example"));
  });

  it("an error reaches the caller, and the database answers the next query", async () => {
    const prepared = query().prepare("statements_error");
    // drizzle's error, PostgreSQL's beneath it, with its code (what the error handler reads).
    await expect(prepared.execute({ id: "not a uuid" })).rejects.toMatchObject({ cause: { code: "22P02", message: expect.stringMatching(/invalid input syntax for type uuid/) } });
    expect((await prepared.execute({ id: ids[1]! }))[0]!.user.name).toBe("Two");
    // A statement whose text does not parse is not kept: it fails each time, and others still work.
    const broken = t.database.db.select({ id: users.id }).from(users).where(sql`no_such_column = ${sql.placeholder("id")}`).prepare("statements_broken");
    for (let i = 0; i < 2; i++) await expect(broken.execute({ id: 1 })).rejects.toMatchObject({ cause: { code: "42703", message: expect.stringMatching(/no_such_column/) } });
    expect((await prepared.execute({ id: ids[0]! })).length).toBe(1);
  });

  it("never reads another caller's uncommitted change: it waits for the transaction (PGlite) or reads around it (PostgreSQL)", async () => {
    const prepared = query().prepare("statements_isolated");
    const { database } = t;
    let inside!: () => void;
    const begun = new Promise<void>((resolve) => (inside = resolve));
    const rolledBack = database
      .transaction(async (tx) => {
        await tx.query("update users set name = 'uncommitted' where id = $1", [ids[0]]);
        inside();
        await sleep(100);
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    await begun;
    const [read] = await prepared.execute({ id: ids[0]! });
    expect(read!.user.name).toBe("");
    expect(await rolledBack).toBe("roll back");
    expect((await prepared.execute({ id: ids[0]! }))[0]!.user.name).toBe("");
  });

  it("an unprepared select answers as before, is kept by its text on PGlite, and a table changed under it is read anew", async () => {
    const { db } = t.database;
    const emails = async () => (await db.select({ email: users.email }).from(users).where(eq(users.accountId, accountId)).orderBy(users.email)).map((u) => u.email);
    expect(await emails()).toEqual(["one@statements.example", "two@statements.example"]);
    expect(await emails()).toEqual(["one@statements.example", "two@statements.example"]);
    if (driver === "pglite") {
      const kept = rowsOf<{ statement: string }>(await db.execute(sql`select statement from pg_prepared_statements where name like 'gl_auto_%'`));
      expect(kept.some((k) => k.statement.startsWith('select "email" from "users"'))).toBe(true);
    }
    // A write is not kept, and answers its own way.
    await db.update(users).set({ name: "One" }).where(eq(users.id, ids[0]!));

    // The table under a kept select changes shape (as a migration would): the next read is right.
    await t.database.transaction((tx) => tx.exec("create table statements_shape (a int); insert into statements_shape values (1)"));
    const shape = async () => rowsOf<Record<string, unknown>>(await db.execute(sql`select * from statements_shape`));
    expect(await shape()).toEqual([{ a: 1 }]);
    await t.database.transaction((tx) => tx.exec("alter table statements_shape add column b text default 'x'"));
    expect(await shape()).toEqual([{ a: 1, b: "x" }]);
    expect(await shape()).toEqual([{ a: 1, b: "x" }]);
  });
});
