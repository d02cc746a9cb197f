/**
 * A read-only stand-in for QuickBooks' own screens, for the links a product gives its users
 * ("Open in QuickBooks"): Intuit's app.qbo.intuit.com/app/journal?txnId=… cannot show an
 * emulator company's entry, so the emulator answers /app/journal?realmId=…&txnId=… itself.
 * Like the consent page it asks for no sign-in: the emulator's books are demo data on this machine.
 */
import type { FastifyInstance } from "fastify";
import type { CompanyLedger, JournalEntry } from "../ledger.ts";
import { kindOf } from "../ledger.ts";
import { formatCents } from "../money.ts";
import type { Sandbox } from "../sandbox.ts";
import { esc, page } from "./consent.ts";
import { html } from "./send.ts";

const STYLE = `
main{max-width:64rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}
dt{color:#5b6478}dd{margin:0}
table{width:100%;border-collapse:collapse;font-size:.9rem}
th,td{padding:.4rem .6rem;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
th{background:#f4f5f8;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tfoot td{font-weight:600;border-top:2px solid #c9ced8}
`;

/** "1,234.56": the wire's decimal with thousands separators, from integer cents (never a float). */
function amount(cents: number): string {
  const [whole, fraction] = formatCents(cents).split(".") as [string, string];
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

export function journalEntryPage(ledger: CompanyLedger, e: JournalEntry): string {
  const title = e.docNumber === undefined ? `Journal entry ${e.id}` : `Journal entry ${e.docNumber}`;
  let debits = 0;
  let credits = 0;
  const rows = e.lines
    .map((l) => {
      const account = ledger.account(l.accountId);
      const cls = l.classId === undefined ? undefined : ledger.classes.find((c) => c.id === l.classId);
      const name = l.entity === undefined ? undefined : ledger.party(l.entity.id);
      if (l.posting === "Debit") debits += l.amount;
      else credits += l.amount;
      const label = account === undefined ? l.accountId : `${account.number ? `${account.number} ` : ""}${ledger.fullyQualifiedName(account)}`;
      return `<tr><td>${esc(label)}</td><td class="num">${l.posting === "Debit" ? amount(l.amount) : ""}</td><td class="num">${l.posting === "Credit" ? amount(l.amount) : ""}</td>
<td>${esc(l.description ?? "")}</td><td>${esc(name?.displayName ?? "")}</td><td>${esc(cls?.name ?? "")}</td></tr>`;
    })
    .join("\n");
  return page(
    title,
    `<h1>${esc(title)}</h1>
<p class="lead">${esc(ledger.profile.name)} · offline QuickBooks Online sandbox · read only</p>
<dl>
<dt>Journal date</dt><dd>${esc(e.txnDate)}</dd>
<dt>Journal no.</dt><dd>${esc(e.docNumber ?? "")}</dd>
<dt>Currency</dt><dd>${esc(e.currency)}</dd>
<dt>Memo</dt><dd>${esc(e.privateNote ?? "")}</dd>
<dt>Transaction ID</dt><dd>${esc(e.id)}</dd>
</dl>
<table aria-label="Lines">
<thead><tr><th>Account</th><th class="num">Debits</th><th class="num">Credits</th><th>Description</th><th>Name</th><th>Class</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><td>Total</td><td class="num">${amount(debits)}</td><td class="num">${amount(credits)}</td><td colspan="3"></td></tr></tfoot>
</table>
<p class="note">This is the offline QuickBooks Online sandbox. No data leaves this machine.</p>`,
    STYLE,
  );
}

function notFoundPage(message: string): string {
  return page("Not found", `<h1>Not found</h1>\n<p class="error" role="alert">${esc(message)}</p>`);
}

export function registerAppRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  app.get<{ Querystring: { realmId?: string; txnId?: string } }>("/app/journal", async (request, reply) => {
    const { realmId, txnId } = request.query;
    if (typeof realmId !== "string" || typeof txnId !== "string" || realmId === "" || txnId === "") {
      return html(reply, 400, notFoundPage("Open a journal entry with both realmId and txnId, as the links GroupLedger shows do."));
    }
    const ledger = sandbox.ledger(realmId);
    if (ledger === undefined) return html(reply, 404, notFoundPage(`No sandbox company has the ID ${realmId}.`));
    // A bill or bill payment (same id sequence) is no journal entry either.
    const entry = ledger.entry(txnId);
    const known = entry !== undefined && kindOf(entry) === "JournalEntry";
    if (!known || entry.deletedTime !== undefined) {
      return html(reply, 404, notFoundPage(`${ledger.profile.name} has no journal entry ${txnId}${known ? " any more: it was deleted" : ""}.`));
    }
    return html(reply, 200, journalEntryPage(ledger, entry));
  });
}
