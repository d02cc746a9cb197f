import { type PGlite, parse, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";

/**
 * Named prepared statements on PGlite, as node-postgres keeps them: a query drizzle was asked to
 * `.prepare(name)` is parsed and described once and then only bound and executed.
 *
 * drizzle's PGlite driver ignores the name, and PGlite's `query()` parses, describes, binds,
 * describes and executes each time, six calls into the WebAssembly backend: on the server's own
 * thread that was ~0.5 ms of CPU for the caller's lookup on every signed-in request, most of a
 * warm report (issue 22). Bound and executed in one call it is about a quarter of that.
 *
 * Only top-level queries take this path: a transaction's queries keep PGlite's own (they run
 * inside the transaction's lock, which this path takes like `query()` does).
 */
export function namedStatements<D extends object>(db: D, client: PGlite): D {
  const session = (db as unknown as { session: PreparingSession }).session;
  const prepareQuery = session.prepareQuery.bind(session);
  const statements = new Map<string, Statement>();
  session.prepareQuery = (query, fields, name, ...rest) => {
    const prepared = prepareQuery(query, fields, name, ...rest);
    if (name) prepared.client = { query: (text, params, options) => executeNamed(client, statements, name, text, params ?? [], options) };
    return prepared;
  };
  return db;
}

/** The part of drizzle's PgliteSession and PglitePreparedQuery this relies on. */
interface PreparingSession {
  prepareQuery(query: unknown, fields: unknown, name: string | undefined, ...rest: unknown[]): { client: QueryClient };
}
interface QueryClient {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
}

/**
 * A statement parsed in the backend: its text (one name, one text), its parameters' types and the
 * description of its rows (none for a statement without rows). A change to a table under it makes
 * PostgreSQL refuse the statement ("cached plan must not change result type"), never answer in
 * another shape than described.
 */
interface Statement {
  text: string;
  paramTypes: number[];
  rows: BackendMessage[];
}

type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

const { serialize } = protocol;

async function executeNamed(client: PGlite, statements: Map<string, Statement>, name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results> {
  await client.waitReady;
  // The same locks as PGlite's query(): not inside another caller's transaction, not between the
  // messages of another query.
  return client._runExclusiveTransaction(() =>
    client.runExclusive(async () => {
      let statement = statements.get(name);
      if (statement && statement.text !== text) throw new Error(`prepared statement "${name}" is already another query`);
      if (!statement) {
        const described = await client.execProtocol(concat(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()), { syncToFs: false });
        statement = { text, paramTypes: parse.parseDescribeStatementResults(described.messages), rows: described.messages.filter((m) => m.name === "rowDescription") };
        statements.set(name, statement);
      }
      const { paramTypes } = statement;
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const oid = paramTypes[i]!;
        const serializer = options?.serializers?.[oid] ?? client.serializers[oid];
        return serializer ? serializer(param) : String(param);
      });
      // Bind, execute and sync in one call (the rows read as described when prepared); an error
      // still reaches the sync, so the backend is ready for the next query.
      const { messages } = await client.execProtocol(concat(serialize.bind({ statement: name, values: values as string[] }), serialize.execute({}), serialize.sync()));
      const reading = readingOf(client, options);
      return parse.parseResults([...statement.rows, ...messages], reading.parsers, reading.options)[0]!;
    }),
  );
}

const readings = new WeakMap<QueryOptions, { parsers: PGlite["parsers"]; options: QueryOptions }>();

/**
 * PGlite's parsers with the query's own over them, merged once per query's options (drizzle keeps
 * one options object per prepared query): parseResults merges them itself when the options carry
 * parsers, copying PGlite's few hundred on every call, which was a tenth of a warm report's CPU
 * and much of its garbage. PGlite's parsers are complete once it is ready (its array types are
 * read as it starts).
 */
function readingOf(client: PGlite, options: QueryOptions | undefined): { parsers: PGlite["parsers"]; options: QueryOptions | undefined } {
  if (!options?.parsers) return { parsers: client.parsers, options };
  let reading = readings.get(options);
  if (!reading) {
    reading = { parsers: { ...client.parsers, ...options.parsers }, options: { ...options, parsers: undefined } };
    readings.set(options, reading);
  }
  return reading;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
