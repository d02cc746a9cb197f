import { groupNames, intercompanyOf } from "../coa/intercompany.ts";
import { natureOf, plainName } from "../coa/detail-types.ts";
import { fullNameOf } from "../coa/hierarchy.ts";
import type { ChartAccount } from "../coa/mapping-rules.ts";
import { accountLabel } from "../bridge/problems.ts";
import { endSentence } from "../text/sentence.ts";
import { namesWithGroupMembers } from "./member-names.ts";
import { INTERCOMPANY_PAIR_KINDS, PAIR_KIND_CLASSIFICATIONS, type IntercompanyPairKind } from "./pair-kinds.ts";
import { accountTaken, sideTaken, type PairSideRef } from "./pair-overlap.ts";

/**
 * Intercompany pairs proposed from the group's charts, so a new group is not paired by hand. Which
 * accounts are intercompany, and with whom, is the mapping suggestions' rule (coa/intercompany.ts:
 * an account names a group company, or says it is with the group); here two of them become a pair
 * when they face each other: A's account naming B (or only saying "group") against B's account
 * naming A, of the two natures a pair joins (pair-kinds.ts: a receivable or loan asset against a
 * payable or loan liability, income against an expense) and of the same subject (a loan against a
 * loan, interest against interest, management fees against management fees, sales against
 * purchases). Equity and the parent's investments are never proposed (intercompanyOf leaves them
 * out: the acquisition adjustments eliminate them), nor dividend income (the dividend settings
 * eliminate it against the subsidiaries' declared dividends: a pair would eliminate it twice), nor
 * any account an existing pair or dividend setting already takes.
 *
 * An account that only says "group" may hold amounts with several companies: each proposal takes
 * only its part with the other company, limited to the customer or vendor standing for it
 * (member-names.ts), as a pair side may be; without such a name, the whole account when it faces no
 * other company. Where two candidates are equally good, the
 * account is listed as needing a choice instead of being paired by a guess.
 */

/** A group company as the proposals read it. */
export interface ProposalMember {
  readonly realmId: string;
  readonly companyName: string;
  readonly chart: readonly (ChartAccount & { readonly everHadBalance?: boolean })[];
  /** The company's customers and vendors (QuickBooks names), for the part of an account held with one company. */
  readonly names: readonly { readonly kind: "Customer" | "Vendor"; readonly id: string; readonly displayName: string }[];
}

/** One side of a proposed pair, as the pair request takes it and a person reads it. */
export interface ProposedSide {
  readonly realmId: string;
  readonly companyName: string;
  readonly accountId: string;
  /** Number and full name, as reports label accounts: 1600 "Intercompany Loan - Northwind UK". */
  readonly account: string;
  /** Only what the account holds against this customer or vendor; null: the whole account. */
  readonly name: { readonly kind: "Customer" | "Vendor"; readonly id: string; readonly displayName: string } | null;
}

export interface PairProposal {
  /** Stable while the charts and names stay: both sides' realm, account and name. */
  readonly key: string;
  /** The pair's name when accepted ("Northwind UK Ltd loan"). */
  readonly name: string;
  readonly kind: IntercompanyPairKind;
  /** The receivable (or revenue) side. */
  readonly left: ProposedSide;
  /** The payable (or expense) side. */
  readonly right: ProposedSide;
  /** Why these two, in an accountant's words. */
  readonly reason: string;
}

/** An account with two or more equally good counterparts: each candidate is a whole proposal the user may accept. */
export interface PairChoice {
  readonly side: ProposedSide;
  readonly reason: string;
  readonly candidates: readonly PairProposal[];
}

/** An intercompany account no proposal or choice covers, and why. */
export interface UnproposedAccount {
  readonly side: ProposedSide;
  readonly reason: string;
}

export interface PairProposals {
  readonly proposals: readonly PairProposal[];
  readonly choices: readonly PairChoice[];
  readonly unmatched: readonly UnproposedAccount[];
}

/** What an intercompany account is about, for matching it with its counterpart: balances are loans or current accounts; flows one of the rest, or unknown. */
type Subject = "loan" | "current" | "interest" | "fees" | "trade" | "dividends";

/**
 * Words that say what a flow is about, first match wins (so "Interest on Intercompany Loan" is
 * interest, not a loan). Compared as plainName writes names: lower case, accents gone; German
 * compounds ("Zinsaufwendungen", "Konzernumlagen", "Erlöse") match inside words.
 */
const FLOW_SUBJECTS: readonly (readonly [Subject, RegExp])[] = [
  ["dividends", /\bdividends?\b|ausschuttung|beteiligungsertrag/],
  ["interest", /\binterest\b|zins/],
  ["fees", /\b(management|fees?|charges?|recharges?|royalt(y|ies)|services?)\b|umlage|verwaltungskosten/],
  ["trade", /\b(sales|sale|purchases?|goods|stock|merchandise|cost of (goods|sales))\b|erlos|umsatzerlos|wareneingang|einkauf|lieferungen/],
];
/** Detail types that say it where the name does not. */
const FLOW_DETAIL_TYPES: Readonly<Record<string, Subject>> = {
  DividendIncome: "dividends",
  InterestEarned: "interest",
  InterestPaid: "interest",
  SalesOfProductIncome: "trade",
  SuppliesMaterialsCogs: "trade",
};
/** A long-term asset or liability between companies is a loan whatever its name. */
const LONG_TERM_TYPES = new Set(["Other Asset", "Long Term Liability"]);
const LOAN_WORDS = /\b(loans?|notes?|borrowings?|lending|advances?)\b|darlehen/;

export function subjectOf(a: ChartAccount): Subject | null {
  const plain = plainName(fullNameOf(a));
  if (a.classification === "Asset" || a.classification === "Liability") {
    return LONG_TERM_TYPES.has(a.accountType) || LOAN_WORDS.test(plain) || natureOf({ name: fullNameOf(a), accountSubType: a.accountSubType }) === "debt" ? "loan" : "current";
  }
  const byName = FLOW_SUBJECTS.find(([, re]) => re.test(plain))?.[0];
  if (byName) return byName;
  if (FLOW_DETAIL_TYPES[a.accountSubType ?? ""]) return FLOW_DETAIL_TYPES[a.accountSubType ?? ""]!;
  return a.accountType === "Cost of Goods Sold" ? "trade" : null;
}

/** How each side of a pair reads, by subject: [receivable or revenue side, payable or expense side, the pair]. */
const WORDS: Readonly<Record<Subject | "balance" | "flow", readonly [string, string, string]>> = {
  loan: ["loan receivable", "loan payable", "loan"],
  current: ["intercompany receivable", "intercompany payable", "current account"],
  interest: ["interest income", "interest expense", "interest"],
  fees: ["fee income", "fee expense", "fees"],
  trade: ["sales", "purchases", "sales and purchases"],
  dividends: ["dividend income", "dividends", "dividends"],
  balance: ["receivable", "payable", "balance"],
  flow: ["income", "expense", "charges"],
};

interface Candidate {
  readonly member: ProposalMember;
  readonly account: ChartAccount;
  /** The group company it names; null: it only says "group". */
  readonly with: ProposalMember | null;
  readonly kind: IntercompanyPairKind;
  /** 0: the receivable (revenue) side; 1: the payable (expense) side. */
  readonly side: 0 | 1;
  readonly subject: Subject | null;
}

interface Edge {
  readonly left: Candidate;
  readonly right: Candidate;
  /** Higher is better: the same subject counts most, then each side naming the other company. */
  readonly score: number;
}

const slotKey = (c: Candidate, other: ProposalMember) => `${c.member.realmId}|${c.account.id}|${other.realmId}`;

/**
 * The pairs the group's charts propose, the accounts that need a choice between equally good
 * counterparts, and the intercompany accounts left without either (with why). `members` are the
 * companies in the consolidation, parent first; `pairs` the sides of the pairs already defined;
 * `handled` the accounts a dividend setting eliminates (`${realmId}|${accountId}`).
 */
export function proposePairs(args: {
  members: readonly ProposalMember[];
  pairs: readonly { readonly name: string; readonly sides: readonly [PairSideRef, PairSideRef] }[];
  handled: ReadonlySet<string>;
}): PairProposals {
  const { members, pairs, handled } = args;
  const paired = pairs.flatMap((p) => p.sides);
  const parent = members[0];
  if (!parent || members.length < 2) return { proposals: [], choices: [], unmatched: [] };
  // Which group company an account names depends only on the names, not on whose chart holds it
  // (as for the report's warning of unpaired intercompany accounts, bridge/unpaired-intercompany.ts).
  const names = groupNames({ parent: parent.companyName, self: parent.companyName, others: members.map((m) => m.companyName) }, parent.chart);
  const byName = new Map(members.map((m) => [groupNames({ parent: m.companyName, self: m.companyName }, []).parent, m]));
  const takenBy = (side: PairSideRef) => pairs.find((p) => sideTaken(p.sides, side));

  const unmatched: UnproposedAccount[] = [];
  /** Every intercompany account of a member, those already paired included (they may be the counterpart an account is missing). */
  const candidates: Candidate[] = [];
  for (const member of members) {
    for (const account of member.chart) {
      if (account.everHadBalance === false || handled.has(`${member.realmId}|${account.id}`)) continue;
      const interco = intercompanyOf({ ...account, name: fullNameOf(account) }, names);
      if (!interco) continue;
      const counterparty = interco.counterparty === null ? null : byName.get(interco.counterparty);
      // A company outside this consolidation (not connected, archived): not this group's to eliminate.
      if (counterparty === undefined || counterparty === member) continue;
      const kind = INTERCOMPANY_PAIR_KINDS.find((k) => PAIR_KIND_CLASSIFICATIONS[k].includes(account.classification as never));
      if (!kind) continue;
      const candidate: Candidate = { member, account, with: counterparty, kind, side: PAIR_KIND_CLASSIFICATIONS[kind][0] === account.classification ? 0 : 1, subject: subjectOf(account) };
      if (candidate.subject === "dividends") {
        if (!accountTaken(paired, member.realmId, account.id)) {
          unmatched.push({
            side: sideOf(candidate, null),
            reason: `Dividends within the group are eliminated against the dividends each subsidiary declared, not by a pair (a pair would eliminate them twice): set this account as where ${endSentence(`${member.companyName} books each subsidiary's dividends, under intra-group dividends`)}`,
          });
        }
        continue;
      }
      candidates.push(candidate);
    }
  }

  const edges: Edge[] = [];
  for (const left of candidates.filter((c) => c.side === 0)) {
    for (const right of candidates.filter((c) => c.side === 1 && c.kind === left.kind && c.member !== left.member)) {
      if ((left.with !== null && left.with !== right.member) || (right.with !== null && right.with !== left.member)) continue;
      if (left.subject !== null && right.subject !== null && left.subject !== right.subject) continue;
      const subject = left.subject !== null && left.subject === right.subject ? 2 : left.subject === null && right.subject === null ? 0 : 1;
      edges.push({ left, right, score: subject * 10 + Number(left.with !== null) + Number(right.with !== null) });
    }
  }
  const ends = (e: Edge) => [[e.left, e.right], [e.right, e.left]] as const;

  // An account that only says "group" and faces several companies holds amounts with each: it is
  // split among them by customer or vendor. So is one an existing pair takes for one name only.
  const companiesFaced = new Map<Candidate, Set<ProposalMember>>();
  for (const e of edges) for (const [c, o] of ends(e)) companiesFaced.set(c, (companiesFaced.get(c) ?? new Set()).add(o.member));
  const split = (c: Candidate) => (companiesFaced.get(c)?.size ?? 0) > 1 || accountTaken(paired, c.member.realmId, c.account.id) === "part";
  /**
   * The side a candidate takes in a pair with `other`. An account naming `other` is the whole
   * account (unless a pair takes part of it already). One that only says "group" takes only what it
   * holds with the customer or vendor standing for `other` when there is one: it may also hold
   * amounts with a company outside this consolidation (a sister not connected yet). Without such a
   * name it is the whole account if it faces no other company, else undefined (it cannot be split).
   */
  const sideWith = (c: Candidate, other: ProposalMember): ProposedSide | undefined => {
    const mustSplit = split(c);
    if (c.with !== null && !mustSplit) return sideOf(c, null);
    const standing = namesWithGroupMembers(c.member.names, [other]).filter((n) => n.represents === other);
    // A receivable or income is booked against a customer, a payable or expense against a vendor.
    const preferred = c.side === 0 ? "Customer" : "Vendor";
    const name = standing.find((n) => n.kind === preferred) ?? standing[0];
    if (name) return sideOf(c, { kind: name.kind, id: name.id, displayName: name.displayName });
    return mustSplit ? undefined : sideOf(c, null);
  };

  // A slot is an account with one other company: it takes at most one pair. Slots an existing pair
  // takes are closed, and so are the edges through them.
  const closedBy = new Map<string, { side: ProposedSide; pair: string }>();
  for (const e of edges) {
    for (const [c, o] of ends(e)) {
      const side = sideWith(c, o.member);
      const pair = side && takenBy(side);
      if (side && pair) closedBy.set(slotKey(c, o.member), { side, pair: pair.name });
    }
  }
  const isOpen = (e: Edge) => ends(e).every(([c, o]) => !closedBy.has(slotKey(c, o.member)));

  const proposals: PairProposal[] = [];
  const done = new Set<string>();
  /** An account whose part with a company cannot be told apart (no name stands for it), and the counterparts it leaves without a pair. */
  const unnamed = new Map<Candidate, ProposalMember[]>();
  const leftWithout = new Map<Candidate, Candidate>();
  let remaining = edges.filter(isOpen);
  // Mutual best, repeated: an edge is proposed when no other open edge at either of its slots is as
  // good; taking its slots may leave the next best unique for the accounts left.
  for (;;) {
    const best = new Map<string, { score: number; count: number }>();
    for (const e of remaining) {
      for (const [c, o] of ends(e)) {
        const k = slotKey(c, o.member);
        const b = best.get(k);
        if (!b || e.score > b.score) best.set(k, { score: e.score, count: 1 });
        else if (e.score === b.score) b.count++;
      }
    }
    const chosen = remaining.filter((e) => ends(e).every(([c, o]) => best.get(slotKey(c, o.member))?.score === e.score && best.get(slotKey(c, o.member))?.count === 1));
    if (chosen.length === 0) break;
    for (const e of chosen) {
      for (const [c, o] of ends(e)) done.add(slotKey(c, o.member));
      const [left, right] = [sideWith(e.left, e.right.member), sideWith(e.right, e.left.member)];
      if (left && right) proposals.push(proposalOf(e, left, right, parent, edges));
      else {
        for (const [c, o] of ends(e)) {
          if (sideWith(c, o.member)) leftWithout.set(c, o);
          else unnamed.set(c, [...(unnamed.get(c) ?? []), o.member]);
        }
      }
    }
    remaining = remaining.filter((e) => ends(e).every(([c, o]) => !done.has(slotKey(c, o.member))));
  }

  // What is left open has ties: an account with two or more equally good counterparts is a choice.
  const choices: PairChoice[] = [];
  const inChoice = new Set<Candidate>();
  const slots = new Map<string, { c: Candidate; other: ProposalMember; edges: Edge[] }>();
  for (const e of remaining) {
    for (const [c, o] of ends(e)) {
      const k = slotKey(c, o.member);
      const slot = slots.get(k) ?? { c, other: o.member, edges: [] };
      slot.edges.push(e);
      slots.set(k, slot);
    }
  }
  for (const { c, other, edges: at } of slots.values()) {
    const top = Math.max(...at.map((e) => e.score));
    const tied = at.filter((e) => e.score === top);
    const side = sideWith(c, other);
    const offered = tied.flatMap((e) => {
      const l = sideWith(e.left, e.right.member);
      const r = sideWith(e.right, e.left.member);
      return l && r ? [proposalOf(e, l, r, parent, edges)] : [];
    });
    if (tied.length < 2 || !side || offered.length < 2) continue;
    inChoice.add(c);
    for (const e of tied) inChoice.add(c === e.left ? e.right : e.left);
    const facing = offered.map((p) => (p.left.realmId === side.realmId && p.left.accountId === side.accountId ? p.right : p.left));
    choices.push({
      side,
      reason: endSentence(
        `${c.member.companyName}'s ${side.account} ${saysWith(c)}, and ${facing.length} accounts of ${other.companyName} fit it equally well (${facing.map((f) => f.account).join(", ")}): choose the one it mirrors`,
      ),
      candidates: offered,
    });
  }

  // Every other intercompany account not yet paired: why nothing is proposed for it.
  const proposed = new Set(proposals.flatMap((p) => [p.left, p.right]).map((s) => `${s.realmId}|${s.accountId}`));
  for (const c of candidates) {
    const side = sideOf(c, null);
    const without = unnamed.get(c);
    const counterpart = leftWithout.get(c);
    const closed = edges.flatMap((e) => ends(e)).find(([x, o]) => x === c && closedBy.has(slotKey(o, c.member)));
    let reason: string;
    if (without) {
      reason = `${c.member.companyName}'s ${side.account} ${saysWith(c)} and faces accounts of several group companies, but no ${c.side === 0 ? "customer" : "vendor"} of ${c.member.companyName} stands for ${without.map((m) => m.companyName).join(" or ")}, so what it holds with ${without.length > 1 ? "them" : "it"} cannot be told apart: add one in QuickBooks and sync, or pair it by hand`;
    } else if (proposed.has(`${side.realmId}|${side.accountId}`) || inChoice.has(c) || accountTaken(paired, side.realmId, side.accountId)) {
      continue;
    } else if (counterpart) {
      reason = `Its counterpart ${counterpart.member.companyName}'s ${accountLabel(counterpart.account)} holds amounts with several group companies, and no ${counterpart.side === 0 ? "customer" : "vendor"} of ${counterpart.member.companyName} stands for ${c.member.companyName}, so its part cannot be told apart: add one in QuickBooks and sync, or pair it by hand`;
    } else if (closed) {
      const [, o] = closed;
      const taken = closedBy.get(slotKey(o, c.member))!;
      const whole = accountTaken(paired, o.member.realmId, o.account.id) === "whole";
      reason = whole
        ? `Its counterpart ${o.member.companyName}'s ${accountLabel(o.account)} is already in the pair "${taken.pair}" as a whole account${(companiesFaced.get(o)?.size ?? 0) > 1 ? `, though it faces several group companies: limit that pair to the ${o.side === 0 ? "customer" : "vendor"} standing for the other company in it, and this one can be paired too` : ""}`
        : `Its counterpart, what ${o.member.companyName}'s ${taken.side.account} holds with ${taken.side.name?.kind.toLowerCase()} "${taken.side.name?.displayName}", is already in the pair "${taken.pair}"`;
    } else {
      const words = WORDS[c.subject ?? (c.kind === "receivablePayable" ? "balance" : "flow")];
      reason = `No ${c.side === 0 ? words[1] : words[0]} account of ${c.with ? c.with.companyName : "another group company"} names ${c.member.companyName} or says it is with the group: pair it by hand with the account that mirrors it`;
    }
    unmatched.push({ side, reason: endSentence(reason) });
  }

  const order = (s: ProposedSide) => members.findIndex((m) => m.realmId === s.realmId);
  const other = (p: PairProposal) => (order(p.left) === 0 ? p.right : p.left);
  proposals.sort((a, b) => order(other(a)) - order(other(b)) || order(a.left) - order(b.left) || a.kind.localeCompare(b.kind) || a.left.account.localeCompare(b.left.account, "en", { numeric: true }));
  unmatched.sort((a, b) => order(a.side) - order(b.side) || a.side.account.localeCompare(b.side.account, "en", { numeric: true }));
  return { proposals, choices, unmatched };
}

function sideOf(c: Candidate, name: ProposedSide["name"]): ProposedSide {
  return { realmId: c.member.realmId, companyName: c.member.companyName, accountId: c.account.id, account: accountLabel(c.account), name };
}

/** "names Northwind UK Ltd", "says it is with the group". */
const saysWith = (c: Candidate) => (c.with ? `names ${c.with.companyName}` : "says it is with the group");

const sideKey = (s: ProposedSide) => `${s.realmId}:${s.accountId}:${s.name?.kind ?? ""}:${s.name?.id ?? ""}`;

function proposalOf(e: Edge, left: ProposedSide, right: ProposedSide, parent: ProposalMember, edges: readonly Edge[]): PairProposal {
  const subject = e.left.subject ?? e.right.subject;
  const words = WORDS[subject ?? (e.left.kind === "receivablePayable" ? "balance" : "flow")];
  const otherOf = (c: Candidate) => (c === e.left ? e.right : e.left);
  const sideText = (c: Candidate, s: ProposedSide) => `${c.member.companyName}'s ${s.account} ${saysWith(c)}${s.name ? ` (its part with ${s.name.kind.toLowerCase()} "${s.name.displayName}")` : ""}`;
  // A side that only says "group" is matched by elimination among the accounts that can face it: say how.
  const short = (c: Candidate) => c.account.acctNum ?? `"${fullNameOf(c.account)}"`;
  const facing = (g: Candidate) => edges.filter((x) => (x.left === g && x.right.member === otherOf(g).member) || (x.right === g && x.left.member === otherOf(g).member)).length;
  const generic = [e.left, e.right].filter((g) => g.with === null);
  const how = generic.every((g) => facing(g) === 1)
    ? generic.length === 2
      ? "; each is the only account that can face the other"
      : generic.map((g) => `; the only ${otherOf(g).member.companyName} account that can face ${short(g)}`).join("")
    : generic
        .filter((g) => facing(g) > 1)
        .map((g) => `; the closest of the ${facing(g)} ${otherOf(g).member.companyName} accounts that can face ${short(g)}`)
        .join("");
  const name = e.left.member === parent || e.right.member === parent ? `${(e.left.member === parent ? e.right : e.left).member.companyName} ${words[2]}` : `${e.left.member.companyName} – ${e.right.member.companyName} ${words[2]}`;
  return {
    key: `${sideKey(left)}|${sideKey(right)}`,
    name: name.length > 100 ? `${name.slice(0, 99)}…` : name,
    kind: e.left.kind,
    left,
    right,
    reason: endSentence(`${sideText(e.left, left)}; ${sideText(e.right, right)}: ${words[0]} ↔ ${words[1]}${how}`),
  };
}
