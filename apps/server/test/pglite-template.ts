// `node --import tsx apps/server/test/pglite-template.ts <dir>`: an embedded database in <dir>,
// migrated and closed, for test servers to start from a copy of (apps/web/e2e/global-setup.ts).
// PGlite's initdb and the migrations take ~5 s of CPU; a copy opens in ~0.6 s, and the server's own
// migrate() at start then finds nothing to apply (CI time: paid once, not by each e2e server).
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("usage: pglite-template.ts <dir>");
  process.exit(2);
}
const database = await openDatabase({ kind: "pglite", dataDir });
await migrate(database);
await database.close();
