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
 * Every other top-level SELECT takes the same path under a name of its own text (`gl_auto_N`, at
 * most MAX_AUTO texts; later ones run as before): in the soak the server ran about 240 statements
 * a second, and PGlite was nearly half of its thread, its per-statement calls and the copy of its
 * few hundred type parsers that `query()` makes for each of drizzle's queries (readingOf) more than
 * the rows themselves. Writes keep PGlite's own path (their answers carry the affected row count).
 *
 * Only top-level queries take this path: a transaction's queries keep PGlite's own (they run
 * inside the transaction's lock, which this path takes like `query()` does).
 */
export function namedStatements<D extends object>(db: D, client: PGlite): D {
  const session = (db as unknown as { session: PreparingSession }).session;
  const prepareQuery = session.prepareQuery.bind(session);
  const statements = new Map<string, Statement>();
  const autoNames = new Map<string, string>();
  // drizzle builds the same two option objects (row mode, its type parsers) for every query it
  // prepares; the first ones stand for all, so the parsers merged for them (readingOf) are reused.
  let configs: Pick<PreparedQuery, "queryConfig" | "rawQueryConfig"> | undefined;
  session.prepareQuery = (query, fields, name, ...rest) => {
    const prepared = prepareQuery(query, fields, name, ...rest);
    const statement = name ?? autoName(autoNames, query.sql);
    if (!statement) return prepared;
    configs ??= { queryConfig: prepared.queryConfig, rawQueryConfig: prepared.rawQueryConfig };
    prepared.queryConfig = configs.queryConfig;
    prepared.rawQueryConfig = configs.rawQueryConfig;
    const unnamed = prepared.client;
    prepared.client = {
      query: async (text, params, options) => {
        try {
          return await executeNamed(client, statements, statement, text, params ?? [], options);
        } catch (e) {
          // A table changed under a statement named here after its text (a migration while the
          // process runs): forget the name, so the next use prepares it again, and answer as before.
          if (name || !isStalePlan(e)) throw e;
          if (autoNames.get(text) === statement) autoNames.delete(text);
          statements.delete(statement);
          return unnamed.query(text, params, options);
        }
      },
    };
    return prepared;
  };
  return db;
}

const MAX_AUTO = 500;
let autoCount = 0;

/** The name a top-level SELECT is prepared under, or null (a write, or too many texts already). */
function autoName(names: Map<string, string>, text: string): string | null {
  const kept = names.get(text);
  if (kept) return kept;
  if (!/^\s*select\b/i.test(text) || names.size >= MAX_AUTO) return null;
  const name = `gl_auto_${++autoCount}`;
  names.set(text, name);
  return name;
}

const isStalePlan = (e: unknown) => e instanceof Error && /cached plan must not change result type/.test(e.message);

/** The part of drizzle's PgliteSession and PglitePreparedQuery this relies on. */
interface PreparingSession {
  prepareQuery(query: { sql: string }, fields: unknown, name: string | undefined, ...rest: unknown[]): PreparedQuery;
}
interface PreparedQuery {
  client: QueryClient;
  queryConfig: QueryOptions;
  rawQueryConfig: QueryOptions;
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
