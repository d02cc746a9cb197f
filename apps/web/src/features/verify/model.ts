import type { PostingSummary, VerifyCause, VerifyResult } from "@groupledger/contract";
import { endSentence, formatMonth, parseMonth } from "@groupledger/domain";

/**
 * Verify as the screen says it: which month-ends can be checked, which one opens first, and the
 * result in one line before the detail. Amounts stay the server's (parent-currency minor units,
 * debit positive).
 */

export type SubsidiaryCheck = VerifyResult["subsidiaries"][number];
export type CheckStatus = SubsidiaryCheck["status"] | VerifyResult["group"]["status"];

export const CHECK_STATUS: Record<CheckStatus, { label: string; color: string }> = {
  ok: { label: "Reconciles", color: "teal" },
  differences: { label: "Differences", color: "red" },
  not_posted: { label: "Opening balance not posted", color: "gray" },
  not_computable: { label: "Cannot be computed", color: "orange" },
};

/** Month-ends that can be checked, newest first: from the opening month (nothing was posted before it) to the current month. */
export function monthChoices(openingMonth: string, today: string): string[] {
  const out: string[] = [];
  for (let m = parseMonth(today); m >= parseMonth(openingMonth); m--) out.push(formatMonth(m));
  return out;
}

/**
 * The month the screen opens on: the last month any entry was posted for (what there is to
 * check), else the month before the current one; never before the opening month or after today.
 */
export function defaultMonth(postings: readonly Pick<PostingSummary, "status" | "period">[], openingMonth: string, today: string): string {
  let last: string | null = null;
  for (const p of postings) if (p.status === "posted" && (last === null || p.period.to > last)) last = p.period.to;
  const wanted = last ?? formatMonth(parseMonth(today) - 1);
  if (wanted < openingMonth) return openingMonth;
  return wanted > today ? today : wanted;
}

export interface Headline {
  tone: "ok" | "differences" | "incomplete";
  title: string;
  detail: string;
}

export const differenceCount = (r: VerifyResult): number => r.subsidiaries.reduce((s, c) => s + c.differences.length, 0) + r.group.differences.length;
const missingEntryCount = (r: VerifyResult): number => r.subsidiaries.reduce((s, c) => s + c.missingEntries.length, 0);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** Ends a sentence once: company names such as "Northwind Canada Inc." already end with a full stop. */
const sentence = (text: string) => endSentence(`${text[0]!.toUpperCase()}${text.slice(1)}`);

/** The result in one line: "Everything reconciles", or how many differences, or why it could not all be checked. */
export function headline(r: VerifyResult): Headline {
  const checked = r.subsidiaries.filter((s) => s.status !== "not_posted");
  const accounts = checked.reduce((s, c) => s + c.accounts, 0) + r.group.accounts;
  const notPosted = r.subsidiaries.filter((s) => s.status === "not_posted").map((s) => s.companyName);
  const aside = notPosted.length ? ` ${sentence(`Not checked (no opening balance posted): ${notPosted.join(", ")}`)}` : "";
  if (r.ok) {
    return {
      tone: "ok",
      title: "Everything reconciles",
      detail: `${plural(checked.length, "subsidiary", "subsidiaries")} and the group compared account by account (${accounts} comparisons): no differences.${aside}`,
    };
  }
  const diffs = differenceCount(r);
  const missing = missingEntryCount(r);
  const uncomputable = [...r.subsidiaries.filter((s) => s.status === "not_computable").map((s) => s.companyName), ...(r.group.status === "not_computable" ? ["the group"] : [])];
  const parts = [
    missing ? `${plural(missing, "posted entry is", "posted entries are")} no longer in QuickBooks` : "",
    uncomputable.length ? `${uncomputable.join(", ")} cannot be computed` : "",
  ].filter(Boolean);
  if (diffs > 0) {
    return { tone: "differences", title: plural(diffs, "difference", "differences"), detail: `Accounts whose QuickBooks balance is not what the consolidation expects are listed below.${parts.length ? ` ${sentence(`Also: ${parts.join("; ")}`)}` : ""}${aside}` };
  }
  if (missing > 0) return { tone: "differences", title: plural(missing, "missing entry", "missing entries"), detail: `${sentence(parts.join("; "))}${aside}` };
  return { tone: "incomplete", title: "Not everything could be checked", detail: `${parts.length ? sentence(parts.join("; ")) : "See each check below."}${aside}` };
}

export interface CauseLink {
  href: string;
  label: string;
  /** QuickBooks, in a new tab; else a screen of this app. */
  external: boolean;
}

/** Where a cause is fixed (the domain's `fix`), as a link: the screen, with the subsidiary and months when it takes them. */
export function causeLink(c: VerifyCause): CauseLink | null {
  const again = c.code === "entry_deleted" || c.code === "posting_stale";
  switch (c.fix) {
    case "obal":
      return { href: "/setup/obal", label: again ? "Post it again on Opening Balance Sheet" : "Post it on Opening Balance Sheet", external: false };
    case "multiPeriod": {
      const q = new URLSearchParams({ realmIds: c.realmId ?? "", from: c.months[0] ?? "", to: c.months.at(-1) ?? "" });
      return { href: `/multipleconsolidation/run?${q.toString().replace(/%2C/g, ",")}`, label: c.months.length === 1 ? "Post it on Multi Period / Company" : "Post them on Multi Period / Company", external: false };
    }
    case "singlePeriod":
      return {
        href: "/consolidation/run",
        label: c.code === "posting_stale" ? "Post it again on Single Period / Company" : "See its periods on Single Period / Company",
        external: false,
      };
    case "eliminations":
      return {
        href: "/consolidation/elimination",
        label:
          c.code === "eliminations_not_posted"
            ? "Post them on Interco Eliminations"
            : c.code === "adjustments_not_posted"
              ? "Post them under Group adjustments on Interco Eliminations"
              : "Open Interco Eliminations",
        external: false,
      };
    case "quickbooks":
      return c.url ? { href: c.url, label: "Open it in QuickBooks", external: true } : null;
  }
}
