/**
 * ISO 4217 minor-unit exponents. Only currencies whose exponent differs from 2 are listed;
 * every other well-formed code uses 2, which is what ISO 4217 assigns to the vast majority.
 */
const NON_DEFAULT_EXPONENTS: Readonly<Record<string, number>> = {
  // zero-decimal currencies
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0,
  UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  // three-decimal currencies
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  // four-decimal units of account
  CLF: 4, UYW: 4,
};

export const DEFAULT_EXPONENT = 2;
const CODE = /^[A-Z]{3}$/;

export function isCurrencyCode(code: string): boolean {
  return CODE.test(code);
}

/** Number of decimal places of the currency's minor unit (JPY 0, USD 2, KWD 3, CLF 4). */
export function currencyExponent(code: string): number {
  if (!CODE.test(code)) throw new Error(`"${code}" is not an ISO 4217 currency code`);
  return NON_DEFAULT_EXPONENTS[code] ?? DEFAULT_EXPONENT;
}
