/**
 * Hands a downloaded file to the browser under a name. Files the API serves need the session
 * token, so a plain link would be refused: they are fetched (`call` with a "file" endpoint) and
 * saved from here.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked on the next tick: some browsers start the download only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
