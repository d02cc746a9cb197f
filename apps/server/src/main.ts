import { buildApp } from "./app.ts";
import { enginePool } from "./modules/consolidation/engine-pool.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { migrate, MigrationError } from "./db/migrate.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  const applied = await migrate(database);
  const app = await buildApp({ config, database, maintenanceIntervalMs: 60 * 60 * 1000, startWorker: true });
  app.log.info(
    { database: config.database.kind === "pglite" ? `embedded PGlite in ${config.database.dataDir}` : "PostgreSQL", applied },
    "database ready",
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.host, port: config.port });
  enginePool().warm();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const shownHost = config.host === "0.0.0.0" || config.host === "127.0.0.1" ? "localhost" : config.host;
  console.log(`\nGroupLedger is running at ${config.publicUrl ?? `http://${shownHost}:${port}`}\n`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof MigrationError) {
    console.error(err.message);
  } else {
    console.error("GroupLedger failed to start:", err);
  }
  process.exit(1);
});
