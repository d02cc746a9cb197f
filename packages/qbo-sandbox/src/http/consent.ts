/** The emulator's stand-in for Intuit's consent screen: pick a sandbox company, Connect or Cancel. */
import type { SandboxCompany } from "../sandbox.ts";

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f8;color:#1d2433}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 .25rem}
p.lead{margin:0 0 1.5rem;color:#4a5368}
fieldset{border:0;margin:0 0 1.5rem;padding:0}
legend{font-weight:600;margin-bottom:.75rem}
label.company{display:flex;gap:.75rem;align-items:flex-start;padding:.75rem 1rem;border:1px solid #d5d9e2;border-radius:8px;margin-bottom:.5rem;cursor:pointer}
label.company:hover{border-color:#2ca01c}
input[type=radio]{margin-top:.3rem;width:1.1rem;height:1.1rem;accent-color:#2ca01c}
.meta{display:block;font-size:.875rem;color:#5b6478}
.actions{display:flex;gap:.75rem;justify-content:flex-end}
button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #8d95a5;background:#fff;color:#1d2433;cursor:pointer}
button.primary{background:#2ca01c;border-color:#2ca01c;color:#fff;font-weight:600}
button:focus-visible,input:focus-visible{outline:3px solid #0b66d6;outline-offset:2px}
.error{padding:.75rem 1rem;border-radius:8px;background:#fdecec;color:#8a1f1f;border:1px solid #f3b7b7}
.note{font-size:.8rem;color:#5b6478;margin-top:1.5rem}
`;

/** A page in the emulator's look; `style` adds rules for pages wider than the consent form. */
export function page(title: string, body: string, style = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}${style}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface ConsentInput {
  readonly action: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  readonly state: string;
  readonly companies: readonly SandboxCompany[];
  readonly error?: string | undefined;
}

export function consentPage(input: ConsentInput): string {
  const hidden = (name: string, value: string): string => `<input type="hidden" name="${name}" value="${esc(value)}">`;
  const options = input.companies
    .map(
      (c, i) => `<label class="company"><input type="radio" name="realmId" value="${esc(c.realmId)}"${i === 0 ? " checked" : ""} required>
<span><strong>${esc(c.companyName)}</strong><span class="meta">${esc(c.country)} · ${esc(c.homeCurrency)} · Company ID ${esc(c.realmId)}</span></span></label>`,
    )
    .join("\n");
  return page(
    "Connect to GroupLedger",
    `<h1>Connect to GroupLedger</h1>
<p class="lead">GroupLedger would like to read and post accounting data in one of your QuickBooks companies.</p>
${input.error === undefined ? "" : `<p class="error" role="alert">${esc(input.error)}</p>`}
<form method="post" action="${esc(input.action)}">
${hidden("client_id", input.clientId)}${hidden("redirect_uri", input.redirectUri)}${hidden("scope", input.scope)}${hidden("state", input.state)}${hidden("response_type", "code")}
<fieldset><legend>Choose a company</legend>
${options}
</fieldset>
<div class="actions"><button type="submit" name="decision" value="cancel">Cancel</button>
<button type="submit" name="decision" value="connect" class="primary">Connect</button></div>
</form>
<p class="note">This is the offline QuickBooks Online sandbox. No data leaves this machine.</p>`,
  );
}

export function errorPage(message: string): string {
  return page(
    "Cannot connect",
    `<h1>Cannot connect</h1>
<p class="error" role="alert">${esc(message)}</p>
<p class="note">Check the app's client ID, redirect URI and scope, then start the connection again.</p>`,
  );
}
