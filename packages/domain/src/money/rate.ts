/**
 * Exact exchange rates and the one rounding rule of the engine.
 *
 * A rate is a positive decimal string (parent units per one local unit) held as an integer
 * numerator over a power of ten, so 1.0845 is 10845 / 10^4 with no binary-fraction error.
 * Translating an amount is then pure integer arithmetic followed by one rounding step.
 *
 * Rounding is half away from zero ("commercial" half-up): 0.5 cent → 1 cent, −0.5 cent → −1 cent.
 * That is what accountants mean by half-up and it is symmetric, so translating a debit and the
 * matching credit gives amounts that still cancel.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const SAFE_PRODUCT = 2 ** 52;

export interface Rate {
  /** The decimal text as given, for display and explanations. */
  readonly text: string;
  readonly numerator: bigint;
  /** Decimal places: the rate equals numerator / 10^scale. */
  readonly scale: number;
}

export function isDecimalText(text: string): boolean {
  return DECIMAL.test(text);
}

export function parseRate(text: string): Rate {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`"${text}" is not a decimal number like 1.0845`);
  const fraction = match[2] ?? "";
  const numerator = BigInt(`${match[1]}${fraction}`);
  return { text, numerator, scale: fraction.length };
}

/** Round a / b half away from zero; b must be positive. */
export function divRoundHalfAway(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError("divisor must be positive");
  const q = a / b;
  const r = a % b;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= b) return a < 0n ? q - 1n : q + 1n;
  return q;
}

function toSafeNumber(value: bigint, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} ${value} exceeds ±2^53 minor units`);
  return n;
}

/**
 * A precomputed multiplier: result = round(amount × num / den). Holds both the number and the
 * BigInt forms so the hot path can stay in doubles while the product is exactly representable.
 */
export interface Factor {
  readonly num: number;
  readonly den: number;
  /** 1 / den as a double: the fast path's first guess at the quotient, which it then corrects exactly. */
  readonly inv: number;
  readonly numBig: bigint;
  readonly denBig: bigint;
  /** True when num and den are exact doubles and den ≤ 2^50; otherwise always take the BigInt path. */
  readonly fast: boolean;
}

const MAX_FAST_DENOMINATOR = 2 ** 50;

export function makeFactor(numBig: bigint, denBig: bigint): Factor {
  const num = Number(numBig);
  const den = Number(denBig);
  const fast = Number.isSafeInteger(num) && Number.isSafeInteger(den) && den > 0 && den <= MAX_FAST_DENOMINATOR;
  return { num, den, inv: 1 / den, numBig, denBig, fast };
}

/**
 * Factor that turns local minor units into parent minor units at `rate`:
 * parent = local × rate × 10^(parentExp − localExp).
 */
export function translationFactor(rate: Rate, localExponent: number, parentExponent: number): Factor {
  const shift = parentExponent - localExponent;
  const num = rate.numerator * 10n ** BigInt(Math.max(0, shift));
  const den = 10n ** BigInt(rate.scale + Math.max(0, -shift));
  return makeFactor(num, den);
}

/**
 * round(x × f.num / f.den), half away from zero, exact for every safe-integer x.
 *
 * Fast path, when |x × num| < 2^52 (so the product p is an exact double): a = |p|, the guess
 * q = floor(a × (1/den) + 0.5) is within one of round-half-up(a / den), because the two double
 * roundings in it are each off by at most 2^-52 relative and a / den < 2^52. The remainder
 * r = a − q × den is then exact (q × den < a + 1.5 den < 2^53 with den ≤ 2^50) and moves q by one
 * if 2r falls outside [−den, den): that is the exact half-up quotient of a, and its sign is p's
 * (half away from zero). Otherwise the product goes through BigInt. Property tests in rate.test.ts
 * compare both paths with BigInt arithmetic, ties and the 2^52 edge included.
 */
export function mulDivRound(x: number, f: Factor): number {
  if (f.fast) {
    const p = x * f.num;
    if (p < SAFE_PRODUCT && p > -SAFE_PRODUCT) return quotientHalfAway(p, f.den, f.inv);
  }
  return toSafeNumber(divRoundHalfAway(BigInt(x) * f.numBig, f.denBig), "translated amount");
}

/** round(p / d) half away from zero, for an exact product |p| < 2^52, d ≤ 2^50 and inv = 1 / d (see mulDivRound). */
function quotientHalfAway(p: number, d: number, inv: number): number {
  const a = p < 0 ? -p : p;
  let q = Math.floor(a * inv + 0.5);
  const twice = 2 * (a - q * d);
  if (twice >= d) q += 1;
  else if (twice < -d) q -= 1;
  return q === 0 ? 0 : p < 0 ? -q : q;
}

/** The factors of consecutive months as typed columns, for the translation's row loops (translateRow). */
export interface FactorColumns {
  readonly factors: readonly Factor[];
  readonly num: Float64Array;
  readonly den: Float64Array;
  readonly inv: Float64Array;
  /** Every factor takes the double path; otherwise each product goes through mulDivRound. */
  readonly fast: boolean;
}

export function factorColumns(factors: readonly Factor[]): FactorColumns {
  // Plain loops: Float64Array.from with a mapping function goes through the iterator protocol.
  const n = factors.length;
  const num = new Float64Array(n);
  const den = new Float64Array(n);
  const inv = new Float64Array(n);
  let fast = true;
  for (let t = 0; t < n; t++) {
    const f = factors[t]!;
    num[t] = f.num;
    den[t] = f.den;
    inv[t] = f.inv;
    fast &&= f.fast;
  }
  return { factors, num, den, inv, fast };
}

/**
 * Where a run of rows' amounts go besides their sums (translateRows, translateFlowRows): the local
 * books' sum their check reads (prepare.ts checkLocalBooks), and for balance rows the translated
 * balance at month `before` and at the last month, by row. The translation is the one pass over
 * every local amount of a consolidation, so it also adds them up for the books' check.
 */
export interface RowOutputs {
  /** Month by month, every local amount of the rows added (balance rows: the balance sheet's sum). */
  readonly books: Float64Array;
  readonly before: number;
  readonly atBefore: Float64Array;
  readonly atEnd: Float64Array;
}

/**
 * The balance rows first … last − 1 (account-major, `months` columns): month t's amount of each row
 * translated, mulDivRound(local[…], month t's factor), and added to sum[t], each local amount to
 * localSum[t] and out.books[t] (rows in order), and each row's translated amount at months
 * out.before and months − 1 kept in out.atBefore and out.atEnd. The other translated amounts are not
 * kept: they are the same function of `local` and the factors whenever one is read again (translatedAt in
 * translation/translate.ts), and writing 1.8 million of them into fresh memory cost more than the
 * translation (docs/performance.md). The same arithmetic as mulDivRound, read from typed columns: this
 * loop runs once per balance of a consolidation, so it takes a run of consecutive rows translated
 * alike (a chart lists its assets together, then its liabilities), not one row a call.
 */
export function translateRows(local: Float64Array, first: number, last: number, columns: FactorColumns, sum: Float64Array, localSum: Float64Array, out: RowOutputs): void {
  // Every field read here, before the loop: a field first read inside it would send the optimised
  // loop back to the interpreter when it is first needed.
  const { num, den, inv, fast } = columns;
  const { books, before, atBefore, atEnd } = out;
  const months = num.length;
  const end = months - 1;
  for (let i = first; i < last; i++) {
    const base = i * months;
    for (let t = 0; t < months; t++) {
      const x = local[base + t]!;
      localSum[t]! += x;
      books[t]! += x;
      if (x === 0) continue;
      const p = x * num[t]!;
      const y = fast && p < SAFE_PRODUCT && p > -SAFE_PRODUCT ? quotientHalfAway(p, den[t]!, inv[t]!) : mulDivRoundAt(x, columns, t);
      sum[t]! += y;
      if (t === before) atBefore[i] = y;
      else if (t === end) atEnd[i] = y;
    }
  }
}

/**
 * translateRows for revenue and expense rows (activity, from month 1), which also sums each row's
 * activity over the months a to the last into periodLocal[i] and periodTranslated[i] (in month
 * order from 0, as the period's trial balance would sum them). Each local amount is added to
 * localSum[t] only: that is the books' result (prepare.ts checkLocalBooks reads it from month 1).
 * A loop of its own rather than an option of translateRows: the balance rows' loop without these
 * sums made the translation about 6% faster (two sets of 6 and 8 interleaved runs, docs/performance.md).
 */
export function translateFlowRows(
  local: Float64Array,
  first: number,
  last: number,
  columns: FactorColumns,
  sum: Float64Array,
  localSum: Float64Array,
  a: number,
  periodLocal: Float64Array,
  periodTranslated: Float64Array,
): void {
  const { num, den, inv, fast } = columns;
  const months = num.length;
  for (let i = first; i < last; i++) {
    const base = i * months;
    let xs = 0;
    let ys = 0;
    for (let t = 1; t < months; t++) {
      const x = local[base + t]!;
      localSum[t]! += x;
      if (t >= a) xs += x;
      if (x === 0) continue;
      const p = x * num[t]!;
      const y = fast && p < SAFE_PRODUCT && p > -SAFE_PRODUCT ? quotientHalfAway(p, den[t]!, inv[t]!) : mulDivRoundAt(x, columns, t);
      sum[t]! += y;
      if (t >= a) ys += y;
    }
    periodLocal[i] = xs;
    periodTranslated[i] = ys;
  }
}

/** mulDivRound at month t's factor of `columns`: the rows' rare path (a product at or above 2^52, or a factor beyond doubles). */
function mulDivRoundAt(x: number, columns: FactorColumns, t: number): number {
  return mulDivRound(x, columns.factors[t]!);
}

/** A rational number num/den (den > 0) for exact differences of rates. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

export function rateRatio(rate: Rate): Ratio {
  return { num: rate.numerator, den: 10n ** BigInt(rate.scale) };
}

export function subtractRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** round(x × ratio × 10^shift) half away from zero, as safe-integer minor units. */
export function mulRatioRound(x: number | bigint, ratio: Ratio, shift: number): number {
  const scaledNum = ratio.num * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  const scaledDen = ratio.den * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  return toSafeNumber(divRoundHalfAway(BigInt(x) * scaledNum, scaledDen), "amount");
}

/**
 * mulRatioRound(x, ratio, shift) given `f`, the same fraction as a Factor (ratio × 10^shift, such as
 * a month's closing factor for its closing rate): in doubles while the product is exact (see
 * mulDivRound), else through BigInt. The CTA's explanation takes a few of these a month per entity.
 */
export function mulRatioRoundWith(x: number, f: Factor, ratio: Ratio, shift: number): number {
  if (f.fast) {
    const p = x * f.num;
    if (p < SAFE_PRODUCT && p > -SAFE_PRODUCT) return quotientHalfAway(p, f.den, f.inv);
  }
  return mulRatioRound(x, ratio, shift);
}

/** `ratio` × 10^shift as a Factor (its numerator may be negative or 0): for mulRatioRoundWith's double path. */
export function ratioFactor(ratio: Ratio, shift: number): Factor {
  return makeFactor(ratio.num * 10n ** BigInt(Math.max(0, shift)), ratio.den * 10n ** BigInt(Math.max(0, -shift)));
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/**
 * round(Σ amountᵢ × factorᵢ), rounded once at the end (half away from zero): what a sum of
 * translated amounts would be without rounding each term, e.g. to tell a difference the rates make
 * from the one per-line rounding makes. Exact for any number of terms.
 */
export function translatedSumRoundedOnce(terms: readonly { amount: number; factor: Factor }[]): number {
  const common = terms.reduce((d, t) => (d / gcd(d, t.factor.denBig)) * t.factor.denBig, 1n);
  let numerator = 0n;
  for (const t of terms) numerator += BigInt(t.amount) * t.factor.numBig * (common / t.factor.denBig);
  return toSafeNumber(divRoundHalfAway(numerator, common), "the sum");
}
