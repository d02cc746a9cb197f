// The QuickBooks emulator on a thread of its own, over loopback HTTP (demo-group.ts, `qbo: "thread"`):
// in a deployment Intuit is another machine, so a soak or bench that measures our server keeps
// Intuit's stand-in off the server's thread. Posts `{ url }` once listening; any message closes it.
import { parentPort } from "node:worker_threads";
import { startSandbox } from "@groupledger/qbo-sandbox";

const running = await startSandbox();
parentPort!.once("message", () => {
  void running.close().then(() => parentPort!.close());
});
parentPort!.postMessage({ url: running.url });
