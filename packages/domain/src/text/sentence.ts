/**
 * Ends a sentence with one full stop. Names often end in their own ("Northwind Canada Inc.",
 * "Acme Co."), so a sentence that closes on one is already ended; so is one ending in "!" or "?".
 * Text built from names and figures goes through here rather than appending "." itself.
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
