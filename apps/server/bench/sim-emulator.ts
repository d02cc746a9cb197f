// The QuickBooks emulator of the simulation bench, in a process of its own (as Intuit is elsewhere):
// every group's generated companies behind one standalone emulator with the compressed latency,
// its traffic observed where it applies Intuit's per-realm limits. Started by simulation.bench.ts
// with its options as JSON in argv; it answers over IPC:
//   on start:        { url, realms: [{ group, realmId, companyName, country, currency, isParent, startDate, tokens }] }
//   { mark: true }   → { marked: true }: the next report counts from here
//   { report: true } → { report: TrafficReport }
import { generatedGroup, startSandbox } from "@groupledger/qbo-sandbox";
import { peakInWindow, QboTraffic } from "./qbo-traffic.ts";

export interface SimEmulatorOptions {
  /** Companies in each group, the parent first. */
  readonly sizes: readonly number[];
  readonly firstMonth: string;
  readonly months: number;
  readonly until: string;
  readonly latencyMs: number;
  /** Intuit's minute in compressed time. */
  readonly windowMs: number;
}

export interface SimRealm {
  readonly group: number;
  readonly realmId: string;
  readonly companyName: string;
  readonly country: string;
  readonly currency: string;
  readonly isParent: boolean;
  readonly startDate: string;
  readonly tokens: { accessToken: string; refreshToken: string; expiresIn: number; refreshExpiresIn: number };
}

export interface TrafficReport {
  readonly calls: number;
  readonly realms: number;
  readonly throttled: number;
  /** Per realm, the most requests started in any (compressed) minute: highest, median. */
  readonly peakPerMinute: { max: number; median: number };
  readonly peakBatchesPerMinute: number;
  readonly peakConcurrent: number;
  /** Requests started in any (compressed) minute across every realm: what the app sends Intuit at its busiest. */
  readonly allRealmsPeakPerMinute: number;
  readonly busiestRealm: string;
  /** A realm's calls in stretches one after another, averaged over the realms: the round trips of a sync. */
  readonly roundTrips: number;
}

const options = JSON.parse(process.argv[2] ?? "{}") as SimEmulatorOptions;
const CURRENCIES = ["USD", "GBP", "CAD", "EUR"];
const groups = options.sizes.map((companies, g) =>
  generatedGroup({ companies, firstMonth: options.firstMonth, months: options.months, until: options.until, realmPrefix: `77${String(g).padStart(5, "0")}`, name: `Group ${g}`, currencies: CURRENCIES.slice(g % 2) }),
);
const { url, sandbox } = await startSandbox({ companies: () => groups.flat(), faults: { latencyMs: options.latencyMs }, admin: false });
const traffic = new QboTraffic(sandbox);
const redirectUri = "http://localhost/qbo/auth/complete";
const now = Date.now();
const realms: SimRealm[] = groups.flatMap((companies, group) =>
  companies.map((c) => {
    const exchanged = sandbox.oauth.exchangeCode(sandbox.issueAuthorizationCode(c.profile.realmId, redirectUri), redirectUri, now);
    if (!exchanged.ok) throw new Error(`no tokens for ${c.profile.realmId}`);
    const { accessToken, refreshToken, expiresIn, refreshExpiresIn } = exchanged.value;
    const p = c.profile;
    return { group, realmId: p.realmId, companyName: p.name, country: p.country, currency: p.currency, isParent: p.isParent, startDate: p.startDate, tokens: { accessToken, refreshToken, expiresIn, refreshExpiresIn } };
  }),
);
process.send!({ url, realms });

let since = 0;
process.on("message", (message: { report?: boolean; mark?: boolean }) => {
  if (message.mark) {
    since = performance.now();
    process.send!({ marked: true });
  }
  if (!message.report) return;
  const figures = traffic.figures(since, Infinity, options.windowMs);
  const peaks = figures.map((f) => f.peakPerWindow).sort((a, b) => a - b);
  const busiest = figures.reduce((a, b) => (b.peakPerWindow > a.peakPerWindow ? b : a), figures[0]!);
  const report: TrafficReport = {
    calls: traffic.since(since).length,
    realms: figures.length,
    throttled: traffic.throttled.filter((t) => t.at >= since).length,
    peakPerMinute: { max: peaks.at(-1) ?? 0, median: peaks[Math.floor(peaks.length / 2)] ?? 0 },
    peakBatchesPerMinute: Math.max(0, ...figures.map((f) => f.peakBatchesPerWindow)),
    peakConcurrent: Math.max(0, ...figures.map((f) => f.peakConcurrent)),
    allRealmsPeakPerMinute: peakInWindow(traffic.since(since).map((c) => c.start), options.windowMs),
    busiestRealm: busiest?.realmId ?? "",
    roundTrips: figures.reduce((sum, f) => sum + f.roundTrips, 0) / Math.max(1, figures.length),
  };
  process.send!({ report });
});
process.on("disconnect", () => process.exit(0));

