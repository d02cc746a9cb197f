/**
 * The subset of Intuit's query language that real clients send:
 *   SELECT * | COUNT(*) | f1, f2 FROM Entity
 *   [WHERE cond [AND cond]...] [ORDERBY field [ASC|DESC] [, ...]]
 *   [STARTPOSITION n] [MAXRESULTS n]   (the last two in either order)
 * cond: field (= | != | < | > | <= | >=) literal, field IN (literal, ...), field LIKE 'pattern'.
 * Literals: 'strings' (with '' or \' escapes), numbers, true/false. Keywords are case-insensitive.
 */
import { invalidQuery } from "../qboFault.ts";

export type Literal = string | number | boolean;
export type Operator = "=" | "!=" | "<" | ">" | "<=" | ">=";

export type Condition =
  | { readonly kind: "compare"; readonly field: string; readonly op: Operator; readonly value: Literal }
  | { readonly kind: "in"; readonly field: string; readonly values: readonly Literal[] }
  | { readonly kind: "like"; readonly field: string; readonly pattern: string };

export interface OrderBy {
  readonly field: string;
  readonly descending: boolean;
}

export interface Query {
  readonly select: { readonly kind: "all" } | { readonly kind: "count" } | { readonly kind: "fields"; readonly fields: readonly string[] };
  readonly entity: string;
  readonly where: readonly Condition[];
  readonly orderBy: readonly OrderBy[];
  readonly startPosition: number | undefined;
  readonly maxResults: number | undefined;
}

type TokenKind = "ident" | "string" | "number" | "symbol" | "end";
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly value: string;
  readonly column: number;
}

const SYMBOLS = ["<=", ">=", "!=", "<>", "=", "<", ">", "(", ")", ",", "*"];

function parserError(token: Token, expecting?: string): never {
  const shown = token.kind === "end" ? "<EOF>" : token.text;
  const kind = token.kind === "end" ? "" : token.kind === "string" ? " <STRING>" : token.kind === "number" ? " <INTEGER>" : token.kind === "ident" ? " <ID>" : "";
  const tail = expecting === undefined ? "" : ` Was expecting: ${expecting}`;
  throw invalidQuery(`QueryParserError: Encountered "${kind ? `${kind} ` : ""}${shown}" at line 1, column ${token.column}.${tail}`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const column = i + 1;
    if (ch === "'") {
      let value = "";
      let j = i + 1;
      let closed = false;
      while (j < text.length) {
        const c = text[j] as string;
        if (c === "\\" && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
        } else if (c === "'" && text[j + 1] === "'") {
          value += "'";
          j += 2;
        } else if (c === "'") {
          closed = true;
          j++;
          break;
        } else {
          value += c;
          j++;
        }
      }
      if (!closed) throw invalidQuery(`QueryParserError: Lexical error at line 1, column ${text.length + 1}. Encountered: <EOF> after : "${text.slice(i)}"`);
      tokens.push({ kind: "string", text: text.slice(i, j), value, column });
      i = j;
      continue;
    }
    const num = /^-?\d+(?:\.\d+)?/.exec(text.slice(i));
    if (num !== null && (ch !== "-" || /\d/.test(text[i + 1] ?? ""))) {
      tokens.push({ kind: "number", text: num[0], value: num[0], column });
      i += num[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i));
    if (ident !== null) {
      tokens.push({ kind: "ident", text: ident[0], value: ident[0], column });
      i += ident[0].length;
      continue;
    }
    const sym = SYMBOLS.find((s) => text.startsWith(s, i));
    if (sym !== undefined) {
      tokens.push({ kind: "symbol", text: sym, value: sym === "<>" ? "!=" : sym, column });
      i += sym.length;
      continue;
    }
    throw invalidQuery(`QueryParserError: Lexical error at line 1, column ${column}. Encountered: "${ch}"`);
  }
  tokens.push({ kind: "end", text: "", value: "", column: text.length + 1 });
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== "end") this.pos++;
    return t;
  }

  private isKeyword(word: string): boolean {
    const t = this.peek();
    return t.kind === "ident" && t.value.toUpperCase() === word;
  }

  private keyword(word: string): void {
    if (!this.isKeyword(word)) parserError(this.peek(), `"${word}"`);
    this.pos++;
  }

  private symbol(s: string): void {
    const t = this.peek();
    if (t.kind !== "symbol" || t.value !== s) parserError(t, `"${s}"`);
    this.pos++;
  }

  private identifier(): string {
    const t = this.peek();
    if (t.kind !== "ident") parserError(t, "<ID>");
    this.pos++;
    return t.value;
  }

  private integer(): number {
    const t = this.peek();
    if (t.kind !== "number" || !/^\d+$/.test(t.value)) parserError(t, "<INTEGER>");
    this.pos++;
    return Number(t.value);
  }

  private literal(): Literal {
    const t = this.next();
    if (t.kind === "string") return t.value;
    if (t.kind === "number") return Number(t.value);
    if (t.kind === "ident" && /^(true|false)$/i.test(t.value)) return t.value.toLowerCase() === "true";
    return parserError(t, "<STRING> | <INTEGER> | true | false");
  }

  parse(): Query {
    this.keyword("SELECT");
    let select: Query["select"];
    if (this.peek().kind === "symbol" && this.peek().value === "*") {
      this.pos++;
      select = { kind: "all" };
    } else if (this.isKeyword("COUNT") && this.tokens[this.pos + 1]?.value === "(") {
      this.pos++;
      this.symbol("(");
      this.symbol("*");
      this.symbol(")");
      select = { kind: "count" };
    } else {
      const fields = [this.identifier()];
      while (this.peek().value === ",") {
        this.pos++;
        fields.push(this.identifier());
      }
      select = { kind: "fields", fields };
    }
    this.keyword("FROM");
    const entity = this.identifier();
    const where: Condition[] = [];
    if (this.isKeyword("WHERE")) {
      this.pos++;
      where.push(this.condition());
      while (this.isKeyword("AND")) {
        this.pos++;
        where.push(this.condition());
      }
    }
    const orderBy: OrderBy[] = [];
    if (this.isKeyword("ORDERBY") || this.isKeyword("ORDER")) {
      if (this.isKeyword("ORDER")) {
        this.pos++;
        this.keyword("BY");
      } else {
        this.pos++;
      }
      do {
        if (orderBy.length > 0) this.pos++; // the comma
        const field = this.identifier();
        let descending = false;
        if (this.isKeyword("DESC")) {
          this.pos++;
          descending = true;
        } else if (this.isKeyword("ASC")) {
          this.pos++;
        }
        orderBy.push({ field, descending });
      } while (this.peek().value === ",");
    }
    let startPosition: number | undefined;
    let maxResults: number | undefined;
    for (;;) {
      if (this.isKeyword("STARTPOSITION") && startPosition === undefined) {
        this.pos++;
        startPosition = this.integer();
      } else if (this.isKeyword("MAXRESULTS") && maxResults === undefined) {
        this.pos++;
        maxResults = this.integer();
      } else {
        break;
      }
    }
    const rest = this.peek();
    if (rest.kind !== "end") parserError(rest);
    return { select, entity, where, orderBy, startPosition, maxResults };
  }

  private condition(): Condition {
    const field = this.identifier();
    if (this.isKeyword("IN")) {
      this.pos++;
      this.symbol("(");
      const values = [this.literal()];
      while (this.peek().value === ",") {
        this.pos++;
        values.push(this.literal());
      }
      this.symbol(")");
      return { kind: "in", field, values };
    }
    if (this.isKeyword("LIKE")) {
      this.pos++;
      const t = this.next();
      if (t.kind !== "string") parserError(t, "<STRING>");
      return { kind: "like", field, pattern: t.value };
    }
    const t = this.next();
    if (t.kind !== "symbol" || !["=", "!=", "<", ">", "<=", ">="].includes(t.value)) parserError(t, `"=" | "<" | ">" | "<=" | ">=" | "IN" | "LIKE"`);
    return { kind: "compare", field, op: t.value as Operator, value: this.literal() };
  }
}

/** Throws a QboFault 4001 (like Intuit) when the text is not a query it understands. */
export function parseQuery(text: string): Query {
  return new Parser(tokenize(text)).parse();
}
