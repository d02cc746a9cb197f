/** Exact decimal-rate arithmetic for tests, independent of the code under test (both currencies with 2 decimals). */

/** round(Σ localᵢ × rateᵢ), once, half away from zero, exactly. */
export function atRates(locals: readonly number[], rates: readonly string[]): number {
  const scale = 10n ** BigInt(Math.max(0, ...rates.map((r) => (r.split(".")[1] ?? "").length)));
  const sum = locals.reduce((s, x, i) => {
    const [whole, fraction = ""] = rates[i]!.split(".");
    return s + BigInt(x) * BigInt(`${whole}${fraction}`) * (scale / 10n ** BigInt(fraction.length));
  }, 0n);
  const abs = sum < 0n ? -sum : sum;
  const rounded = (abs + scale / 2n) / scale;
  return Number(sum < 0n ? -rounded : rounded);
}

/** local × rate, rounded half away from zero. */
export const atRate = (local: number, rate: string): number => atRates([local], [rate]);
