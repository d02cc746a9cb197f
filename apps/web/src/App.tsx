import { useEffect, useState } from "react";
import { fetchHealth, type Health } from "./api.ts";

type Status = { state: "loading" } | { state: "ok"; health: Health } | { state: "error"; message: string };

export function App({ initial = { state: "loading" } }: { initial?: Status }) {
  const [status, setStatus] = useState<Status>(initial);
  useEffect(() => {
    fetchHealth()
      .then((health) => setStatus({ state: "ok", health }))
      .catch((err: unknown) => setStatus({ state: "error", message: err instanceof Error ? err.message : String(err) }));
  }, []);

  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 720, margin: "4rem auto", padding: "0 1rem", lineHeight: 1.5 }}>
      <h1>GroupLedger</h1>
      <p>
        Month-end consolidation for groups of companies kept in QuickBooks Online: currency translation with an
        explained CTA, mapped charts of accounts, intercompany eliminations and consolidated statements.
      </p>
      <p role="status">
        {status.state === "loading" && "Checking the server…"}
        {status.state === "ok" && `Server ${status.health.version} is up (database: ${status.health.database}).`}
        {status.state === "error" && `The server is not reachable: ${status.message}`}
      </p>
      <p>
        The API is documented at <a href="/api/docs">/api/docs</a>.
      </p>
    </main>
  );
}
