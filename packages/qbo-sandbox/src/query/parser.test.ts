import { describe, expect, it } from "vitest";
import { QboFault } from "../qboFault.ts";
import { parseQuery } from "./parser.ts";

function fault(text: string): QboFault {
  try {
    parseQuery(text);
  } catch (e) {
    if (e instanceof QboFault) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe("parseQuery", () => {
  it("reads the forms real clients send", () => {
    expect(parseQuery("SELECT * FROM Account STARTPOSITION 1 MAXRESULTS 1000")).toEqual({
      select: { kind: "all" },
      entity: "Account",
      where: [],
      orderBy: [],
      startPosition: 1,
      maxResults: 1000,
    });
    const q = parseQuery("select count(*) from Customer where Id in ('5', '6') and Active IN ( true, false ) MAXRESULTS 2 STARTPOSITION 3");
    expect(q.select).toEqual({ kind: "count" });
    expect(q.where).toEqual([
      { kind: "in", field: "Id", values: ["5", "6"] },
      { kind: "in", field: "Active", values: [true, false] },
    ]);
    expect([q.startPosition, q.maxResults]).toEqual([3, 2]);
  });

  it("handles every comparison, LIKE, ORDERBY and field lists", () => {
    const q = parseQuery("SELECT Id, Name FROM Account WHERE CurrentBalance >= -10.5 AND Name LIKE '%Bank%' AND MetaData.LastUpdatedTime > '2024-01-01' ORDERBY Name DESC, Id");
    expect(q.select).toEqual({ kind: "fields", fields: ["Id", "Name"] });
    expect(q.where).toEqual([
      { kind: "compare", field: "CurrentBalance", op: ">=", value: -10.5 },
      { kind: "like", field: "Name", pattern: "%Bank%" },
      { kind: "compare", field: "MetaData.LastUpdatedTime", op: ">", value: "2024-01-01" },
    ]);
    expect(q.orderBy).toEqual([
      { field: "Name", descending: true },
      { field: "Id", descending: false },
    ]);
    for (const op of ["=", "<", ">", "<=", ">=", "!="]) {
      expect(parseQuery(`select * from Account where Id ${op} '3'`).where[0]).toMatchObject({ op });
    }
  });

  it("unescapes quotes written as '' or \\'", () => {
    expect(parseQuery("SELECT * FROM Customer WHERE DisplayName = 'Amy\\'s Bird Sanctuary'").where[0]).toMatchObject({ value: "Amy's Bird Sanctuary" });
    expect(parseQuery("SELECT * FROM Customer WHERE DisplayName = 'Amy''s'").where[0]).toMatchObject({ value: "Amy's" });
  });

  it("answers 4001 Invalid query for anything else", () => {
    for (const bad of ["", "SELECT", "SELECT * Account", "SELECT * FROM", "SELECT * FROM Account WHERE", "SELECT * FROM Account WHERE Name = 'open", "DELETE FROM Account", "SELECT * FROM Account MAXRESULTS ten", "SELECT * FROM Account garbage"]) {
      const f = fault(bad);
      expect(f.status, bad).toBe(400);
      expect(f.errors[0], bad).toMatchObject({ code: "4001", message: "Invalid query" });
      expect(f.errors[0]?.detail, bad).toMatch(/^Query(Parser|Validation)Error: /);
    }
  });
});
